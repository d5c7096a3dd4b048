// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-substitute-induction-variables)' | FileCheck %s

// Pointers advanced by a loop-invariant step each iteration are, in the
// body, the initial pointers plus (iv - lower) / step steps in 64-bit
// offsets; the loop no longer carries them.

// CHECK-LABEL: tt.func @advanced_pointers
// CHECK-SAME: (%[[PTRS:.*]]: tensor<16x!tt.ptr<f32>>, %[[INC:.*]]: tensor<16xi32>, %[[LO:.*]]: i32, %[[HI:.*]]: i32)
// CHECK: %[[WIDE:.*]] = arith.extsi %[[INC]] : tensor<16xi32> to tensor<16xi64>
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[IV:.*]] = %[[LO]] to %[[HI]] step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>)
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[IV]], %[[LO]] : i32
// CHECK-NEXT: %[[DONE:.*]] = arith.divsi %[[SPAN]], %[[STEP]] : i32
// CHECK-NEXT: %[[DONE64:.*]] = arith.extsi %[[DONE]] : i32 to i64
// CHECK-NEXT: %[[SPLAT:.*]] = tt.splat %[[DONE64]] : i64 -> tensor<16xi64>
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[SPLAT]], %[[WIDE]] : tensor<16xi64>
// CHECK-NEXT: %[[CURRENT:.*]] = tt.addptr %[[PTRS]], %[[OFFSET]] : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: %[[X:.*]] = tt.load %[[CURRENT]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]]
// CHECK-NEXT: scf.yield %[[NEXT]] : tensor<16xf32>
tt.func @advanced_pointers(%ptrs: tensor<16x!tt.ptr<f32>>, %inc: tensor<16xi32>, %lo: i32, %hi: i32) -> tensor<16xf32> {
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r:2 = scf.for %iv = %lo to %hi step %c4 iter_args(%p = %ptrs, %acc = %zero) -> (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) : i32 {
    %x = tt.load %p : tensor<16x!tt.ptr<f32>>
    %next = arith.addf %acc, %x : tensor<16xf32>
    %advanced = tt.addptr %p, %inc : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %advanced, %next : tensor<16x!tt.ptr<f32>>, tensor<16xf32>
  }
  tt.return %r#1 : tensor<16xf32>
}

// -----

// After the loop, the value is the initial one plus the trip count of
// steps (none when the range is empty, as it is for any negative step:
// `scf.for` runs while iv < upper); integers wrap in their own width as the
// carried sums did.

// CHECK-LABEL: tt.func @offset_after_loop
// CHECK-SAME: (%[[INIT:.*]]: i32, %[[INC:.*]]: i32, %[[LO:.*]]: i32, %[[HI:.*]]: i32, %[[STEP:.*]]: i32)
// CHECK: scf.for %[[IV:.*]] = %[[LO]] to %[[HI]] step %[[STEP]] : i32 {
// CHECK: %[[DONE:.*]] = arith.divsi
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[DONE]], %[[INC]] : i32
// CHECK-NEXT: %[[CURRENT:.*]] = arith.addi %[[INIT]], %[[SCALED]] : i32
// CHECK-NEXT: tt.print
// CHECK: %[[RANGE:.*]] = arith.subi %[[HI]], %[[LO]] : i32
// CHECK-NEXT: %[[LESS:.*]] = arith.subi %[[STEP]], %{{.*}} : i32
// CHECK-NEXT: %[[ROUNDED:.*]] = arith.addi %[[RANGE]], %[[LESS]] : i32
// CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi sgt, %[[RANGE]], %{{.*}} : i32
// CHECK-NEXT: %[[TRIPS:.*]] = arith.divsi %[[ROUNDED]], %[[STEP]] : i32
// CHECK-NEXT: %[[TAKEN:.*]] = arith.select %[[RUNS]], %[[TRIPS]], %{{.*}} : i32
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[TAKEN]], %[[INC]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[INIT]], %[[TOTAL]] : i32
// CHECK-NEXT: tt.return %[[LAST]]
tt.func @offset_after_loop(%init: i32, %inc: i32, %lo: i32, %hi: i32, %step: i32) -> i32 {
  %r = scf.for %iv = %lo to %hi step %step iter_args(%o = %init) -> (i32) : i32 {
    tt.print " o: " {hex = false, isSigned = array<i32: 1>} : %o : i32
    %next = arith.addi %inc, %o : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}

// -----

// A step that the loop computes, or a value advanced by anything but an
// addition, stays carried.

// CHECK-LABEL: tt.func @not_an_induction
// CHECK: scf.for {{.*}} iter_args(%[[O:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}) -> (i32, i32)
// CHECK: arith.addi %[[O]], %[[M]]
// CHECK: arith.muli %[[M]]
tt.func @not_an_induction(%init: i32, %lo: i32, %hi: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.for %iv = %lo to %hi step %c1 iter_args(%o = %init, %m = %init) -> (i32, i32) : i32 {
    %next = arith.addi %o, %m : i32
    %scaled = arith.muli %m, %c3 : i32
    scf.yield %next, %scaled : i32, i32
  }
  tt.return %r#0 : i32
}

// -----

// A step that splats a scalar (`ptrs += BLOCK * stride`) scales as a
// scalar, widened once before the loop; the offset is splat afterwards.
// From 0 in steps of 1, the iterations before are the induction variable.

// CHECK-LABEL: tt.func @splat_step
// CHECK-SAME: (%[[PTRS:.*]]: tensor<16x!tt.ptr<f16>>, %[[STRIDE:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[WIDE:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK-NEXT: scf.for %[[IV:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT: %[[DONE64:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[DONE64]], %[[WIDE]] : i64
// CHECK-NEXT: %[[OFFSETS:.*]] = tt.splat %[[SCALED]] : i64 -> tensor<16xi64>
// CHECK-NEXT: tt.addptr %[[PTRS]], %[[OFFSETS]]
tt.func @splat_step(%ptrs: tensor<16x!tt.ptr<f16>>, %stride: i32, %n: i32) -> tensor<16xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf16>
  %inc = tt.splat %stride : i32 -> tensor<16xi32>
  %r:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%p = %ptrs, %acc = %zero) -> (tensor<16x!tt.ptr<f16>>, tensor<16xf16>) : i32 {
    %x = tt.load %p : tensor<16x!tt.ptr<f16>>
    %next = arith.addf %acc, %x : tensor<16xf16>
    %advanced = tt.addptr %p, %inc : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
    scf.yield %advanced, %next : tensor<16x!tt.ptr<f16>>, tensor<16xf16>
  }
  tt.return %r#1 : tensor<16xf16>
}

// -----

// Triton computes the step in the body (`BLOCK_N * stride`): computed from
// values defined outside the loop without effects, it is invariant, and is
// computed again before the loop.

// CHECK-LABEL: tt.func @step_computed_in_body
// CHECK-SAME: (%[[PTR:.*]]: !tt.ptr<f32>, %[[STRIDE:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[STEP:.*]] = arith.muli %[[STRIDE]], %{{.*}} : i32
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK-NEXT: scf.for
// CHECK-NOT: iter_args
// CHECK: arith.muli %{{.*}}, %[[WIDE]] : i64
// CHECK: tt.addptr %[[PTR]], %{{.*}} : !tt.ptr<f32>, i64
tt.func @step_computed_in_body(%ptr: !tt.ptr<f32>, %stride: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%p = %ptr) -> (!tt.ptr<f32>) : i32 {
    %x = tt.load %p : !tt.ptr<f32>
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : f32
    %step = arith.muli %stride, %c64 : i32
    %advanced = tt.addptr %p, %step : !tt.ptr<f32>, i32
    scf.yield %advanced : !tt.ptr<f32>
  }
  tt.return
}
