// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-strip-mine-blocks{target=mtia-2i})' | FileCheck %s

// Vector add of 65536 f32 per program: its data (two loads, a sum and a
// product, 16 bytes per element, 1 MiB) exceeds mtia-2i's 384 KiB of local
// memory, so the tensor operations move into a loop over strips of 2048
// elements (the largest power of two whose 32 KiB of data fits an eighth of
// local memory). The range becomes the strip's slice; splats and the splat
// constant take the strip's length; the scalar code stays in front.

// CHECK-LABEL: tt.func public @add
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[START:.*]] = arith.muli %[[PID]]
// CHECK-DAG: %[[STEP:.*]] = arith.constant 2048 : i32
// CHECK-DAG: %[[END:.*]] = arith.constant 65536 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[STRIP:.*]] = %[[ZERO]] to %[[END]] step %[[STEP]] : i32 {
// CHECK-NEXT: %[[RANGE:.*]] = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
// CHECK-NEXT: %[[FIRSTS:.*]] = tt.splat %[[STRIP]] : i32 -> tensor<2048xi32>
// CHECK-NEXT: %[[SLICE:.*]] = arith.addi %[[RANGE]], %[[FIRSTS]] : tensor<2048xi32>
// CHECK-NEXT: %[[STARTS:.*]] = tt.splat %[[START]] : i32 -> tensor<2048xi32>
// CHECK-NEXT: %[[OFFS:.*]] = arith.addi %[[STARTS]], %[[SLICE]] : tensor<2048xi32>
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>>
// CHECK: %[[Y:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>>
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<2048xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<2048xf32>
// CHECK: %[[R:.*]] = arith.mulf %[[SUM]], %[[TWO]] : tensor<2048xf32>
// CHECK: tt.store %{{.*}}, %[[R]], %{{.*}} : tensor<2048x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @add(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c = arith.constant 65536 : i32
  %start = arith.muli %pid, %c : i32
  %range = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %starts = tt.splat %start : i32 -> tensor<65536xi32>
  %offs = arith.addi %starts, %range : tensor<65536xi32>
  %ns = tt.splat %n : i32 -> tensor<65536xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<65536xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %xv = tt.load %xp, %mask : tensor<65536x!tt.ptr<f32>>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %yv = tt.load %yp, %mask : tensor<65536x!tt.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<65536xf32>
  %sum = arith.addf %xv, %yv : tensor<65536xf32>
  %r = arith.mulf %sum, %two : tensor<65536xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  tt.store %op, %r, %mask : tensor<65536x!tt.ptr<f32>>
  tt.return
}

// -----

// A block whose data fits (4096 f32: 48 KiB) stays whole.

// CHECK-LABEL: tt.func public @fits
// CHECK-NOT: scf.for
// CHECK: tt.load %{{.*}} : tensor<4096x!tt.ptr<f32>>
tt.func public @fits(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
  %xv = tt.load %xp : tensor<4096x!tt.ptr<f32>>
  %r = arith.addf %xv, %xv : tensor<4096xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
  tt.store %op, %r : tensor<4096x!tt.ptr<f32>>
  tt.return
}

// -----

// A reduction of 131072 f32 runs in strips of 8192: the first strip's sum
// starts a loop that adds every later strip's sum with the combine region;
// the scalar store of the result stays where it was, after the loop.

// CHECK-LABEL: tt.func public @sum
// CHECK: %[[LOADED:.*]] = tt.load %{{.*}} : tensor<8192x!tt.ptr<f32>>
// CHECK: %[[FIRST:.*]] = "tt.reduce"(%[[LOADED]]) <{axis = 0 : i32}>
// CHECK: %[[SUM:.*]] = scf.for %[[STRIP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32) : i32 {
// CHECK: tt.splat %[[STRIP]] : i32 -> tensor<8192xi32>
// CHECK: %[[PARTIAL:.*]] = "tt.reduce"
// CHECK: }) : (tensor<8192xf32>) -> f32
// CHECK-NEXT: %[[COMBINED:.*]] = arith.addf %[[ACC]], %[[PARTIAL]] : f32
// CHECK-NEXT: scf.yield %[[COMBINED]] : f32
// CHECK: tt.store %{{.*}}, %[[SUM]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return
tt.func public @sum(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %xv = tt.load %xp : tensor<131072x!tt.ptr<f32>>
  %s = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<131072xf32>) -> f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// -----

// A scalar store before a reduction: the reduction's loop would load the
// block again after it, so the kernel stays whole.

// CHECK-LABEL: tt.func public @scalar_store
// CHECK-NOT: scf.for
tt.func public @scalar_store(%x: !tt.ptr<f32>, %flag: !tt.ptr<f32>) {
  %range = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %one = arith.constant 1.0 : f32
  tt.store %flag, %one : !tt.ptr<f32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %xv = tt.load %xp : tensor<131072x!tt.ptr<f32>>
  %s = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<131072xf32>) -> f32
  tt.store %flag, %s : !tt.ptr<f32>
  tt.return
}

// -----

// A store before a reduction would run after it: the kernel stays whole.

// CHECK-LABEL: tt.func public @store_then_reduce
// CHECK-NOT: scf.for
tt.func public @store_then_reduce(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %xv = tt.load %xp : tensor<131072x!tt.ptr<f32>>
  %r = arith.addf %xv, %xv : tensor<131072xf32>
  tt.store %xp, %r : tensor<131072x!tt.ptr<f32>>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<131072xf32>) -> f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// -----

// A volatile load must happen even though nothing uses it: the last loop
// runs it with the stores.

// CHECK-LABEL: tt.func public @volatile_load
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {isVolatile = true} : tensor<4096x!tt.ptr<f32>>
// CHECK: tt.store
tt.func public @volatile_load(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %unused = tt.load %xp {isVolatile = true} : tensor<131072x!tt.ptr<f32>>
  %xv = tt.load %xp : tensor<131072x!tt.ptr<f32>>
  %r = arith.addf %xv, %xv : tensor<131072xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  tt.store %op, %r : tensor<131072x!tt.ptr<f32>>
  tt.return
}
