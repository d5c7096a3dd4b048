// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-order-programs)' | FileCheck %s

// A causal attention's loop runs over the key blocks up to its query block:
// its upper bound is computed from the program id along x, so the programs
// differ in work along x and the kernel asks for the staggered order of
// that axis.

// CHECK-LABEL: tt.func public @causal
// CHECK-SAME: attributes {mtia.program_order = "staggered", mtia.program_order_axis = 0 : i32}
tt.func public @causal(%out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %pid = tt.get_program_id x : i32
  %next = arith.addi %pid, %c1 : i32
  %end = arith.muli %next, %c64 : i32
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %end step %c64 iter_args(%acc = %zero) -> (f32) : i32 {
    %one = arith.constant 1.0 : f32
    %more = arith.addf %acc, %one : f32
    scf.yield %more : f32
  }
  tt.store %out, %sum : !tt.ptr<f32>
  tt.return
}

// -----

// A loop of the same trip count in every program keeps the round-robin
// order (no attribute), even when its body uses the program id.

// CHECK-LABEL: tt.func public @uniform
// CHECK-NOT: mtia.program_order
tt.func public @uniform(%out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pid = tt.get_program_id x : i32
  %p = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = arith.sitofp %pid : i32 to f32
    tt.store %p, %v : !tt.ptr<f32>
  }
  tt.return
}

// -----

// The step depends on the program id along y: the staggered order of axis 1.

// CHECK-LABEL: tt.func public @step_along_y
// CHECK-SAME: attributes {mtia.program_order = "staggered", mtia.program_order_axis = 1 : i32}
tt.func public @step_along_y(%out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pid = tt.get_program_id y : i32
  %step = arith.addi %pid, %c1 : i32
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %step iter_args(%acc = %zero) -> (f32) : i32 {
    %one = arith.constant 1.0 : f32
    %more = arith.addf %acc, %one : f32
    scf.yield %more : f32
  }
  tt.store %out, %sum : !tt.ptr<f32>
  tt.return
}

// -----

// Bounds that depend on the program ids along two axes have no one period
// to stagger by: the kernel asks for the serpentine order.

// CHECK-LABEL: tt.func public @two_axes
// CHECK-SAME: attributes {mtia.program_order = "serpentine"}
// CHECK-NOT: mtia.program_order_axis
tt.func public @two_axes(%out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %x = tt.get_program_id x : i32
  %y = tt.get_program_id y : i32
  %start = arith.addi %x, %c0 : i32
  %end = arith.addi %y, %c1 : i32
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %start to %end step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %one = arith.constant 1.0 : f32
    %more = arith.addf %acc, %one : f32
    scf.yield %more : f32
  }
  tt.store %out, %sum : !tt.ptr<f32>
  tt.return
}
