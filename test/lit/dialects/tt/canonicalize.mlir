// RUN: mtia-opt %s --pass-pipeline='builtin.module(canonicalize, cse, symbol-dce)' | FileCheck %s

// Folds and dead-code elimination never remove side effects: a volatile
// load stays although its result is unused; a plain one goes.

// CHECK-LABEL: tt.func @unused_loads
// CHECK-COUNT-1: tt.load
// CHECK-SAME: isVolatile = true
// CHECK-NOT: tt.load
// CHECK: tt.return
tt.func @unused_loads(%p: tensor<8x!tt.ptr<f32>>, %q: !tt.ptr<i32>) {
  %a = tt.load %p : tensor<8x!tt.ptr<f32>>
  %b = tt.load %p {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %c = tt.load %q : !tt.ptr<i32>
  tt.return
}

// Two volatile loads of the same address are two reads.
// CHECK-LABEL: tt.func @volatile_loads_are_not_merged
// CHECK-COUNT-2: tt.load %{{.*}} {isVolatile = true}
tt.func @volatile_loads_are_not_merged(%q: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %a = tt.load %q {isVolatile = true} : !tt.ptr<i32>
  %b = tt.load %q {isVolatile = true} : !tt.ptr<i32>
  %s = arith.addi %a, %b : i32
  tt.store %out, %s : !tt.ptr<i32>
  tt.return
}
