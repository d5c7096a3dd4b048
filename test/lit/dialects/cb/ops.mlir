// RUN: mtia-opt %s | mtia-opt | FileCheck %s

// Round trip of every type and operation of the cb dialect: a SIMD stage
// between a buffer that DMA fills and a buffer that DMA drains.

// CHECK-LABEL: tt.func @types
// CHECK-SAME: !cb.cb<1024xf32, pages = 2>
// CHECK-SAME: !cb.cb<64x32xf16, order = [0, 1], pages = 3>
// CHECK-SAME: !cb.cb<i32, pages = 1>
tt.func @types(%a: !cb.cb<1024xf32, pages = 2>, %b: !cb.cb<64x32xf16, order = [0, 1], pages = 3>,
               %c: !cb.cb<i32, pages = 1>) {
  tt.return
}

// CHECK-LABEL: tt.func @pipeline
tt.func @pipeline() {
  // CHECK: %[[IN:.*]] = cb.alloc "x", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
  %in = cb.alloc "x", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
  // CHECK: %[[OUT:.*]] = cb.alloc "y", simd -> dma_out : !cb.cb<1024xf32, pages = 2>
  %out = cb.alloc "y", simd -> dma_out : !cb.cb<1024xf32, pages = 2>
  // CHECK: cb.wait_front %[[IN]], 1 : !cb.cb<1024xf32, pages = 2>
  cb.wait_front %in, 1 : !cb.cb<1024xf32, pages = 2>
  // CHECK: %[[X:.*]] = cb.read_front %[[IN]][0] : !cb.cb<1024xf32, pages = 2>
  %x = cb.read_front %in[0] : !cb.cb<1024xf32, pages = 2>
  // CHECK: cb.reserve_back %[[OUT]], 2 : !cb.cb<1024xf32, pages = 2>
  cb.reserve_back %out, 2 : !cb.cb<1024xf32, pages = 2>
  %y = tile.binary mulf %x, %x : !tile.tile<1024xf32>
  // CHECK: cb.write_back %{{.*}}, %[[OUT]][1] : !cb.cb<1024xf32, pages = 2>
  cb.write_back %y, %out[1] : !cb.cb<1024xf32, pages = 2>
  // CHECK: cb.push_back %[[OUT]], 2 : !cb.cb<1024xf32, pages = 2>
  cb.push_back %out, 2 : !cb.cb<1024xf32, pages = 2>
  // CHECK: %[[Y:.*]] = cb.read_pushed %[[OUT]][0] : !cb.cb<1024xf32, pages = 2>
  %y_page = cb.read_pushed %out[0] : !cb.cb<1024xf32, pages = 2>
  %z = tile.binary addf %y_page, %x : !tile.tile<1024xf32>
  // CHECK: cb.pop_front %[[IN]], 1 : !cb.cb<1024xf32, pages = 2>
  cb.pop_front %in, 1 : !cb.cb<1024xf32, pages = 2>
  tt.return
}

// One buffer carrying tiles of several types one after another: each page
// access views the page's first bytes as its own tile type.
// CHECK-LABEL: tt.func @views
tt.func @views(%t: !tile.tile<4x4xi32>) {
  %forward = cb.alloc "forward", simd -> mlu : !cb.cb<64xf32, pages = 1>
  cb.reserve_back %forward, 1 : !cb.cb<64xf32, pages = 1>
  // CHECK: cb.write_back %{{.*}}, %{{.*}}[0] : !cb.cb<64xf32, pages = 1> view !tile.tile<4x4xi32>
  cb.write_back %t, %forward[0] : !cb.cb<64xf32, pages = 1> view !tile.tile<4x4xi32>
  cb.push_back %forward, 1 : !cb.cb<64xf32, pages = 1>
  cb.wait_front %forward, 1 : !cb.cb<64xf32, pages = 1>
  // CHECK: cb.read_front %{{.*}}[0] : !cb.cb<64xf32, pages = 1> view !tile.tile<2x8xi1>
  %mask = cb.read_front %forward[0] : !cb.cb<64xf32, pages = 1> view !tile.tile<2x8xi1>
  cb.pop_front %forward, 1 : !cb.cb<64xf32, pages = 1>
  tt.return
}

// A copy through local memory: the DMA engine's inbound queue fills the
// buffer and its outbound queue drains it.
// CHECK-LABEL: tt.func @copy
// CHECK: cb.alloc "staging", dma_in -> dma_out : !cb.cb<64x64xf16, pages = 2>
tt.func @copy() {
  %staging = cb.alloc "staging", dma_in -> dma_out : !cb.cb<64x64xf16, pages = 2>
  tt.return
}

// After a loop that uses a buffer, its page counts are unknown to the
// verifier: the pop after the loop is not checked.
// CHECK-LABEL: tt.func @counts_after_loop
tt.func @counts_after_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = cb.alloc "x", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  scf.for %i = %c0 to %n step %c1 {
    cb.wait_front %in, 1 : !cb.cb<8xf32, pages = 2>
  }
  // CHECK: cb.pop_front
  cb.pop_front %in, 1 : !cb.cb<8xf32, pages = 2>
  tt.return
}
