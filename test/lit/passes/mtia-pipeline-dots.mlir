// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{num-stages=2}, mtia-pipeline-dots)' | FileCheck %s
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target, mtia-pipeline-dots)' | FileCheck %s --check-prefix=TWO
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{num-stages=1}, mtia-pipeline-dots)' | FileCheck %s --check-prefix=NONE
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{num-stages=1 max-stages=1}, mtia-pipeline-dots)' | FileCheck %s --check-prefix=BOUND

// A loop has the launch's stages (`mtia.num_stages`, Triton's default of 3
// here) unless it has its own (`tt.num_stages`): two compute its
// independent dots one iteration ahead (CHECK), three or more two, as far
// as the loop's estimated schedule needs (TWO), one leaves it alone (the
// NONE prefix; loads stream ahead through their pages anyway).

// NONE-LABEL: tt.func @scores
// NONE-NOT: scf.if
// NONE: scf.for
// NONE-NOT: scf.for
// NONE: tt.return

// The product of an operand loaded at the induction variable, and the
// scaling and row maximum computed from it alone, are computed for the first
// iteration before the loop and for the next one in the body: the loads and
// the dot first, the rest after this iteration's own work. The pipelined
// loop stops before the last iteration, which runs in a loop of its own on
// the values computed ahead for it, so nothing is loaded or multiplied past
// the end; the first iteration's values are computed only when the loop runs
// an iteration (zeros otherwise): its products in a guard of their own, then
// what follows from them in another. The update of the carried sum, which
// nothing else in the iteration needs, goes last.

// CHECK-LABEL: tt.func @scores
// CHECK-SAME: (%[[Q:.*]]: tensor<16x16xf16>, %[[PTRS:.*]]: tensor<16x16x!tt.ptr<f16>>, %[[N:.*]]: i32)
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[C0:.*]], %[[N]] : i32
// CHECK-NEXT: %[[S0:.*]] = scf.if %[[RUNS]] -> (tensor<16x16xf32>) {
// CHECK-NEXT: tt.splat %[[C0]] : i32
// CHECK-NEXT: %[[P0:.*]] = tt.addptr
// CHECK-NEXT: tt.load %[[P0]] :
// CHECK-NEXT: %[[DOT0:.*]] = tt.dot %[[Q]]
// CHECK-NEXT: scf.yield %[[DOT0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZERO_PRODUCT:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT: scf.yield %[[ZERO_PRODUCT]]
// CHECK: %[[M0:.*]] = scf.if %[[RUNS]] -> (tensor<16xf32>) {
// CHECK-NEXT: %[[SCALED0:.*]] = arith.mulf %[[S0]]
// CHECK-NEXT: %[[MAX0:.*]] = "tt.reduce"(%[[SCALED0]])
// CHECK: scf.yield %[[MAX0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NEXT: scf.yield %[[ZEROS]]
// The last iteration starts at lower + ((upper - lower - 1) / step) * step,
// or at lower when there is none.
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK-NEXT: %[[SPAN1:.*]] = arith.subi %[[SPAN]], %[[ONE]] : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.divui %[[SPAN1]], %[[C16:.*]] : i32
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[STEPS]], %[[C16]] : i32
// CHECK-NEXT: %[[AFTER:.*]] = arith.addi %[[C0]], %[[OFFSET]] : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.select %[[ANY]], %[[AFTER]], %[[C0]] : i32
// CHECK-NEXT: %[[LOOP:.*]]:2 = scf.for %[[IV:.*]] = %[[C0]] to %[[LAST]] step %[[C16]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[M:.*]] = %[[M0]])
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %[[C16]] : i32
// CHECK-NEXT: tt.splat %[[NEXT]]
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.load
// CHECK-NEXT: %[[S:.*]] = tt.dot %[[Q]]
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[S]]
// CHECK-NEXT: %[[M_NEXT:.*]] = "tt.reduce"(%[[SCALED]])
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[M]]
// CHECK-NEXT: scf.yield %[[SUM]], %[[M_NEXT]]
// CHECK: %[[END:.*]] = scf.for %{{.*}} = %[[LAST]] to %[[N]] step %[[C16]] iter_args(%[[ACC_LAST:.*]] = %[[LOOP]]#0)
// CHECK-NOT: tt.dot
// CHECK-NEXT: %[[SUM_LAST:.*]] = arith.addf %[[ACC_LAST]], %[[LOOP]]#1
// CHECK-NEXT: scf.yield %[[SUM_LAST]]
// CHECK: tt.return %[[END]]
tt.func @scores(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %scale = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
  %init = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %scaled = arith.mulf %s, %scale : tensor<16x16xf32>
    %m = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A load that follows from the product (a gather at indices it computes) is
// computed before the loop only when the loop runs, too, so a loop that runs
// no iteration reads nothing.

// CHECK-LABEL: tt.func @gather_at_products
// CHECK: %[[RUNS:.*]] = arith.cmpi slt
// CHECK-NEXT: scf.if %[[RUNS]]
// CHECK: tt.dot
// CHECK: tt.load %{{.*}} : tensor<16x16x!tt.ptr<f32>>
// CHECK: } else {
// CHECK: scf.for
tt.func @gather_at_products(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %table: tensor<16x16x!tt.ptr<f32>>, %n: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %i = arith.fptosi %s : tensor<16x16xf32> to tensor<16x16xi32>
    %g = tt.addptr %table, %i : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %v = tt.load %g : tensor<16x16x!tt.ptr<f32>>
    %next = arith.addf %acc, %v : tensor<16x16xf32>
    scf.yield %next : tensor<16x16xf32>
  }
  tt.return %r : tensor<16x16xf32>
}

// -----

// Left alone: a loop that stores (the next iteration's load must not pass
// this iteration's store), and a loop whose dot accumulates into a carried
// value (its operands depend on the previous iteration).

// CHECK-LABEL: tt.func @stores
// CHECK-NOT: tt.dot
// CHECK: scf.for
// CHECK-LABEL: tt.func @accumulates
// CHECK-NOT: tt.dot
// CHECK: scf.for
tt.func @stores(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %out: tensor<16x16x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  scf.for %iv = %c0 to %n step %c16 : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    tt.store %out, %s : tensor<16x16x!tt.ptr<f32>>
  }
  tt.return
}
tt.func @accumulates(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  }
  tt.return %r : tensor<16x16xf32>
}

// -----

// With `ahead=2`, the product is computed two iterations ahead, and the
// scaling and row maximum computed from it alone one iteration ahead. The
// first round pipelines them as above; the second pipelines the dot alone
// in the loop the first round made: its product for that loop's second
// iteration is computed before it (when it runs one), right after the
// first iteration's and before what follows from that, the body multiplies
// the operands of the iteration after the next and scales the product it
// carries, and that loop's last iteration runs in a loop of its own, which
// multiplies nothing.

// TWO-LABEL: tt.func @two_ahead
// TWO-SAME: (%[[Q:.*]]: tensor<16x16xf16>, %[[PTRS:.*]]: tensor<16x16x!tt.ptr<f16>>, %[[N:.*]]: i32)
// TWO: %[[S0:.*]] = scf.if
// TWO: tt.dot %[[Q]]
// TWO: %[[LAST:.*]] = arith.select
// TWO-NEXT: %[[RUNS1:.*]] = arith.cmpi slt, %[[C0:.*]], %[[LAST]] : i32
// TWO-NEXT: %[[S1:.*]] = scf.if %[[RUNS1]] -> (tensor<16x16xf32>) {
// TWO-NEXT: %[[SECOND:.*]] = arith.addi %[[C0]], %[[C16:.*]] : i32
// TWO-NEXT: tt.splat %[[SECOND]]
// TWO-NEXT: tt.addptr
// TWO-NEXT: tt.load
// TWO-NEXT: %[[S1_THEN:.*]] = tt.dot %[[Q]]
// TWO-NEXT: scf.yield %[[S1_THEN]]
// TWO: %[[M0:.*]] = scf.if
// TWO-NEXT: arith.mulf %[[S0]]
// TWO: %[[LAST1:.*]] = arith.select
// TWO-NEXT: %[[LOOP:.*]]:3 = scf.for %[[IV:.*]] = %[[C0]] to %[[LAST1]] step %[[C16]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[M:.*]] = %[[M0]], %[[S:.*]] = %[[S1]])
// TWO-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %[[C16]] : i32
// TWO-NEXT: %[[AFTER_NEXT:.*]] = arith.addi %[[NEXT]], %[[C16]] : i32
// TWO-NEXT: tt.splat %[[AFTER_NEXT]]
// TWO-NEXT: tt.addptr
// TWO-NEXT: tt.load
// TWO-NEXT: %[[S_AFTER_NEXT:.*]] = tt.dot %[[Q]]
// TWO-NEXT: %[[SCALED:.*]] = arith.mulf %[[S]]
// TWO-NEXT: %[[M_NEXT:.*]] = "tt.reduce"(%[[SCALED]])
// TWO: %[[SUM:.*]] = arith.addf %[[ACC]], %[[M]]
// TWO-NEXT: scf.yield %[[SUM]], %[[M_NEXT]], %[[S_AFTER_NEXT]]
// TWO: %[[END1:.*]]:2 = scf.for %{{.*}} = %[[LAST1]] to %[[LAST]] step %[[C16]] iter_args(%{{.*}} = %[[LOOP]]#0, %{{.*}} = %[[LOOP]]#1)
// TWO-NOT: tt.dot
// TWO-NEXT: arith.mulf %[[LOOP]]#2
// TWO: scf.yield
// TWO: %[[END:.*]] = scf.for %{{.*}} = %[[LAST]] to %[[N]] step %[[C16]] iter_args(%[[ACC_LAST:.*]] = %[[END1]]#0)
// TWO-NOT: tt.dot
// TWO-NEXT: arith.addf %[[ACC_LAST]], %[[END1]]#1
// TWO: tt.return %[[END]]
tt.func @two_ahead(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %scale = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
  %init = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %scaled = arith.mulf %s, %scale : tensor<16x16xf32>
    %m = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// With `ahead=2`, what follows from the carried product (the scaling) moves
// up to right after the last use of the scaled scores it replaces, before
// this iteration's exponential: the units that compute it start on the next
// block while this iteration's chain runs, and the next scaled scores take
// the place of this iteration's.

// TWO-LABEL: tt.func @scaling_hoisted
// TWO: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SCALED:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// TWO: %[[S_AFTER_NEXT:.*]] = tt.dot
// TWO-NEXT: %[[SHIFTED:.*]] = arith.subf %[[SCALED]], %[[ACC]]
// TWO-NEXT: %[[SCALED_NEXT:.*]] = arith.mulf %[[S]]
// TWO-NEXT: %[[E:.*]] = math.exp2 %[[SHIFTED]]
// TWO-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[E]]
// TWO-NEXT: scf.yield %[[SUM]], %[[SCALED_NEXT]], %[[S_AFTER_NEXT]]
tt.func @scaling_hoisted(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %scale = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %scaled = arith.mulf %s, %scale : tensor<16x16xf32>
    %shifted = arith.subf %scaled, %acc : tensor<16x16xf32>
    %e = math.exp2 %shifted : tensor<16x16xf32>
    %next = arith.addf %acc, %e : tensor<16x16xf32>
    scf.yield %next : tensor<16x16xf32>
  }
  tt.return %r : tensor<16x16xf32>
}

// -----

// The loop reads the product itself outside what follows from it (the SIMD
// engine shifts the unscaled scores by their scaled row maximum, as Triton's
// tutorial writes attention): the loop carries the product, which the DPE
// computes straight into the buffer the loop carries it in, or the reduction
// engine relays. Before the loop, the row maximum of the first product, which
// waits for nothing but the product, has a guard of its own, and its scaling,
// which waits for the reduction, another.

// CHECK-LABEL: tt.func @product_carried
// CHECK: %[[FIRST:.*]] = scf.if %{{.*}} -> (tensor<16x16xf32>) {
// CHECK: %[[FIRST_MAX:.*]] = scf.if %{{.*}} -> (tensor<16xf32>) {
// CHECK-NEXT: "tt.reduce"(%[[FIRST]])
// CHECK: %[[FIRST_ROW:.*]] = scf.if %{{.*}} -> (tensor<16xf32>) {
// CHECK-NEXT: arith.mulf %[[FIRST_MAX]]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[M:.*]] = %{{.*}}, %[[S:.*]] = %[[FIRST]], %[[ROW_SCALED:.*]] = %[[FIRST_ROW]])
// CHECK: %[[S_NEXT:.*]] = tt.dot
// CHECK: arith.maxnumf %[[M]], %[[ROW_SCALED]]
// CHECK: arith.subf %[[S]]
// CHECK: scf.yield {{.*}}, %[[S_NEXT]],
tt.func @product_carried(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32, %scale: tensor<16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %low = arith.constant dense<0xFF800000> : tensor<16xf32>
  %r:2 = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero, %m = %low) -> (tensor<16x16xf32>, tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %row_scaled = arith.mulf %row, %scale : tensor<16xf32>
    %m_new = arith.maxnumf %m, %row_scaled : tensor<16xf32>
    %column = tt.expand_dims %m_new {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %rows = tt.broadcast %column : tensor<16x1xf32> -> tensor<16x16xf32>
    %shifted = arith.subf %s, %rows : tensor<16x16xf32>
    %next = arith.addf %acc, %shifted : tensor<16x16xf32>
    scf.yield %next, %m_new : tensor<16x16xf32>, tensor<16xf32>
  }
  tt.return %r#0 : tensor<16x16xf32>
}

// -----

// With `ahead=2`, the row maximum of the product carried for the next
// iteration moves up, but its scaling stays where it was, after this
// iteration's work: moved up, the SIMD engine would wait there for the
// reduction engine's maximum with this iteration's work queued behind.

// TWO-LABEL: tt.func @scaling_of_a_reduction_stays
// TWO: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[AHEAD:.*]] = %{{.*}})
// TWO: tt.dot
// TWO-NEXT: %[[ROW:.*]] = "tt.reduce"(%[[AHEAD]])
// TWO: arith.maxnumf %[[M]]
// TWO: %[[SUB:.*]] = arith.subf
// TWO-NEXT: arith.addf %[[ACC]], %[[SUB]]
// TWO-NEXT: arith.mulf %[[ROW]]
// TWO-NEXT: scf.yield
tt.func @scaling_of_a_reduction_stays(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32, %scale: tensor<16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %low = arith.constant dense<0xFF800000> : tensor<16xf32>
  %r:2 = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero, %m = %low) -> (tensor<16x16xf32>, tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %row_scaled = arith.mulf %row, %scale : tensor<16xf32>
    %m_new = arith.maxnumf %m, %row_scaled : tensor<16xf32>
    %column = tt.expand_dims %m_new {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %rows = tt.broadcast %column : tensor<16x1xf32> -> tensor<16x16xf32>
    %shifted = arith.subf %s, %rows : tensor<16x16xf32>
    %next = arith.addf %acc, %shifted : tensor<16x16xf32>
    scf.yield %next, %m_new : tensor<16x16xf32>, tensor<16xf32>
  }
  tt.return %r#0 : tensor<16x16xf32>
}

// -----

// With `ahead=2`, the loop of the last iteration of the loop the first round
// pipelined also takes the row maximum of the scores computed ahead for the
// next loop (and the masking they need) right after its last use of this
// iteration's scores: the reduction engine then reduces them before this
// iteration's row sum, which waits for the SIMD engine's exponentials.

// TWO-LABEL: tt.func @last_iteration_reduces_first
// TWO: scf.for
// TWO: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[SCORES:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// TWO: arith.subf %[[SCORES]]
// TWO-NEXT: %[[NEXT:.*]] = arith.select
// TWO-NEXT: "tt.reduce"(%[[NEXT]])
// TWO: math.exp2
// TWO-NEXT: "tt.reduce"
// TWO: scf.yield
tt.func @last_iteration_reduces_first(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32, %mask: tensor<16x16xi1>) -> (tensor<16x16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %none = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %low = arith.constant dense<0xFF800000> : tensor<16xf32>
  %masked = arith.constant dense<0xFF800000> : tensor<16x16xf32>
  %r:3 = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %zero, %m = %low, %l = %none) -> (tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %valid = arith.select %mask, %s, %masked : tensor<16x16xi1>, tensor<16x16xf32>
    %row = "tt.reduce"(%valid) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %m_new = arith.maxnumf %m, %row : tensor<16xf32>
    %column = tt.expand_dims %m_new {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %rows = tt.broadcast %column : tensor<16x1xf32> -> tensor<16x16xf32>
    %shifted = arith.subf %valid, %rows : tensor<16x16xf32>
    %e = math.exp2 %shifted : tensor<16x16xf32>
    %sum = "tt.reduce"(%e) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.addf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %l_new = arith.addf %l, %sum : tensor<16xf32>
    %next = arith.addf %acc, %e : tensor<16x16xf32>
    scf.yield %next, %m_new, %l_new : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  tt.return %r#0, %r#2 : tensor<16x16xf32>, tensor<16xf32>
}

// -----

// The first products of a pipelined loop that follows another are computed
// before that loop's last iteration (with the comparison that guards them),
// where the other units work on the last scores while the DPE would idle;
// what follows from them stays after it, in those units' program order.

// CHECK-LABEL: tt.func @first_products_move_up
// CHECK-SAME: (%[[Q:.*]]: tensor<16x16xf16>, %{{.*}}: tensor<16x16x!tt.ptr<f16>>, %[[SPLIT:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[FIRST:.*]]:2 = scf.for
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[SPLIT]], %[[N]] : i32
// CHECK-NEXT: %[[PRODUCT:.*]] = scf.if %[[RUNS]] -> (tensor<16x16xf32>) {
// CHECK: tt.dot %[[Q]]
// CHECK: %[[LAST:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0)
// CHECK-NOT: tt.dot
// CHECK: %[[ROW:.*]] = scf.if %[[RUNS]] -> (tensor<16xf32>) {
// CHECK-NEXT: "tt.reduce"(%[[PRODUCT]])
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[LAST]], %{{.*}} = %[[ROW]])
tt.func @first_products_move_up(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %split: i32, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %none = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %first = scf.for %iv = %c0 to %split step %c16 iter_args(%acc = %none) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %row : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  %second = scf.for %iv = %split to %n step %c16 iter_args(%acc = %first) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.minnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %row : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tt.return %second : tensor<16xf32>
}

// -----

// What follows from those first products without waiting for a reduction of
// them (here their row minimum) moves up too, but only above the last
// iteration of the loop before: the other units take it one iteration ahead,
// as in a pipelined body. What waits for the reduction (the scaling) stays
// after that iteration.

// CHECK-LABEL: tt.func @first_reductions_move_up_one_iteration
// CHECK: %[[FIRST:.*]]:2 = scf.for
// CHECK: %[[PRODUCT:.*]] = scf.if %[[RUNS:.*]] -> (tensor<16x16xf32>) {
// CHECK: tt.dot
// CHECK: %[[ROW:.*]] = scf.if %[[RUNS]] -> (tensor<16xf32>) {
// CHECK-NEXT: "tt.reduce"(%[[PRODUCT]])
// CHECK: %[[LAST:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0)
// CHECK: %[[ROW_SCALED:.*]] = scf.if %[[RUNS]] -> (tensor<16xf32>) {
// CHECK-NEXT: arith.mulf %[[ROW]]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[LAST]], %{{.*}} = %[[ROW_SCALED]])
tt.func @first_reductions_move_up_one_iteration(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %split: i32, %n: i32, %scale: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %none = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %first = scf.for %iv = %c0 to %split step %c16 iter_args(%acc = %none) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %row : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  %second = scf.for %iv = %split to %n step %c16 iter_args(%acc = %first) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %row = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.minnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %row_scaled = arith.mulf %row, %scale : tensor<16xf32>
    %next = arith.addf %acc, %row_scaled : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tt.return %second : tensor<16xf32>
}

// -----

// A loop's own `tt.num_stages` (`tl.range(..., num_stages=)`) overrides the
// launch's: one stage leaves the loop alone whatever the launch asks, four
// pipeline its dots twice (as far as its schedule needs), and the loops the
// pass makes keep the attribute. A bound of every loop's stages
// (`max-stages`, the compiler's last attempt when no local-memory plan
// fits) holds for a loop's own stages too (BOUND).

// CHECK-LABEL: tt.func @own_stages
// CHECK: scf.for {{.*}} {
// CHECK-NOT: scf.if
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NEXT: } {tt.num_stages = 4 : i32}
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NEXT: } {tt.num_stages = 4 : i32}
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NEXT: } {tt.num_stages = 4 : i32}
// CHECK: tt.return
// TWO-LABEL: tt.func @own_stages
// TWO: scf.for {{.*}} {
// TWO-NOT: scf.if
// TWO: } {tt.num_stages = 1 : i32}
// NONE-LABEL: tt.func @own_stages
// NONE: } {tt.num_stages = 1 : i32}
// NONE: scf.if
// BOUND-LABEL: tt.func @own_stages
// BOUND-NOT: scf.if
// BOUND: tt.return
tt.func @own_stages(%q: tensor<16x16xf16>, %ptrs: tensor<16x16x!tt.ptr<f16>>, %n: i32) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %init = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %one = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  } {tt.num_stages = 1 : i32}
  %four = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<16x16xi32>
    %p = tt.addptr %ptrs, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %k = tt.load %p : tensor<16x16x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  } {tt.num_stages = 4 : i32}
  tt.return %one, %four : tensor<16xf32>, tensor<16xf32>
}

// -----

// A loop whose products keep the DPE busier than the rest of its chain
// keeps the other units (a 128x128x128 product, then a scaling and a row
// maximum of it) spans two stages of its initiation interval: its dot goes
// one iteration ahead even with three stages, where the scores of @scores,
// whose chain is mostly latency, go two.

// TWO-LABEL: tt.func @dpe_bound
// TWO-COUNT-2: tt.dot
// TWO-NOT: tt.dot
// TWO: tt.return
tt.func @dpe_bound(%q: tensor<128x128xf16>, %ptrs: tensor<128x128x!tt.ptr<f16>>, %n: i32) -> tensor<128xf32> {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %scale = arith.constant dense<2.000000e+00> : tensor<128x128xf32>
  %init = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %r = scf.for %iv = %c0 to %n step %c128 iter_args(%acc = %init) -> (tensor<128xf32>) : i32 {
    %off = tt.splat %iv : i32 -> tensor<128x128xi32>
    %p = tt.addptr %ptrs, %off : tensor<128x128x!tt.ptr<f16>>, tensor<128x128xi32>
    %k = tt.load %p : tensor<128x128x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %scaled = arith.mulf %s, %scale : tensor<128x128xf32>
    %m = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %next = arith.addf %acc, %m : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tt.return %r : tensor<128xf32>
}

// -----

// Blocks read through a tensor descriptor (Triton's attention tutorial) are
// computed ahead like loads through pointers: the first iteration's in the
// guard before the loop, the next one's at the start of the body.

// CHECK-LABEL: tt.func @descriptor_reads
// CHECK: scf.if
// CHECK: tt.descriptor_load
// CHECK: tt.dot
// CHECK: scf.for
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi
// CHECK-NEXT: tt.descriptor_load %{{.*}}[%[[NEXT]], %{{.*}}]
// CHECK-NEXT: tt.dot
tt.func @descriptor_reads(%q: tensor<16x16xf16>, %desc: !tt.tensordesc<16x16xf16>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %init = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r = scf.for %iv = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %k = tt.descriptor_load %desc[%iv, %c0] : !tt.tensordesc<16x16xf16> -> tensor<16x16xf16>
    %s = tt.dot %q, %k, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %next = arith.addf %acc, %m : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}
