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

// -----

// tl.map_elementwise with early returns (Triton's `compare`): the region's
// branches are if-converted; each block's argument selects among what its
// predecessors pass, by the conditions of the edges taken.

// CHECK-LABEL: tt.func @branches
// CHECK-NOT: tile.map_elementwise
// CHECK-DAG: %[[MINUS:.*]] = tile.splat %c-1_i32 : !tile.tile<128xi32>
// CHECK-DAG: %[[ZERO:.*]] = tile.splat %c0_i32 : !tile.tile<128xi32>
// CHECK-DAG: %[[ONE:.*]] = tile.splat %c1_i32 : !tile.tile<128xi32>
// CHECK: %[[LT:.*]] = tile.cmpi slt %arg0, %arg1 : !tile.tile<128xi32>
// CHECK: %[[NLT:.*]] = tile.binary xori %[[LT]], %{{.*}} : !tile.tile<128xi1>
// CHECK: %[[EQ:.*]] = tile.cmpi eq %arg0, %arg1 : !tile.tile<128xi32>
// CHECK: %[[NEQ:.*]] = tile.binary xori %[[EQ]], %{{.*}} : !tile.tile<128xi1>
// CHECK: %[[TO0:.*]] = tile.binary andi %[[NLT]], %[[EQ]] : !tile.tile<128xi1>
// CHECK: %[[TO1:.*]] = tile.binary andi %[[NLT]], %[[NEQ]] : !tile.tile<128xi1>
// CHECK: %[[S0:.*]] = tile.select %[[TO0]], %[[ZERO]], %[[MINUS]] : !tile.tile<128xi32>
// CHECK: %[[S1:.*]] = tile.select %[[TO1]], %[[ONE]], %[[S0]] : !tile.tile<128xi32>
// CHECK: tt.return %[[S1]]
tt.func @branches(%x: !tile.tile<128xi32>, %y: !tile.tile<128xi32>) -> !tile.tile<128xi32> {
  %cm1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = tile.map_elementwise %x, %y pack = 1 : (!tile.tile<128xi32>, !tile.tile<128xi32>) -> !tile.tile<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    cf.cond_br %lt, ^bb2(%cm1 : i32), ^bb1
  ^bb1:
    %eq = arith.cmpi eq, %a, %b : i32
    cf.cond_br %eq, ^bb2(%c0 : i32), ^bb2(%c1 : i32)
  ^bb2(%r: i32):
    tile.yield %r : i32
  }
  tt.return %z : !tile.tile<128xi32>
}

// -----

// An scf.if in the region runs both branches and selects their results.

// CHECK-LABEL: tt.func @structured_if
// CHECK: %[[LOW:.*]] = tile.splat %arg1 : !tile.tile<8x16xf32>
// CHECK: %[[LT:.*]] = tile.cmpf olt %arg0, %[[LOW]] : !tile.tile<8x16xf32>
// CHECK: %[[TWICE:.*]] = tile.binary mulf %[[LOW]], %{{.*}} : !tile.tile<8x16xf32>
// CHECK: %[[R:.*]] = tile.select %[[LT]], %[[TWICE]], %arg0 : !tile.tile<8x16xf32>
// CHECK: tt.return %[[R]]
tt.func @structured_if(%x: !tile.tile<8x16xf32>, %low: f32) -> !tile.tile<8x16xf32> {
  %two = arith.constant 2.0 : f32
  %z = tile.map_elementwise %x pack = 1 : (!tile.tile<8x16xf32>) -> !tile.tile<8x16xf32> {
  ^bb0(%a: f32):
    %lt = arith.cmpf olt, %a, %low : f32
    %r = scf.if %lt -> (f32) {
      %d = arith.mulf %low, %two : f32
      scf.yield %d : f32
    } else {
      scf.yield %a : f32
    }
    tile.yield %r : f32
  }
  tt.return %z : !tile.tile<8x16xf32>
}

// -----

// pack = 2: each source is split into its even and odd elements (row-major),
// the region applies to those, and each result interleaves its two slices.

// CHECK-LABEL: tt.func @packed
// CHECK: %[[A2:.*]] = tile.reshape %arg0 : !tile.tile<4x8xi32> -> !tile.tile<16x2xi32>
// CHECK: %[[A0S:.*]] = tile.slice %[[A2]] [0, 0] : !tile.tile<16x2xi32> -> !tile.tile<16x1xi32>
// CHECK: %[[A0:.*]] = tile.reshape %[[A0S]] : !tile.tile<16x1xi32> -> !tile.tile<16xi32>
// CHECK: tile.slice %{{.*}} [0, 1] : !tile.tile<16x2xi32> -> !tile.tile<16x1xi32>
// CHECK: %[[A1:.*]] = tile.reshape %{{.*}} : !tile.tile<16x1xi32> -> !tile.tile<16xi32>
// CHECK: %[[B0:.*]] = tile.reshape %{{.*}} : !tile.tile<16x1xi32> -> !tile.tile<16xi32>
// CHECK: %[[B1:.*]] = tile.reshape %{{.*}} : !tile.tile<16x1xi32> -> !tile.tile<16xi32>
// CHECK: %[[Q0:.*]] = tile.binary divui %[[A0]], %[[B0]] : !tile.tile<16xi32>
// CHECK: %[[Q1:.*]] = tile.binary divui %[[A1]], %[[B1]] : !tile.tile<16xi32>
// CHECK: %[[R0:.*]] = tile.binary remui %[[A0]], %[[B0]] : !tile.tile<16xi32>
// CHECK: %[[R1:.*]] = tile.binary remui %[[A1]], %[[B1]] : !tile.tile<16xi32>
// CHECK: %[[Q0C:.*]] = tile.reshape %[[Q0]] : !tile.tile<16xi32> -> !tile.tile<16x1xi32>
// CHECK: %[[Q1C:.*]] = tile.reshape %[[Q1]] : !tile.tile<16xi32> -> !tile.tile<16x1xi32>
// CHECK: %[[QI:.*]] = tile.concat %[[Q0C]], %[[Q1C]] axis = 1 : !tile.tile<16x1xi32>, !tile.tile<16x1xi32> -> !tile.tile<16x2xi32>
// CHECK: %[[Q:.*]] = tile.reshape %[[QI]] : !tile.tile<16x2xi32> -> !tile.tile<4x8xi32>
// CHECK: tile.concat
// CHECK: %[[R:.*]] = tile.reshape %{{.*}} : !tile.tile<16x2xi32> -> !tile.tile<4x8xi32>
// CHECK: tt.return %[[Q]], %[[R]]
tt.func @packed(%a: !tile.tile<4x8xi32>, %b: !tile.tile<4x8xi32>) -> (!tile.tile<4x8xi32>, !tile.tile<4x8xi32>) {
  %q:2 = tile.map_elementwise %a, %b pack = 2 : (!tile.tile<4x8xi32>, !tile.tile<4x8xi32>) -> (!tile.tile<4x8xi32>, !tile.tile<4x8xi32>) {
  ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
    %0 = arith.divui %a0, %b0 : i32
    %1 = arith.divui %a1, %b1 : i32
    %2 = arith.remui %a0, %b0 : i32
    %3 = arith.remui %a1, %b1 : i32
    tile.yield %0, %1, %2, %3 : i32, i32, i32, i32
  }
  tt.return %q#0, %q#1 : !tile.tile<4x8xi32>, !tile.tile<4x8xi32>
}
