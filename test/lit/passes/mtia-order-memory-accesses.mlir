// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-order-memory-accesses)' | FileCheck %s

// The input is what the lowering of accesses leaves. A DMA load of the
// argument a DMA store wrote waits for it: the store to %arg1 before the loop
// is waited for once before the loop, which holds no write to %arg1; the
// load of %arg0 waits in the loop for the store to %arg0 of the iteration
// before. The load of %arg0 before any store needs no wait.

// CHECK-LABEL: tt.func @reload_after_store
// CHECK-NOT: dma.wait
// CHECK: dma.store %{{.*}} to %arg1
// CHECK-NEXT: cb.pop_front
// CHECK-NEXT: dma.wait{{$}}
// CHECK-NEXT: scf.for
// CHECK-NOT: dma.wait
// CHECK: dma.load %arg1
// CHECK: dma.wait{{$}}
// CHECK-NEXT: dma.load %arg0
// CHECK-NOT: dma.wait
// CHECK: dma.store %{{.*}} to %arg0
tt.func @reload_after_store(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<64xf32, pages = 2>
  %1 = cb.alloc "store1", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  %2 = cb.alloc "load2", dma_in -> simd : !cb.cb<64xf32, pages = 8>
  %3 = cb.alloc "load3", dma_in -> simd : !cb.cb<64xf32, pages = 8>
  %4 = cb.alloc "store4", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %5 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %6 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %7 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %c64 = arith.constant 64 : index
  cb.reserve_back %0, 1 : !cb.cb<64xf32, pages = 2>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %8 = dma.load %arg0[%c0] strides [%c1] bounds [%c64] into %0[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  cb.push_back %0, 1 : !cb.cb<64xf32, pages = 2>
  cb.wait_front %0, 1 : !cb.cb<64xf32, pages = 2>
  %9 = cb.read_front %0[0] : !cb.cb<64xf32, pages = 2>
  cb.reserve_back %1, 1 : !cb.cb<64xf32, pages = 2>
  %10 = tile.binary addf %9, %9 : !tile.tile<64xf32>
  cb.pop_front %0, 1 : !cb.cb<64xf32, pages = 2>
  cb.write_back %10, %1[0] : !cb.cb<64xf32, pages = 2>
  cb.push_back %1, 1 : !cb.cb<64xf32, pages = 2>
  cb.wait_front %1, 1 : !cb.cb<64xf32, pages = 2>
  %11 = dma.store %1[0] to %arg1[%c0] strides [%c1] bounds [%c64] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
  cb.pop_front %1, 1 : !cb.cb<64xf32, pages = 2>
  scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32  : i32 {
    cb.reserve_back %2, 1 : !cb.cb<64xf32, pages = 8>
    %12 = dma.load %arg1[%c0] strides [%c1] bounds [%c64] into %2[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 8>
    cb.push_back %2, 1 : !cb.cb<64xf32, pages = 8>
    cb.wait_front %2, 1 : !cb.cb<64xf32, pages = 8>
    %13 = cb.read_front %2[0] : !cb.cb<64xf32, pages = 8>
    cb.reserve_back %3, 1 : !cb.cb<64xf32, pages = 8>
    %14 = dma.load %arg0[%c0] strides [%c1] bounds [%c64] into %3[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 8>
    cb.push_back %3, 1 : !cb.cb<64xf32, pages = 8>
    cb.wait_front %3, 1 : !cb.cb<64xf32, pages = 8>
    %15 = cb.read_front %3[0] : !cb.cb<64xf32, pages = 8>
    cb.reserve_back %4, 1 : !cb.cb<64xf32, pages = 2>
    %16 = tile.binary addf %13, %15 : !tile.tile<64xf32>
    cb.pop_front %3, 1 : !cb.cb<64xf32, pages = 8>
    cb.pop_front %2, 1 : !cb.cb<64xf32, pages = 8>
    cb.write_back %16, %4[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %4, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %4, 1 : !cb.cb<64xf32, pages = 2>
    %17 = dma.store %4[0] to %arg0[%c0] strides [%c1] bounds [%c64] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
    cb.pop_front %4, 1 : !cb.cb<64xf32, pages = 2>
  }
  tt.return
}

// A scratch region written and read back at each iteration of a loop: the
// load waits for this iteration's store, and the store for the last
// iteration's load (the inbound queue may still be reading it). The store
// to %arg1 is another region: the load from scratch does not wait for it.

// CHECK-LABEL: tt.func @scratch_in_a_loop
// CHECK: scf.for
// CHECK: dma.wait{{$}}
// CHECK-NEXT: dma.store %{{.*}} to %[[SCRATCH:.*]][
// CHECK: dma.wait{{$}}
// CHECK-NEXT: dma.load %[[SCRATCH]][
// CHECK-NOT: dma.wait
// CHECK: dma.store %{{.*}} to %arg1
tt.func @scratch_in_a_loop(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<64xf32, pages = 2>
  %1 = cb.alloc "store1", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  %2 = cb.alloc "load2", dma_in -> simd : !cb.cb<64xf32, pages = 2>
  %3 = cb.alloc "store3", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32  : i32 {
    %scratch = dma.scratch 256 : !tt.ptr<f32>
    cb.reserve_back %0, 1 : !cb.cb<64xf32, pages = 2>
    %4 = dma.load %arg0[%c0] strides [%c1] bounds [%c64] into %0[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
    cb.push_back %0, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %0, 1 : !cb.cb<64xf32, pages = 2>
    %5 = cb.read_front %0[0] : !cb.cb<64xf32, pages = 2>
    cb.reserve_back %1, 1 : !cb.cb<64xf32, pages = 2>
    cb.pop_front %0, 1 : !cb.cb<64xf32, pages = 2>
    cb.write_back %5, %1[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %1, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %1, 1 : !cb.cb<64xf32, pages = 2>
    %6 = dma.store %1[0] to %scratch[%c0] strides [%c1] bounds [%c64] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
    cb.pop_front %1, 1 : !cb.cb<64xf32, pages = 2>
    cb.reserve_back %2, 1 : !cb.cb<64xf32, pages = 2>
    %7 = dma.load %scratch[%c0] strides [%c1] bounds [%c64] into %2[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
    cb.push_back %2, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %2, 1 : !cb.cb<64xf32, pages = 2>
    %8 = cb.read_front %2[0] : !cb.cb<64xf32, pages = 2>
    cb.reserve_back %3, 1 : !cb.cb<64xf32, pages = 2>
    cb.pop_front %2, 1 : !cb.cb<64xf32, pages = 2>
    cb.write_back %8, %3[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %3, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %3, 1 : !cb.cb<64xf32, pages = 2>
    %9 = dma.store %3[0] to %arg1[%c0] strides [%c1] bounds [%c64] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
    cb.pop_front %3, 1 : !cb.cb<64xf32, pages = 2>
  }
  tt.return
}
