// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target,mtia-convert-tt-to-tile,mtia-lower-data-movement,canonicalize,cse)' | FileCheck %s

// The data-movement stage: structured, aligned accesses become strided DMA
// through circular buffers; the units are joined by circular buffers.

// CHECK-LABEL: tt.func @vector_add
// CHECK-DAG: %[[X:.*]] = cb.alloc "load0", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
// CHECK-DAG: %[[OUT:.*]] = cb.alloc "store1", simd -> dma_out : !cb.cb<1024xf32, pages = 2>
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: cb.reserve_back %[[X]], 1
// CHECK: dma.load %arg0[%[[START:.*]]] strides [%{{.*}}] bounds [%[[BOUND:.*]]] into %[[X]][0]
// CHECK: cb.push_back %[[X]], 1
// CHECK: cb.wait_front %[[X]], 1
// CHECK: %[[TILE:.*]] = cb.read_front %[[X]][0]
// The output page is reserved before the sum, which is computed into it and
// pushed right after it.
// CHECK: cb.reserve_back %[[OUT]], 1
// CHECK: %[[SUM:.*]] = tile.binary addf %[[TILE]], %[[TILE]]
// CHECK: cb.write_back %[[SUM]], %[[OUT]][0]
// CHECK: cb.push_back %[[OUT]], 1
// CHECK: cb.pop_front %[[X]], 1
// CHECK: cb.wait_front %[[OUT]], 1
// CHECK: dma.store %[[OUT]][0] to %arg1[%[[START]]] strides [%{{.*}}] bounds [%[[BOUND]]]
// CHECK: cb.pop_front %[[OUT]], 1
tt.func @vector_add(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offsets = arith.addi %starts, %range : tensor<1024xi32>
  %bound = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offsets, %bound : tensor<1024xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
  %sum = arith.addf %v, %v : tensor<1024xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A row that starts at an element offset known only at run time (row * 781
// floats) may be misaligned for the DMA engine: the program checks, and
// moves an aligned row in bursts, a misaligned one element by element, both
// with the bounds and padded with `other`; no index tile is needed.
// CHECK-LABEL: tt.func @unaligned_row
// CHECK: %[[ADDRESS:.*]] = tt.ptr_to_int %arg0
// CHECK: scf.if
// CHECK: dma.load %arg0[%[[OFFSET:.*]]] strides [%[[ONE:.*]]] bounds [%[[BOUND:.*]]] padding %[[PAD:.*]] into
// CHECK: } else {
// CHECK-NOT: tile.
// CHECK: dma.load elementwise %arg0[%{{.*}}] strides [%[[ONE]]] bounds [%[[BOUND]]] padding %[[PAD]] into
// CHECK-NEXT: }
tt.func @unaligned_row(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %row_stride: i32, %n: i32) {
  %pid = tt.get_program_id x : i32
  %row = arith.muli %pid, %row_stride : i32
  %base = tt.addptr %x, %row : !tt.ptr<f32>, i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %bound = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %bs = tt.splat %base : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %ptrs = tt.addptr %bs, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %ptrs, %mask, %ninf : tensor<1024x!tt.ptr<f32>>
  %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<1024xf32>) -> f32
  // The scalar result is stored from its rank-0 tile by the DMA engine.
  // CHECK: tile.reduce maxnumf
  // CHECK: cb.write_back %{{.*}}, %{{.*}}[0] : !cb.cb<f32, pages = 2>
  // CHECK: dma.scatter %{{.*}}[0] to %{{.*}}[%{{.*}}] : !cb.cb<f32, pages = 2>, !tt.ptr<f32>, !tile.tile<i32>
  %o = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  tt.store %o, %m : !tt.ptr<f32>
  tt.return
}

// -----

// A K loop: both operands stream into the dot-product engine through CBs
// deep enough for the DMA engine to prefetch 8 iterations ahead (at most
// 64 KiB per buffer), the accumulator starts from zeros the DPE clears
// itself, stays on the DPE across iterations, and reaches the SIMD engine
// through a CB after the loop.
// CHECK-LABEL: tt.func @k_loop
// CHECK-DAG: %[[A:.*]] = cb.alloc "load{{[0-9]+}}", dma_in -> dpe {run_ahead_pages = 6 : i64} : !cb.cb<32x32xf16, pages = 8>
// CHECK-DAG: %[[RESULT:.*]] = cb.alloc "forward{{[0-9]+}}", dpe -> simd : !cb.cb<32x32xf32, pages = 1>
// CHECK-NOT: simd -> dpe
// CHECK: %[[ZEROS:.*]] = tile.zeros : !tile.tile<32x32xf32>
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[ZEROS]])
// CHECK: dma.load %arg0[%{{.*}}] strides [%{{.*}}, %{{.*}}] bounds [%{{.*}}, %{{.*}}] into %[[A]][0]
// CHECK: tile.matmul
// CHECK: scf.yield
// CHECK: cb.write_back %{{.*}}, %[[RESULT]][0]
// CHECK: cb.read_front %[[RESULT]][0]
// CHECK: tile.binary maxnumf
tt.func @k_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cc = tt.expand_dims %rows {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %s32 = arith.constant dense<32> : tensor<32x1xi32>
  %ro = arith.muli %r, %s32 : tensor<32x1xi32>
  %rb = tt.broadcast %ro : tensor<32x1xi32> -> tensor<32x32xi32>
  %cb = tt.broadcast %cc : tensor<1x32xi32> -> tensor<32x32xi32>
  %offs = arith.addi %rb, %cb : tensor<32x32xi32>
  %ab = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %ap = tt.addptr %ab, %offs : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %acc:2 = scf.for %iv = %c0 to %k step %c32 iter_args(%sum = %zero, %p = %ap) -> (tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>) : i32 {
    %tile = tt.load %p : tensor<32x32x!tt.ptr<f16>>
    %d = tt.dot %tile, %tile, %sum : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %next = tt.addptr %p, %step : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %next : tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>
  }
  %relu = arith.maxnumf %acc#0, %zero : tensor<32x32xf32>
  %cbase = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %cp = tt.addptr %cbase, %offs : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
  tt.store %cp, %relu : tensor<32x32x!tt.ptr<f32>>
  tt.return
}

// -----

// An atomic adds a reduction result, from its rank-0 tile, to global memory
// on the DMA engine.
// CHECK-LABEL: tt.func @atomic_sum
// CHECK: %[[SUM:.*]] = tile.reduce addf
// CHECK: cb.write_back %[[SUM]], %[[TO_DMA:.*]][0] : !cb.cb<f32, pages = 1>
// CHECK: %[[VALUE:.*]] = cb.read_front %[[TO_DMA]][0]
// CHECK: dma.atomic_rmw fadd, acq_rel, chip %{{.*}}[%{{.*}}], %[[VALUE]] : !tt.ptr<f32>, !tile.tile<i32>, !tile.tile<f32>
tt.func @atomic_sum(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %sum: !tt.ptr<f32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
  %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<64xf32>) -> f32
  %true = arith.constant true
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %sum, %s, %true : (!tt.ptr<f32>, f32, i1) -> f32
  tt.return
}

// -----

// Offsets loaded from memory (an index table) and a modulo have no
// structure: the offsets are computed as a tile and the elements gathered.
// The i32 offsets of one tt.addptr index the gather as they are.
// CHECK-LABEL: tt.func @indexed
// CHECK: %[[TABLE:.*]] = cb.read_front
// CHECK-NOT: tile.cast
// CHECK: cb.write_back %[[TABLE]], %[[TO_DMA:.*]][0] : !cb.cb<64xi32
// CHECK: %[[INDICES:.*]] = cb.read_front %[[TO_DMA]][0]
// CHECK: dma.gather %arg0[%[[INDICES]]] into %{{.*}}[0] : !tt.ptr<f32>, !tile.tile<64xi32>
// CHECK: tile.binary remsi
// CHECK: dma.gather %arg0[%{{.*}}] into
tt.func @indexed(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ib = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %ip = tt.addptr %ib, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %table = tt.load %ip : tensor<64x!tt.ptr<i32>>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %base, %table : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %a = tt.load %p : tensor<64x!tt.ptr<f32>>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %range, %ms : tensor<64xi32>
  %q = tt.addptr %base, %wrapped : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %b = tt.load %q : tensor<64x!tt.ptr<f32>>
  %sum = arith.addf %a, %b : tensor<64xf32>
  %ob = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %op = tt.addptr %ob, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %op, %sum : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Buffers between compute units carry tiles of any type one after another:
// the reshapes and the transpose ping-pong between SIMD and MLU through one
// buffer each way, each page access viewing the largest page as its tile.
// CHECK-LABEL: tt.func @share_forward_buffers
// CHECK-COUNT-2: cb.alloc "forward{{[0-9]+}}"
// CHECK-NOT: cb.alloc
// CHECK: cb.write_back %{{.*}}, %[[TO_MLU:.*]][0] : !cb.cb<64xf32, pages = 1>
// CHECK: cb.write_back %{{.*}}, %[[TO_MLU]][0] : !cb.cb<64xf32, pages = 1> view !tile.tile<8x8xf32>
// CHECK: cb.read_front %[[TO_MLU]][0] : !cb.cb<64xf32, pages = 1> view !tile.tile<8x8xi8>
// CHECK: cb.write_back %{{.*}}, %{{.*}}[0] : !cb.cb<8x8xf32, pages = 1> view !tile.tile<64xi8>
tt.func @share_forward_buffers(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %a = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %b = arith.addf %a, %a : tensor<64xf32>
  %c = tt.reshape %b : tensor<64xf32> -> tensor<8x8xf32>
  %d = arith.mulf %c, %c : tensor<8x8xf32>
  %e = tt.trans %d {order = array<i32: 1, 0>} : tensor<8x8xf32> -> tensor<8x8xf32>
  %f = arith.fptosi %e : tensor<8x8xf32> to tensor<8x8xi8>
  %g = tt.reshape %f : tensor<8x8xi8> -> tensor<64xi8>
  %h = arith.sitofp %g : tensor<64xi8> to tensor<64xf32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %yp, %h : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Tiles that one unit passes to another while earlier ones are still held
// share one first-in first-out buffer with enough pages: the consumer reads
// each tile behind the pages it still holds and frees them in push order.
// CHECK-LABEL: tt.func @fifo_forward_buffers
// CHECK-DAG: %[[TO_MLU:.*]] = cb.alloc "forward{{[0-9]+}}", simd -> mlu : !cb.cb<64xf32, pages = 2>
// CHECK-DAG: %[[TO_SIMD:.*]] = cb.alloc "forward{{[0-9]+}}", mlu -> simd : !cb.cb<8x8xf32, pages = 2>
// CHECK: cb.write_back %{{.*}}, %[[TO_MLU]][0]
// CHECK: cb.write_back %{{.*}}, %[[TO_MLU]][0]
// CHECK: cb.wait_front %[[TO_SIMD]], 1
// CHECK-NEXT: %[[B:.*]] = cb.read_front %[[TO_SIMD]][0]
// CHECK-NEXT: cb.wait_front %[[TO_SIMD]], 2
// CHECK-NEXT: %[[C:.*]] = cb.read_front %[[TO_SIMD]][1]
// CHECK-NEXT: cb.reserve_back %[[TO_MLU]], 1
// CHECK-NEXT: %[[SUM:.*]] = tile.binary addf %[[B]], %[[C]]
// CHECK-NEXT: cb.write_back %[[SUM]], %[[TO_MLU]][0] : !cb.cb<64xf32, pages = 2> view !tile.tile<8x8xf32>
// CHECK-NEXT: cb.push_back %[[TO_MLU]], 1
// CHECK-NEXT: cb.pop_front %[[TO_SIMD]], 1
// CHECK-NEXT: cb.pop_front %[[TO_SIMD]], 1
tt.func @fifo_forward_buffers(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %a = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %b = arith.addf %a, %a : tensor<64xf32>
  %c = arith.mulf %a, %a : tensor<64xf32>
  %rb = tt.reshape %b : tensor<64xf32> -> tensor<8x8xf32>
  %rc = tt.reshape %c : tensor<64xf32> -> tensor<8x8xf32>
  %s = arith.addf %rb, %rc : tensor<8x8xf32>
  %t = tt.reshape %s : tensor<8x8xf32> -> tensor<64xf32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %yp, %t : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Pointers a loop advances by one amount for all elements, starting from
// offsets without structure (a modulo): the index tile is computed once,
// before the loop, and each iteration gathers from the base advanced by the
// iteration number times the increment.
// CHECK-LABEL: tt.func @loop_carried_modulo_pointers
// CHECK: %[[WRAPPED:.*]] = tile.binary remsi
// CHECK: cb.write_back %[[WRAPPED]], %[[TO_DMA:.*]][0] : !cb.cb<16xi32
// CHECK: %[[INDICES:.*]] = cb.read_front %[[TO_DMA]][0]
// The loop no longer carries the pointers.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{[^,]*}}) -> (!tile.tile<16xf32>)
// CHECK:   %[[K:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK:   %[[ELEMENTS:.*]] = arith.muli %[[K]], %{{.*}} : i64
// CHECK:   %[[BASE:.*]] = tt.addptr %arg0, %[[ELEMENTS]] : !tt.ptr<f32>, i64
// CHECK:   dma.gather %[[BASE]][%[[INDICES]]]
// CHECK: }
// CHECK: cb.pop_front %[[TO_DMA]], 1
tt.func @loop_carried_modulo_pointers(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %n: i32, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %step = arith.constant dense<16> : tensor<16xi32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ms = tt.splat %m : i32 -> tensor<16xi32>
  %wrapped = arith.remsi %range, %ms : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %init = tt.addptr %xs, %wrapped : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %init, %acc = %zero) -> (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) : i32 {
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %sum = arith.addf %acc, %v : tensor<16xf32>
    %next = tt.addptr %p, %step : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %next, %sum : tensor<16x!tt.ptr<f32>>, tensor<16xf32>
  }
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %yp, %r#1 : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A mask with a lower bound is not a set of bounds: the mask is computed as
// a tile, and the strided window moves the elements it picks one by one.
// CHECK-LABEL: tt.func @lower_bound_mask
// CHECK: %[[MASK:.*]] = tile.cmpi sge
// CHECK: cb.write_back %[[MASK]], %[[MASK_BUFFER:.*]][0] : !cb.cb<64xi1, pages = 1>
// CHECK: %[[M:.*]] = cb.read_front %[[MASK_BUFFER]][0]
// CHECK: dma.load elementwise %arg0[%{{.*}}] strides [%{{.*}}] mask %[[M]] into
tt.func @lower_bound_mask(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %lo: i32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %los = tt.splat %lo : i32 -> tensor<64xi32>
  %mask = arith.cmpi sge, %range, %los : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<64xf32>
  tt.store %p, %w : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Offsets wrapped by a modulo are their own remainder where the block stays
// below the divisor: the transfer is strided then, and gathers the wrapped
// offsets otherwise, which only that branch computes.
// CHECK-LABEL: tt.func @wrapped_rows
// CHECK-NOT: tile.binary remsi
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c64_i64 : i64
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %c63_i64 : i64
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %[[LAST]], %{{.*}} : i64
// CHECK: %[[ABOVE:.*]] = arith.cmpi sge, %[[FIRST]], %c0_i64 : i64
// CHECK: %[[HOLDS:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK: scf.if %[[HOLDS]] {
// CHECK:   dma.load %arg0[%{{.*}}] strides [%c1] bounds [%c64]
// CHECK: } else {
// CHECK:   %[[WRAPPED:.*]] = tile.binary remsi
// CHECK:   cb.write_back %[[WRAPPED]]
// CHECK:   %[[INDICES:.*]] = cb.read_front
// CHECK:   dma.gather %arg0[%[[INDICES]]] into
// CHECK: }
tt.func @wrapped_rows(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %pid = tt.get_program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %starts = tt.splat %start : i32 -> tensor<64xi32>
  %rows = arith.addi %starts, %range : tensor<64xi32>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %rows, %ms : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %wrapped : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %rows : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %yp, %v : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Triton's matmul tutorial wraps the rows of a 128 x 64 block of `a` with
// `% M`. Where the block crosses the end of the matrix, the gather's fallback
// fills the page in strips of 16 rows, each with a 4 KiB index tile computed
// on its rows alone (the wrapped row offsets of the strip, the column offsets
// shared by all), so no 32 KiB index tile of the whole block takes local
// memory; the store through the same offsets scatters in the same strips.
// CHECK-LABEL: tt.func @wrapped_block_in_strips
// CHECK-DAG: cb.alloc "forward{{[0-9]+}}", simd -> dma_in : !cb.cb<16x64xi32, pages = 1>
// CHECK-DAG: cb.alloc "forward{{[0-9]+}}", simd -> dma_out : !cb.cb<16x64xi32, pages = 1>
// CHECK-NOT: tile<128x64xi32>
// CHECK: scf.if
// CHECK: dma.load
// CHECK: } else {
// CHECK: dma.gather %{{.*}}[%{{.*}}] into %{{.*}}[0] : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<128x64xf16, pages = 2>
// CHECK: tile.iota 16 : !tile.tile<16x1xi32>
// CHECK: dma.gather %{{.*}}[%{{.*}}] into %{{.*}}[0] {row = 16 : i64} : !tt.ptr<f16>, !tile.tile<16x64xi32>
// CHECK-COUNT-5: dma.gather
// CHECK: dma.gather %{{.*}}[%{{.*}}] into %{{.*}}[0] {row = 112 : i64}
// CHECK-NOT: dma.gather
// CHECK: }
// CHECK: dma.store
// CHECK: } else {
// CHECK: dma.scatter %{{.*}}[0] to %{{.*}}[%{{.*}}] : !cb.cb<128x64xf16, pages = 2>, !tt.ptr<f16>, !tile.tile<16x64xi32>
// CHECK-COUNT-6: dma.scatter
// CHECK: dma.scatter %{{.*}}[0] to %{{.*}}[%{{.*}}] {row = 112 : i64}
// CHECK-NOT: tile<128x64xi32>
tt.func @wrapped_block_in_strips(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %pid = tt.get_program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %starts = tt.splat %start : i32 -> tensor<128xi32>
  %rows = arith.addi %starts, %range : tensor<128xi32>
  %ms = tt.splat %m : i32 -> tensor<128xi32>
  %wrapped = arith.remsi %rows, %ms : tensor<128xi32>
  %column = tt.expand_dims %wrapped {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c64 = arith.constant dense<64> : tensor<128x1xi32>
  %rowOffsets = arith.muli %column, %c64 : tensor<128x1xi32>
  %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %kRow = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowsB = tt.broadcast %rowOffsets : tensor<128x1xi32> -> tensor<128x64xi32>
  %kB = tt.broadcast %kRow : tensor<1x64xi32> -> tensor<128x64xi32>
  %offsets = arith.addi %rowsB, %kB : tensor<128x64xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %ap = tt.addptr %as, %offsets : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %v = tt.load %ap : tensor<128x64x!tt.ptr<f16>>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %offsets : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  tt.store %yp, %v : tensor<128x64x!tt.ptr<f16>>
  tt.return
}

// -----

// A page is addressed relative to the read pointer, so the first page is not
// freed while the tile behind it is still used: its pop waits until after the
// last use of that tile.
// CHECK-LABEL: tt.func @pops_wait_for_tiles_behind
// CHECK: %[[TO_MLU:.*]] = cb.alloc "forward{{[0-9]+}}", simd -> mlu : !cb.cb<8xf32, pages = 2>
// CHECK: %[[FIRST:.*]] = cb.read_front %[[TO_MLU]][0]
// CHECK: %[[SECOND:.*]] = cb.read_front %[[TO_MLU]][1]
// CHECK: tile.concat %[[FIRST]], %[[SECOND]]
// CHECK-NOT: cb.pop_front %[[TO_MLU]]
// CHECK: tile.concat %[[SECOND]], %[[SECOND]]
// CHECK-NEXT: cb.write_back
// CHECK-NEXT: cb.push_back
// CHECK-NEXT: cb.pop_front %[[TO_MLU]], 1
// CHECK-NEXT: cb.pop_front %[[TO_MLU]], 1
tt.func @pops_wait_for_tiles_behind(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %xp : tensor<8x!tt.ptr<f32>>
  %a = arith.addf %v, %v : tensor<8xf32>
  %b = arith.mulf %v, %v : tensor<8xf32>
  %ab = tt.cat %a, %b : tensor<8xf32> -> tensor<16xf32>
  %bb = tt.cat %b, %b : tensor<8xf32> -> tensor<16xf32>
  %s = arith.addf %ab, %bb : tensor<16xf32>
  %range16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %yp, %s : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Reads wait for the DMA writes to their argument that may come before
// them: before the loop when the write precedes it, in the loop when a
// write of an earlier iteration may.
// CHECK-LABEL: tt.func @reload_after_store
// CHECK: dma.store %{{.*}} to %arg1
// CHECK-NEXT: cb.pop_front
// CHECK-NEXT: dma.wait{{$}}
// CHECK-NEXT: scf.for
// CHECK-NOT: dma.wait
// CHECK: dma.load %arg1
// CHECK: dma.wait{{$}}
// CHECK-NEXT: dma.load %arg0
// CHECK: dma.store %{{.*}} to %arg0
tt.func @reload_after_store(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<64xf32>
  tt.store %yp, %w : tensor<64x!tt.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %again = tt.load %yp : tensor<64x!tt.ptr<f32>>
    %other = tt.load %xp : tensor<64x!tt.ptr<f32>>
    %sum = arith.addf %again, %other : tensor<64xf32>
    tt.store %xp, %sum : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// A store through pointers reinterpreted as pointers to i8 (the frontend
// stores booleans as bytes) moves through the base cast likewise.
// CHECK-LABEL: tt.func @bool_store
// CHECK: %[[BYTES:.*]] = tt.bitcast %arg1 : !tt.ptr<i1> -> !tt.ptr<i8>
// CHECK: dma.store %{{.*}}[0] to %[[BYTES]][%{{.*}}] strides [%{{.*}}] bounds [%{{.*}}] : !cb.cb<64xi8, pages = 2>, !tt.ptr<i8>
tt.func @bool_store(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %flags: !tt.ptr<i1> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %positive = arith.cmpf ogt, %v, %zero : tensor<64xf32>
  %bytes = arith.extui %positive : tensor<64xi1> to tensor<64xi8>
  %fs = tt.splat %flags : !tt.ptr<i1> -> tensor<64x!tt.ptr<i1>>
  %fp = tt.addptr %fs, %range : tensor<64x!tt.ptr<i1>>, tensor<64xi32>
  %fb = tt.bitcast %fp : tensor<64x!tt.ptr<i1>> -> tensor<64x!tt.ptr<i8>>
  tt.store %fb, %bytes : tensor<64x!tt.ptr<i8>>
  tt.return
}

// -----

// A scalar store of the control core waits for an earlier DMA read of its
// argument, which it would otherwise overtake.
// CHECK-LABEL: tt.func @scalar_store_after_load
// CHECK: dma.load %arg0
// CHECK: dma.wait{{$}}
// CHECK-NEXT: tt.store %arg0, %arg2
// CHECK-NOT: dma.wait
tt.func @scalar_store_after_load(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: f32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %a = tt.load %xp : tensor<64x!tt.ptr<f32>>
  tt.store %x, %v : !tt.ptr<f32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %yp, %a : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// A scalar computed from a reduction (a rank-0 tile) is stored by an
// indexed transfer of its one element: it has no window.
// CHECK-LABEL: tt.func @store_reduced_flag
// CHECK: tile.reduce maxnumf
// CHECK-NOT: dma.store
// CHECK: dma.scatter %{{.*}}[0] to %{{.*}}[%{{.*}}] : !cb.cb<i8, pages = 2>, !tt.ptr<i8>, !tile.tile<i32>
tt.func @store_reduced_flag(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %limit: f32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<64xf32>) -> f32
  %over = arith.cmpf ogt, %m, %limit : f32
  %flag = arith.extui %over : i1 to i8
  tt.store %out, %flag : !tt.ptr<i8>
  tt.return
}

// -----

// A descriptor load may drop the block's leading dimensions of size 1: they
// only place the tile and decide whether it is inside the tensor.
// CHECK-LABEL: tt.func @descriptor_drops_unit_dims
// CHECK: %[[INSIDE:.*]] = arith.cmpi sgt, %{{.*}}, %c0 : index
// CHECK: %[[ROWS:.*]] = arith.select %[[INSIDE]], %{{.*}}, %c0 : index
// CHECK: dma.load %arg0[%{{.*}}] strides [%c16, %c1] bounds [%[[ROWS]], %{{.*}}] padding %{{.*}} into %{{.*}}[0] : !tt.ptr<f16>, !cb.cb<16x16xf16, pages = 2>
// CHECK: dma.store %{{.*}}[0] to %arg0[%{{.*}}] strides [%c256, %c16, %c1]
tt.func @descriptor_drops_unit_dims(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %batches: i32, %m: i32, %b: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i64
  %c256 = arith.constant 256 : i64
  %desc = tt.make_tensor_descriptor %a, [%batches, %m, %m], [%c256, %c16, %c1] : <f16>, <1x16x16xf16>
  %v = tt.descriptor_load %desc[%b, %c0, %c0] : !tt.tensordesc<1x16x16xf16> -> tensor<16x16xf16>
  %w = arith.addf %v, %v : tensor<16x16xf16>
  %e = tt.expand_dims %w {axis = 0 : i32} : tensor<16x16xf16> -> tensor<1x16x16xf16>
  tt.descriptor_store %desc[%b, %c0, %c0], %e : !tt.tensordesc<1x16x16xf16>, tensor<1x16x16xf16>
  tt.return
}

// -----

// A block copied from one descriptor to another as it is loaded moves
// through a page. A coordinate that may be negative is asserted first: the
// transfer bounds the block from above only.
// CHECK-LABEL: tt.func @descriptor_copy
// CHECK: %[[START:.*]] = arith.cmpi sge, %arg2, %{{.*}} : i32
// CHECK: tt.assert %[[START]], "a tensor descriptor's block starts at a negative coordinate, before the tensor, which is not supported" : i1
// CHECK: dma.load %arg0
// CHECK: dma.store %{{.*}}[0] to %arg1
tt.func @descriptor_copy(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %row: i32) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c1 = arith.constant 1 : i64
  %c16_i64 = arith.constant 16 : i64
  %src = tt.make_tensor_descriptor %a, [%c16, %c16], [%c16_i64, %c1] : <f32>, <8x16xf32>
  %dst = tt.make_tensor_descriptor %b, [%c16, %c16], [%c16_i64, %c1] : <f32>, <8x16xf32>
  %v = tt.descriptor_load %src[%row, %c0] : !tt.tensordesc<8x16xf32> -> tensor<8x16xf32>
  tt.descriptor_store %dst[%c0, %c0], %v : !tt.tensordesc<8x16xf32>, tensor<8x16xf32>
  tt.return
}

// -----

// Rows of a descriptor block that no run time can align (here 16 bytes of
// i8 apart, under the DMA engine's 32-byte rule) move element by element,
// with no run-time choice.
// CHECK-LABEL: tt.func @descriptor_rows_never_aligned
// CHECK-NOT: scf.if
// CHECK: dma.load elementwise %arg0[%{{.*}}] strides [%c16, %c1] bounds
// CHECK-NOT: scf.if
// CHECK: dma.store elementwise %{{.*}}[0] to %arg0[%{{.*}}] strides [%c16, %c1] bounds
tt.func @descriptor_rows_never_aligned(%a: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %c1 = arith.constant 1 : i64
  %c16_i64 = arith.constant 16 : i64
  %desc = tt.make_tensor_descriptor %a, [%c4, %c16], [%c16_i64, %c1] : <i8>, <4x16xi8>
  %v = tt.descriptor_load %desc[%c0, %c0] : !tt.tensordesc<4x16xi8> -> tensor<4x16xi8>
  %w = arith.addi %v, %v : tensor<4x16xi8>
  tt.descriptor_store %desc[%c0, %c0], %w : !tt.tensordesc<4x16xi8>, tensor<4x16xi8>
  tt.return
}

// -----

// Atomics whose old values are used deliver them through a buffer the DMA
// engine fills; a scalar one is left to the control core, which waits for
// its value.
// CHECK-LABEL: tt.func @atomics_read_old_values
// CHECK-DAG: %[[RMW_OLD:.*]] = cb.alloc "atomic{{[0-9]+}}", dma_out -> simd : !cb.cb<64xi32, pages = 2>
// CHECK-DAG: %[[CAS_OLD:.*]] = cb.alloc "atomic{{[0-9]+}}", dma_out -> simd : !cb.cb<64xi32, pages = 2>
// CHECK: cb.reserve_back %[[RMW_OLD]], 1
// CHECK: dma.atomic_rmw max, acq_rel, chip %{{.*}}[%{{.*}}], %{{.*}} into %[[RMW_OLD]][0]
// CHECK-NEXT: cb.push_back %[[RMW_OLD]], 1
// CHECK: %[[OLD:.*]] = cb.read_front %[[RMW_OLD]][0]
// CHECK: dma.atomic_cas acq_rel, chip %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} into %[[CAS_OLD]][0]
// CHECK: %[[TICKET:.*]] = tt.atomic_rmw add, acq_rel, gpu, %arg2, %{{.*}} : (!tt.ptr<i32>, i32) -> i32
// CHECK: tt.store %arg1, %[[TICKET]]
tt.func @atomics_read_old_values(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %counter: !tt.ptr<i32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %old = tt.atomic_rmw max, acq_rel, gpu, %xp, %range : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %seen = tt.atomic_cas acq_rel, gpu, %xp, %old, %range : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %sum = arith.addi %old, %seen : tensor<64xi32>
  %ys = tt.splat %y : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  tt.store %yp, %sum : tensor<64x!tt.ptr<i32>>
  %c1 = arith.constant 1 : i32
  %ticket = tt.atomic_rmw add, acq_rel, gpu, %counter, %c1 : (!tt.ptr<i32>, i32) -> i32
  tt.store %y, %ticket : !tt.ptr<i32>
  tt.return
}

// -----

// A loaded tile used only after a branch (an early return before it): the
// MLU reads it and copies it out of the page, which is freed at once; the
// branch that uses it hands it over there, so every push meets its pop on
// every path.
// CHECK-LABEL: tt.func @load_used_after_branch
// CHECK: %[[LOADS:.*]] = cb.alloc "load{{[0-9]+}}", dma_in -> mlu
// CHECK: %[[PAGE:.*]] = cb.read_front %[[LOADS]][0]
// CHECK-NEXT: %[[COPY:.*]] = tile.copy %[[PAGE]]
// CHECK-NEXT: cb.pop_front %[[LOADS]], 1
// CHECK: cf.cond_br
// CHECK: ^bb2:
// CHECK: cb.write_back %[[COPY]], %{{.*}}[0]
  tt.func @load_used_after_branch(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %cst = arith.constant dense<1.000000e+00> : tensor<32xf32>
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %p2 = tt.addptr %p, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %v = tt.load %p2 : tensor<32x!tt.ptr<f32>>
    %c = arith.cmpi eq, %pid, %c1 : i32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %q = tt.splat %z : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %q2 = tt.addptr %q, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %m = arith.addf %v, %cst : tensor<32xf32>
    tt.store %q2, %m : tensor<32x!tt.ptr<f32>>
    tt.return
  }

// -----

// A tile forwarded to a unit that uses it after a branch is pushed in the
// block of that use (was a crash).
// CHECK-LABEL: tt.func @forward_after_branch
// CHECK: %[[COPY:.*]] = tile.copy
// CHECK: cf.cond_br
// CHECK: ^bb2:
// CHECK-NEXT: cb.reserve_back
// CHECK-NEXT: cb.write_back %[[COPY]]
  tt.func @forward_after_branch(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %p2 = tt.addptr %p, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %v = tt.load %p2 : tensor<32x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %5 = arith.addf %a, %b : f32
      tt.reduce.return %5 : f32
    }) : (tensor<32xf32>) -> f32
    %c = arith.cmpf ogt, %s, %cst : f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %q = tt.splat %z : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %q2 = tt.addptr %q, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %m = arith.mulf %v, %v : tensor<32xf32>
    tt.store %q2, %m : tensor<32x!tt.ptr<f32>>
    tt.return
  }

// -----

// Pointers chosen lane by lane between two buffers have no strided
// structure: the offsets of the second are taken from the base of the first
// (shifted by the distance between the bases, in elements) and the access
// gathers with the chosen offsets.
// CHECK-LABEL: tt.func @select_between_buffers
// CHECK-DAG: %[[Y:.*]] = tt.ptr_to_int %arg1 : !tt.ptr<f32> -> i64
// CHECK-DAG: %[[X:.*]] = tt.ptr_to_int %arg0 : !tt.ptr<f32> -> i64
// CHECK: %[[BYTES:.*]] = arith.subi %[[Y]], %[[X]] : i64
// CHECK: %[[ELEMENTS:.*]] = arith.divsi %[[BYTES]], %c4_i64 : i64
// CHECK: %[[SHIFT:.*]] = tile.splat %[[ELEMENTS]] : !tile.tile<32xi64>
// CHECK: %[[SHIFTED:.*]] = tile.binary addi %{{.*}}, %[[SHIFT]] : !tile.tile<32xi64>
// CHECK: tile.select %{{.*}}, %{{.*}}, %[[SHIFTED]] : !tile.tile<32xi64>
// CHECK: dma.gather %arg0[%{{.*}}] into %{{.*}}[0] : !tt.ptr<f32>, !tile.tile<32xi64>
tt.func @select_between_buffers(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                                %y: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                                %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %two = arith.constant dense<2> : tensor<32xi32>
  %zero = arith.constant dense<0> : tensor<32xi32>
  %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %parity = arith.remsi %range, %two : tensor<32xi32>
  %even = arith.cmpi eq, %parity, %zero : tensor<32xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %p = arith.select %even, %xp, %yp : tensor<32xi1>, tensor<32x!tt.ptr<f32>>
  %v = tt.load %p : tensor<32x!tt.ptr<f32>>
  %zs = tt.splat %z : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %zp = tt.addptr %zs, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  tt.store %zp, %v : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// A loaded tile that the DPE and the SIMD engine both use is read by the
// SIMD engine, which forwards it to the DPE: the DPE copies only 32-bit
// tiles, by multiplying them.
// CHECK-LABEL: tt.func @dot_operand_shared
// CHECK: %[[B:.*]] = cb.alloc "load1", dma_in -> simd : !cb.cb<16x16xf16, pages = 2>
// CHECK: %[[TO_DPE:.*]] = cb.alloc "forward{{[0-9]+}}", simd -> dpe : !cb.cb<16x16xf16, pages = 1>
tt.func @dot_operand_shared(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                            %b: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                            %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %sixteen = arith.constant dense<16> : tensor<16x1xi32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %range {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rowOffsets = arith.muli %rows, %sixteen : tensor<16x1xi32>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %r = tt.broadcast %rowOffsets : tensor<16x1xi32> -> tensor<16x16xi32>
  %k = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offsets = arith.addi %r, %k : tensor<16x16xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %ap = tt.addptr %as, %offsets : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %bp = tt.addptr %bs, %offsets : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %av = tt.load %ap : tensor<16x16x!tt.ptr<f16>>
  %bv = tt.load %bp : tensor<16x16x!tt.ptr<f16>>
  %d = tt.dot %av, %bv, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %bf = arith.extf %bv : tensor<16x16xf16> to tensor<16x16xf32>
  %sum = arith.addf %d, %bf : tensor<16x16xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %cp = tt.addptr %cs, %offsets : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %cp, %sum : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// The result of an `scf.if` that another unit reads is passed on in the
// branches, where the DPE computes it straight into the page (and clears
// the page in the other branch); when every use lies in the first branch of
// a later `scf.if` of the same condition (the products of a pipelined
// loop's first iteration and what `mtia-pipeline-dots` computes from them),
// only the first branch passes it on, and that branch reads it: when the
// condition does not hold, no unit touches the buffer.
// CHECK-LABEL: tt.func @guard_products
// CHECK: %[[FIRST:.*]] = cb.alloc "forward{{[0-9]+}}", dpe -> reduce : !cb.cb<16x16xf32, pages = 1>
// CHECK: %[[SECOND:.*]] = cb.alloc "forward{{[0-9]+}}", dpe -> reduce : !cb.cb<16x16xf32, pages = 1>
// CHECK: scf.if %[[RUNS:.*]] {
// CHECK: %[[P1:.*]] = tile.matmul
// CHECK: cb.write_back %[[P1]], %[[FIRST]][0]
// CHECK: %[[P2:.*]] = tile.matmul
// CHECK: cb.write_back %[[P2]], %[[SECOND]][0]
// CHECK: } else {
// CHECK-NEXT: cb.reserve_back %[[FIRST]], 1
// CHECK-NEXT: cb.write_back %{{.*}}, %[[FIRST]][0]
// CHECK-NEXT: cb.push_back %[[FIRST]], 1
// CHECK-NEXT: }
// CHECK-NEXT: cb.wait_front %[[FIRST]], 1
// CHECK: scf.if %[[RUNS]] {
// CHECK-NEXT: cb.wait_front %[[SECOND]], 1
// CHECK-NEXT: %[[READ:.*]] = cb.read_front %[[SECOND]][0]
// CHECK-NEXT: tile.reduce minnumf %[[READ]]
// CHECK-NEXT: cb.pop_front %[[SECOND]], 1
tt.func @guard_products(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                        %b: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                        %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %runs: i1) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %none = arith.constant dense<0.0> : tensor<16xf32>
  %sixteen = arith.constant dense<16> : tensor<16x1xi32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %range {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rowOffsets = arith.muli %rows, %sixteen : tensor<16x1xi32>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %r = tt.broadcast %rowOffsets : tensor<16x1xi32> -> tensor<16x16xi32>
  %k = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offsets = arith.addi %r, %k : tensor<16x16xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %ap = tt.addptr %as, %offsets : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %bp = tt.addptr %bs, %offsets : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %first = scf.if %runs -> (tensor<16x16xf32>) {
    %av = tt.load %ap : tensor<16x16x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } else {
    scf.yield %zero : tensor<16x16xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %second = scf.if %runs -> (tensor<16x16xf32>) {
    %av = tt.load %ap : tensor<16x16x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } else {
    scf.yield %zero : tensor<16x16xf32>
  }
  %max = "tt.reduce"(%first) <{axis = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %m = arith.maxnumf %x, %y : f32
    tt.reduce.return %m : f32
  }) : (tensor<16x16xf32>) -> tensor<16xf32>
  %min = scf.if %runs -> (tensor<16xf32>) {
    %m = "tt.reduce"(%second) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %n = arith.minnumf %x, %y : f32
      tt.reduce.return %n : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    scf.yield %m : tensor<16xf32>
  } else {
    scf.yield %none : tensor<16xf32>
  }
  %both = arith.addf %max, %min : tensor<16xf32>
  %cp = tt.addptr %cs, %range : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %cp, %both : tensor<16x!tt.ptr<f32>>
  tt.return
}
