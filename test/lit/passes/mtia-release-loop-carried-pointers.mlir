// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-release-loop-carried-pointers)' | FileCheck %s

// The input is what the lowering of accesses leaves: the loop's loads are DMA
// transfers now, but the loop still carries and advances the tensor of
// pointers the tile stage loaded through. Its result is unused and only the
// advance uses it, so the loop yields the argument itself, which lets
// canonicalization drop both. The tile the loop carries is kept.

// CHECK-LABEL: tt.func @k_loop
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[POINTERS:.*]] = %{{.*}}) -> (!tile.tile<32x32xf32>, tensor<32x32x!tt.ptr<f16>>)
// CHECK: tt.addptr %[[POINTERS]], %{{.*}}
// CHECK-NEXT: scf.yield %{{.*}}, %[[POINTERS]] : !tile.tile<32x32xf32>, tensor<32x32x!tt.ptr<f16>>
tt.func @k_loop(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
  %0 = cb.alloc "load0", dma_in -> dpe : !cb.cb<32x32xf16, pages = 8>
  %1 = cb.alloc "store1", simd -> dma_out : !cb.cb<32x32xf32, pages = 2>
  %2 = cb.alloc "forward2", dpe -> simd : !cb.cb<32x32xf32, pages = 1>
  %cst = arith.constant dense<1024> : tensor<32x32xi32>
  %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %3 = tile.constant dense<0.000000e+00> : tensor<32x32xf32> : !tile.tile<32x32xf32>
  %4 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %6 = tt.expand_dims %4 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %7 = arith.muli %5, %cst_0 : tensor<32x1xi32>
  %8 = tt.broadcast %7 : tensor<32x1xi32> -> tensor<32x32xi32>
  %9 = tt.broadcast %6 : tensor<1x32xi32> -> tensor<32x32xi32>
  %10 = arith.addi %8, %9 : tensor<32x32xi32>
  %11 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %12 = tt.addptr %11, %10 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
  %13 = tile.zeros : !tile.tile<32x32xf32>
  %14:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c32_i32 iter_args(%arg4 = %13, %arg5 = %12) -> (!tile.tile<32x32xf32>, tensor<32x32x!tt.ptr<f16>>)  : i32 {
    %c32_1 = arith.constant 32 : index
    cb.reserve_back %0, 1 : !cb.cb<32x32xf16, pages = 8>
    %c1_2 = arith.constant 1 : index
    %19 = arith.index_cast %arg3 : i32 to index
    %20 = arith.index_cast %c0_i32 : i32 to index
    %21 = arith.index_cast %c32_i32 : i32 to index
    %22 = arith.subi %19, %20 : index
    %23 = arith.divsi %22, %21 : index
    %c1024 = arith.constant 1024 : index
    %24 = arith.muli %23, %c1024 : index
    %25 = dma.load %arg0[%24] strides [%c32_1, %c1_2] bounds [%c32_1, %c32_1] into %0[0] : !tt.ptr<f16>, !cb.cb<32x32xf16, pages = 8>
    cb.push_back %0, 1 : !cb.cb<32x32xf16, pages = 8>
    cb.wait_front %0, 1 : !cb.cb<32x32xf16, pages = 8>
    %26 = cb.read_front %0[0] : !cb.cb<32x32xf16, pages = 8>
    %27 = tile.matmul %26, %26, %arg4 : !tile.tile<32x32xf16>, !tile.tile<32x32xf16> -> !tile.tile<32x32xf32>
    cb.pop_front %0, 1 : !cb.cb<32x32xf16, pages = 8>
    %28 = tt.addptr %arg5, %cst : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    scf.yield %27, %28 : !tile.tile<32x32xf32>, tensor<32x32x!tt.ptr<f16>>
  }
  cb.reserve_back %2, 1 : !cb.cb<32x32xf32, pages = 1>
  cb.write_back %14#0, %2[0] : !cb.cb<32x32xf32, pages = 1>
  cb.push_back %2, 1 : !cb.cb<32x32xf32, pages = 1>
  cb.wait_front %2, 1 : !cb.cb<32x32xf32, pages = 1>
  %15 = cb.read_front %2[0] : !cb.cb<32x32xf32, pages = 1>
  cb.reserve_back %1, 1 : !cb.cb<32x32xf32, pages = 2>
  %16 = tile.binary maxnumf %15, %3 : !tile.tile<32x32xf32>
  cb.pop_front %2, 1 : !cb.cb<32x32xf32, pages = 1>
  %17 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %c32 = arith.constant 32 : index
  cb.write_back %16, %1[0] : !cb.cb<32x32xf32, pages = 2>
  cb.push_back %1, 1 : !cb.cb<32x32xf32, pages = 2>
  cb.wait_front %1, 1 : !cb.cb<32x32xf32, pages = 2>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %18 = dma.store %1[0] to %arg1[%c0] strides [%c32, %c1] bounds [%c32, %c32] : !cb.cb<32x32xf32, pages = 2>, !tt.ptr<f32>
  cb.pop_front %1, 1 : !cb.cb<32x32xf32, pages = 2>
  tt.return
}

// -----

// Nested loops (triton-shared's nested2_complex_body): the outer loop's
// pointers, advanced, are the initial values of the inner loop's, which the
// inner loop only advances. The inner loop's are released first, then the
// outer loop's, whose advance before the inner loop leads nowhere else; a
// tensor of pointers (and its splat constant of offsets) that stayed would
// reach the program stage, which has no tensors.

// CHECK-LABEL: tt.func @nested
// CHECK: scf.for %{{.*}} iter_args(%[[OUTER:.*]] = %{{.*}}) -> (tensor<2x2x!tt.ptr<f32>>)
// CHECK: %[[ADVANCED:.*]] = tt.addptr %[[OUTER]], %{{.*}}
// CHECK: scf.for %{{.*}} iter_args(%[[INNER:.*]] = %[[ADVANCED]]) -> (tensor<2x2x!tt.ptr<f32>>)
// CHECK: dma.load elementwise
// CHECK: scf.yield %[[INNER]] : tensor<2x2x!tt.ptr<f32>>
// CHECK: tt.addptr %[[OUTER]], %{{.*}}
// CHECK: scf.yield %[[OUTER]] : tensor<2x2x!tt.ptr<f32>>
tt.func @nested(%arg0: !tt.ptr<f32>) {
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<2x2xf32, pages = 2>
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant dense<3> : tensor<2x2xi32>
  %cst_0 = arith.constant dense<1> : tensor<2x2xi32>
  %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<2x2x!tt.ptr<f32>>
  %2 = scf.for %arg1 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg2 = %1) -> (tensor<2x2x!tt.ptr<f32>>)  : i32 {
    %3 = tt.addptr %arg2, %cst_0 : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
    %4 = scf.for %arg3 = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%arg4 = %3) -> (tensor<2x2x!tt.ptr<f32>>)  : i32 {
      cb.reserve_back %0, 1 : !cb.cb<2x2xf32, pages = 2>
      %7 = dma.load elementwise %arg0[%c0] strides [%c2, %c1] bounds [%c2, %c2] into %0[0] : !tt.ptr<f32>, !cb.cb<2x2xf32, pages = 2>
      cb.push_back %0, 1 : !cb.cb<2x2xf32, pages = 2>
      cb.wait_front %0, 1 : !cb.cb<2x2xf32, pages = 2>
      cb.pop_front %0, 1 : !cb.cb<2x2xf32, pages = 2>
      %8 = tt.addptr %arg4, %cst : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
      scf.yield %8 : tensor<2x2x!tt.ptr<f32>>
    }
    %5 = tt.addptr %arg2, %cst_0 : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
    %6 = tt.addptr %5, %cst_0 : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
    scf.yield %6 : tensor<2x2x!tt.ptr<f32>>
  }
  tt.return
}
