// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target, mtia-split-masked-loops, canonicalize)' | FileCheck %s

// Blocks of 64 keys up to %n, masked by `keys < n` before a row maximum:
// the mask holds for the whole block while iv + 63 < n, that is in the
// first (n - 64) / 64 + 1 iterations from 0 (none if n < 64). The
// first loop runs them without the select; the second, the loop as it was,
// runs the rest from where the first stopped, carrying its maximum on.

// CHECK-LABEL: tt.func public @tail_mask
// CHECK-SAME: (%[[X:.*]]: !tt.ptr<f32>, %[[OUT:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32)
// CHECK-DAG: %[[MINUS64:.*]] = arith.constant -64 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: arith.extsi %[[N]] : i32 to i64
// CHECK: %[[REST:.*]] = arith.addi %{{.*}}, %[[MINUS64]] : i64
// CHECK: arith.divsi %[[REST]], %[[C64]] : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[HEAD:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) : i32 {
// CHECK-NOT: arith.select
// CHECK-NOT: arith.cmpi
// CHECK: "tt.reduce"
// CHECK: scf.yield
// CHECK: %[[TAIL:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[HEAD]]) -> (f32) : i32 {
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: "tt.reduce"
// CHECK: tt.store %[[OUT]], %[[TAIL]]
tt.func public @tail_mask(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %init = arith.constant 0xFF800000 : f32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %max = scf.for %iv = %c0 to %n step %c64 iter_args(%m = %init) -> (f32) : i32 {
    %start = tt.splat %iv : i32 -> tensor<64xi32>
    %keys = arith.addi %start, %range : tensor<64xi32>
    %valid = arith.cmpi slt, %keys, %ns : tensor<64xi32>
    %p = tt.addptr %xs, %keys : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %kept = arith.select %valid, %v, %ninf : tensor<64xi1>, tensor<64xf32>
    %r = "tt.reduce"(%kept) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64xf32>) -> f32
    %next = arith.maxnumf %m, %r : f32
    scf.yield %next : f32
  }
  tt.store %out, %max : !tt.ptr<f32>
  tt.return
}

// -----

// A causal mask, keys[None, :] <= rows[:, None] with rows = 64 * pid +
// arange(64): it holds for the whole block while iv + 63 <= 64 * pid, so the
// blocks before the diagonal run without it (and without the `and` with the
// tail mask, which holds there too); the diagonal block runs the loop as it
// was.

// CHECK-LABEL: tt.func public @causal_mask
// CHECK: %[[SPLIT:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step
// CHECK-NOT: arith.select
// CHECK-NOT: arith.andi
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to
// CHECK: arith.cmpi sle
// CHECK: arith.andi
// CHECK: arith.select
tt.func public @causal_mask(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %pid = tt.get_program_id x : i32
  %first = arith.muli %pid, %c64 : i32
  %next = arith.addi %pid, %c1 : i32
  %end = arith.muli %next, %c64 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %firsts = tt.splat %first : i32 -> tensor<64xi32>
  %rows = arith.addi %firsts, %range : tensor<64xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rowsb = tt.broadcast %rows2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %ns = tt.splat %n : i32 -> tensor<1x64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %sum = scf.for %iv = %c0 to %end step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %start = tt.splat %iv : i32 -> tensor<64xi32>
    %keys = arith.addi %start, %range : tensor<64xi32>
    %keys2 = tt.expand_dims %keys {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %inside = arith.cmpi slt, %keys2, %ns : tensor<1x64xi32>
    %insideb = tt.broadcast %inside : tensor<1x64xi1> -> tensor<64x64xi1>
    %keysb = tt.broadcast %keys2 : tensor<1x64xi32> -> tensor<64x64xi32>
    %before = arith.cmpi sle, %keysb, %rowsb : tensor<64x64xi32>
    %valid = arith.andi %insideb, %before : tensor<64x64xi1>
    %p = tt.addptr %xs, %keysb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %v = tt.load %p : tensor<64x64x!tt.ptr<f32>>
    %kept = arith.select %valid, %v, %zero : tensor<64x64xi1>, tensor<64x64xf32>
    %more = arith.addf %acc, %kept : tensor<64x64xf32>
    scf.yield %more : tensor<64x64xf32>
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %op = tt.addptr %os, %rowsb : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %op, %sum : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Loops left as they are: a mask that holds only from some iteration on
// (keys >= n: the condition grows with the induction variable), and a mask
// that only guards a load (the load needs no select to apply it).

// CHECK-LABEL: tt.func public @left_alone
// CHECK-COUNT-2: scf.for
// CHECK-NOT: scf.for
tt.func public @left_alone(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %late = scf.for %iv = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64xf32>) : i32 {
    %start = tt.splat %iv : i32 -> tensor<64xi32>
    %keys = arith.addi %start, %range : tensor<64xi32>
    %valid = arith.cmpi sge, %keys, %ns : tensor<64xi32>
    %p = tt.addptr %xs, %keys : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %kept = arith.select %valid, %v, %zero : tensor<64xi1>, tensor<64xf32>
    %more = arith.addf %acc, %kept : tensor<64xf32>
    scf.yield %more : tensor<64xf32>
  }
  %loaded = scf.for %iv = %c0 to %n step %c64 iter_args(%acc = %late) -> (tensor<64xf32>) : i32 {
    %start = tt.splat %iv : i32 -> tensor<64xi32>
    %keys = arith.addi %start, %range : tensor<64xi32>
    %valid = arith.cmpi slt, %keys, %ns : tensor<64xi32>
    %p = tt.addptr %xs, %keys : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %p, %valid : tensor<64x!tt.ptr<f32>>
    %more = arith.addf %acc, %v : tensor<64xf32>
    scf.yield %more : tensor<64xf32>
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %op, %loaded : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// The same tail mask on the scores of a 128x128x128 product: the DPE bounds
// the loop (its initiation interval is the product's, masks or not), so a
// second loop would cost buffers and save nothing: the loop stays whole.

// CHECK-LABEL: tt.func public @dot_bound_tail_mask
// CHECK: scf.for
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: "tt.reduce"
// CHECK-NOT: scf.for
// CHECK: tt.return
tt.func public @dot_bound_tail_mask(%q: tensor<128x128xf16>, %ptrs: tensor<128x128x!tt.ptr<f16>>, %n: i32) -> tensor<128xf32> {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32>
  %init = arith.constant dense<0xFF800000> : tensor<128xf32>
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ns = tt.splat %n : i32 -> tensor<128xi32>
  %max = scf.for %iv = %c0 to %n step %c128 iter_args(%m = %init) -> (tensor<128xf32>) : i32 {
    %start = tt.splat %iv : i32 -> tensor<128xi32>
    %keys = arith.addi %start, %range : tensor<128xi32>
    %valid = arith.cmpi slt, %keys, %ns : tensor<128xi32>
    %row = tt.expand_dims %valid {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
    %mask = tt.broadcast %row : tensor<1x128xi1> -> tensor<128x128xi1>
    %k = tt.load %ptrs : tensor<128x128x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %kept = arith.select %mask, %s, %ninf : tensor<128x128xi1>, tensor<128x128xf32>
    %r = "tt.reduce"(%kept) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %next = arith.maximumf %m, %r : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tt.return %max : tensor<128xf32>
}

// -----

// The same tail mask in a loop with a loop inside: the loop spends its time
// in the inner loop, as many times over as it iterates, so its own mask does
// not bound it and it stays whole.

// CHECK-LABEL: tt.func public @mask_around_an_inner_loop
// CHECK: scf.for
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: scf.for
// CHECK: "tt.reduce"
// CHECK-NOT: arith.select
// CHECK: tt.store
tt.func public @mask_around_an_inner_loop(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %init = arith.constant 0xFF800000 : f32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %max = scf.for %iv = %c0 to %n step %c64 iter_args(%m = %init) -> (f32) : i32 {
    %start = tt.splat %iv : i32 -> tensor<64xi32>
    %keys = arith.addi %start, %range : tensor<64xi32>
    %valid = arith.cmpi slt, %keys, %ns : tensor<64xi32>
    %p = tt.addptr %xs, %keys : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %kept = arith.select %valid, %v, %ninf : tensor<64xi1>, tensor<64xf32>
    %scaled = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %kept) -> (tensor<64xf32>) : i32 {
      %twice = arith.addf %acc, %acc : tensor<64xf32>
      scf.yield %twice : tensor<64xf32>
    }
    %r = "tt.reduce"(%scaled) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64xf32>) -> f32
    %next = arith.maxnumf %m, %r : f32
    scf.yield %next : f32
  }
  tt.store %out, %max : !tt.ptr<f32>
  tt.return
}
