// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-lift-function-control-flow)' | FileCheck %s

// A function that returns from both branches of an `if` (as Triton's
// frontend emits it, with unreachable blocks after the branches) becomes one
// block: an scf.if yields the value each branch returned, and one tt.return
// returns it.

// CHECK-LABEL: tt.func private @early_return
// CHECK-NOT: cf.
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: arith.addi %{{.*}}, %c1_i32
// CHECK: scf.yield
// CHECK: } else {
// CHECK: arith.addi %{{.*}}, %c2_i32
// CHECK: scf.yield
// CHECK: tt.return %[[IF]] : i32
tt.func private @early_return(%x: i32, %pid: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.cmpi eq, %pid, %c0_i32 : i32
  cf.cond_br %0, ^bb1, ^bb2
^bb1:
  %c1_i32 = arith.constant 1 : i32
  %1 = arith.addi %x, %c1_i32 : i32
  tt.return %1 : i32
^bb2:
  %c2_i32 = arith.constant 2 : i32
  %2 = arith.addi %x, %c2_i32 : i32
  tt.return %2 : i32
^bb3:
  cf.br ^bb4
^bb4:
  %3 = ub.poison : i32
  tt.return %3 : i32
}

tt.func @calls_early_return(%x: i32, %pid: i32, %c: i1) -> i32 {
  %0 = scf.if %c -> (i32) {
    %1 = tt.call @early_return(%x, %pid) : (i32, i32) -> i32
    scf.yield %1 : i32
  } else {
    scf.yield %x : i32
  }
  tt.return %0 : i32
}

// -----

// A function of several blocks that nothing calls inside another op keeps
// its branches: the kernel's own early return, which later stages handle.

// CHECK-LABEL: tt.func @kernel_returns_early
// CHECK: cf.cond_br
tt.func @kernel_returns_early(%p: !tt.ptr<i32>, %c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  tt.return
^bb2:
  %c1_i32 = arith.constant 1 : i32
  tt.store %p, %c1_i32 : !tt.ptr<i32>
  tt.return
}

// -----

// A function of one block is left as it is.

// CHECK-LABEL: tt.func @straight
// CHECK-NEXT: tt.return %arg0 : i32
tt.func @straight(%x: i32) -> i32 {
  tt.return %x : i32
}
