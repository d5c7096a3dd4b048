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

// A reshape to its operand's own type (what the frontend emits for
// `tl.max(x)` of a 1-D `x`) folds away; one that changes the shape stays.
// CHECK-LABEL: tt.func @identity_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[SQUARE:.*]] = tt.reshape %[[X]] : tensor<64xf32> -> tensor<8x8xf32>
// CHECK-NEXT: tt.return %[[X]], %[[SQUARE]]
tt.func @identity_reshape(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<8x8xf32>) {
  %same = tt.reshape %x allow_reorder : tensor<64xf32> -> tensor<64xf32>
  %square = tt.reshape %x : tensor<64xf32> -> tensor<8x8xf32>
  tt.return %same, %square : tensor<64xf32>, tensor<8x8xf32>
}

// A pure library call whose result is unused goes; one that is not pure may
// touch global memory, and stays.

// CHECK-LABEL: tt.func @unused_library_calls
// CHECK-NOT: __nv_expf
// CHECK: tt.extern_elementwise %arg0 {libname = "", libpath = "", pure = false, symbol = "side_effect"}
// CHECK-NEXT: tt.return
tt.func @unused_library_calls(%x: tensor<16xf32>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tt.extern_elementwise %x {libname = "", libpath = "", pure = false, symbol = "side_effect"} : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}
