// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-combine-arithmetic)' | FileCheck %s
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-combine-arithmetic{fp-fusion=false})' | FileCheck %s --check-prefix=NOFUSION

// Without fp-fusion (Triton's enable_fp_fusion=False) nothing is contracted;
// scales are still factored out of extrema.
// NOFUSION-NOT: math.fma
// NOFUSION: tt.func @runtime_scale
// NOFUSION: scf.if

// Contraction.
// a * b + c and c + a * b become one fma.

// CHECK-LABEL: tt.func @additions
// CHECK-SAME: (%[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<8xf32>)
// CHECK: %[[FIRST:.*]] = math.fma %[[A]], %[[B]], %[[C]] : tensor<8xf32>
// CHECK: %[[SECOND:.*]] = math.fma %[[B]], %[[C]], %[[FIRST]] : tensor<8xf32>
// CHECK-NOT: arith.mulf
// CHECK: tt.return %[[SECOND]]
tt.func @additions(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.mulf %a, %b : tensor<8xf32>
  %1 = arith.addf %0, %c : tensor<8xf32>
  %2 = arith.mulf %b, %c : tensor<8xf32>
  %3 = arith.addf %1, %2 : tensor<8xf32>
  tt.return %3 : tensor<8xf32>
}

// -----

// x * s - max[:, None] negates the row maxima before their expand_dims and
// broadcast, which stay together (the tile stage folds them into one
// broadcast of the row maxima), not the tile after them.

// CHECK-LABEL: tt.func @subtract_broadcast_row
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: f32, %[[MAX:.*]]: tensor<4xf32>)
// CHECK: %[[SPLAT:.*]] = tt.splat %[[S]]
// CHECK: %[[NEGATED:.*]] = arith.negf %[[MAX]] : tensor<4xf32>
// CHECK: %[[COLUMN:.*]] = tt.expand_dims %[[NEGATED]]
// CHECK: %[[ROWS:.*]] = tt.broadcast %[[COLUMN]] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: %[[FUSED:.*]] = math.fma %[[X]], %[[SPLAT]], %[[ROWS]] : tensor<4x8xf32>
// CHECK-NOT: arith.subf
// CHECK: tt.return %[[FUSED]]
tt.func @subtract_broadcast_row(%x: tensor<4x8xf32>, %s: f32, %max: tensor<4xf32>) -> tensor<4x8xf32> {
  %splat = tt.splat %s : f32 -> tensor<4x8xf32>
  %scores = arith.mulf %x, %splat : tensor<4x8xf32>
  %column = tt.expand_dims %max {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  %rows = tt.broadcast %column : tensor<4x1xf32> -> tensor<4x8xf32>
  %centered = arith.subf %scores, %rows : tensor<4x8xf32>
  tt.return %centered : tensor<4x8xf32>
}

// -----

// c - x * s negates the scalar factor; x * y - 1.5 negates the constant.

// CHECK-LABEL: tt.func @subtract_cheap_operands
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<8xf32>, %[[S:.*]]: f32)
// CHECK: %[[NEGATED:.*]] = arith.negf %[[S]] : f32
// CHECK: %[[SPLAT:.*]] = tt.splat %[[NEGATED]] : f32 -> tensor<8xf32>
// CHECK: %[[FIRST:.*]] = math.fma %[[X]], %[[SPLAT]], %[[C]] : tensor<8xf32>
// CHECK: %[[MINUS:.*]] = arith.constant dense<-1.500000e+00> : tensor<8xf32>
// CHECK: %[[SECOND:.*]] = math.fma %[[X]], %[[Y]], %[[MINUS]] : tensor<8xf32>
// CHECK: tt.return %[[FIRST]], %[[SECOND]]
tt.func @subtract_cheap_operands(%x: tensor<8xf32>, %y: tensor<8xf32>, %c: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %splat = tt.splat %s : f32 -> tensor<8xf32>
  %0 = arith.mulf %x, %splat : tensor<8xf32>
  %1 = arith.subf %c, %0 : tensor<8xf32>
  %cst = arith.constant dense<1.500000e+00> : tensor<8xf32>
  %2 = arith.mulf %x, %y : tensor<8xf32>
  %3 = arith.subf %2, %cst : tensor<8xf32>
  tt.return %1, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// x * y - z * s: the first product cannot be negated cheaply, the second's
// scalar factor can, so the second product is contracted.

// CHECK-LABEL: tt.func @subtract_second_product
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>, %[[Z:.*]]: tensor<8xf32>, %[[S:.*]]: f32)
// CHECK: %[[XY:.*]] = arith.mulf %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %[[NEGATED:.*]] = arith.negf %[[S]] : f32
// CHECK: %[[SPLAT:.*]] = tt.splat %[[NEGATED]] : f32 -> tensor<8xf32>
// CHECK: %[[FUSED:.*]] = math.fma %[[Z]], %[[SPLAT]], %[[XY]] : tensor<8xf32>
// CHECK: tt.return %[[FUSED]]
tt.func @subtract_second_product(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>, %s: f32) -> tensor<8xf32> {
  %splat = tt.splat %s : f32 -> tensor<8xf32>
  %0 = arith.mulf %x, %y : tensor<8xf32>
  %1 = arith.mulf %z, %splat : tensor<8xf32>
  %2 = arith.subf %0, %1 : tensor<8xf32>
  tt.return %2 : tensor<8xf32>
}

// -----

// Left alone: a product with another use, a subtraction whose operands are
// all as large as the tile, and the combine region of a reduction.

// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: math.fma
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: math.fma
tt.func @left_alone(%x: tensor<8xf32>, %y: tensor<8xf32>, %c: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32) {
  %0 = arith.mulf %x, %y : tensor<8xf32>
  %1 = arith.addf %0, %c : tensor<8xf32>
  %2 = arith.mulf %y, %c : tensor<8xf32>
  %3 = arith.subf %2, %x : tensor<8xf32>
  %4 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %a : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return %0, %1, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// Factoring.
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
