// RUN: mtia-opt %s | mtia-opt | FileCheck %s

// Corpus case 02 (fused softmax), one row per program, as the data-movement
// stage lowers it: DMA fills the row buffer with -inf padding past n_cols;
// the MLU, the row buffer's consumer, copies the row once so that the
// reduction engine and the SIMD engine can both read it; the SIMD engine
// fills the result buffer, which DMA drains with the same bound. The plan
// fits mtia-2i's local memory.

// CHECK-LABEL: tt.func @fused_softmax
// CHECK: cb.alloc "row", dma_in -> mlu : !cb.cb<1024xf32, pages = 2>
// CHECK: dma.load %{{.*}}[%{{.*}}] strides [%{{.*}}] bounds [%{{.*}}] padding %{{.*}} into %{{.*}}[0]
// CHECK: tile.copy
// CHECK: tile.reduce maxnumf
// CHECK: tile.sfu exp
// CHECK: tile.reduce addf
// CHECK: cb.write_back
// CHECK: dma.store
tt.func @fused_softmax(%out: !tt.ptr<f32>, %in: !tt.ptr<f32>, %in_stride: index,
                       %out_stride: index, %n_cols: index, %row: index) {
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %rows = cb.alloc "row", dma_in -> mlu : !cb.cb<1024xf32, pages = 2>
  %results = cb.alloc "result", simd -> dma_out : !cb.cb<1024xf32, pages = 2>

  %in_offset = arith.muli %row, %in_stride : index
  cb.reserve_back %rows, 1 : !cb.cb<1024xf32, pages = 2>
  %loaded = dma.load %in[%in_offset] strides [%c1] bounds [%n_cols] padding %ninf
      into %rows[0] : !tt.ptr<f32>, !cb.cb<1024xf32, pages = 2>
  dma.wait %loaded
  cb.push_back %rows, 1 : !cb.cb<1024xf32, pages = 2>

  cb.wait_front %rows, 1 : !cb.cb<1024xf32, pages = 2>
  %page = cb.read_front %rows[0] : !cb.cb<1024xf32, pages = 2>
  %x = tile.copy %page : !tile.tile<1024xf32>
  cb.pop_front %rows, 1 : !cb.cb<1024xf32, pages = 2>

  %max = tile.reduce maxnumf %x axis = 0 : !tile.tile<1024xf32> -> !tile.tile<f32>
  %max_row = tile.broadcast %max : !tile.tile<f32> -> !tile.tile<1024xf32>
  %shifted = tile.binary subf %x, %max_row : !tile.tile<1024xf32>
  %num = tile.sfu exp %shifted : !tile.tile<1024xf32>
  %den = tile.reduce addf %num axis = 0 : !tile.tile<1024xf32> -> !tile.tile<f32>
  %den_row = tile.broadcast %den : !tile.tile<f32> -> !tile.tile<1024xf32>
  cb.reserve_back %results, 1 : !cb.cb<1024xf32, pages = 2>
  %y = tile.binary divf %num, %den_row : !tile.tile<1024xf32>
  cb.write_back %y, %results[0] : !cb.cb<1024xf32, pages = 2>
  cb.push_back %results, 1 : !cb.cb<1024xf32, pages = 2>

  cb.wait_front %results, 1 : !cb.cb<1024xf32, pages = 2>
  %out_offset = arith.muli %row, %out_stride : index
  %stored = dma.store %results[0] to %out[%out_offset] strides [%c1] bounds [%n_cols]
      : !cb.cb<1024xf32, pages = 2>, !tt.ptr<f32>
  dma.wait %stored
  cb.pop_front %results, 1 : !cb.cb<1024xf32, pages = 2>
  tt.return
}
