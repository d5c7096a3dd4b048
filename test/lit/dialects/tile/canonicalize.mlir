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
