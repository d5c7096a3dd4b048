// RUN: mtia-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the dma dialect.

tt.func @load_page_out_of_range(%x: !tt.ptr<f32>, %o: index, %s: index, %cb: !cb.cb<64xf32, pages = 2>) {
  // expected-error @+1 {{page 2 is out of range for a circular buffer of 2 pages}}
  %t = dma.load %x[%o] strides [%s] into %cb[2] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_element_type(%x: !tt.ptr<f16>, %o: index, %s: index, %cb: !cb.cb<64xf32, pages = 2>) {
  // expected-error @+1 {{base points to 'f16' but the page holds 'f32'}}
  %t = dma.load %x[%o] strides [%s] into %cb[0] : !tt.ptr<f16>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_strides(%x: !tt.ptr<f32>, %o: index, %s: index, %cb: !cb.cb<8x64xf32, pages = 2>) {
  // expected-error @+1 {{expects one stride per page dimension (2), got 1}}
  %t = dma.load %x[%o] strides [%s] into %cb[0] : !tt.ptr<f32>, !cb.cb<8x64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_rank_zero(%x: !tt.ptr<f32>, %o: index, %cb: !cb.cb<f32, pages = 1>) {
  // expected-error @+1 {{strided transfers need pages of rank 1 or more, got '!tile.tile<f32>'}}
  %t = dma.load %x[%o] strides [] into %cb[0] : !tt.ptr<f32>, !cb.cb<f32, pages = 1>
  tt.return
}

// -----

tt.func @load_bounds(%x: !tt.ptr<f32>, %o: index, %s: index, %n: index, %cb: !cb.cb<8x64xf32, pages = 2>) {
  // expected-error @+1 {{expects no bounds or one per page dimension (2), got 1}}
  %t = dma.load %x[%o] strides [%s, %s] bounds [%n] into %cb[0] : !tt.ptr<f32>, !cb.cb<8x64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_misaligned_offset(%x: !tt.ptr<f32>, %cb: !cb.cb<64xf32, pages = 2>) {
  %o = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{offset of 3 elements (12 bytes) breaks the 32-byte alignment of DMA accesses}}
  %t = dma.load %x[%o] strides [%c1] into %cb[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_misaligned_stride(%x: !tt.ptr<f16>, %o: index, %cb: !cb.cb<8x64xf16, pages = 2>) {
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  // expected-error @+1 {{stride 0 of 100 elements (200 bytes) breaks the 32-byte alignment of DMA accesses}}
  %t = dma.load %x[%o] strides [%c100, %c1] into %cb[0] : !tt.ptr<f16>, !cb.cb<8x64xf16, pages = 2>
  tt.return
}

// -----

tt.func @load_padding_without_bounds(%x: !tt.ptr<f32>, %o: index, %s: index, %cb: !cb.cb<64xf32, pages = 2>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{padding needs bounds or a mask to apply to}}
  %t = dma.load %x[%o] strides [%s] padding %zero into %cb[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

tt.func @load_mask_shape(%x: !tt.ptr<f32>, %o: index, %s: index, %m: !tile.tile<32xi1>, %cb: !cb.cb<64xf32, pages = 2>) {
  // expected-error @+1 {{mask matches cb}}
  %t = "dma.load"(%x, %o, %s, %m, %cb) <{page = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 1>}> : (!tt.ptr<f32>, index, index, !tile.tile<32xi1>, !cb.cb<64xf32, pages = 2>) -> !dma.token
  tt.return
}

// -----

tt.func @load_padding_type(%x: !tt.ptr<f32>, %o: index, %s: index, %n: index, %cb: !cb.cb<64xf32, pages = 2>) {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{padding matches cb}}
  %t = "dma.load"(%x, %o, %s, %n, %zero, %cb) <{page = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 1>}> : (!tt.ptr<f32>, index, index, index, i32, !cb.cb<64xf32, pages = 2>) -> !dma.token
  tt.return
}

// -----

tt.func @load_into_consumer_side(%x: !tt.ptr<f32>, %o: index, %s: index) {
  // expected-error @+1 {{circular buffer "out" has producer simd but is filled by dma_in}}
  %cb = cb.alloc "out", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  // expected-note @+1 {{by this operation}}
  %t = dma.load %x[%o] strides [%s] into %cb[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

tt.func @store_from_producer_side(%x: !tt.ptr<f32>, %o: index, %s: index) {
  // expected-error @+1 {{circular buffer "in" has consumer simd but is drained by dma_out}}
  %cb = cb.alloc "in", dma_in -> simd : !cb.cb<64xf32, pages = 2>
  // expected-note @+1 {{by this operation}}
  %t = dma.store %cb[0] to %x[%o] strides [%s] : !cb.cb<64xf32, pages = 2>, !tt.ptr<f32>
  tt.return
}

// -----

tt.func @store_misaligned_stride(%x: !tt.ptr<i8>, %o: index, %cb: !cb.cb<4x16xi8, pages = 1>) {
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  // expected-error @+1 {{stride 0 of 48 elements (48 bytes) breaks the 32-byte alignment of DMA accesses}}
  %t = dma.store %cb[0] to %x[%o] strides [%c48, %c1] : !cb.cb<4x16xi8, pages = 1>, !tt.ptr<i8>
  tt.return
}

// -----

tt.func @gather_indices(%x: !tt.ptr<f32>, %i: !tile.tile<32x8xi32>, %cb: !cb.cb<64x16xf32, pages = 1>) {
  // expected-error @+1 {{indices '!tile.tile<32x8xi32>' must cover the page '!tile.tile<64x16xf32>' or rows of it from row 0}}
  %t = dma.gather %x[%i] into %cb[0] : !tt.ptr<f32>, !tile.tile<32x8xi32>, !cb.cb<64x16xf32, pages = 1>
  tt.return
}

// -----

// A block of rows ends within the page.
tt.func @gather_rows_past_the_page(%x: !tt.ptr<f32>, %i: !tile.tile<32x16xi32>, %cb: !cb.cb<64x16xf32, pages = 1>) {
  // expected-error @+1 {{indices '!tile.tile<32x16xi32>' must cover the page '!tile.tile<64x16xf32>' or rows of it from row 48}}
  %t = dma.gather %x[%i] into %cb[0] {row = 48} : !tt.ptr<f32>, !tile.tile<32x16xi32>, !cb.cb<64x16xf32, pages = 1>
  tt.return
}

// -----

tt.func @gather_whole_page_from_a_row(%x: !tt.ptr<f32>, %i: !tile.tile<64x16xi32>, %cb: !cb.cb<64x16xf32, pages = 1>) {
  // expected-error @+1 {{indices '!tile.tile<64x16xi32>' must cover the page '!tile.tile<64x16xf32>' or rows of it from row 8}}
  %t = dma.gather %x[%i] into %cb[0] {row = 8} : !tt.ptr<f32>, !tile.tile<64x16xi32>, !cb.cb<64x16xf32, pages = 1>
  tt.return
}

// -----

tt.func @gather_mask_of_the_indices(%x: !tt.ptr<f32>, %i: !tile.tile<16x16xi32>, %m: !tile.tile<64x16xi1>, %cb: !cb.cb<64x16xf32, pages = 1>) {
  // expected-error @+1 {{'dma.gather' op failed to verify that mask matches indices}}
  %t = "dma.gather"(%x, %i, %m, %cb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>, page = 0 : i64, row = 16 : i64}> : (!tt.ptr<f32>, !tile.tile<16x16xi32>, !tile.tile<64x16xi1>, !cb.cb<64x16xf32, pages = 1>) -> !dma.token
  tt.return
}

// -----

tt.func @gather_index_type(%x: !tt.ptr<f32>, %i: !tile.tile<64xi16>, %cb: !cb.cb<64xf32, pages = 1>) {
  // expected-error @+1 {{'indices' must be tile of 32-bit signless integer or 64-bit signless integer values}}
  %t = dma.gather %x[%i] into %cb[0] : !tt.ptr<f32>, !tile.tile<64xi16>, !cb.cb<64xf32, pages = 1>
  tt.return
}

// -----

tt.func @gather_padding_without_mask(%x: !tt.ptr<f32>, %i: !tile.tile<64xi32>, %cb: !cb.cb<64xf32, pages = 1>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{padding needs bounds or a mask to apply to}}
  %t = dma.gather %x[%i] padding %zero into %cb[0] : !tt.ptr<f32>, !tile.tile<64xi32>, !cb.cb<64xf32, pages = 1>
  tt.return
}

// -----

tt.func @scatter_element_type(%x: !tt.ptr<i32>, %i: !tile.tile<64xi32>, %cb: !cb.cb<64xf32, pages = 1>) {
  // expected-error @+1 {{base points to 'i32' but the page holds 'f32'}}
  %t = dma.scatter %cb[0] to %x[%i] : !cb.cb<64xf32, pages = 1>, !tt.ptr<i32>, !tile.tile<64xi32>
  tt.return
}

// -----

tt.func @atomic_value_type(%x: !tt.ptr<f32>, %i: !tile.tile<64xi32>, %v: !tile.tile<64xi32>) {
  // expected-error @+1 {{base points to 'f32' but the values are '!tile.tile<64xi32>'}}
  %t = dma.atomic_rmw add, relaxed, chip %x[%i], %v : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xi32>
  tt.return
}

// -----

tt.func @atomic_indices(%x: !tt.ptr<f32>, %i: !tile.tile<32xi32>, %v: !tile.tile<64xf32>) {
  // expected-error @+1 {{indices '!tile.tile<32xi32>' must have the shape of the data '!tile.tile<64xf32>'}}
  %t = dma.atomic_rmw fadd, relaxed, chip %x[%i], %v : !tt.ptr<f32>, !tile.tile<32xi32>, !tile.tile<64xf32>
  tt.return
}

// -----

tt.func @atomic_kind_on_floats(%x: !tt.ptr<f32>, %i: !tile.tile<64xi32>, %v: !tile.tile<64xf32>) {
  // expected-error @+1 {{'max' does not apply to '!tile.tile<64xf32>'}}
  %t = dma.atomic_rmw max, relaxed, chip %x[%i], %v : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xf32>
  tt.return
}

// -----

tt.func @atomic_kind_on_integers(%x: !tt.ptr<i32>, %i: !tile.tile<64xi32>, %v: !tile.tile<64xi32>) {
  // expected-error @+1 {{'fadd' does not apply to '!tile.tile<64xi32>'}}
  %t = dma.atomic_rmw fadd, relaxed, chip %x[%i], %v : !tt.ptr<i32>, !tile.tile<64xi32>, !tile.tile<64xi32>
  tt.return
}

// -----

tt.func @atomic_page_without_buffer(%x: !tt.ptr<i32>, %i: !tile.tile<1xi32>, %v: !tile.tile<1xi32>) {
  // expected-error @+1 {{expects a page exactly when old values are returned into a circular buffer}}
  %t = dma.atomic_rmw add, relaxed, chip %x[%i], %v {page = 0 : i64} : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>
  tt.return
}

// -----

tt.func @atomic_old_values_type(%x: !tt.ptr<i32>, %i: !tile.tile<1xi32>, %v: !tile.tile<1xi32>, %cb: !cb.cb<2xi32, pages = 1>) {
  // expected-error @+1 {{old values of type '!tile.tile<1xi32>' do not fit pages of '!cb.cb<2xi32, pages = 1>'}}
  %t = dma.atomic_rmw add, relaxed, chip %x[%i], %v into %cb[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<2xi32, pages = 1>
  tt.return
}

// -----

tt.func @cas_old_values_page(%x: !tt.ptr<i32>, %i: !tile.tile<1xi32>, %v: !tile.tile<1xi32>, %cb: !cb.cb<1xi32, pages = 1>) {
  // expected-error @+1 {{page 1 is out of range for a circular buffer of 1 pages}}
  %t = dma.atomic_cas acq_rel, chip %x[%i], %v, %v into %cb[1] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  tt.return
}

// -----

tt.func @cas_types(%x: !tt.ptr<i32>, %i: !tile.tile<1xi32>, %c: !tile.tile<1xi64>, %v: !tile.tile<1xi32>) {
  // expected-error @+1 {{failed to verify that all of {compare, value} have same type}}
  %t = "dma.atomic_cas"(%x, %i, %c, %v) <{order = 3 : i32, scope = 1 : i32}> : (!tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi64>, !tile.tile<1xi32>) -> !dma.token
  tt.return
}

// -----

// A buffer names the DMA queue it serves: loads and gathers fill pages on
// the inbound queue, so a buffer filled by one cannot name the outbound one.
tt.func @load_into_outbound_queue(%x: !tt.ptr<f32>, %o: index, %s: index) {
  // expected-error @+1 {{circular buffer "in" has producer dma_out but is filled by dma_in}}
  %cb = cb.alloc "in", dma_out -> simd : !cb.cb<64xf32, pages = 2>
  // expected-note @+1 {{by this operation}}
  %t = dma.load %x[%o] strides [%s] into %cb[0] : !tt.ptr<f32>, !cb.cb<64xf32, pages = 2>
  tt.return
}

// -----

// The old values of an atomic come back on the outbound queue.
tt.func @atomic_into_inbound_queue(%x: !tt.ptr<i32>, %i: !tile.tile<1xi32>, %v: !tile.tile<1xi32>) {
  // expected-error @+1 {{circular buffer "old" has producer dma_in but is filled by dma_out}}
  %cb = cb.alloc "old", dma_in -> simd : !cb.cb<1xi32, pages = 1>
  // expected-note @+1 {{by this operation}}
  %t = dma.atomic_cas acq_rel, chip %x[%i], %v, %v into %cb[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  tt.return
}

// -----

// The indices of a gather are read by the inbound queue.
tt.func @gather_indices_from_outbound_queue(%x: !tt.ptr<f32>, %out: !cb.cb<64xf32, pages = 1>) {
  // expected-error @+1 {{circular buffer "indices" has consumer dma_out but is drained by dma_in}}
  %indices = cb.alloc "indices", simd -> dma_out : !cb.cb<64xi32, pages = 1>
  cb.wait_front %indices, 1 : !cb.cb<64xi32, pages = 1>
  // expected-note @+1 {{by this operation}}
  %idx = cb.read_front %indices[0] : !cb.cb<64xi32, pages = 1>
  %t = dma.gather %x[%idx] into %out[0] : !tt.ptr<f32>, !tile.tile<64xi32>, !cb.cb<64xf32, pages = 1>
  tt.return
}

// -----

// One page feeds one queue.
tt.func @page_read_by_both_queues(%x: !tt.ptr<f32>, %in: !cb.cb<64xf32, pages = 1>, %out: !cb.cb<64xf32, pages = 1>) {
  %indices = cb.alloc "indices", simd -> dma_in : !cb.cb<64xi32, pages = 1>
  cb.wait_front %indices, 1 : !cb.cb<64xi32, pages = 1>
  // expected-error @+1 {{page is read by units dma_in and dma_out, but a circular buffer has one consumer}}
  %idx = cb.read_front %indices[0] : !cb.cb<64xi32, pages = 1>
  %t0 = dma.gather %x[%idx] into %in[0] : !tt.ptr<f32>, !tile.tile<64xi32>, !cb.cb<64xf32, pages = 1>
  %t1 = dma.scatter %out[0] to %x[%idx] : !cb.cb<64xf32, pages = 1>, !tt.ptr<f32>, !tile.tile<64xi32>
  tt.return
}

// -----

// A descriptor's base points to the elements of its block.
tt.func @descriptor_base_of_another_type(%desc: !tt.tensordesc<64x64xf16>) -> !tt.ptr<f32> {
  // expected-error @+1 {{must point to the elements of the descriptor's block, 'f16'}}
  %base = dma.descriptor_base %desc : !tt.tensordesc<64x64xf16> -> !tt.ptr<f32>
  tt.return %base : !tt.ptr<f32>
}

// -----

// A scratch region has bytes.
tt.func @empty_scratch() -> !tt.ptr<f32> {
  // expected-error @+1 {{attribute 'bytes' failed to satisfy constraint}}
  %p = dma.scratch 0 : !tt.ptr<f32>
  tt.return %p : !tt.ptr<f32>
}
