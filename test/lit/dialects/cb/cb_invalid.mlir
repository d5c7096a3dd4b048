// RUN: mtia-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the cb dialect.

// expected-error @+1 {{a circular buffer needs at least one page, got 0}}
tt.func @no_pages(%a: !cb.cb<8xf32, pages = 0>) {
  tt.return
}

// -----

tt.func @unnamed() {
  // expected-error @+1 {{needs a non-empty name}}
  %0 = cb.alloc "", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @run_ahead_of_every_page() {
  // expected-error @+1 {{circular buffer "x" of 2 pages needs 0 <= run_ahead_pages < pages, got 2}}
  %0 = cb.alloc "x", simd -> dpe {run_ahead_pages = 2 : i64} : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @same_units() {
  // expected-error @+1 {{circular buffer "x" needs distinct producer and consumer units, got simd for both}}
  %0 = cb.alloc "x", simd -> simd : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @second_producer(%t: !tile.tile<8xf32>) {
  // expected-error @+1 {{circular buffer "x" has producer dma_in but is filled by simd}}
  %cb = cb.alloc "x", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %t : !tile.tile<8xf32>
  // expected-note @+1 {{by this operation}}
  cb.write_back %y, %cb[0] : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @second_consumer() {
  // expected-error @+1 {{circular buffer "x" has consumer dpe but is drained by simd}}
  %cb = cb.alloc "x", dma_in -> dpe : !cb.cb<8xf32, pages = 2>
  cb.wait_front %cb, 1 : !cb.cb<8xf32, pages = 2>
  // expected-note @+1 {{by this operation}}
  %x = cb.read_front %cb[0] : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %x : !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @page_read_by_two_units(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{page is read by units simd and reduce, but a circular buffer has one consumer}}
  %x = cb.read_front %cb[0] : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %x : !tile.tile<8xf32>
  %z = tile.reduce addf %x axis = 0 : !tile.tile<8xf32> -> !tile.tile<f32>
  tt.return
}

// -----

tt.func @reserve_too_many(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{moves 3 pages of a circular buffer of 2 pages}}
  cb.reserve_back %cb, 3 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @push_too_many(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{moves 4 pages of a circular buffer of 2 pages}}
  cb.push_back %cb, 4 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @wait_too_many(%cb: !cb.cb<8xf32, pages = 1>) {
  // expected-error @+1 {{moves 2 pages of a circular buffer of 1 pages}}
  cb.wait_front %cb, 2 : !cb.cb<8xf32, pages = 1>
  tt.return
}

// -----

tt.func @pop_too_many(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{moves 3 pages of a circular buffer of 2 pages}}
  cb.pop_front %cb, 3 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @pop_nothing(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{attribute 'pages' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  cb.pop_front %cb, 0 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @read_page_out_of_range(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{page 2 is out of range for a circular buffer of 2 pages}}
  %x = cb.read_front %cb[2] : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @write_page_out_of_range(%cb: !cb.cb<8xf32, pages = 2>, %t: !tile.tile<8xf32>) {
  // expected-error @+1 {{page 5 is out of range for a circular buffer of 2 pages}}
  cb.write_back %t, %cb[5] : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @write_larger_than_page(%cb: !cb.cb<8xf32, pages = 2>, %t: !tile.tile<16xf32>) {
  // expected-error @+1 {{tile of 64 bytes does not fit in a page of 32 bytes}}
  cb.write_back %t, %cb[0] : !cb.cb<8xf32, pages = 2> view !tile.tile<16xf32>
  tt.return
}

// -----

tt.func @read_larger_than_page(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{tile of 36 bytes does not fit in a page of 32 bytes}}
  %x = "cb.read_front"(%cb) <{page = 0 : i64}> : (!cb.cb<8xf32, pages = 2>) -> !tile.tile<3x3xf32>
  tt.return
}

// -----

tt.func @push_unreserved() {
  %cb = cb.alloc "x", simd -> dma_out : !cb.cb<8xf32, pages = 2>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  // expected-error @+1 {{pushes 2 pages of "x" but the producer holds 1 reserved pages}}
  cb.push_back %cb, 2 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @pop_unwaited() {
  %cb = cb.alloc "x", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  cb.wait_front %cb, 2 : !cb.cb<8xf32, pages = 2>
  cb.pop_front %cb, 2 : !cb.cb<8xf32, pages = 2>
  // expected-error @+1 {{pops 1 pages of "x" but the consumer holds 0 waited-for pages}}
  cb.pop_front %cb, 1 : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @write_unreserved_page(%t: !tile.tile<8xf32>) {
  %cb = cb.alloc "x", simd -> dma_out : !cb.cb<8xf32, pages = 2>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  // Reserving again is cumulative: one page is held, not two.
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %t : !tile.tile<8xf32>
  // expected-error @+1 {{accesses page 1 of "x" but the producer holds 1 reserved pages}}
  cb.write_back %y, %cb[1] : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @read_unwaited_page() {
  %cb = cb.alloc "x", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  // expected-error @+1 {{accesses page 0 of "x" but the consumer holds 0 waited-for pages}}
  %x = cb.read_front %cb[0] : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %x : !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @load_unreserved_page(%p: !tt.ptr<f32>, %o: index, %s: index) {
  %cb = cb.alloc "x", dma_in -> simd : !cb.cb<8xf32, pages = 2>
  // expected-error @+1 {{accesses page 0 of "x" but the producer holds 0 reserved pages}}
  %t = dma.load %p[%o] strides [%s] into %cb[0] : !tt.ptr<f32>, !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @pushed_page_read_by_the_consumer(%t: !tile.tile<8xf32>) {
  // expected-error @+1 {{circular buffer "x" has producer simd but a pushed page is read by reduce}}
  %cb = cb.alloc "x", simd -> reduce : !cb.cb<8xf32, pages = 2>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %t : !tile.tile<8xf32>
  cb.write_back %y, %cb[0] : !cb.cb<8xf32, pages = 2>
  cb.push_back %cb, 1 : !cb.cb<8xf32, pages = 2>
  // expected-note @+1 {{by this operation}}
  %x = cb.read_pushed %cb[0] : !cb.cb<8xf32, pages = 2>
  %s = tile.reduce addf %x axis = 0 : !tile.tile<8xf32> -> !tile.tile<f32>
  tt.return
}

// -----

tt.func @pushed_page_read_by_two_units(%cb: !cb.cb<8xf32, pages = 2>) {
  // expected-error @+1 {{page is read by units simd and reduce, but only the buffer's producer reads a pushed page}}
  %x = cb.read_pushed %cb[0] : !cb.cb<8xf32, pages = 2>
  %y = tile.unary negf %x : !tile.tile<8xf32>
  %s = tile.reduce addf %x axis = 0 : !tile.tile<8xf32> -> !tile.tile<f32>
  tt.return
}

// -----

tt.func @pushed_page_never_pushed() {
  %cb = cb.alloc "x", simd -> reduce : !cb.cb<8xf32, pages = 2>
  // expected-error @+1 {{reads pushed page 0 of "x" but the producer holds 0 pushed pages it has not reserved again}}
  %x = cb.read_pushed %cb[0] : !cb.cb<8xf32, pages = 2>
  tt.return
}

// -----

tt.func @pushed_page_reserved_again(%t: !tile.tile<8xf32>) {
  %cb = cb.alloc "x", simd -> reduce : !cb.cb<8xf32, pages = 1>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 1>
  cb.write_back %t, %cb[0] : !cb.cb<8xf32, pages = 1>
  cb.push_back %cb, 1 : !cb.cb<8xf32, pages = 1>
  cb.reserve_back %cb, 1 : !cb.cb<8xf32, pages = 1>
  // expected-error @+1 {{reads pushed page 0 of "x" but the producer holds 0 pushed pages it has not reserved again}}
  %x = cb.read_pushed %cb[0] : !cb.cb<8xf32, pages = 1>
  tt.return
}
