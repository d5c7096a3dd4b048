// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target,mtia-share-buffers)' | FileCheck %s

// The input is what the lowering of accesses leaves: a one-page buffer for
// every tile one unit passes to another. The tiles the SIMD engine passes to
// the MLU, and those the MLU passes back, are pushed and read in order, so
// they share one first-in first-out buffer each: two pages cover the tiles
// held at once, and the second read finds its tile behind the first, whose
// pop waits until that tile is used. The buffers the DMA engine fills and
// drains share with none.

// CHECK-LABEL: tt.func @fifo_forward_buffers
// CHECK: cb.alloc "load0", dma_in -> simd : !cb.cb<64xf32, pages = 2>
// CHECK-NEXT: cb.alloc "store1", mlu -> dma_out : !cb.cb<64xf32, pages = 2>
// CHECK-NEXT: %[[TO_MLU:.*]] = cb.alloc "forward2", simd -> mlu : !cb.cb<64xf32, pages = 2>
// CHECK-NEXT: %[[TO_SIMD:.*]] = cb.alloc "forward4", mlu -> simd : !cb.cb<8x8xf32, pages = 2>
// CHECK-NOT: cb.alloc
// CHECK: cb.wait_front %[[TO_SIMD]], 1
// CHECK-NEXT: %[[B:.*]] = cb.read_front %[[TO_SIMD]][0]
// CHECK-NEXT: cb.wait_front %[[TO_SIMD]], 2
// CHECK-NEXT: %[[C:.*]] = cb.read_front %[[TO_SIMD]][1]
// CHECK-NEXT: tile.binary addf %[[B]], %[[C]]
// CHECK-NEXT: cb.pop_front %[[TO_SIMD]], 1
// CHECK-NEXT: cb.pop_front %[[TO_SIMD]], 1
// CHECK: cb.write_back %{{.*}}, %[[TO_MLU]][0] : !cb.cb<64xf32, pages = 2> view !tile.tile<8x8xf32>
tt.func @fifo_forward_buffers(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<64xf32, pages = 2>
  %1 = cb.alloc "store1", mlu -> dma_out : !cb.cb<64xf32, pages = 2>
  %2 = cb.alloc "forward2", simd -> mlu : !cb.cb<64xf32, pages = 1>
  %3 = cb.alloc "forward3", simd -> mlu : !cb.cb<64xf32, pages = 1>
  %4 = cb.alloc "forward4", mlu -> simd : !cb.cb<8x8xf32, pages = 1>
  %5 = cb.alloc "forward5", mlu -> simd : !cb.cb<8x8xf32, pages = 1>
  %6 = cb.alloc "forward6", simd -> mlu : !cb.cb<8x8xf32, pages = 1>
  %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %8 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %c64 = arith.constant 64 : index
  cb.reserve_back %0, 1 : !cb.cb<64xf32, pages = 2>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %9 = dma.load %arg0[%c0] strides [%c1] bounds [%c64] into %0[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  cb.push_back %0, 1 : !cb.cb<64xf32, pages = 2>
  cb.wait_front %0, 1 : !cb.cb<64xf32, pages = 2>
  %10 = cb.read_front %0[0] : !cb.cb<64xf32, pages = 2>
  %11 = tile.binary addf %10, %10 : !tile.tile<64xf32>
  cb.reserve_back %2, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %11, %2[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %2, 1 : !cb.cb<64xf32, pages = 1>
  %12 = tile.binary mulf %10, %10 : !tile.tile<64xf32>
  cb.pop_front %0, 1 : !cb.cb<64xf32, pages = 2>
  cb.reserve_back %3, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %12, %3[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %3, 1 : !cb.cb<64xf32, pages = 1>
  cb.wait_front %2, 1 : !cb.cb<64xf32, pages = 1>
  %13 = cb.read_front %2[0] : !cb.cb<64xf32, pages = 1>
  %14 = tile.reshape %13 : !tile.tile<64xf32> -> !tile.tile<8x8xf32>
  cb.pop_front %2, 1 : !cb.cb<64xf32, pages = 1>
  cb.reserve_back %4, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.write_back %14, %4[0] : !cb.cb<8x8xf32, pages = 1>
  cb.push_back %4, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.wait_front %3, 1 : !cb.cb<64xf32, pages = 1>
  %15 = cb.read_front %3[0] : !cb.cb<64xf32, pages = 1>
  %16 = tile.reshape %15 : !tile.tile<64xf32> -> !tile.tile<8x8xf32>
  cb.pop_front %3, 1 : !cb.cb<64xf32, pages = 1>
  cb.reserve_back %5, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.write_back %16, %5[0] : !cb.cb<8x8xf32, pages = 1>
  cb.push_back %5, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.wait_front %4, 1 : !cb.cb<8x8xf32, pages = 1>
  %17 = cb.read_front %4[0] : !cb.cb<8x8xf32, pages = 1>
  cb.wait_front %5, 1 : !cb.cb<8x8xf32, pages = 1>
  %18 = cb.read_front %5[0] : !cb.cb<8x8xf32, pages = 1>
  %19 = tile.binary addf %17, %18 : !tile.tile<8x8xf32>
  cb.pop_front %5, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.pop_front %4, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.reserve_back %6, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.write_back %19, %6[0] : !cb.cb<8x8xf32, pages = 1>
  cb.push_back %6, 1 : !cb.cb<8x8xf32, pages = 1>
  cb.wait_front %6, 1 : !cb.cb<8x8xf32, pages = 1>
  %20 = cb.read_front %6[0] : !cb.cb<8x8xf32, pages = 1>
  %21 = tile.reshape %20 : !tile.tile<8x8xf32> -> !tile.tile<64xf32>
  cb.pop_front %6, 1 : !cb.cb<8x8xf32, pages = 1>
  %22 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  cb.reserve_back %1, 1 : !cb.cb<64xf32, pages = 2>
  cb.write_back %21, %1[0] : !cb.cb<64xf32, pages = 2>
  cb.push_back %1, 1 : !cb.cb<64xf32, pages = 2>
  cb.wait_front %1, 1 : !cb.cb<64xf32, pages = 2>
  %23 = dma.store %1[0] to %arg1[%c0] strides [%c1] bounds [%c64] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
  cb.pop_front %1, 1 : !cb.cb<64xf32, pages = 2>
  tt.return
}

// In a loop, a buffer between two units gets one page more than program
// order needs, so that the SIMD engine can widen the next iteration's tile
// while the DPE still multiplies this one; the local-memory plan may take
// it back (`run_ahead_pages`).

// CHECK-LABEL: tt.func @run_ahead_in_loop
// CHECK: cb.alloc "forward1", simd -> dpe {run_ahead_pages = 1 : i64} : !cb.cb<32x32xf16, pages = 2>
tt.func @run_ahead_in_loop(%n: index) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<32x32xf32, pages = 2>
  %1 = cb.alloc "forward1", simd -> dpe : !cb.cb<32x32xf16, pages = 1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc0 = tile.zeros : !tile.tile<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (!tile.tile<32x32xf32>) {
    cb.wait_front %0, 1 : !cb.cb<32x32xf32, pages = 2>
    %2 = cb.read_front %0[0] : !cb.cb<32x32xf32, pages = 2>
    %3 = tile.cast truncf %2 rounding = rtne : !tile.tile<32x32xf32> -> !tile.tile<32x32xf16>
    cb.pop_front %0, 1 : !cb.cb<32x32xf32, pages = 2>
    cb.reserve_back %1, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.write_back %3, %1[0] : !cb.cb<32x32xf16, pages = 1>
    cb.push_back %1, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.wait_front %1, 1 : !cb.cb<32x32xf16, pages = 1>
    %4 = cb.read_front %1[0] : !cb.cb<32x32xf16, pages = 1>
    %5 = tile.matmul %4, %4, %acc : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    cb.pop_front %1, 1 : !cb.cb<32x32xf16, pages = 1>
    scf.yield %5 : !tile.tile<32x32xf32>
  }
  tt.return
}

// Two loops, one after the other (as `mtia-split-masked-loops` makes them):
// each pops every tile it pushes, so the second loop's buffers are the first
// loop's, with the pages the most demanding needs.

// CHECK-LABEL: tt.func @loops_one_after_the_other
// CHECK-NEXT: %[[LOAD:.*]] = cb.alloc "load0", dma_in -> simd : !cb.cb<32x32xf32, pages = 2>
// CHECK-NEXT: %[[FORWARD:.*]] = cb.alloc "forward1", simd -> dpe {run_ahead_pages = 1 : i64} : !cb.cb<32x32xf16, pages = 2>
// CHECK-NOT: cb.alloc
// CHECK: scf.for
// CHECK: cb.wait_front %[[LOAD]]
// CHECK: cb.reserve_back %[[FORWARD]]
// CHECK: scf.for
// CHECK: cb.wait_front %[[LOAD]]
// CHECK: cb.reserve_back %[[FORWARD]]
tt.func @loops_one_after_the_other(%n: index) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<32x32xf32, pages = 2>
  %1 = cb.alloc "forward1", simd -> dpe : !cb.cb<32x32xf16, pages = 1>
  %2 = cb.alloc "load2", dma_in -> simd : !cb.cb<32x32xf32, pages = 2>
  %3 = cb.alloc "forward3", simd -> dpe : !cb.cb<32x32xf16, pages = 1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc0 = tile.zeros : !tile.tile<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (!tile.tile<32x32xf32>) {
    cb.wait_front %0, 1 : !cb.cb<32x32xf32, pages = 2>
    %4 = cb.read_front %0[0] : !cb.cb<32x32xf32, pages = 2>
    %5 = tile.cast truncf %4 rounding = rtne : !tile.tile<32x32xf32> -> !tile.tile<32x32xf16>
    cb.pop_front %0, 1 : !cb.cb<32x32xf32, pages = 2>
    cb.reserve_back %1, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.write_back %5, %1[0] : !cb.cb<32x32xf16, pages = 1>
    cb.push_back %1, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.wait_front %1, 1 : !cb.cb<32x32xf16, pages = 1>
    %6 = cb.read_front %1[0] : !cb.cb<32x32xf16, pages = 1>
    %7 = tile.matmul %6, %6, %acc : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    cb.pop_front %1, 1 : !cb.cb<32x32xf16, pages = 1>
    scf.yield %7 : !tile.tile<32x32xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (!tile.tile<32x32xf32>) {
    cb.wait_front %2, 1 : !cb.cb<32x32xf32, pages = 2>
    %4 = cb.read_front %2[0] : !cb.cb<32x32xf32, pages = 2>
    %5 = tile.cast truncf %4 rounding = rtne : !tile.tile<32x32xf32> -> !tile.tile<32x32xf16>
    cb.pop_front %2, 1 : !cb.cb<32x32xf32, pages = 2>
    cb.reserve_back %3, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.write_back %5, %3[0] : !cb.cb<32x32xf16, pages = 1>
    cb.push_back %3, 1 : !cb.cb<32x32xf16, pages = 1>
    cb.wait_front %3, 1 : !cb.cb<32x32xf16, pages = 1>
    %6 = cb.read_front %3[0] : !cb.cb<32x32xf16, pages = 1>
    %7 = tile.matmul %6, %6, %acc : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    cb.pop_front %3, 1 : !cb.cb<32x32xf16, pages = 1>
    scf.yield %7 : !tile.tile<32x32xf32>
  }
  tt.return
}
