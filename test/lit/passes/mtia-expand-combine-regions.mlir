// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-expand-combine-regions)' | FileCheck %s

// An argmax over pairs of tiles: each step views the axis as (n/2, 2),
// slices out the two columns and applies the region to them on the SIMD
// engine, keeping the element order; the last step drops the axis.

// CHECK-LABEL: tt.func @argmax
// CHECK-NOT: tile.reduce_region
// CHECK: %[[PAIRS:.*]] = tile.reshape %arg0 : !tile.tile<4x8xf32> -> !tile.tile<4x4x2xf32>
// CHECK: %[[EVEN:.*]] = tile.slice %[[PAIRS]] [0, 0, 0] : !tile.tile<4x4x2xf32> -> !tile.tile<4x4x1xf32>
// CHECK: %[[A:.*]] = tile.reshape %[[EVEN]] : !tile.tile<4x4x1xf32> -> !tile.tile<4x4xf32>
// CHECK: %[[ODD:.*]] = tile.slice %[[PAIRS]] [0, 0, 1] : !tile.tile<4x4x2xf32> -> !tile.tile<4x4x1xf32>
// CHECK: %[[B:.*]] = tile.reshape %[[ODD]] : !tile.tile<4x4x1xf32> -> !tile.tile<4x4xf32>
// CHECK: %[[IPAIRS:.*]] = tile.reshape %arg1 : !tile.tile<4x8xi32> -> !tile.tile<4x4x2xi32>
// CHECK: %[[AI:.*]] = tile.reshape %{{.*}} : !tile.tile<4x4x1xi32> -> !tile.tile<4x4xi32>
// CHECK: %[[BI:.*]] = tile.reshape %{{.*}} : !tile.tile<4x4x1xi32> -> !tile.tile<4x4xi32>
// CHECK-NOT: unrealized_conversion_cast
// CHECK: %[[GT:.*]] = tile.cmpf ogt %[[A]], %[[B]] : !tile.tile<4x4xf32>
// CHECK: %[[V1:.*]] = tile.select %[[GT]], %[[A]], %[[B]] : !tile.tile<4x4xf32>
// CHECK: %[[I1:.*]] = tile.select %[[GT]], %[[AI]], %[[BI]] : !tile.tile<4x4xi32>
// CHECK: tile.reshape %[[V1]] : !tile.tile<4x4xf32> -> !tile.tile<4x2x2xf32>
// CHECK: tile.cmpf ogt %{{.*}} : !tile.tile<4x2xf32>
// CHECK: tile.cmpf ogt %{{.*}} : !tile.tile<4x1xf32>
// CHECK: %[[V3:.*]] = tile.select %{{.*}} : !tile.tile<4x1xf32>
// CHECK: %[[I3:.*]] = tile.select %{{.*}} : !tile.tile<4x1xi32>
// CHECK: %[[V:.*]] = tile.reshape %[[V3]] : !tile.tile<4x1xf32> -> !tile.tile<4xf32>
// CHECK: %[[I:.*]] = tile.reshape %[[I3]] : !tile.tile<4x1xi32> -> !tile.tile<4xi32>
// CHECK: tt.return %[[V]], %[[I]]
tt.func @argmax(%v: !tile.tile<4x8xf32>, %i: !tile.tile<4x8xi32>) -> (!tile.tile<4xf32>, !tile.tile<4xi32>) {
  %r:2 = tile.reduce_region %v, %i axis = 1 : (!tile.tile<4x8xf32>, !tile.tile<4x8xi32>) -> (!tile.tile<4xf32>, !tile.tile<4xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v2 = arith.select %gt, %a, %b : f32
    %i2 = arith.select %gt, %ai, %bi : i32
    tile.yield %v2, %i2 : f32, i32
  }
  tt.return %r#0, %r#1 : !tile.tile<4xf32>, !tile.tile<4xi32>
}

// -----

// A constant of the region is splat to the step's shape; a rank-1 tile
// reduces to a rank-0 one.

// CHECK-LABEL: tt.func @sum_of_squares_plus_one
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SPLAT:.*]] = tile.splat %[[ONE]] : !tile.tile<2xf32>
// CHECK: tile.fma %{{.*}}, %{{.*}}, %[[SPLAT]] : !tile.tile<2xf32>
// CHECK: tile.splat %{{.*}} : !tile.tile<1xf32>
// CHECK: %[[LAST:.*]] = tile.fma %{{.*}} : !tile.tile<1xf32>
// CHECK: tile.reshape %[[LAST]] : !tile.tile<1xf32> -> !tile.tile<f32>
tt.func @sum_of_squares_plus_one(%v: !tile.tile<4xf32>) -> !tile.tile<f32> {
  %r = tile.reduce_region %v axis = 0 : (!tile.tile<4xf32>) -> !tile.tile<f32> {
  ^bb0(%a: f32, %b: f32):
    %one = arith.constant 1.0 : f32
    %f = math.fma %a, %b, %one : f32
    tile.yield %f : f32
  }
  tt.return %r : !tile.tile<f32>
}

// -----

// A scan doubles the distance it combines over: the first `d` elements are
// final, the others combine with the element `d` before them.

// CHECK-LABEL: tt.func @running_max_abs
// CHECK: %[[E1:.*]] = tile.slice %arg0 [0, 0] : !tile.tile<2x4xf32> -> !tile.tile<2x3xf32>
// CHECK: %[[L1:.*]] = tile.slice %arg0 [0, 1] : !tile.tile<2x4xf32> -> !tile.tile<2x3xf32>
// CHECK: %[[A1:.*]] = tile.unary absf %[[E1]] : !tile.tile<2x3xf32>
// CHECK: %[[B1:.*]] = tile.unary absf %[[L1]] : !tile.tile<2x3xf32>
// CHECK: %[[M1:.*]] = tile.binary maxnumf %[[A1]], %[[B1]] : !tile.tile<2x3xf32>
// CHECK: %[[D1:.*]] = tile.slice %arg0 [0, 0] : !tile.tile<2x4xf32> -> !tile.tile<2x1xf32>
// CHECK: %[[S1:.*]] = tile.concat %[[D1]], %[[M1]] axis = 1 : !tile.tile<2x1xf32>, !tile.tile<2x3xf32> -> !tile.tile<2x4xf32>
// CHECK: tile.slice %[[S1]] [0, 0] : !tile.tile<2x4xf32> -> !tile.tile<2x2xf32>
// CHECK: tile.slice %[[S1]] [0, 2] : !tile.tile<2x4xf32> -> !tile.tile<2x2xf32>
// CHECK: %[[M2:.*]] = tile.binary maxnumf %{{.*}} : !tile.tile<2x2xf32>
// CHECK: %[[S2:.*]] = tile.concat %{{.*}}, %[[M2]] axis = 1
// CHECK-NOT: tile.slice
// CHECK: tt.return %[[S2]]
tt.func @running_max_abs(%v: !tile.tile<2x4xf32>) -> !tile.tile<2x4xf32> {
  %r = tile.scan %v axis = 1 : (!tile.tile<2x4xf32>) -> !tile.tile<2x4xf32> {
  ^bb0(%a: f32, %b: f32):
    %aa = math.absf %a : f32
    %ab = math.absf %b : f32
    %m = arith.maxnumf %aa, %ab : f32
    tile.yield %m : f32
  }
  tt.return %r : !tile.tile<2x4xf32>
}

// -----

// Reversed, the later element comes first in the combine order and the last
// `d` elements are final.

// CHECK-LABEL: tt.func @reverse_scan_of_pairs
// CHECK: %[[LATER:.*]] = tile.slice %arg0 [1] : !tile.tile<4xf32> -> !tile.tile<3xf32>
// CHECK: %[[HERE:.*]] = tile.slice %arg0 [0] : !tile.tile<4xf32> -> !tile.tile<3xf32>
// CHECK: tile.slice %arg1 [1] : !tile.tile<4xi32> -> !tile.tile<3xi32>
// CHECK: tile.slice %arg1 [0] : !tile.tile<4xi32> -> !tile.tile<3xi32>
// CHECK: %[[SUM:.*]] = tile.binary subf %[[LATER]], %[[HERE]] : !tile.tile<3xf32>
// CHECK: %[[DONE:.*]] = tile.slice %arg0 [3] : !tile.tile<4xf32> -> !tile.tile<1xf32>
// CHECK: tile.concat %[[SUM]], %[[DONE]] axis = 0 : !tile.tile<3xf32>, !tile.tile<1xf32> -> !tile.tile<4xf32>
tt.func @reverse_scan_of_pairs(%v: !tile.tile<4xf32>, %i: !tile.tile<4xi32>) -> (!tile.tile<4xf32>, !tile.tile<4xi32>) {
  %r:2 = tile.scan %v, %i axis = 0 reverse : (!tile.tile<4xf32>, !tile.tile<4xi32>) -> (!tile.tile<4xf32>, !tile.tile<4xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %d = arith.subf %a, %b : f32
    %s = arith.addi %ai, %bi : i32
    tile.yield %d, %s : f32, i32
  }
  tt.return %r#0, %r#1 : !tile.tile<4xf32>, !tile.tile<4xi32>
}

// -----

// A scan the reduction engine runs itself stays.

// CHECK-LABEL: tt.func @cumulative_sum
// CHECK: tile.scan %arg0 axis = 0
// CHECK-NOT: tile.slice
tt.func @cumulative_sum(%v: !tile.tile<8xf32>) -> !tile.tile<8xf32> {
  %r = tile.scan %v axis = 0 kind addf : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tt.return %r : !tile.tile<8xf32>
}
