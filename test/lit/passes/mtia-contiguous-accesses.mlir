// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-contiguous-accesses)' | FileCheck %s

// The transposed key block of attention: element (d, n) at k + n * stride + d.
// The load reads the block as (n, d), contiguous along d, and transposes it;
// mask and padding are permuted with it (a splat padding stays a splat).

// CHECK-LABEL: tt.func @transposed_load
// CHECK: %[[P:.*]] = tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x32x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>
// CHECK: %[[M:.*]] = tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x32xi1> -> tensor<32x64xi1>
// CHECK: %[[O:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xf16>
// CHECK: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[O]] : tensor<32x64x!tt.ptr<f16>>
// CHECK: %[[T:.*]] = tt.trans %[[L]] {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
// CHECK: tt.return %[[T]]
tt.func @transposed_load(%k: !tt.ptr<f16>, %stride: i32, %n: i32) -> tensor<64x32xf16> {
  %dims = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %keys = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %d = tt.expand_dims %dims {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %key = tt.expand_dims %keys {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %strides = tt.splat %stride : i32 -> tensor<1x32xi32>
  %rows = arith.muli %key, %strides : tensor<1x32xi32>
  %rows2 = tt.broadcast %rows : tensor<1x32xi32> -> tensor<64x32xi32>
  %d2 = tt.broadcast %d : tensor<64x1xi32> -> tensor<64x32xi32>
  %offsets = arith.addi %rows2, %d2 : tensor<64x32xi32>
  %base = tt.splat %k : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %ptrs = tt.addptr %base, %offsets : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %ns = tt.splat %n : i32 -> tensor<1x32xi32>
  %in = arith.cmpi slt, %key, %ns : tensor<1x32xi32>
  %mask = tt.broadcast %in : tensor<1x32xi1> -> tensor<64x32xi1>
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %v = tt.load %ptrs, %mask, %zero : tensor<64x32x!tt.ptr<f16>>
  tt.return %v : tensor<64x32xf16>
}

// -----

// A store of a column-major block: the value is transposed, then written in
// memory order. The middle dimension of a 3-D block has stride one: it moves
// last and the others keep their order.

// CHECK-LABEL: tt.func @column_major_store
// CHECK: %[[P:.*]] = tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x16x8x!tt.ptr<f32>> -> tensor<2x8x16x!tt.ptr<f32>>
// CHECK: %[[V:.*]] = tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x16x8xf32> -> tensor<2x8x16xf32>
// CHECK: tt.store %[[P]], %[[V]] : tensor<2x8x16x!tt.ptr<f32>>
tt.func @column_major_store(%out: !tt.ptr<f32>, %value: tensor<2x16x8xf32>) {
  %r0 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %r1 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r2 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %a0 = tt.expand_dims %r0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %a = tt.expand_dims %a0 {axis = 2 : i32} : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %b0 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %b = tt.expand_dims %b0 {axis = 2 : i32} : tensor<1x16xi32> -> tensor<1x16x1xi32>
  %c0 = tt.expand_dims %r2 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %c = tt.expand_dims %c0 {axis = 0 : i32} : tensor<1x8xi32> -> tensor<1x1x8xi32>
  %c512 = arith.constant dense<512> : tensor<2x1x1xi32>
  %c16 = arith.constant dense<16> : tensor<1x1x8xi32>
  %as = arith.muli %a, %c512 : tensor<2x1x1xi32>
  %cs = arith.muli %c, %c16 : tensor<1x1x8xi32>
  %a3 = tt.broadcast %as : tensor<2x1x1xi32> -> tensor<2x16x8xi32>
  %b3 = tt.broadcast %b : tensor<1x16x1xi32> -> tensor<2x16x8xi32>
  %c3 = tt.broadcast %cs : tensor<1x1x8xi32> -> tensor<2x16x8xi32>
  %ab = arith.addi %a3, %b3 : tensor<2x16x8xi32>
  %offsets = arith.addi %ab, %c3 : tensor<2x16x8xi32>
  %base = tt.splat %out : !tt.ptr<f32> -> tensor<2x16x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offsets : tensor<2x16x8x!tt.ptr<f32>>, tensor<2x16x8xi32>
  tt.store %ptrs, %value : tensor<2x16x8x!tt.ptr<f32>>
  tt.return
}

// -----

// Left alone: a block already contiguous along its last dimension, a block
// with no dimension of stride one, and pointers the analysis cannot follow
// (offsets loaded from memory).

// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: tt.trans
// CHECK: tt.return
tt.func @left_alone(%p: !tt.ptr<f32>, %idx: tensor<8x8x!tt.ptr<i32>>, %stride: i32) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %row = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %col = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %strides = tt.splat %stride : i32 -> tensor<8x1xi32>
  %rs = arith.muli %row, %strides : tensor<8x1xi32>
  %r2 = tt.broadcast %rs : tensor<8x1xi32> -> tensor<8x8xi32>
  %c2 = tt.broadcast %col : tensor<1x8xi32> -> tensor<8x8xi32>
  %rowmajor = arith.addi %r2, %c2 : tensor<8x8xi32>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %rowmajor : tensor<8x8x!tt.ptr<f32>>, tensor<8x8xi32>
  %a = tt.load %ptrs : tensor<8x8x!tt.ptr<f32>>
  %c4 = arith.constant dense<4> : tensor<1x8xi32>
  %cs = arith.muli %col, %c4 : tensor<1x8xi32>
  %c24 = tt.broadcast %cs : tensor<1x8xi32> -> tensor<8x8xi32>
  %strided = arith.addi %r2, %c24 : tensor<8x8xi32>
  %ptrs2 = tt.addptr %base, %strided : tensor<8x8x!tt.ptr<f32>>, tensor<8x8xi32>
  %b = tt.load %ptrs2 : tensor<8x8x!tt.ptr<f32>>
  %loaded = tt.load %idx : tensor<8x8x!tt.ptr<i32>>
  %ptrs3 = tt.addptr %base, %loaded : tensor<8x8x!tt.ptr<f32>>, tensor<8x8xi32>
  %c = tt.load %ptrs3 : tensor<8x8x!tt.ptr<f32>>
  tt.return %a, %b, %c : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
