// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-lift-function-control-flow)' | FileCheck %s

// A function that returns from both branches of an `if` (as Triton's
// frontend emits it, with unreachable blocks after the branches) becomes one
// block: an scf.if yields the value each branch returned, and one tt.return
// returns it.

// CHECK-LABEL: tt.func private @early_return
// CHECK-NOT: cf.{{(cond_)?}}br
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

// The kernel's own early return is lifted too: the store runs in the
// branch that does not return.

// CHECK-LABEL: tt.func @kernel_returns_early
// CHECK-NOT: cf.{{(cond_)?}}br
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: tt.store %{{.*}}, %[[ONE]]
// CHECK: tt.return
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

// A return nested in two ifs (Triton's test_nested_if_else_return): the
// lifting chooses among the paths that reach the end by an index, and the
// choice becomes a chain of scf.if ops that compare it with each case.

// CHECK-LABEL: tt.func @nested_return
// CHECK-NOT: cf.{{(cond_)?}}br
// CHECK-NOT: scf.index_switch
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: scf.if
// CHECK: tt.store
// CHECK: tt.return
tt.func @nested_return(%c1: i1, %c2: i1, %v: i32, %out: !tt.ptr<i32>) {
  cf.cond_br %c1, ^bb1, ^bb3
^bb1:
  cf.cond_br %c2, ^bb2(%v : i32), ^bb4
^bb2(%x: i32):
  tt.store %out, %x : !tt.ptr<i32>
  tt.return
^bb3:
  %c0_i32 = arith.constant 0 : i32
  cf.br ^bb2(%c0_i32 : i32)
^bb4:
  tt.return
}

// -----

// A function of one block is left as it is.

// CHECK-LABEL: tt.func @straight
// CHECK-NEXT: tt.return %arg0 : i32
tt.func @straight(%x: i32) -> i32 {
  tt.return %x : i32
}
