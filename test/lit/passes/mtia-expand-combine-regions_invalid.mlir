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
