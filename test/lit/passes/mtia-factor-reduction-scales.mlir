// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-factor-reduction-scales)' | FileCheck %s

// The maximum of a block scaled by a kernel argument: the reduction reads
// the block itself when the scale is positive and finite, and the product
// otherwise.

// CHECK-LABEL: tt.func @runtime_scale
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: f32)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[S]], %[[ZERO]] : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf olt, %[[S]], %[[INF]] : f32
// CHECK: %[[POSITIVE:.*]] = arith.andi %[[ABOVE]], %[[FINITE]] : i1
// CHECK: %[[MAX:.*]] = scf.if %[[POSITIVE]] -> (tensor<4xf32>) {
// CHECK:   %[[ROW:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK:     arith.maxnumf
// CHECK:   %[[SPLAT:.*]] = tt.splat %[[S]] : f32 -> tensor<4xf32>
// CHECK:   %[[SCALED:.*]] = arith.mulf %[[ROW]], %[[SPLAT]] : tensor<4xf32>
// CHECK:   scf.yield %[[SCALED]] : tensor<4xf32>
// CHECK: } else {
// CHECK:   %[[PRODUCT:.*]] = arith.mulf %[[X]], %{{.*}} : tensor<4x8xf32>
// CHECK:   %[[PRODUCT_MAX:.*]] = "tt.reduce"(%[[PRODUCT]]) <{axis = 1 : i32}>
// CHECK:     arith.maxnumf
// CHECK:   scf.yield %[[PRODUCT_MAX]] : tensor<4xf32>
// CHECK: }
// CHECK-NOT: arith.mulf
// CHECK: tt.return %[[MAX]]
tt.func @runtime_scale(%x: tensor<4x8xf32>, %s: f32) -> tensor<4xf32> {
  %splat = tt.splat %s : f32 -> tensor<4x8xf32>
  %product = arith.mulf %x, %splat : tensor<4x8xf32>
  %max = "tt.reduce"(%product) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return %max : tensor<4xf32>
}

// -----

// A negative constant scale turns a NaN-propagating minimum into a
// maximum at compile time; a 1-d reduction gives a scalar.

// CHECK-LABEL: tt.func @negative_constant
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NOT: scf.if
// CHECK: %[[MAX:.*]] = "tt.reduce"(%[[X]]) <{axis = 0 : i32}>
// CHECK:   arith.maximumf
// CHECK: %[[SCALE:.*]] = arith.constant -2.500000e-01 : f32
// CHECK: %[[RESULT:.*]] = arith.mulf %[[MAX]], %[[SCALE]] : f32
// CHECK: tt.return %[[RESULT]] : f32
tt.func @negative_constant(%x: tensor<8xf32>) -> f32 {
  %scale = arith.constant dense<-2.500000e-01> : tensor<8xf32>
  %product = arith.mulf %scale, %x : tensor<8xf32>
  %min = "tt.reduce"(%product) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.minimumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<8xf32>) -> f32
  tt.return %min : f32
}

// -----

// Left alone: a product with another use (attention's scores, which the
// softmax subtracts the maximum from), a zero scale, an infinite one, and a
// sum.

// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: scf.if
// CHECK: %[[SCORES:.*]] = arith.mulf
// CHECK: "tt.reduce"(%[[SCORES]])
// CHECK: %[[ZEROED:.*]] = arith.mulf
// CHECK: "tt.reduce"(%[[ZEROED]])
// CHECK: %[[INFINITE:.*]] = arith.mulf
// CHECK: "tt.reduce"(%[[INFINITE]])
// CHECK: %[[SCALED:.*]] = arith.mulf
// CHECK: "tt.reduce"(%[[SCALED]])
// CHECK:   arith.addf
tt.func @left_alone(%x: tensor<4x8xf32>, %s: f32) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %splat = tt.splat %s : f32 -> tensor<4x8xf32>
  %scores = arith.mulf %x, %splat : tensor<4x8xf32>
  %max = "tt.reduce"(%scores) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %zeroed = arith.mulf %x, %zero : tensor<4x8xf32>
  %zero_max = "tt.reduce"(%zeroed) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %inf = arith.constant dense<0x7F800000> : tensor<4x8xf32>
  %infinite = arith.mulf %x, %inf : tensor<4x8xf32>
  %inf_max = "tt.reduce"(%infinite) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %scaled = arith.mulf %x, %splat : tensor<4x8xf32>
  %sum = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return %scores, %max, %zero_max, %inf_max, %sum : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
