// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i},mtia-strip-mine-blocks)' | FileCheck %s
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i},mtia-strip-mine-blocks{budget-divisor=8 joint-axes=true})' | FileCheck %s --check-prefix=JOINT

// Vector add of 65536 f32 per program: the peak of its data (two loads and
// their sum live at once, 12 bytes per element, 768 KiB) exceeds mtia-2i's
// 384 KiB of local memory, so the tensor operations move into a loop over
// strips of 8192 elements (the largest power of two whose 96 KiB peak fits
// a quarter of local memory). The range becomes the strip's slice; splats
// and the splat constant take the strip's length; the scalar code stays in
// front.

// CHECK-LABEL: tt.func public @add
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[START:.*]] = arith.muli %[[PID]]
// CHECK-DAG: %[[STEP:.*]] = arith.constant 8192 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[STRIP:.*]] = %[[ZERO]] to %{{.*}} step %[[STEP]] : i32 {
// CHECK-NEXT: %[[RANGE:.*]] = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32>
// CHECK-NEXT: %[[FIRSTS:.*]] = tt.splat %[[STRIP]] : i32 -> tensor<8192xi32>
// CHECK-NEXT: %[[SLICE:.*]] = arith.addi %[[RANGE]], %[[FIRSTS]] : tensor<8192xi32>
// CHECK-NEXT: %[[STARTS:.*]] = tt.splat %[[START]] : i32 -> tensor<8192xi32>
// CHECK-NEXT: %[[OFFS:.*]] = arith.addi %[[STARTS]], %[[SLICE]] : tensor<8192xi32>
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<8192x!tt.ptr<f32>>
// CHECK: %[[Y:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<8192x!tt.ptr<f32>>
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<8192xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<8192xf32>
// CHECK: %[[R:.*]] = arith.mulf %[[SUM]], %[[TWO]] : tensor<8192xf32>
// CHECK: tt.store %{{.*}}, %[[R]], %{{.*}} : tensor<8192x!tt.ptr<f32>>
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

// A reduction of 131072 f32 runs in strips of 16384: a loop takes the first
// strip's sum as it is (the carried zero is never added) and adds every
// later strip's with the combine region; the scalar store of the result
// stays where it was, after the loop.

// CHECK-LABEL: tt.func public @sum
// CHECK-DAG: %[[INITIAL:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[SUM:.*]] = scf.for %[[STRIP:.*]] = %[[ZERO]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INITIAL]]) -> (f32) : i32 {
// CHECK-NEXT: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[STRIP]], %[[ZERO]] : i32
// CHECK: tt.splat %[[STRIP]] : i32 -> tensor<16384xi32>
// CHECK: %[[LOADED:.*]] = tt.load %{{.*}} : tensor<16384x!tt.ptr<f32>>
// CHECK: %[[PARTIAL:.*]] = "tt.reduce"(%[[LOADED]]) <{axis = 0 : i32}>
// CHECK: }) : (tensor<16384xf32>) -> f32
// CHECK-NEXT: %[[COMBINED:.*]] = arith.addf %[[ACC]], %[[PARTIAL]] : f32
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[IS_FIRST]], %[[PARTIAL]], %[[COMBINED]] : f32
// CHECK-NEXT: scf.yield %[[NEXT]] : f32
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

// A scalar store before a reduction stays in its place, before the
// reduction's loop.

// CHECK-LABEL: tt.func public @scalar_store
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<16384x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
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

// A store before a reduction would run after it in strips of the reduced
// axis: the work runs in loops through scratch memory instead, the store's
// loop before the reduction's, which takes the axis in chunks.

// CHECK-LABEL: tt.func public @store_then_reduce
// CHECK: %[[DOUBLED:.*]] = dma.scratch 524288 : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.store
// CHECK: scf.for
// CHECK: tt.store %{{.*}} : tensor<1024x!tt.ptr<f32>>
// CHECK: scf.for
// CHECK: tt.splat %[[DOUBLED]] : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
// CHECK: scf.for {{.*}} iter_args
// CHECK: tt.join
// CHECK: tt.store %arg1
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
// runs it with the stores. Its range and the stores' are one range shared
// by both; once each use has its copy, the two parts of the block are
// independent axes of one length, which run in the same strips.

// CHECK-LABEL: tt.func public @volatile_load
// CHECK-NOT: tensor<131072
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {isVolatile = true} : tensor<8192x!tt.ptr<f32>>
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

// -----

// Inductor's looped reduction of 64 rows of f32, 2048 columns at a time,
// with a carried accumulator (512 KiB each): rows are the axis with no
// reduction over them, so the whole kernel, loop included, runs in strips
// of 4 rows (the loop's result is the accumulator it carries, not a block
// more); the reduction over the columns stays in each strip.

// CHECK-LABEL: tt.func public @looped_rows
// CHECK: scf.for %[[ROWS:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: %[[INITIAL:.*]] = arith.constant dense<0.000000e+00> : tensor<4x2048xf32>
// CHECK: tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
// CHECK: tt.splat %[[ROWS]] : i32 -> tensor<4xi32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[INITIAL]]) -> (tensor<4x2048xf32>)
// CHECK: tt.load %{{.*}} : tensor<4x2048x!tt.ptr<f32>>
// CHECK: "tt.reduce"(%[[ACC]]) <{axis = 1 : i32}>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<4x1x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return

tt.func public @looped_rows(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %rn: i32) {
  %c0 = arith.constant 0 : i32
  %c2048 = arith.constant 2048 : i32
  %zero = arith.constant dense<0.0> : tensor<64x2048xf32>
  %xr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rr = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
  %r = tt.expand_dims %rr {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
  %acc = scf.for %off = %c0 to %rn step %c2048 iter_args(%a = %zero) -> (tensor<64x2048xf32>) : i32 {
    %offs = tt.splat %off : i32 -> tensor<1x2048xi32>
    %ri = arith.addi %offs, %r : tensor<1x2048xi32>
    %rns = tt.splat %rn : i32 -> tensor<64x1xi32>
    %row = arith.muli %x, %rns : tensor<64x1xi32>
    %rib = tt.broadcast %ri : tensor<1x2048xi32> -> tensor<64x2048xi32>
    %rowb = tt.broadcast %row : tensor<64x1xi32> -> tensor<64x2048xi32>
    %idx = arith.addi %rib, %rowb : tensor<64x2048xi32>
    %ins = tt.splat %in : !tt.ptr<f32> -> tensor<64x2048x!tt.ptr<f32>>
    %p = tt.addptr %ins, %idx : tensor<64x2048x!tt.ptr<f32>>, tensor<64x2048xi32>
    %v = tt.load %p : tensor<64x2048x!tt.ptr<f32>>
    %sq = arith.mulf %v, %v : tensor<64x2048xf32>
    %s = arith.addf %a, %sq : tensor<64x2048xf32>
    scf.yield %s : tensor<64x2048xf32>
  }
  %sum = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rt: f32):
    %t = arith.addf %l, %rt : f32
    tt.reduce.return %t : f32
  }) : (tensor<64x2048xf32>) -> tensor<64xf32>
  %sum2 = tt.expand_dims %sum {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
  %op = tt.addptr %outs, %x : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
  tt.store %op, %sum2 : tensor<64x1x!tt.ptr<f32>>
  tt.return
}

// -----

// A 256 x 256 x 64 dot per step (a 256 KiB accumulator): the rows of `a`,
// the accumulator and the result are one axis, the columns of `b` and the
// result another; the range both are made from is shared, so each use takes
// its own copy first. The rows run in strips of 32, each with the whole K
// loop; `b` keeps its shape. (The dot writes its result over the
// accumulator it carries, and the loop's result is that accumulator: one
// 32 KiB strip of it, not three.)

// CHECK-LABEL: tt.func public @matmul
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}) -> (tensor<32x256xf32>, tensor<32x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>)
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64xf16> * tensor<64x256xf16> -> tensor<32x256xf32>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<32x256x!tt.ptr<f32>>

// With joint axes and a budget of an eighth of local memory, the rows and
// the columns of the result are split together: a nest of loops over tiles
// of 64 x 64, the larger strip halved first (the rows on a tie).

// JOINT-LABEL: tt.func public @matmul
// JOINT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// JOINT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// JOINT-NOT: scf.for
// JOINT: scf.for %{{.*}} iter_args(%{{.*}}) -> (tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>)
// JOINT: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
// JOINT: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>>

tt.func public @matmul(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %kt: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<256x256xf32>
  %step = arith.constant dense<64> : tensor<256x64xi32>
  %stepb = arith.constant dense<16384> : tensor<64x256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %kc = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kr = tt.expand_dims %k {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<256x1xi32>
  %arow = arith.muli %rows, %c64 : tensor<256x1xi32>
  %arowb = tt.broadcast %arow : tensor<256x1xi32> -> tensor<256x64xi32>
  %kcb = tt.broadcast %kc : tensor<1x64xi32> -> tensor<256x64xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<256x64xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<256x64x!tt.ptr<f16>>
  %ap0 = tt.addptr %as, %aoff : tensor<256x64x!tt.ptr<f16>>, tensor<256x64xi32>
  %c256 = arith.constant dense<256> : tensor<64x1xi32>
  %brow = arith.muli %kr, %c256 : tensor<64x1xi32>
  %browb = tt.broadcast %brow : tensor<64x1xi32> -> tensor<64x256xi32>
  %colsb = tt.broadcast %cols : tensor<1x256xi32> -> tensor<64x256xi32>
  %boff = arith.addi %browb, %colsb : tensor<64x256xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x256x!tt.ptr<f16>>
  %bp0 = tt.addptr %bs, %boff : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
  %res:3 = scf.for %i = %c0 to %kt step %c1 iter_args(%acc = %zero, %ap = %ap0, %bp = %bp0) -> (tensor<256x256xf32>, tensor<256x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<256x64x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<64x256x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<256x64xf16> * tensor<64x256xf16> -> tensor<256x256xf32>
    %an = tt.addptr %ap, %step : tensor<256x64x!tt.ptr<f16>>, tensor<256x64xi32>
    %bn = tt.addptr %bp, %stepb : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
    scf.yield %d, %an, %bn : tensor<256x256xf32>, tensor<256x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>
  }
  %c256r = arith.constant dense<256> : tensor<256x1xi32>
  %crow = arith.muli %rows, %c256r : tensor<256x1xi32>
  %crowb = tt.broadcast %crow : tensor<256x1xi32> -> tensor<256x256xi32>
  %ccolb = tt.broadcast %cols : tensor<1x256xi32> -> tensor<256x256xi32>
  %coff = arith.addi %crowb, %ccolb : tensor<256x256xi32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<256x256x!tt.ptr<f32>>
  %cp = tt.addptr %cs, %coff : tensor<256x256x!tt.ptr<f32>>, tensor<256x256xi32>
  tt.store %cp, %res#0 : tensor<256x256x!tt.ptr<f32>>
  tt.return
}

// -----

// Triton's tutorial GEMM block, 128 x 256 x 64: the dot writes its result
// over the 128 KiB accumulator the loop carries, and the loop's result is
// that accumulator, so with the pages the loads prefetch (4 of `a`'s 16 KiB,
// 3 of `b`'s 32 KiB) the kernel takes 288 KiB and stays whole.

// CHECK-LABEL: tt.func public @matmul_fits_whole
// CHECK-NOT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}) -> (tensor<128x256xf32>, tensor<128x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>)
// CHECK-NOT: scf.for
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<128x256x!tt.ptr<f32>>
// CHECK-NEXT: tt.return

tt.func public @matmul_fits_whole(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %kt: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %step = arith.constant dense<64> : tensor<128x64xi32>
  %stepb = arith.constant dense<16384> : tensor<64x256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %m = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %m {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %kc = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kr = tt.expand_dims %k {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<128x1xi32>
  %arow = arith.muli %rows, %c64 : tensor<128x1xi32>
  %arowb = tt.broadcast %arow : tensor<128x1xi32> -> tensor<128x64xi32>
  %kcb = tt.broadcast %kc : tensor<1x64xi32> -> tensor<128x64xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<128x64xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %ap0 = tt.addptr %as, %aoff : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %c256 = arith.constant dense<256> : tensor<64x1xi32>
  %brow = arith.muli %kr, %c256 : tensor<64x1xi32>
  %browb = tt.broadcast %brow : tensor<64x1xi32> -> tensor<64x256xi32>
  %colsb = tt.broadcast %cols : tensor<1x256xi32> -> tensor<64x256xi32>
  %boff = arith.addi %browb, %colsb : tensor<64x256xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x256x!tt.ptr<f16>>
  %bp0 = tt.addptr %bs, %boff : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
  %res:3 = scf.for %i = %c0 to %kt step %c1 iter_args(%acc = %zero, %ap = %ap0, %bp = %bp0) -> (tensor<128x256xf32>, tensor<128x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<128x64x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<64x256x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    %an = tt.addptr %ap, %step : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %bn = tt.addptr %bp, %stepb : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
    scf.yield %d, %an, %bn : tensor<128x256xf32>, tensor<128x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>
  }
  %c256r = arith.constant dense<256> : tensor<128x1xi32>
  %crow = arith.muli %rows, %c256r : tensor<128x1xi32>
  %crowb = tt.broadcast %crow : tensor<128x1xi32> -> tensor<128x256xi32>
  %ccolb = tt.broadcast %cols : tensor<1x256xi32> -> tensor<128x256xi32>
  %coff = arith.addi %crowb, %ccolb : tensor<128x256xi32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<128x256x!tt.ptr<f32>>
  %cp = tt.addptr %cs, %coff : tensor<128x256x!tt.ptr<f32>>, tensor<128x256xi32>
  tt.store %cp, %res#0 : tensor<128x256x!tt.ptr<f32>>
  tt.return
}

// -----

// Sums of two rows of 65536 f32: two rows are too few to run in strips, so
// the columns, which the reduction is over, run in strips of 4096; the
// partial sums are tensors, combined element by element with the combine
// region in a `tt.map_elementwise`.

// CHECK-LABEL: tt.func public @row_sums
// CHECK: %[[SUMS:.*]] = scf.for %[[STRIP:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<2xf32>) : i32 {
// CHECK: %[[PARTIAL:.*]] = "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK: }) : (tensor<2x4096xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[COMBINED:.*]] = "tt.map_elementwise"(%[[ACC]], %[[PARTIAL]]) <{pack = 1 : i32}>
// CHECK: arith.addf
// CHECK: tt.map_elementwise.return
// CHECK: %[[IS_FIRST:.*]] = tt.splat %{{.*}} : i1 -> tensor<2xi1>
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[IS_FIRST]], %[[PARTIAL]], %[[COMBINED]] : tensor<2xi1>, tensor<2xf32>
// CHECK-NEXT: scf.yield %[[NEXT]] : tensor<2xf32>
// CHECK: tt.store %{{.*}}, %[[SUMS]] : tensor<2x!tt.ptr<f32>>

tt.func public @row_sums(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xr = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %x = tt.expand_dims %xr {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %rr = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %r = tt.expand_dims %rr {axis = 0 : i32} : tensor<65536xi32> -> tensor<1x65536xi32>
  %n = arith.constant dense<65536> : tensor<2x1xi32>
  %row = arith.muli %x, %n : tensor<2x1xi32>
  %rowb = tt.broadcast %row : tensor<2x1xi32> -> tensor<2x65536xi32>
  %rb = tt.broadcast %r : tensor<1x65536xi32> -> tensor<2x65536xi32>
  %idx = arith.addi %rowb, %rb : tensor<2x65536xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<2x65536x!tt.ptr<f32>>
  %p = tt.addptr %ins, %idx : tensor<2x65536x!tt.ptr<f32>>, tensor<2x65536xi32>
  %v = tt.load %p : tensor<2x65536x!tt.ptr<f32>>
  %e = math.exp %v : tensor<2x65536xf32>
  %sum = "tt.reduce"(%e) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rt: f32):
    %t = arith.addf %l, %rt : f32
    tt.reduce.return %t : f32
  }) : (tensor<2x65536xf32>) -> tensor<2xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  %op = tt.addptr %outs, %xr : tensor<2x!tt.ptr<f32>>, tensor<2xi32>
  tt.store %op, %sum : tensor<2x!tt.ptr<f32>>
  tt.return
}

// -----

// A scan over 131072 f32 runs in strips of 8192: each strip's scan is
// combined element by element with the result carried from the strips
// before (not in the first strip), and the strip's last result is carried
// on (a reduction that keeps the later of every two).

// CHECK-LABEL: tt.func public @scan
// CHECK-DAG: %[[INITIAL:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[STRIP:.*]] = %[[ZERO]] to %{{.*}} step %{{.*}} iter_args(%[[CARRY:.*]] = %[[INITIAL]]) -> (f32) : i32 {
// CHECK: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[STRIP]], %[[ZERO]] : i32
// CHECK: %[[OWN:.*]] = "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}>
// CHECK: }) : (tensor<8192xf32>) -> tensor<8192xf32>
// CHECK-NEXT: %[[CARRIES:.*]] = tt.splat %[[CARRY]] : f32 -> tensor<8192xf32>
// CHECK-NEXT: %[[WITH_CARRY:.*]] = "tt.map_elementwise"(%[[CARRIES]], %[[OWN]]) <{pack = 1 : i32}>
// CHECK: %[[FIRSTS:.*]] = tt.splat %[[IS_FIRST]] : i1 -> tensor<8192xi1>
// CHECK-NEXT: %[[STRIP_SCAN:.*]] = arith.select %[[FIRSTS]], %[[OWN]], %[[WITH_CARRY]]
// CHECK-NEXT: %[[LAST:.*]] = "tt.reduce"(%[[STRIP_SCAN]]) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %[[LATER:.*]]: f32):
// CHECK-NEXT: tt.reduce.return %[[LATER]] : f32
// CHECK: tt.store %{{.*}}, %[[STRIP_SCAN]] : tensor<8192x!tt.ptr<f32>>
// CHECK-NEXT: scf.yield %[[LAST]] : f32
tt.func public @scan(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %p = tt.addptr %ins, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %v = tt.load %p : tensor<131072x!tt.ptr<f32>>
  %s = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%l: f32, %rt: f32):
    %t = arith.addf %l, %rt : f32
    tt.scan.return %t : f32
  }) : (tensor<131072xf32>) -> tensor<131072xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %op = tt.addptr %outs, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  tt.store %op, %s : tensor<131072x!tt.ptr<f32>>
  tt.return
}

// -----

// A reverse scan runs its strips from the end of the axis.

// CHECK-LABEL: tt.func public @reverse_scan
// CHECK-DAG: %[[LAST_START:.*]] = arith.constant 122880 : i32
// CHECK: scf.for %[[INDEX:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}}) -> (f32) : i32 {
// CHECK-NEXT: %[[START:.*]] = arith.subi %[[LAST_START]], %[[INDEX]] : i32
// CHECK: tt.splat %[[START]] : i32 -> tensor<8192xi32>
// CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}>
// CHECK: "tt.reduce"
// CHECK-NEXT: ^bb0(%[[EARLIER:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: tt.reduce.return %[[EARLIER]] : f32
tt.func public @reverse_scan(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %p = tt.addptr %ins, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %v = tt.load %p : tensor<131072x!tt.ptr<f32>>
  %s = "tt.scan"(%v) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%l: f32, %rt: f32):
    %t = arith.addf %l, %rt : f32
    tt.scan.return %t : f32
  }) : (tensor<131072xf32>) -> tensor<131072xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %op = tt.addptr %outs, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  tt.store %op, %s : tensor<131072x!tt.ptr<f32>>
  tt.return
}

// -----

// A reshape mixes the axes it merges, so neither side could run in strips:
// the block goes through scratch memory around each reshape (stored in
// row-major order, loaded back in the reshaped shape), and each side runs in
// strips of its own, one loop after the other: the load and its store to
// scratch, the transposition between the two scratch regions, the store of
// the result.

// CHECK-LABEL: tt.func public @reshape
// CHECK-NOT: tt.reshape
// CHECK: %[[FIRST:.*]] = dma.scratch 524288 : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
// CHECK: tt.splat %[[FIRST]]
// CHECK: tt.store
// CHECK: %[[SECOND:.*]] = dma.scratch 524288 : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.splat %[[FIRST]]
// CHECK: tt.load
// CHECK: tt.trans
// CHECK: tt.splat %[[SECOND]]
// CHECK: tt.store
// CHECK: scf.for
// CHECK: tt.splat %[[SECOND]]
// CHECK: tt.load
// CHECK: tt.store
// CHECK-NOT: tt.store
tt.func public @reshape(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %p = tt.addptr %ins, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %v = tt.load %p : tensor<131072x!tt.ptr<f32>>
  %m = tt.reshape %v : tensor<131072xf32> -> tensor<256x512xf32>
  %t = tt.trans %m {order = array<i32: 1, 0>} : tensor<256x512xf32> -> tensor<512x256xf32>
  %f = tt.reshape %t : tensor<512x256xf32> -> tensor<131072xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %op = tt.addptr %outs, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  tt.store %op, %f : tensor<131072x!tt.ptr<f32>>
  tt.return
}

// -----

// Offsets made by reshaping a range (`tl.arange(0, 131072).reshape(256,
// 512)`) become one range per dimension, broadcast and scaled by its
// row-major stride; the rows are then an axis of their own, which runs in
// strips (the reduction is over the columns).

// CHECK-LABEL: tt.func public @reshaped_range
// CHECK-NOT: tt.reshape
// CHECK: tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
// CHECK: scf.for %[[ROWS:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: tt.splat %[[ROWS]] : i32 -> tensor<16xi32>
// CHECK: %[[STRIDES:.*]] = arith.constant dense<512> : tensor<16x512xi32>
// CHECK: arith.muli %{{.*}}, %[[STRIDES]] : tensor<16x512xi32>
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
tt.func public @reshaped_range(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %offs = tt.reshape %r : tensor<131072xi32> -> tensor<256x512xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<256x512x!tt.ptr<f32>>
  %p = tt.addptr %ins, %offs : tensor<256x512x!tt.ptr<f32>>, tensor<256x512xi32>
  %v = tt.load %p : tensor<256x512x!tt.ptr<f32>>
  %sq = arith.mulf %v, %v : tensor<256x512xf32>
  %sum = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rt: f32):
    %t = arith.addf %l, %rt : f32
    tt.reduce.return %t : f32
  }) : (tensor<256x512xf32>) -> tensor<256xf32>
  %rows = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %op = tt.addptr %outs, %rows : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %op, %sum : tensor<256x!tt.ptr<f32>>
  tt.return
}

// -----

// A persistent kernel: each program strides over rows of 65536 f32 (256 KiB
// a row), normalising each by its sum. The reduction and the store are in
// the loop over rows, so the strips run in its body: a loop over strips for
// the sum, then one for the stores. The range and its mask, computed once
// before the loop over rows, are computed again in each strip, and the
// whole-row ones are gone.

// CHECK-LABEL: tt.func public @persistent_rows
// CHECK-NOT: tensor<65536
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: %[[SUM:.*]] = scf.for %[[STRIP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) : i32 {
// CHECK: %[[RANGE:.*]] = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32>
// CHECK-NEXT: %[[FIRSTS:.*]] = tt.splat %[[STRIP]] : i32 -> tensor<8192xi32>
// CHECK-NEXT: %[[SLICE:.*]] = arith.addi %[[RANGE]], %[[FIRSTS]] : tensor<8192xi32>
// CHECK-NEXT: %[[LIMIT:.*]] = tt.splat %{{.*}} : i32 -> tensor<8192xi32>
// CHECK-NEXT: %[[MASK:.*]] = arith.cmpi slt, %[[SLICE]], %[[LIMIT]] : tensor<8192xi32>
// CHECK: tt.load %{{.*}}, %[[MASK]] : tensor<8192x!tt.ptr<f32>>
// CHECK: "tt.reduce"
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<8192x!tt.ptr<f32>>
// CHECK: tt.splat %[[SUM]] : f32 -> tensor<8192xf32>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<8192x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @persistent_rows(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %rows: i32, %cols: i32) {
  %range = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %limit = tt.splat %cols : i32 -> tensor<65536xi32>
  %mask = arith.cmpi slt, %range, %limit : tensor<65536xi32>
  %pid = tt.get_program_id x : i32
  %step = tt.get_num_programs x : i32
  scf.for %row = %pid to %rows step %step : i32 {
    %start = arith.muli %row, %cols : i32
    %xrow = tt.addptr %x, %start : !tt.ptr<f32>, i32
    %xs = tt.splat %xrow : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %range : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    %xv = tt.load %xp, %mask : tensor<65536x!tt.ptr<f32>>
    %s = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<65536xf32>) -> f32
    %ss = tt.splat %s : f32 -> tensor<65536xf32>
    %r = arith.divf %xv, %ss : tensor<65536xf32>
    %orow = tt.addptr %out, %start : !tt.ptr<f32>, i32
    %os = tt.splat %orow : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %op = tt.addptr %os, %range : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    tt.store %op, %r, %mask : tensor<65536x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// The same loop over rows scaled by weights loaded once before it: a strip
// would have to load the weights again, so the kernel stays whole (and the
// program stage reports the plan that does not fit).

// CHECK-LABEL: tt.func public @weights_before_the_rows
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<65536x!tt.ptr<f32>>
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<65536x!tt.ptr<f32>>
tt.func public @weights_before_the_rows(%x: !tt.ptr<f32>, %w: !tt.ptr<f32>, %out: !tt.ptr<f32>, %rows: i32, %cols: i32) {
  %range = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %limit = tt.splat %cols : i32 -> tensor<65536xi32>
  %mask = arith.cmpi slt, %range, %limit : tensor<65536xi32>
  %ws = tt.splat %w : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %wp = tt.addptr %ws, %range : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %wv = tt.load %wp, %mask : tensor<65536x!tt.ptr<f32>>
  %pid = tt.get_program_id x : i32
  %step = tt.get_num_programs x : i32
  scf.for %row = %pid to %rows step %step : i32 {
    %start = arith.muli %row, %cols : i32
    %xrow = tt.addptr %x, %start : !tt.ptr<f32>, i32
    %xs = tt.splat %xrow : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %range : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    %xv = tt.load %xp, %mask : tensor<65536x!tt.ptr<f32>>
    %s = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<65536xf32>) -> f32
    %ss = tt.splat %s : f32 -> tensor<65536xf32>
    %scaled = arith.mulf %xv, %wv : tensor<65536xf32>
    %r = arith.divf %scaled, %ss : tensor<65536xf32>
    %orow = tt.addptr %out, %start : !tt.ptr<f32>, i32
    %os = tt.splat %orow : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %op = tt.addptr %os, %range : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    tt.store %op, %r, %mask : tensor<65536x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Two loops over a 65536-element row in blocks of 65536 f32 (Liger-Kernel's
// cross entropy): the first reduces each block (its largest square), the second
// stores each block. Their blocks are axes of one length that no tensor
// shares, but their reductions and stores lie in different loops, so each
// is split in its own loop, one after the other: the second loop in strips
// of its stores, the first in strips its reduction combines.

// CHECK-LABEL: tt.func @two_loops_over_a_row
// CHECK: scf.for
// CHECK:   scf.for {{.*}} -> (f32)
// CHECK:     tt.load {{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
// CHECK:   "tt.reduce"
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     tt.store {{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
// CHECK-NOT: tensor<65536x
// CHECK: tt.return
tt.func @two_loops_over_a_row(%x: !tt.ptr<f32>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %step = arith.constant 65536 : i32
  %init = arith.constant 0xFF800000 : f32
  %max = scf.for %i = %c0 to %n step %step iter_args(%m = %init) -> (f32) : i32 {
    %range = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
    %start = tt.splat %i : i32 -> tensor<65536xi32>
    %offsets = arith.addi %start, %range : tensor<65536xi32>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offsets : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    %v = tt.load %ptrs : tensor<65536x!tt.ptr<f32>>
    %sq = arith.mulf %v, %v : tensor<65536xf32>
    %b = "tt.reduce"(%sq) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.maxnumf %a, %c : f32
      tt.reduce.return %t : f32
    }) : (tensor<65536xf32>) -> f32
    %next = arith.maxnumf %m, %b : f32
    scf.yield %next : f32
  }
  scf.for %i = %c0 to %n step %step : i32 {
    %range = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
    %start = tt.splat %i : i32 -> tensor<65536xi32>
    %offsets = arith.addi %start, %range : tensor<65536xi32>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offsets : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    %v = tt.load %ptrs : tensor<65536x!tt.ptr<f32>>
    %maxes = tt.splat %max : f32 -> tensor<65536xf32>
    %shifted = arith.subf %v, %maxes : tensor<65536xf32>
    tt.store %ptrs, %shifted : tensor<65536x!tt.ptr<f32>>
  }
  tt.return %max : f32
}

// -----

// A descriptor addresses its 512x512 block whole: the load and the store
// become accesses through pointers, bounded by the tensor's shape (zeros
// read past it), and run in strips of rows.

// CHECK-LABEL: tt.func public @large_descriptor
// CHECK-NOT: tt.descriptor_
// CHECK: scf.for
// CHECK: %[[ROWS:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x1xi32>
// CHECK: %[[INSIDE:.*]] = arith.andi
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<{{[0-9]+}}x512xf32>
// CHECK: tt.load %{{.*}}, %[[INSIDE]], %[[ZEROS]] : tensor<{{[0-9]+}}x512x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %{{.*}}, %[[INSIDE]] : tensor<{{[0-9]+}}x512x!tt.ptr<f32>>
tt.func public @large_descriptor(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %m: i32, %n: i32) {
  %c512_i32 = arith.constant 512 : i32
  %c1_i64 = arith.constant 1 : i64
  %stride = arith.extsi %n : i32 to i64
  %src = tt.make_tensor_descriptor %in, [%m, %n], [%stride, %c1_i64] : <f32>, <512x512xf32>
  %dst = tt.make_tensor_descriptor %out, [%m, %n], [%stride, %c1_i64] : <f32>, <512x512xf32>
  %pid = tt.get_program_id x : i32
  %row = arith.muli %pid, %c512_i32 : i32
  %c0_i32 = arith.constant 0 : i32
  %v = tt.descriptor_load %src[%row, %c0_i32] : !tt.tensordesc<512x512xf32> -> tensor<512x512xf32>
  %d = arith.addf %v, %v : tensor<512x512xf32>
  tt.descriptor_store %dst[%row, %c0_i32], %d : !tt.tensordesc<512x512xf32>, tensor<512x512xf32>
  tt.return
}

// -----

// A concatenation of two 128K blocks goes through scratch: both operands
// are stored one after the other, in strips of one loop, and the result is
// loaded back in strips of its own.

// CHECK-LABEL: tt.func public @concatenation
// CHECK-NOT: tt.cat
// CHECK: %[[SCRATCH:.*]] = dma.scratch 1048576 : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: %[[POINTERS:.*]] = tt.splat %[[SCRATCH]]
// CHECK: tt.store
// CHECK-NOT: scf.for
// CHECK: arith.constant dense<131072>
// CHECK: tt.addptr %[[POINTERS]]
// CHECK: tt.store
// CHECK: scf.for
// CHECK: tt.splat %[[SCRATCH]]
// CHECK: tt.load
// CHECK: tt.store
tt.func public @concatenation(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %ap = tt.addptr %as, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %av = tt.load %ap : tensor<131072x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %r : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %bv = tt.load %bp : tensor<131072x!tt.ptr<f32>>
  %c = tt.cat %av, %bv : tensor<131072xf32> -> tensor<262144xf32>
  %r2 = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<262144x!tt.ptr<f32>>
  %op = tt.addptr %outs, %r2 : tensor<262144x!tt.ptr<f32>>, tensor<262144xi32>
  tt.store %op, %c : tensor<262144x!tt.ptr<f32>>
  tt.return
}

// -----

// A join ties the dimensions of its operands to those of its result but
// the last: 65536 pairs run in strips of rows of pairs.

// CHECK-LABEL: tt.func public @large_join
// CHECK: scf.for
// CHECK: tt.join %{{.*}}, %{{.*}} : tensor<{{[0-9]+}}xf32> -> tensor<{{[0-9]+}}x2xf32>
tt.func public @large_join(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %ap = tt.addptr %as, %r : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %av = tt.load %ap : tensor<65536x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %r : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %bv = tt.load %bp : tensor<65536x!tt.ptr<f32>>
  %j = tt.join %av, %bv : tensor<65536xf32> -> tensor<65536x2xf32>
  %c2 = arith.constant dense<2> : tensor<65536x1xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<65536xi32> -> tensor<65536x1xi32>
  %first = arith.muli %rows, %c2 : tensor<65536x1xi32>
  %pair = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %cols = tt.expand_dims %pair {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  %fb = tt.broadcast %first : tensor<65536x1xi32> -> tensor<65536x2xi32>
  %cb = tt.broadcast %cols : tensor<1x2xi32> -> tensor<65536x2xi32>
  %offs = arith.addi %fb, %cb : tensor<65536x2xi32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<65536x2x!tt.ptr<f32>>
  %op = tt.addptr %outs, %offs : tensor<65536x2x!tt.ptr<f32>>, tensor<65536x2xi32>
  tt.store %op, %j : tensor<65536x2x!tt.ptr<f32>>
  tt.return
}

// -----

// A descriptor the host passes (its shape and strides follow it among the
// arguments) is addressed from its base.

// CHECK-LABEL: tt.func public @large_host_descriptor
// CHECK-NOT: tt.descriptor_
// CHECK: %[[BASE:.*]] = dma.descriptor_base %arg0 : !tt.tensordesc<512x512xf32> -> !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.splat %[[BASE]]
// CHECK: tt.load
tt.func public @large_host_descriptor(%desc: !tt.tensordesc<512x512xf32>, %m: i32, %n: i32,
                                      %sm: i64, %sn: i64, %out: !tt.ptr<f32>) {
  %c0_i32 = arith.constant 0 : i32
  %v = tt.descriptor_load %desc[%c0_i32, %c0_i32] : !tt.tensordesc<512x512xf32> -> tensor<512x512xf32>
  %rows = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %c512 = arith.constant dense<512> : tensor<512x1xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %rs = arith.muli %r, %c512 : tensor<512x1xi32>
  %c = tt.expand_dims %rows {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
  %rb = tt.broadcast %rs : tensor<512x1xi32> -> tensor<512x512xi32>
  %cb = tt.broadcast %c : tensor<1x512xi32> -> tensor<512x512xi32>
  %offs = arith.addi %rb, %cb : tensor<512x512xi32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<512x512x!tt.ptr<f32>>
  %op = tt.addptr %outs, %offs : tensor<512x512x!tt.ptr<f32>>, tensor<512x512xi32>
  tt.store %op, %v : tensor<512x512x!tt.ptr<f32>>
  tt.return
}

// -----

// A gather from a 1 MiB source goes through scratch: the source is stored
// there in strips, and the result loaded from it in strips of the indices,
// after an assertion (in those strips) that they lie in the source. The
// indices' loop runs after the whole source is stored: it reads the region
// the other loop writes, so the two axes are not split together.

// CHECK-LABEL: tt.func public @large_gather
// CHECK-NOT: tt.gather
// CHECK: %[[SCRATCH:.*]] = dma.scratch 1048576 : !tt.ptr<f32>
// CHECK: scf.for
// CHECK: tt.splat %[[SCRATCH]]
// CHECK: tt.store
// CHECK: }
// CHECK: scf.for
// CHECK: %[[INDICES:.*]] = tt.load %{{.*}} : tensor<{{[0-9]+}}x!tt.ptr<i32>>
// CHECK: arith.cmpi sge, %[[INDICES]]
// CHECK: arith.cmpi slt, %[[INDICES]]
// CHECK: tt.assert %{{.*}}, "an index of tl.gather lies outside its source" : tensor<{{[0-9]+}}xi1>
// CHECK: tt.splat %[[SCRATCH]]
// CHECK: tt.load
// CHECK: tt.store
tt.func public @large_gather(%src: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  %ss = tt.splat %src : !tt.ptr<f32> -> tensor<262144x!tt.ptr<f32>>
  %sp = tt.addptr %ss, %r : tensor<262144x!tt.ptr<f32>>, tensor<262144xi32>
  %sv = tt.load %sp : tensor<262144x!tt.ptr<f32>>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %ip = tt.addptr %is, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  %iv = tt.load %ip : tensor<262144x!tt.ptr<i32>>
  %g = tt.gather %sv[%iv] {axis = 0 : i32} : (tensor<262144xf32>, tensor<262144xi32>) -> tensor<262144xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<262144x!tt.ptr<f32>>
  %op = tt.addptr %os, %r : tensor<262144x!tt.ptr<f32>>, tensor<262144xi32>
  tt.store %op, %g : tensor<262144x!tt.ptr<f32>>
  tt.return
}

// -----

// The strips of the 64K blocks would run at their last store, after the load
// of what their first store wrote to %mid: they stay whole, and the 128K
// blocks between them run in strips.

// CHECK-LABEL: tt.func public @straddled_reload
// CHECK: tt.load %{{.*}} : tensor<65536x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<65536x!tt.ptr<f32>>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
// CHECK: tt.store
// CHECK: }
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<65536x!tt.ptr<f32>>
tt.func public @straddled_reload(%in: !tt.ptr<f32>, %mid: !tt.ptr<f32>, %out: !tt.ptr<f32>, %copy: !tt.ptr<f32>) {
  %r = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %is = tt.splat %in : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %ip = tt.addptr %is, %r : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  %a = tt.load %ip : tensor<65536x!tt.ptr<f32>>
  %ms = tt.splat %mid : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %mp = tt.addptr %ms, %r : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  tt.store %mp, %a : tensor<65536x!tt.ptr<f32>>
  %r2 = tt.make_range {end = 131072 : i32, start = 0 : i32} : tensor<131072xi32>
  %ms2 = tt.splat %mid : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %mp2 = tt.addptr %ms2, %r2 : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  %b = tt.load %mp2 : tensor<131072x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<131072x!tt.ptr<f32>>
  %op = tt.addptr %os, %r2 : tensor<131072x!tt.ptr<f32>>, tensor<131072xi32>
  tt.store %op, %b : tensor<131072x!tt.ptr<f32>>
  %cs = tt.splat %copy : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
  %cp = tt.addptr %cs, %r : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
  tt.store %cp, %a : tensor<65536x!tt.ptr<f32>>
  tt.return
}

// -----

// A histogram of 262144 bins runs in strips of its bins: each strip counts
// the values shifted to its first bin. The values stay whole.

// CHECK-LABEL: tt.func public @large_histogram
// CHECK: %[[VALUES:.*]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<i32>>
// CHECK: scf.for %[[START:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: %[[FIRST:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[FIRSTS:.*]] = tt.splat %[[FIRST]] : i32 -> tensor<1024xi32>
// CHECK: %[[SHIFTED:.*]] = arith.subi %[[VALUES]], %[[FIRSTS]] : tensor<1024xi32>
// CHECK: tt.histogram %[[SHIFTED]] : tensor<1024xi32> -> tensor<{{[0-9]+}}xi32>
// CHECK: tt.store
tt.func public @large_histogram(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %is = tt.splat %in : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
  %ip = tt.addptr %is, %r : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
  %v = tt.load %ip : tensor<1024x!tt.ptr<i32>>
  %h = tt.histogram %v : tensor<1024xi32> -> tensor<262144xi32>
  %b = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %op = tt.addptr %os, %b : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  tt.store %op, %h : tensor<262144x!tt.ptr<i32>>
  tt.return
}

// -----

// A loop over blocks of a row that stores each block as it sums it (as
// TorchInductor writes a softmax's second pass): its store runs in the
// strips of the reduction, at its place.

// CHECK-LABEL: tt.func public @store_in_a_reduced_loop
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}) -> (f32)
// CHECK: scf.for %{{.*}} -> (tensor<{{[0-9]+}}xf32>)
// CHECK: tt.load
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
// CHECK: "tt.reduce"
// CHECK: tt.store %arg2, %{{.*}} : !tt.ptr<f32>
tt.func public @store_in_a_reduced_loop(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %total: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c65536 = arith.constant 65536 : i32
  %zeros = arith.constant dense<0.000000e+00> : tensor<65536xf32>
  %r = tt.make_range {end = 65536 : i32, start = 0 : i32} : tensor<65536xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zeros) -> (tensor<65536xf32>) : i32 {
    %start = arith.muli %i, %c65536 : i32
    %starts = tt.splat %start : i32 -> tensor<65536xi32>
    %offsets = arith.addi %starts, %r : tensor<65536xi32>
    %is = tt.splat %in : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %ip = tt.addptr %is, %offsets : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    %v = tt.load %ip : tensor<65536x!tt.ptr<f32>>
    %e = math.exp %v : tensor<65536xf32>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<65536x!tt.ptr<f32>>
    %op = tt.addptr %os, %offsets : tensor<65536x!tt.ptr<f32>>, tensor<65536xi32>
    tt.store %op, %e : tensor<65536x!tt.ptr<f32>>
    %s = arith.addf %a, %e : tensor<65536xf32>
    scf.yield %s : tensor<65536xf32>
  }
  %sum = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tt.reduce.return %z : f32
  }) : (tensor<65536xf32>) -> f32
  tt.store %total, %sum : !tt.ptr<f32>
  tt.return
}

// -----

// Every axis of a 1 MiB block of 8x8x8x8x8x8 (the form of `tl.flip`'s and
// `tl.sort`'s networks) is reduced, so no axis runs in strips: the work runs
// through scratch memory instead, one loop over flat strips for each run of
// element-by-element operations, one over strips of each reduction's
// results (as tiles of 512 results by the 8 elements along the axis, at
// their row-major offsets). The regions of the blocks that are no longer
// read are taken again; the indices are computed in each loop.

// CHECK-LABEL: tt.func public @swaps
// CHECK-NOT: tensor<8x8x8x8x8x8xi32>
// CHECK: %[[LOADED:.*]] = dma.scratch 1048576 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<i32>>
// CHECK: tt.splat %[[LOADED]]
// CHECK: tt.store
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK: %[[SUMS:.*]] = dma.scratch 131072 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: tt.splat %[[LOADED]] : !tt.ptr<i32> -> tensor<512x8x!tt.ptr<i32>>
// CHECK: %[[TILE:.*]] = tt.load %{{.*}} : tensor<512x8x!tt.ptr<i32>>
// CHECK: "tt.reduce"(%[[TILE]]) <{axis = 1 : i32}>
// CHECK: arith.xori
// CHECK: tt.splat %[[SUMS]]
// CHECK: tt.store
// CHECK: %[[SWAPPED:.*]] = dma.scratch 1048576 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: tt.splat %[[SUMS]]
// CHECK: tt.load
// CHECK: tt.splat %[[LOADED]]
// CHECK: tt.load
// CHECK: arith.xori %{{.*}} : tensor<1024xi32>
// CHECK: tt.splat %[[SWAPPED]]
// CHECK: tt.store
// CHECK: scf.for
// CHECK: tt.splat %[[SWAPPED]] : !tt.ptr<i32> -> tensor<512x8x!tt.ptr<i32>>
// CHECK: "tt.reduce"
// CHECK: tt.splat %[[SUMS]]
// CHECK: tt.store
// CHECK: scf.for
// CHECK: tt.splat %[[SWAPPED]]
// CHECK: tt.splat %[[LOADED]]
// CHECK: tt.store
// CHECK: tt.splat %arg1
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NOT: scf.for
tt.func public @swaps(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %r = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  %ins = tt.splat %in : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %p = tt.addptr %ins, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  %v = tt.load %p : tensor<262144x!tt.ptr<i32>>
  %x0 = tt.reshape %v : tensor<262144xi32> -> tensor<8x8x8x8x8x8xi32>
  %s0 = "tt.reduce"(%x0) <{axis = 0 : i32}> ({
  ^bb0(%a0: i32, %b0: i32):
    %t0 = arith.xori %a0, %b0 : i32
    tt.reduce.return %t0 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e0 = tt.expand_dims %s0 {axis = 0 : i32} : tensor<8x8x8x8x8xi32> -> tensor<1x8x8x8x8x8xi32>
  %c0 = tt.broadcast %e0 : tensor<1x8x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x1 = arith.xori %x0, %c0 : tensor<8x8x8x8x8x8xi32>
  %s1 = "tt.reduce"(%x1) <{axis = 1 : i32}> ({
  ^bb0(%a1: i32, %b1: i32):
    %t1 = arith.xori %a1, %b1 : i32
    tt.reduce.return %t1 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e1 = tt.expand_dims %s1 {axis = 1 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x1x8x8x8x8xi32>
  %c1 = tt.broadcast %e1 : tensor<8x1x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x2 = arith.xori %x1, %c1 : tensor<8x8x8x8x8x8xi32>
  %s2 = "tt.reduce"(%x2) <{axis = 2 : i32}> ({
  ^bb0(%a2: i32, %b2: i32):
    %t2 = arith.xori %a2, %b2 : i32
    tt.reduce.return %t2 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e2 = tt.expand_dims %s2 {axis = 2 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x1x8x8x8xi32>
  %c2 = tt.broadcast %e2 : tensor<8x8x1x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x3 = arith.xori %x2, %c2 : tensor<8x8x8x8x8x8xi32>
  %s3 = "tt.reduce"(%x3) <{axis = 3 : i32}> ({
  ^bb0(%a3: i32, %b3: i32):
    %t3 = arith.xori %a3, %b3 : i32
    tt.reduce.return %t3 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e3 = tt.expand_dims %s3 {axis = 3 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x1x8x8xi32>
  %c3 = tt.broadcast %e3 : tensor<8x8x8x1x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x4 = arith.xori %x3, %c3 : tensor<8x8x8x8x8x8xi32>
  %s4 = "tt.reduce"(%x4) <{axis = 4 : i32}> ({
  ^bb0(%a4: i32, %b4: i32):
    %t4 = arith.xori %a4, %b4 : i32
    tt.reduce.return %t4 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e4 = tt.expand_dims %s4 {axis = 4 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x1x8xi32>
  %c4 = tt.broadcast %e4 : tensor<8x8x8x8x1x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x5 = arith.xori %x4, %c4 : tensor<8x8x8x8x8x8xi32>
  %s5 = "tt.reduce"(%x5) <{axis = 5 : i32}> ({
  ^bb0(%a5: i32, %b5: i32):
    %t5 = arith.xori %a5, %b5 : i32
    tt.reduce.return %t5 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e5 = tt.expand_dims %s5 {axis = 5 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x8x1xi32>
  %c5 = tt.broadcast %e5 : tensor<8x8x8x8x8x1xi32> -> tensor<8x8x8x8x8x8xi32>
  %x6 = arith.xori %x5, %c5 : tensor<8x8x8x8x8x8xi32>
  %f = tt.reshape %x6 : tensor<8x8x8x8x8x8xi32> -> tensor<262144xi32>
  %outs = tt.splat %out : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %op = tt.addptr %outs, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  tt.store %op, %f : tensor<262144x!tt.ptr<i32>>
  tt.return
}

// -----

// A reduction and a scan of the whole flat block after such a network take
// its axis in chunks: the sum combines each chunk's sum into those before
// it (as a reduction of the two joined, so that any combine region
// applies), and the reverse scan runs from the last chunk, combining the
// values carried from the chunks after it into each scanned chunk.
// CHECK-LABEL: tt.func public @swaps_then_chunks
// CHECK: %[[TOTAL:.*]] = dma.scratch 4 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: %[[FIRST:.*]] = "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK: (tensor<1x2048xi32>) -> tensor<1xi32>
// CHECK: scf.for %{{.*}} = %c1_i32 to %c128_i32 step %c1_i32 iter_args(%[[BEFORE:.*]] = %[[FIRST]]) -> (tensor<1xi32>)
// CHECK: %[[CHUNK:.*]] = "tt.reduce"
// CHECK: tt.join %[[BEFORE]], %[[CHUNK]] : tensor<1xi32> -> tensor<1x2xi32>
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK: scf.yield
// CHECK: tt.store
// CHECK: tt.splat %[[TOTAL]]
// CHECK: tt.load
// CHECK: %[[SUM:.*]] = "tt.reduce"(%{{.*}}) <{axis = 0 : i32}>
// CHECK: (tensor<1xi32>) -> i32
// CHECK: scf.for
// CHECK: %[[LAST_CHUNK:.*]] = arith.constant 127 : i32
// CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = true}>
// CHECK: %[[COLUMN:.*]] = arith.constant dense<0> : tensor<1x1xi32>
// CHECK: tt.gather %{{.*}}[%[[COLUMN]]] {axis = 1 : i32}
// CHECK: scf.for %[[INDEX:.*]] = %c1_i32 to %c128_i32 step %c1_i32 iter_args(%[[CARRIED:.*]] = %{{.*}}) -> (tensor<1xi32>)
// CHECK: arith.subi %[[LAST_CHUNK]], %[[INDEX]]
// CHECK: %[[SCANNED:.*]] = "tt.scan"
// CHECK: tt.expand_dims %[[CARRIED]]
// CHECK: %[[SPREAD:.*]] = tt.broadcast
// CHECK: tt.join %[[SPREAD]], %[[SCANNED]] : tensor<1x2048xi32> -> tensor<1x2048x2xi32>
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 2 : i32}>
// CHECK: tt.store
// CHECK: tt.gather %{{.*}}[%[[COLUMN]]] {axis = 1 : i32}
// CHECK: scf.yield
// CHECK: tt.store %arg2, %[[SUM]] : !tt.ptr<i32>
tt.func public @swaps_then_chunks(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>, %total: !tt.ptr<i32>) {
  %r = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  %ins = tt.splat %in : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %p = tt.addptr %ins, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  %v = tt.load %p : tensor<262144x!tt.ptr<i32>>
  %x0 = tt.reshape %v : tensor<262144xi32> -> tensor<8x8x8x8x8x8xi32>
  %s0 = "tt.reduce"(%x0) <{axis = 0 : i32}> ({
  ^bb0(%a0: i32, %b0: i32):
    %t0 = arith.xori %a0, %b0 : i32
    tt.reduce.return %t0 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e0 = tt.expand_dims %s0 {axis = 0 : i32} : tensor<8x8x8x8x8xi32> -> tensor<1x8x8x8x8x8xi32>
  %c0 = tt.broadcast %e0 : tensor<1x8x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x1 = arith.xori %x0, %c0 : tensor<8x8x8x8x8x8xi32>
  %s1 = "tt.reduce"(%x1) <{axis = 1 : i32}> ({
  ^bb0(%a1: i32, %b1: i32):
    %t1 = arith.xori %a1, %b1 : i32
    tt.reduce.return %t1 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e1 = tt.expand_dims %s1 {axis = 1 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x1x8x8x8x8xi32>
  %c1 = tt.broadcast %e1 : tensor<8x1x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x2 = arith.xori %x1, %c1 : tensor<8x8x8x8x8x8xi32>
  %s2 = "tt.reduce"(%x2) <{axis = 2 : i32}> ({
  ^bb0(%a2: i32, %b2: i32):
    %t2 = arith.xori %a2, %b2 : i32
    tt.reduce.return %t2 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e2 = tt.expand_dims %s2 {axis = 2 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x1x8x8x8xi32>
  %c2 = tt.broadcast %e2 : tensor<8x8x1x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x3 = arith.xori %x2, %c2 : tensor<8x8x8x8x8x8xi32>
  %s3 = "tt.reduce"(%x3) <{axis = 3 : i32}> ({
  ^bb0(%a3: i32, %b3: i32):
    %t3 = arith.xori %a3, %b3 : i32
    tt.reduce.return %t3 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e3 = tt.expand_dims %s3 {axis = 3 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x1x8x8xi32>
  %c3 = tt.broadcast %e3 : tensor<8x8x8x1x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x4 = arith.xori %x3, %c3 : tensor<8x8x8x8x8x8xi32>
  %s4 = "tt.reduce"(%x4) <{axis = 4 : i32}> ({
  ^bb0(%a4: i32, %b4: i32):
    %t4 = arith.xori %a4, %b4 : i32
    tt.reduce.return %t4 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e4 = tt.expand_dims %s4 {axis = 4 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x1x8xi32>
  %c4 = tt.broadcast %e4 : tensor<8x8x8x8x1x8xi32> -> tensor<8x8x8x8x8x8xi32>
  %x5 = arith.xori %x4, %c4 : tensor<8x8x8x8x8x8xi32>
  %s5 = "tt.reduce"(%x5) <{axis = 5 : i32}> ({
  ^bb0(%a5: i32, %b5: i32):
    %t5 = arith.xori %a5, %b5 : i32
    tt.reduce.return %t5 : i32
  }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
  %e5 = tt.expand_dims %s5 {axis = 5 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x8x1xi32>
  %c5 = tt.broadcast %e5 : tensor<8x8x8x8x8x1xi32> -> tensor<8x8x8x8x8x8xi32>
  %x6 = arith.xori %x5, %c5 : tensor<8x8x8x8x8x8xi32>
  %f = tt.reshape %x6 : tensor<8x8x8x8x8x8xi32> -> tensor<262144xi32>
  %outs = tt.splat %out : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
  %op = tt.addptr %outs, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
  %sum = "tt.reduce"(%f) <{axis = 0 : i32}> ({
  ^bb0(%a6: i32, %b6: i32):
    %t6 = arith.addi %a6, %b6 : i32
    tt.reduce.return %t6 : i32
  }) : (tensor<262144xi32>) -> i32
  %scan = "tt.scan"(%f) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a7: i32, %b7: i32):
    %t7 = arith.addi %a7, %b7 : i32
    tt.scan.return %t7 : i32
  }) : (tensor<262144xi32>) -> tensor<262144xi32>
  tt.store %op, %scan : tensor<262144x!tt.ptr<i32>>
  tt.store %total, %sum : !tt.ptr<i32>
  tt.return
}

// -----

// The same network in a loop over rows (a persistent kernel's): the loop's
// body runs it in loops of its own, through regions it takes again in each
// iteration.
// CHECK-LABEL: tt.func public @swaps_in_a_loop
// CHECK-NOT: tensor<8x8x8x8x8x8xi32>
// CHECK: scf.for %{{.*}} = %c0_i32 to %arg2 step %c1_i32
// CHECK: %[[OUT_ROW:.*]] = tt.addptr %arg1
// CHECK: %[[LOADED:.*]] = dma.scratch 1048576 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK: dma.scratch 131072 : !tt.ptr<i32>
// CHECK: scf.for
// CHECK: "tt.reduce"
// CHECK: tt.splat %[[LOADED]]
// CHECK: tt.splat %[[OUT_ROW]]
// CHECK: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @swaps_in_a_loop(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>, %rows: i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = tt.make_range {end = 262144 : i32, start = 0 : i32} : tensor<262144xi32>
  scf.for %row = %zero to %rows step %one : i32 {
    %c262144 = arith.constant 262144 : i32
    %start = arith.muli %row, %c262144 : i32
    %in_row = tt.addptr %in, %start : !tt.ptr<i32>, i32
    %out_row = tt.addptr %out, %start : !tt.ptr<i32>, i32
    %ins = tt.splat %in_row : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
    %p = tt.addptr %ins, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
    %v = tt.load %p : tensor<262144x!tt.ptr<i32>>
    %x0 = tt.reshape %v : tensor<262144xi32> -> tensor<8x8x8x8x8x8xi32>
    %s0 = "tt.reduce"(%x0) <{axis = 0 : i32}> ({
    ^bb0(%a0: i32, %b0: i32):
      %t0 = arith.xori %a0, %b0 : i32
      tt.reduce.return %t0 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e0 = tt.expand_dims %s0 {axis = 0 : i32} : tensor<8x8x8x8x8xi32> -> tensor<1x8x8x8x8x8xi32>
    %c0 = tt.broadcast %e0 : tensor<1x8x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
    %x1 = arith.xori %x0, %c0 : tensor<8x8x8x8x8x8xi32>
    %s1 = "tt.reduce"(%x1) <{axis = 1 : i32}> ({
    ^bb0(%a1: i32, %b1: i32):
      %t1 = arith.xori %a1, %b1 : i32
      tt.reduce.return %t1 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e1 = tt.expand_dims %s1 {axis = 1 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x1x8x8x8x8xi32>
    %c1 = tt.broadcast %e1 : tensor<8x1x8x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
    %x2 = arith.xori %x1, %c1 : tensor<8x8x8x8x8x8xi32>
    %s2 = "tt.reduce"(%x2) <{axis = 2 : i32}> ({
    ^bb0(%a2: i32, %b2: i32):
      %t2 = arith.xori %a2, %b2 : i32
      tt.reduce.return %t2 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e2 = tt.expand_dims %s2 {axis = 2 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x1x8x8x8xi32>
    %c2 = tt.broadcast %e2 : tensor<8x8x1x8x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
    %x3 = arith.xori %x2, %c2 : tensor<8x8x8x8x8x8xi32>
    %s3 = "tt.reduce"(%x3) <{axis = 3 : i32}> ({
    ^bb0(%a3: i32, %b3: i32):
      %t3 = arith.xori %a3, %b3 : i32
      tt.reduce.return %t3 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e3 = tt.expand_dims %s3 {axis = 3 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x1x8x8xi32>
    %c3 = tt.broadcast %e3 : tensor<8x8x8x1x8x8xi32> -> tensor<8x8x8x8x8x8xi32>
    %x4 = arith.xori %x3, %c3 : tensor<8x8x8x8x8x8xi32>
    %s4 = "tt.reduce"(%x4) <{axis = 4 : i32}> ({
    ^bb0(%a4: i32, %b4: i32):
      %t4 = arith.xori %a4, %b4 : i32
      tt.reduce.return %t4 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e4 = tt.expand_dims %s4 {axis = 4 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x1x8xi32>
    %c4 = tt.broadcast %e4 : tensor<8x8x8x8x1x8xi32> -> tensor<8x8x8x8x8x8xi32>
    %x5 = arith.xori %x4, %c4 : tensor<8x8x8x8x8x8xi32>
    %s5 = "tt.reduce"(%x5) <{axis = 5 : i32}> ({
    ^bb0(%a5: i32, %b5: i32):
      %t5 = arith.xori %a5, %b5 : i32
      tt.reduce.return %t5 : i32
    }) : (tensor<8x8x8x8x8x8xi32>) -> tensor<8x8x8x8x8xi32>
    %e5 = tt.expand_dims %s5 {axis = 5 : i32} : tensor<8x8x8x8x8xi32> -> tensor<8x8x8x8x8x1xi32>
    %c5 = tt.broadcast %e5 : tensor<8x8x8x8x8x1xi32> -> tensor<8x8x8x8x8x8xi32>
    %x6 = arith.xori %x5, %c5 : tensor<8x8x8x8x8x8xi32>
    %f = tt.reshape %x6 : tensor<8x8x8x8x8x8xi32> -> tensor<262144xi32>
    %outs = tt.splat %out_row : !tt.ptr<i32> -> tensor<262144x!tt.ptr<i32>>
    %op = tt.addptr %outs, %r : tensor<262144x!tt.ptr<i32>>, tensor<262144xi32>
    tt.store %op, %f : tensor<262144x!tt.ptr<i32>>
  }
  tt.return
}
