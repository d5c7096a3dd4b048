// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// A select of a tile that an `scf.if` of the same condition computes, with
// what its other branch yields for it as the other choice, is that tile:
// canonicalization makes such selects of the guards `mtia-pipeline-dots`
// builds, and the program stage has no select of whole tiles.

// CHECK-LABEL: tt.func @guarded_select
// CHECK: %[[GUARDED:.*]] = scf.if
// CHECK-NOT: arith.select
// CHECK: tt.return %[[GUARDED]]
tt.func @guarded_select(%runs: i1, %a: !tile.tile<16x16xf32>, %b: !tile.tile<16x16xf32>) -> !tile.tile<16x16xf32> {
  %zeros = tile.constant dense<0.000000e+00> : tensor<16x16xf32> : !tile.tile<16x16xf32>
  %guarded = scf.if %runs -> (!tile.tile<16x16xf32>) {
    %sum = tile.binary addf %a, %b : !tile.tile<16x16xf32>
    scf.yield %sum : !tile.tile<16x16xf32>
  } else {
    scf.yield %zeros : !tile.tile<16x16xf32>
  }
  %chosen = arith.select %runs, %guarded, %zeros : !tile.tile<16x16xf32>
  tt.return %chosen : !tile.tile<16x16xf32>
}

// -----

// With another condition, or another value for the other choice, the select
// stays.

// CHECK-LABEL: tt.func @other_select
// CHECK: %[[GUARDED:.*]] = scf.if %[[RUNS:.*]] ->
// CHECK: arith.select %[[OTHER:.*]], %[[GUARDED]], %[[ZEROS:.*]] :
// CHECK: arith.select %[[RUNS]], %[[GUARDED]], %{{.*}} :
tt.func @other_select(%runs: i1, %other: i1, %a: !tile.tile<16x16xf32>, %b: !tile.tile<16x16xf32>) -> (!tile.tile<16x16xf32>, !tile.tile<16x16xf32>) {
  %zeros = tile.constant dense<0.000000e+00> : tensor<16x16xf32> : !tile.tile<16x16xf32>
  %guarded = scf.if %runs -> (!tile.tile<16x16xf32>) {
    %sum = tile.binary addf %a, %b : !tile.tile<16x16xf32>
    scf.yield %sum : !tile.tile<16x16xf32>
  } else {
    scf.yield %zeros : !tile.tile<16x16xf32>
  }
  %first = arith.select %other, %guarded, %zeros : !tile.tile<16x16xf32>
  %second = arith.select %runs, %guarded, %b : !tile.tile<16x16xf32>
  tt.return %first, %second : !tile.tile<16x16xf32>, !tile.tile<16x16xf32>
}

// -----

// A subview of a whole tile is the tile; a subview of a subview is one
// subview of the first source, at the sum of the offsets (a row of the
// second strip of 16 rows, seen whole in its last dimension).
// CHECK-LABEL: tt.func @subviews
// CHECK-NEXT: %[[ROW:.*]] = tile.subview %arg0 [20, 0, 0] : !tile.tile<64x4x8xf32> -> !tile.tile<1x4x8xf32>
// CHECK-NEXT: tt.return %arg0, %[[ROW]]
tt.func @subviews(%a: !tile.tile<64x4x8xf32>) -> (!tile.tile<64x4x8xf32>, !tile.tile<1x4x8xf32>) {
  %whole = tile.subview %a [0, 0, 0] : !tile.tile<64x4x8xf32> -> !tile.tile<64x4x8xf32>
  %strip = tile.subview %whole [16, 0, 0] : !tile.tile<64x4x8xf32> -> !tile.tile<16x4x8xf32>
  %row = tile.subview %strip [4, 0, 0] : !tile.tile<16x4x8xf32> -> !tile.tile<1x4x8xf32>
  tt.return %whole, %row : !tile.tile<64x4x8xf32>, !tile.tile<1x4x8xf32>
}
