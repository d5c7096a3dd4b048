// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-materialize-poison)' | FileCheck %s

// Every ub.poison becomes a zero of its type: integers and floats (and
// tensors of them) an arith.constant, pointers a null pointer.

// CHECK-LABEL: tt.func @poisons
// CHECK-NOT: ub.poison
// CHECK-DAG: %[[I:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[F:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[T:.*]] = arith.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[P:.*]] = tt.int_to_ptr %[[Z]] : i64 -> !tt.ptr<f32>
// CHECK: %[[Z2:.*]] = arith.constant 0 : i64
// CHECK: %[[P2:.*]] = tt.int_to_ptr %[[Z2]] : i64 -> !tt.ptr<i8>
// CHECK: %[[PS:.*]] = tt.splat %[[P2]] : !tt.ptr<i8> -> tensor<4x!tt.ptr<i8>>
// CHECK: tt.return %[[I]], %[[F]], %[[T]], %[[P]], %[[PS]]
tt.func @poisons() -> (i32, f16, tensor<8xf32>, !tt.ptr<f32>, tensor<4x!tt.ptr<i8>>) {
  %0 = ub.poison : i32
  %1 = ub.poison : f16
  %2 = ub.poison : tensor<8xf32>
  %3 = ub.poison : !tt.ptr<f32>
  %4 = ub.poison : tensor<4x!tt.ptr<i8>>
  tt.return %0, %1, %2, %3, %4 : i32, f16, tensor<8xf32>, !tt.ptr<f32>, tensor<4x!tt.ptr<i8>>
}

// -----

// What the frontend makes of a variable that only one branch assigns.

// CHECK-LABEL: tt.func @if_assigns_on_one_branch
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : i32
tt.func @if_assigns_on_one_branch(%c: i1, %x: i32) -> i32 {
  %0 = ub.poison : i32
  %1 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %0 : i32
  }
  tt.return %1 : i32
}
