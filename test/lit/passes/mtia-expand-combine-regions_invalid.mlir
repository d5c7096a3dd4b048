// RUN: mtia-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(mtia-expand-combine-regions)'

tt.func @not_a_power_of_two(%v: !tile.tile<6xf32>) -> !tile.tile<f32> {
  // expected-error @+1 {{'tile.reduce_region' op reduces an axis of 6 elements with a combine region; only powers of two are supported}}
  %r = tile.reduce_region %v axis = 0 : (!tile.tile<6xf32>) -> !tile.tile<f32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    %s = arith.addf %m, %b : f32
    tile.yield %s : f32
  }
  tt.return %r : !tile.tile<f32>
}

// -----

tt.func @region_without_tile_form(%v: !tile.tile<4xi32>) -> !tile.tile<4xi32> {
  // expected-error @+1 {{'tile.scan' op has a combine region whose operations cannot all be applied to tiles}}
  %r = tile.scan %v axis = 0 : (!tile.tile<4xi32>) -> !tile.tile<4xi32> {
  ^bb0(%a: i32, %b: i32):
    // expected-note @+1 {{this operation has no tile form}}
    %c = arith.ceildivsi %a, %b : i32
    tile.yield %c : i32
  }
  tt.return %r : !tile.tile<4xi32>
}

// -----

tt.func @loop(%x: !tile.tile<8xi32>) -> !tile.tile<8xi32> {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.map_elementwise' op has a region with a loop, which cannot be applied to tiles elementwise}}
  %z = tile.map_elementwise %x pack = 1 : (!tile.tile<8xi32>) -> !tile.tile<8xi32> {
  ^bb0(%a: i32):
    cf.br ^bb1(%a : i32)
  ^bb1(%i: i32):
    %n = arith.shrsi %i, %c1 : i32
    %more = arith.cmpi ne, %n, %i : i32
    cf.cond_br %more, ^bb1(%n : i32), ^bb2
  ^bb2:
    tile.yield %i : i32
  }
  tt.return %z : !tile.tile<8xi32>
}

// -----

tt.func @side_effects(%x: !tile.tile<8xi32>) -> !tile.tile<8xi32> {
  // expected-error @+1 {{'tile.map_elementwise' op has a region with an operation that has side effects, which cannot be applied to tiles elementwise}}
  %z = tile.map_elementwise %x pack = 1 : (!tile.tile<8xi32>) -> !tile.tile<8xi32> {
  ^bb0(%a: i32):
    // expected-note @+1 {{this operation}}
    tt.print "a" {hex = false, isSigned = array<i32: 1>} : %a : i32
    tile.yield %a : i32
  }
  tt.return %z : !tile.tile<8xi32>
}

// -----

tt.func @pack_does_not_divide(%x: !tile.tile<6xi32>) -> !tile.tile<6xi32> {
  // expected-error @+1 {{'tile.map_elementwise' op packs 4 elements of tiles of 6, which is not a multiple of the pack}}
  %z = tile.map_elementwise %x pack = 4 : (!tile.tile<6xi32>) -> !tile.tile<6xi32> {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %a3: i32):
    tile.yield %a3, %a2, %a1, %a0 : i32, i32, i32, i32
  }
  tt.return %z : !tile.tile<6xi32>
}

// -----

tt.func @no_tile_form(%x: !tile.tile<8xi32>) -> !tile.tile<8xi32> {
  // expected-error @+1 {{'tile.map_elementwise' op has a combine region whose operations cannot all be applied to tiles}}
  %z = tile.map_elementwise %x pack = 1 : (!tile.tile<8xi32>) -> !tile.tile<8xi32> {
  ^bb0(%a: i32):
    // expected-note @+1 {{this operation has no tile form}}
    %c = arith.ceildivsi %a, %a : i32
    tile.yield %c : i32
  }
  tt.return %z : !tile.tile<8xi32>
}
