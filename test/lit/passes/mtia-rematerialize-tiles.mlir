// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-rematerialize-tiles)' | FileCheck %s

// Tiles read in loops that do not contain them.

// A mask computed before a loop from an iota and a splat is recomputed in
// the block of the loop that reads it; the original goes away.
// CHECK-LABEL: tt.func @mask_read_in_loop
// CHECK-NOT: tile.
// CHECK: scf.for
// CHECK-NEXT: %[[IOTA:.*]] = tile.iota 0 : !tile.tile<64xi32>
// CHECK-NEXT: %[[BOUND:.*]] = tile.splat %arg1 : !tile.tile<64xi32>
// CHECK-NEXT: %[[MASK:.*]] = tile.cmpi slt %[[IOTA]], %[[BOUND]] : !tile.tile<64xi32>
// CHECK-NEXT: tile.assert %[[MASK]], "first" : !tile.tile<64xi1>
// CHECK-NEXT: tile.assert %[[MASK]], "second" : !tile.tile<64xi1>
tt.func @mask_read_in_loop(%n: index, %bound: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %iota = tile.iota 0 : !tile.tile<64xi32>
  %bounds = tile.splat %bound : !tile.tile<64xi32>
  %mask = tile.cmpi slt %iota, %bounds : !tile.tile<64xi32>
  scf.for %i = %c0 to %n step %c1 {
    tile.assert %mask, "first" : !tile.tile<64xi1>
    tile.assert %mask, "second" : !tile.tile<64xi1>
  }
  tt.return
}

// -----

// Each branch of a conditional in the loop gets its own copy; the use after
// the loop keeps the original.
// CHECK-LABEL: tt.func @read_in_branches_and_after
// CHECK: %[[OUTSIDE:.*]] = tile.iota 0 : !tile.tile<16xi32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: %[[THEN:.*]] = tile.iota 0 : !tile.tile<16xi32>
// CHECK-NEXT: tile.print "then", %[[THEN]]
// CHECK: } else {
// CHECK-NEXT: %[[ELSE:.*]] = tile.iota 0 : !tile.tile<16xi32>
// CHECK-NEXT: tile.print "else", %[[ELSE]]
// CHECK: tile.print "after", %[[OUTSIDE]]
tt.func @read_in_branches_and_after(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %iota = tile.iota 0 : !tile.tile<16xi32>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %c {
      tile.print "then", %iota {isSigned} : !tile.tile<16xi32>
    } else {
      tile.print "else", %iota {isSigned} : !tile.tile<16xi32>
    }
  }
  tile.print "after", %iota {isSigned} : !tile.tile<16xi32>
  tt.return
}

// -----

// A tile that carries a result of another unit (here a reduction) stays
// where it is computed.
// CHECK-LABEL: tt.func @not_recomputable
// CHECK: tile.reduce
// CHECK: tile.splat_element
// CHECK: scf.for
// CHECK-NOT: tile.reduce
tt.func @not_recomputable(%n: index, %x: !tile.tile<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sum = tile.reduce addf %x axis = 0 : !tile.tile<64xf32> -> !tile.tile<f32>
  %spread = tile.splat_element %sum : !tile.tile<f32> -> !tile.tile<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    tile.print "", %spread : !tile.tile<64xf32>
  }
  tt.return
}

// -----

// Tiles read through reshapes.
// An attention's key coordinates `keys[None, :]`, compared with the sequence
// length: the SIMD engine computes the coordinates again as a row, and the
// vector stays for its other use.
// CHECK-LABEL: tt.func @key_row
// CHECK: %[[START:.*]] = tile.splat %arg0 : !tile.tile<64xi32>
// CHECK: %[[IOTA:.*]] = tile.iota 0 : !tile.tile<64xi32>
// CHECK: %[[KEYS:.*]] = tile.binary addi %[[START]], %[[IOTA]] : !tile.tile<64xi32>
// CHECK-NOT: tile.reshape
// CHECK: %[[ROW_START:.*]] = tile.splat %arg0 : !tile.tile<1x64xi32>
// CHECK-NEXT: %[[ROW_IOTA:.*]] = tile.iota 0 : !tile.tile<1x64xi32>
// CHECK-NEXT: %[[ROW:.*]] = tile.binary addi %[[ROW_START]], %[[ROW_IOTA]] : !tile.tile<1x64xi32>
// CHECK: tile.cmpi slt %[[ROW]], %{{.*}} : !tile.tile<1x64xi32>
// CHECK: tile.print "keys", %[[KEYS]]
tt.func @key_row(%start: i32, %length: i32) {
  %starts = tile.splat %start : !tile.tile<64xi32>
  %iota = tile.iota 0 : !tile.tile<64xi32>
  %keys = tile.binary addi %starts, %iota : !tile.tile<64xi32>
  %row = tile.reshape %keys : !tile.tile<64xi32> -> !tile.tile<1x64xi32>
  %lengths = tile.splat %length : !tile.tile<1x64xi32>
  %valid = tile.cmpi slt %row, %lengths : !tile.tile<1x64xi32>
  tile.print "valid", %valid : !tile.tile<1x64xi1>
  tile.print "keys", %keys {isSigned} : !tile.tile<64xi32>
  tt.return
}

// -----

// Constants take the new shape with their elements in the same order; a mask
// becomes a column the same way. The original, now unused, is left for
// canonicalization to erase.
// CHECK-LABEL: tt.func @constant_and_mask
// CHECK-DAG: %[[BOUNDS:.*]] = tile.constant dense<{{\[}}[1], [2], [3], [4]]> : tensor<4x1xi32> : !tile.tile<4x1xi32>
// CHECK-DAG: %[[IOTA:.*]] = tile.iota 0 : !tile.tile<4x1xi32>
// CHECK: %[[MASK:.*]] = tile.cmpi slt %[[IOTA]], %[[BOUNDS]] : !tile.tile<4x1xi32>
// CHECK-NOT: tile.reshape
// CHECK: tile.print "mask", %[[MASK]]
tt.func @constant_and_mask() {
  %bounds = tile.constant dense<[1, 2, 3, 4]> : tensor<4xi32> : !tile.tile<4xi32>
  %iota = tile.iota 0 : !tile.tile<4xi32>
  %mask = tile.cmpi slt %iota, %bounds : !tile.tile<4xi32>
  %column = tile.reshape %mask : !tile.tile<4xi1> -> !tile.tile<4x1xi1>
  tile.print "mask", %column : !tile.tile<4x1xi1>
  tt.return
}

// -----

// A reshape of data (a reduction's result) stays a copy on the MLU, and so
// does a rank-0 reshape, which hands an element to the control core.
// CHECK-LABEL: tt.func @stays
// CHECK: tile.reshape %{{.*}} : !tile.tile<64xf32> -> !tile.tile<64x1xf32>
// CHECK: tile.reshape %{{.*}} : !tile.tile<1xi32> -> !tile.tile<i32>
tt.func @stays(%x: !tile.tile<64x64xf32>, %n: i32) {
  %rows = tile.reduce maxnumf %x axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  %column = tile.reshape %rows : !tile.tile<64xf32> -> !tile.tile<64x1xf32>
  tile.print "column", %column : !tile.tile<64x1xf32>
  %one = tile.splat %n : !tile.tile<1xi32>
  %element = tile.reshape %one : !tile.tile<1xi32> -> !tile.tile<i32>
  tile.print "element", %element {isSigned} : !tile.tile<i32>
  tt.return
}
