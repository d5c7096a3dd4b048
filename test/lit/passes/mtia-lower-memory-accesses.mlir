// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target,mtia-lower-memory-accesses)' | FileCheck %s

// The input is what the tile stage leaves: compute on tiles, accesses on
// tensors joined to the tiles by casts. Accesses become DMA transfers through
// circular buffers at the function entry, and the page a load fills is freed
// after the last use of its tile.

// CHECK-LABEL: tt.func @vector_add
// CHECK: %[[X:.*]] = cb.alloc "load0", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
// CHECK-NEXT: %[[OUT:.*]] = cb.alloc "store1", simd -> dma_out : !cb.cb<1024xf32, pages = 2>
// CHECK: cb.reserve_back %[[X]], 1
// CHECK: dma.load %arg0[%{{.*}}] strides [%{{.*}}] bounds [%{{.*}}] into %[[X]][0]
// CHECK-NEXT: cb.push_back %[[X]], 1
// CHECK-NEXT: cb.wait_front %[[X]], 1
// CHECK-NEXT: %[[TILE:.*]] = cb.read_front %[[X]][0]
// CHECK-NEXT: %[[SUM:.*]] = tile.binary addf %[[TILE]], %[[TILE]]
// CHECK-NEXT: cb.pop_front %[[X]], 1
// The reserve stays at the write_back (mtia-reserve-where-produced moves it).
// CHECK: cb.reserve_back %[[OUT]], 1
// CHECK-NEXT: cb.write_back %[[SUM]], %[[OUT]][0]
// CHECK-NEXT: cb.push_back %[[OUT]], 1
// CHECK-NEXT: cb.wait_front %[[OUT]], 1
// CHECK: dma.store %[[OUT]][0] to %arg1[%{{.*}}] strides [%{{.*}}] bounds [%{{.*}}]
// CHECK-NEXT: cb.pop_front %[[OUT]], 1
// CHECK-NOT: tt.load
// CHECK-NOT: tt.store
tt.func @vector_add(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
  %c1024_i32 = arith.constant 1024 : i32
  %0 = tt.get_program_id x : i32
  %1 = arith.muli %0, %c1024_i32 : i32
  %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %3 = tt.splat %1 : i32 -> tensor<1024xi32>
  %4 = arith.addi %3, %2 : tensor<1024xi32>
  %5 = tt.splat %arg2 : i32 -> tensor<1024xi32>
  %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
  %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %9 = tt.load %8, %6 : tensor<1024x!tt.ptr<f32>>
  %10 = builtin.unrealized_conversion_cast %9 : tensor<1024xf32> to !tile.tile<1024xf32>
  %11 = tile.binary addf %10, %10 : !tile.tile<1024xf32>
  %12 = builtin.unrealized_conversion_cast %11 : !tile.tile<1024xf32> to tensor<1024xf32>
  %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %14 = tt.addptr %13, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %14, %12, %6 : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A tile one unit computes and another uses passes through a one-page
// buffer: the reduction's sum and the SIMD engine's index tile reach the
// DMA engine's atomic.

// CHECK-LABEL: tt.func @atomic_sum
// CHECK: %[[LOAD:.*]] = cb.alloc "load0", dma_in -> reduce : !cb.cb<64xf32, pages = 2>
// CHECK-NEXT: %[[SUM_BUFFER:.*]] = cb.alloc "forward1", reduce -> dma_out : !cb.cb<f32, pages = 1>
// CHECK-NEXT: %[[INDEX_BUFFER:.*]] = cb.alloc "forward2", simd -> dma_out : !cb.cb<i32, pages = 1>
// CHECK: %[[SUM:.*]] = tile.reduce addf
// CHECK-NEXT: cb.pop_front %[[LOAD]], 1
// CHECK-NEXT: cb.reserve_back %[[SUM_BUFFER]], 1
// CHECK-NEXT: cb.write_back %[[SUM]], %[[SUM_BUFFER]][0]
// CHECK-NEXT: cb.push_back %[[SUM_BUFFER]], 1
// CHECK: %[[VALUE:.*]] = cb.read_front %[[SUM_BUFFER]][0]
// CHECK: %[[INDEX:.*]] = cb.read_front %[[INDEX_BUFFER]][0]
// CHECK-NEXT: dma.atomic_rmw fadd, acq_rel, chip %{{.*}}[%[[INDEX]]], %[[VALUE]]
// CHECK-NEXT: cb.pop_front %[[INDEX_BUFFER]], 1
// CHECK-NEXT: cb.pop_front %[[SUM_BUFFER]], 1
tt.func @atomic_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>) {
  %true = arith.constant true
  %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %3 = tt.load %2 : tensor<64x!tt.ptr<f32>>
  %4 = builtin.unrealized_conversion_cast %3 : tensor<64xf32> to !tile.tile<64xf32>
  %5 = tile.reduce addf %4 axis = 0 : !tile.tile<64xf32> -> !tile.tile<f32>
  %6 = tile.extract %5[] : !tile.tile<f32>
  %7 = tt.atomic_rmw fadd, acq_rel, gpu, %arg1, %6, %true : (!tt.ptr<f32>, f32, i1) -> f32
  tt.return
}

// -----

// A tile the loop carries from the DPE to the SIMD engine (an accumulator
// the SIMD engine rescales every iteration) passes through a buffer across
// the back edge: the DPE writes the first (zeros it clears itself) before
// the loop and each next one where it computes it, the SIMD engine reads it
// at the top of the body and after the loop. The carried argument is left
// unused (canonicalization removes it), so nothing copies it into the
// buffer at the start of every iteration.

// CHECK-LABEL: tt.func @carried_accumulator
// CHECK: %[[CARRIED:.*]] = cb.alloc "carried{{[0-9]+}}", dpe -> simd : !cb.cb<32x32xf32, pages = 1>
// CHECK: %[[ZEROS:.*]] = tile.zeros : !tile.tile<32x32xf32>
// CHECK-NEXT: cb.reserve_back %[[CARRIED]], 1
// CHECK-NEXT: cb.write_back %[[ZEROS]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK: scf.for
// CHECK-NEXT: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[ACC:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.binary mulf %[[ACC]], %[[ACC]]
// CHECK-NEXT: cb.pop_front %[[CARRIED]], 1
// CHECK: %[[NEXT:.*]] = tile.matmul
// CHECK: cb.reserve_back %[[CARRIED]], 1
// CHECK-NEXT: cb.write_back %[[NEXT]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[OUT:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.binary addf %[[OUT]], %[[OUT]]
// CHECK-NEXT: cb.pop_front %[[CARRIED]], 1
tt.func @carried_accumulator(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.constant dense<1.000000e+00> : tensor<32x32xf16> : !tile.tile<32x32xf16>
  %zero = tile.constant dense<0.000000e+00> : tensor<32x32xf32> : !tile.tile<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.tile<32x32xf32>) {
    %scaled = tile.binary mulf %acc, %acc : !tile.tile<32x32xf32>
    %next = tile.matmul %a, %a, %scaled : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    scf.yield %next : !tile.tile<32x32xf32>
  }
  %out = tile.binary addf %r, %r : !tile.tile<32x32xf32>
  tt.return
}

// -----

// When the carried tile's result only starts a second loop that carries it
// the same way (the two loops mtia-split-masked-loops makes of one), both
// loops share the buffer: the tile stays in its page between them, and the
// DPE never copies the first loop's result into it.

// CHECK-LABEL: tt.func @chained_carried_accumulator
// CHECK: %[[CARRIED:.*]] = cb.alloc "carried{{[0-9]+}}", dpe -> simd : !cb.cb<32x32xf32, pages = 1>
// CHECK-NOT: cb.alloc "carried
// CHECK: %[[ZEROS:.*]] = tile.zeros : !tile.tile<32x32xf32>
// CHECK-NEXT: cb.reserve_back %[[CARRIED]], 1
// CHECK-NEXT: cb.write_back %[[ZEROS]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK: %[[FIRST:.*]] = scf.for
// CHECK-NEXT: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[ACC:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.binary mulf %[[ACC]], %[[ACC]]
// CHECK: %[[NEXT:.*]] = tile.matmul
// CHECK: cb.write_back %[[NEXT]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK-NOT: cb.write_back %[[FIRST]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NEXT: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[ACC2:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.binary subf %[[ACC2]], %[[ACC2]]
// CHECK: %[[NEXT2:.*]] = tile.matmul
// CHECK: cb.write_back %[[NEXT2]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[OUT:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.binary addf %[[OUT]], %[[OUT]]
tt.func @chained_carried_accumulator(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.constant dense<1.000000e+00> : tensor<32x32xf16> : !tile.tile<32x32xf16>
  %zero = tile.constant dense<0.000000e+00> : tensor<32x32xf32> : !tile.tile<32x32xf32>
  %first = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (!tile.tile<32x32xf32>) {
    %scaled = tile.binary mulf %acc, %acc : !tile.tile<32x32xf32>
    %next = tile.matmul %a, %a, %scaled : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    scf.yield %next : !tile.tile<32x32xf32>
  }
  %second = scf.for %i = %m to %n step %c1 iter_args(%acc = %first) -> (!tile.tile<32x32xf32>) {
    %shifted = tile.binary subf %acc, %acc : !tile.tile<32x32xf32>
    %next = tile.matmul %a, %a, %shifted : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    scf.yield %next : !tile.tile<32x32xf32>
  }
  %out = tile.binary addf %second, %second : !tile.tile<32x32xf32>
  tt.return
}

// -----

// The branches of an scf.if compute its tile on different units: a row
// maximum on the reduction engine, which holds the result, and a scaled row
// sum on the SIMD engine, which passes it to the reduction engine. That
// branch yields the tile in the page it reads, and frees the page right
// before the yield (the program stage copies the tile into the result's
// storage first).

// CHECK-LABEL: tt.func @branches_on_different_units
// CHECK-DAG: %[[STORE:.*]] = cb.alloc "{{.*}}", reduce -> dma_out
// CHECK-DAG: %[[TO_RE:.*]] = cb.alloc "{{.*}}", simd -> reduce
// CHECK: %[[RESULT:.*]] = scf.if
// CHECK: %[[MAX:.*]] = tile.reduce maxnumf
// CHECK-NEXT: scf.yield %[[MAX]]
// CHECK: } else {
// CHECK: tile.binary mulf
// CHECK: %[[SCALED:.*]] = cb.read_front %[[TO_RE]][0]
// CHECK-NEXT: cb.pop_front %[[TO_RE]], 1
// CHECK-NEXT: scf.yield %[[SCALED]]
// CHECK: cb.write_back %[[RESULT]], %[[STORE]][0]
tt.func @branches_on_different_units(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %flag: i1) {
  %cst = arith.constant dense<64> : tensor<8x1xi32>
  %half = tile.constant dense<5.000000e-01> : tensor<8xf32> : !tile.tile<8xf32>
  %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %0 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %1 = arith.muli %0, %cst : tensor<8x1xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %3 = tt.broadcast %1 : tensor<8x1xi32> -> tensor<8x64xi32>
  %4 = tt.broadcast %2 : tensor<1x64xi32> -> tensor<8x64xi32>
  %5 = arith.addi %3, %4 : tensor<8x64xi32>
  %6 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %7 = tt.addptr %6, %5 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
  %8 = tt.load %7 : tensor<8x64x!tt.ptr<f32>>
  %x = builtin.unrealized_conversion_cast %8 : tensor<8x64xf32> to !tile.tile<8x64xf32>
  %result = scf.if %flag -> (!tile.tile<8xf32>) {
    %max = tile.reduce maxnumf %x axis = 1 : !tile.tile<8x64xf32> -> !tile.tile<8xf32>
    scf.yield %max : !tile.tile<8xf32>
  } else {
    %sum = tile.reduce addf %x axis = 1 : !tile.tile<8x64xf32> -> !tile.tile<8xf32>
    %scaled = tile.binary mulf %sum, %half : !tile.tile<8xf32>
    scf.yield %scaled : !tile.tile<8xf32>
  }
  %9 = builtin.unrealized_conversion_cast %result : !tile.tile<8xf32> to tensor<8xf32>
  %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %11 = tt.addptr %10, %rows : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %11, %9 : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// The next scores do not depend on the scores the loop carries (a product
// computed one iteration ahead): the carried buffer gets a second page, which
// the program stage may take back (`run_ahead_pages`), so that the DPE
// computes the next scores while the SIMD engine still reads the current
// ones.

// CHECK-LABEL: tt.func @carried_scores_run_ahead
// CHECK: %[[CARRIED:.*]] = cb.alloc "carried{{[0-9]+}}", dpe -> simd {run_ahead_pages = 1 : i64} : !cb.cb<32x32xf32, pages = 2>
// CHECK: scf.for
// CHECK-NEXT: cb.wait_front %[[CARRIED]], 1
// CHECK: %[[NEXT:.*]] = tile.matmul
// CHECK: cb.reserve_back %[[CARRIED]], 1
// CHECK-NEXT: cb.write_back %[[NEXT]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK-NEXT: scf.yield
tt.func @carried_scores_run_ahead(%n: index) -> !tile.tile<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.constant dense<1.000000e+00> : tensor<32x32xf16> : !tile.tile<32x32xf16>
  %zero = tile.constant dense<0.000000e+00> : tensor<32x32xf32> : !tile.tile<32x32xf32>
  %first = tile.matmul %a, %a, %zero : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%scores = %first, %sum = %zero) -> (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>) {
    %p = tile.sfu exp2 %scores : !tile.tile<32x32xf32>
    %total = tile.binary addf %sum, %p : !tile.tile<32x32xf32>
    %next = tile.matmul %a, %a, %zero : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    scf.yield %next, %total : !tile.tile<32x32xf32>, !tile.tile<32x32xf32>
  }
  tt.return %r#1 : !tile.tile<32x32xf32>
}

// -----

// The reduction engine copies the next scores at the top of the body, before
// the SIMD engine reads the current ones (`mtia-relay-shared-products`): it
// reserves a page of the carried buffer before the copy (and before it reads
// the product) and pushes it right after, so the buffer has two pages that the program stage must not
// take back. The loop that follows (a pipelined loop's last iteration) reads
// the last scores in its body, in the page the first loop left them in.

// CHECK-LABEL: tt.func @scores_copied_before_the_current_ones_are_read
// CHECK: %[[CARRIED:.*]] = cb.alloc "carried{{[0-9]+}}", reduce -> simd : !cb.cb<32x32xf32, pages = 2>
// CHECK: scf.for
// CHECK: cb.reserve_back %[[CARRIED]], 1
// CHECK: %[[COPY:.*]] = tile.reduce_copy
// CHECK-NOT: cb.push_back %[[CARRIED]]
// CHECK: cb.write_back %[[COPY]], %[[CARRIED]][0]
// CHECK-NEXT: cb.push_back %[[CARRIED]], 1
// CHECK: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[CURRENT:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: tile.sfu exp2 %[[CURRENT]]
// CHECK: scf.yield
// CHECK: cb.wait_front %[[CARRIED]], 1
// CHECK-NEXT: %[[LAST:.*]] = cb.read_front %[[CARRIED]][0]
// CHECK-NEXT: scf.for
// CHECK: tile.sfu exp2 %[[LAST]]
tt.func @scores_copied_before_the_current_ones_are_read(%m: index, %n: index) -> !tile.tile<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.constant dense<1.000000e+00> : tensor<32x32xf16> : !tile.tile<32x32xf16>
  %zero = tile.constant dense<0.000000e+00> : tensor<32x32xf32> : !tile.tile<32x32xf32>
  %product = tile.matmul %a, %a, %zero : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
  %first = tile.reduce_copy %product : !tile.tile<32x32xf32>
  %r:2 = scf.for %i = %c0 to %m step %c1 iter_args(%scores = %first, %sum = %zero) -> (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>) {
    %next_product = tile.matmul %a, %a, %zero : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    %next = tile.reduce_copy %next_product : !tile.tile<32x32xf32>
    %p = tile.sfu exp2 %scores : !tile.tile<32x32xf32>
    %total = tile.binary addf %sum, %p : !tile.tile<32x32xf32>
    scf.yield %next, %total : !tile.tile<32x32xf32>, !tile.tile<32x32xf32>
  }
  %last = scf.for %i = %m to %n step %c1 iter_args(%sum = %r#1) -> (!tile.tile<32x32xf32>) {
    %p = tile.sfu exp2 %r#0 : !tile.tile<32x32xf32>
    %total = tile.binary addf %sum, %p : !tile.tile<32x32xf32>
    scf.yield %total : !tile.tile<32x32xf32>
  }
  tt.return %last : !tile.tile<32x32xf32>
}

// -----

// A load in a loop gets the pages that hide the memory latency (64 KiB of
// them, two to eight), and at least the loop's stages: its own
// `tt.num_stages`, else the launch's (Triton's default of 3 here). The DMA
// engine runs that many pages less one ahead of the compute.

// CHECK-LABEL: tt.func @loop_load_pages
// CHECK: cb.alloc "load0", dma_in -> simd {run_ahead_pages = 1 : i64} : !cb.cb<16384xf32, pages = 3>
// CHECK: cb.alloc "load{{[0-9]+}}", dma_in -> simd {run_ahead_pages = 4 : i64} : !cb.cb<16384xf32, pages = 6>
// CHECK: cb.alloc "load{{[0-9]+}}", dma_in -> simd {run_ahead_pages = 6 : i64} : !cb.cb<256xf32, pages = 8>
tt.func @loop_load_pages(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>, %n: i32) -> (tensor<16384xf32>, tensor<16384xf32>, tensor<256xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zeros = arith.constant dense<0.000000e+00> : tensor<16384xf32>
  %small = arith.constant dense<0.000000e+00> : tensor<256xf32>
  %range = tt.make_range {end = 16384 : i32, start = 0 : i32} : tensor<16384xi32>
  %x_ptrs = tt.splat %x : !tt.ptr<f32> -> tensor<16384x!tt.ptr<f32>>
  %x_at = tt.addptr %x_ptrs, %range : tensor<16384x!tt.ptr<f32>>, tensor<16384xi32>
  %default = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zeros) -> (tensor<16384xf32>) : i32 {
    %v = tt.load %x_at : tensor<16384x!tt.ptr<f32>>
    %a = builtin.unrealized_conversion_cast %acc : tensor<16384xf32> to !tile.tile<16384xf32>
    %t = builtin.unrealized_conversion_cast %v : tensor<16384xf32> to !tile.tile<16384xf32>
    %s = tile.binary addf %a, %t : !tile.tile<16384xf32>
    %r = builtin.unrealized_conversion_cast %s : !tile.tile<16384xf32> to tensor<16384xf32>
    scf.yield %r : tensor<16384xf32>
  }
  %y_ptrs = tt.splat %y : !tt.ptr<f32> -> tensor<16384x!tt.ptr<f32>>
  %y_at = tt.addptr %y_ptrs, %range : tensor<16384x!tt.ptr<f32>>, tensor<16384xi32>
  %six = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zeros) -> (tensor<16384xf32>) : i32 {
    %v = tt.load %y_at : tensor<16384x!tt.ptr<f32>>
    %a = builtin.unrealized_conversion_cast %acc : tensor<16384xf32> to !tile.tile<16384xf32>
    %t = builtin.unrealized_conversion_cast %v : tensor<16384xf32> to !tile.tile<16384xf32>
    %s = tile.binary addf %a, %t : !tile.tile<16384xf32>
    %r = builtin.unrealized_conversion_cast %s : !tile.tile<16384xf32> to tensor<16384xf32>
    scf.yield %r : tensor<16384xf32>
  } {tt.num_stages = 6 : i32}
  %small_range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %z_ptrs = tt.splat %z : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %z_at = tt.addptr %z_ptrs, %small_range : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %one = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %small) -> (tensor<256xf32>) : i32 {
    %v = tt.load %z_at : tensor<256x!tt.ptr<f32>>
    %a = builtin.unrealized_conversion_cast %acc : tensor<256xf32> to !tile.tile<256xf32>
    %t = builtin.unrealized_conversion_cast %v : tensor<256xf32> to !tile.tile<256xf32>
    %s = tile.binary addf %a, %t : !tile.tile<256xf32>
    %r = builtin.unrealized_conversion_cast %s : !tile.tile<256xf32> to tensor<256xf32>
    scf.yield %r : tensor<256xf32>
  } {tt.num_stages = 1 : i32}
  tt.return %default, %six, %one : tensor<16384xf32>, tensor<16384xf32>, tensor<256xf32>
}
