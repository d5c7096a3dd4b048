// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-rematerialize-tiles)' | FileCheck %s

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
