// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-reserve-where-produced)' | FileCheck %s

// The buffer of the store takes one tile, which has no other use: its
// reserve moves from the write_back up to the tile op that computes the
// tile, so that the SIMD engine computes the sum into the page, and the
// write and the push follow the tile op, so that the store can start as soon
// as the sum is computed.

// CHECK-LABEL: tt.func @vector_add
// CHECK: %[[X:.*]] = cb.alloc "load0"
// CHECK-NEXT: %[[OUT:.*]] = cb.alloc "store1"
// CHECK: %[[TILE:.*]] = cb.read_front %[[X]][0]
// CHECK-NEXT: cb.reserve_back %[[OUT]], 1
// CHECK-NEXT: %[[SUM:.*]] = tile.binary addf %[[TILE]], %[[TILE]]
// CHECK-NEXT: cb.write_back %[[SUM]], %[[OUT]][0]
// CHECK-NEXT: cb.push_back %[[OUT]], 1
// CHECK-NEXT: cb.pop_front %[[X]], 1
// CHECK-NOT: cb.reserve_back
// CHECK-NOT: cb.push_back %[[OUT]]
tt.func @vector_add(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i32) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c-1024 = arith.constant -1024 : index
  %c1024 = arith.constant 1024 : index
  %0 = cb.alloc "load0", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
  %1 = cb.alloc "store1", simd -> dma_out : !cb.cb<1024xf32, pages = 2>
  %2 = tt.get_program_id x : i32
  %3 = arith.index_cast %2 : i32 to index
  %4 = arith.muli %3, %c-1024 : index
  %5 = arith.index_cast %arg2 : i32 to index
  %6 = arith.addi %4, %5 : index
  %7 = arith.minsi %6, %c1024 : index
  %8 = arith.maxsi %7, %c0 : index
  cb.reserve_back %0, 1 : !cb.cb<1024xf32, pages = 2>
  %9 = arith.muli %3, %c1024 : index
  %10 = dma.load %arg0[%9] strides [%c1] bounds [%8] into %0[0] : !tt.ptr<f32>, !cb.cb<1024xf32, pages = 2>
  cb.push_back %0, 1 : !cb.cb<1024xf32, pages = 2>
  cb.wait_front %0, 1 : !cb.cb<1024xf32, pages = 2>
  %11 = cb.read_front %0[0] : !cb.cb<1024xf32, pages = 2>
  %12 = tile.binary addf %11, %11 : !tile.tile<1024xf32>
  cb.pop_front %0, 1 : !cb.cb<1024xf32, pages = 2>
  cb.reserve_back %1, 1 : !cb.cb<1024xf32, pages = 2>
  cb.write_back %12, %1[0] : !cb.cb<1024xf32, pages = 2>
  cb.push_back %1, 1 : !cb.cb<1024xf32, pages = 2>
  cb.wait_front %1, 1 : !cb.cb<1024xf32, pages = 2>
  %13 = dma.store %1[0] to %arg1[%9] strides [%c1] bounds [%8] : !cb.cb<1024xf32, pages = 2>, !tt.ptr<f32>
  cb.pop_front %1, 1 : !cb.cb<1024xf32, pages = 2>
  tt.return
}

// -----

// One buffer carries two transposes from the layout unit to the SIMD
// engine. Each reserve moves up to the transpose it takes, since nothing
// between them touches the buffer; the second one stays after the first
// tile's pop, so it still waits for that page.

// CHECK-LABEL: tt.func @two_transposes
// CHECK: %[[FWD:.*]] = cb.alloc "forward"
// CHECK: cb.reserve_back %[[FWD]], 1
// CHECK-NEXT: %[[B1:.*]] = tile.transpose
// CHECK-NEXT: cb.write_back %[[B1]], %[[FWD]][0]
// CHECK: cb.pop_front %[[FWD]], 1
// CHECK-NEXT: cb.reserve_back %[[FWD]], 1
// CHECK-NEXT: %[[B2:.*]] = tile.transpose
// CHECK-NEXT: cb.write_back %[[B2]], %[[FWD]][0]
// The tile of the third write has another use: its reserve stays.
// CHECK: %[[B3:.*]] = tile.transpose
// CHECK-NEXT: cb.reserve_back %[[FWD]], 1
// CHECK-NEXT: cb.write_back %[[B3]], %[[FWD]][0]
tt.func @two_transposes(%a: !tile.tile<64x64xf32>, %b: !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  %fwd = cb.alloc "forward", mlu -> simd : !cb.cb<64x64xf32, pages = 1>
  %0 = tile.transpose %a [1, 0] : !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  cb.reserve_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.write_back %0, %fwd[0] : !cb.cb<64x64xf32, pages = 1>
  cb.push_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.wait_front %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  %1 = cb.read_front %fwd[0] : !cb.cb<64x64xf32, pages = 1>
  %2 = tile.binary addf %1, %1 : !tile.tile<64x64xf32>
  cb.pop_front %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  %3 = tile.transpose %b [1, 0] : !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  cb.reserve_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.write_back %3, %fwd[0] : !cb.cb<64x64xf32, pages = 1>
  cb.push_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.wait_front %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  %4 = cb.read_front %fwd[0] : !cb.cb<64x64xf32, pages = 1>
  %5 = tile.binary mulf %2, %4 : !tile.tile<64x64xf32>
  cb.pop_front %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  %6 = tile.transpose %a [1, 0] : !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  cb.reserve_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.write_back %6, %fwd[0] : !cb.cb<64x64xf32, pages = 1>
  cb.push_back %fwd, 1 : !cb.cb<64x64xf32, pages = 1>
  %7 = tile.binary addf %5, %6 : !tile.tile<64x64xf32>
  tt.return %7 : !tile.tile<64x64xf32>
}

// -----

// The scaled scores go to the reduction engine and stay with the SIMD
// engine, and so does their exponential: each is computed straight into its
// page, pushed, and read there by the SIMD engine's later ops
// (`cb.read_pushed`), since neither buffer is reserved again before them.

// CHECK-LABEL: tt.func @shared_with_the_reduction_engine
// CHECK: %[[SCORES:.*]] = cb.alloc "forward0"
// CHECK-NEXT: %[[EXP:.*]] = cb.alloc "forward1"
// CHECK-NEXT: cb.reserve_back %[[SCORES]], 1
// CHECK-NEXT: %[[S:.*]] = tile.binary mulf %arg0, %arg1
// CHECK-NEXT: cb.write_back %[[S]], %[[SCORES]][0]
// CHECK-NEXT: cb.push_back %[[SCORES]], 1
// CHECK-NEXT: %[[S_PAGE:.*]] = cb.read_pushed %[[SCORES]][0]
// CHECK-NEXT: cb.reserve_back %[[EXP]], 1
// CHECK-NEXT: %[[P:.*]] = tile.sfu exp2 %[[S_PAGE]]
// CHECK-NEXT: cb.write_back %[[P]], %[[EXP]][0]
// CHECK-NEXT: cb.push_back %[[EXP]], 1
// CHECK-NEXT: %[[P_PAGE:.*]] = cb.read_pushed %[[EXP]][0]
// CHECK-NEXT: tile.binary addf %[[P_PAGE]], %[[S_PAGE]]
tt.func @shared_with_the_reduction_engine(%arg0: !tile.tile<64x128xf32>, %arg1: !tile.tile<64x128xf32>) -> !tile.tile<64x128xf32> {
  %scores = cb.alloc "forward0", simd -> reduce : !cb.cb<64x128xf32, pages = 2>
  %exp = cb.alloc "forward1", simd -> reduce : !cb.cb<64x128xf32, pages = 2>
  %0 = tile.binary mulf %arg0, %arg1 : !tile.tile<64x128xf32>
  cb.reserve_back %scores, 1 : !cb.cb<64x128xf32, pages = 2>
  cb.write_back %0, %scores[0] : !cb.cb<64x128xf32, pages = 2>
  cb.push_back %scores, 1 : !cb.cb<64x128xf32, pages = 2>
  %1 = tile.sfu exp2 %0 : !tile.tile<64x128xf32>
  cb.reserve_back %exp, 1 : !cb.cb<64x128xf32, pages = 2>
  cb.write_back %1, %exp[0] : !cb.cb<64x128xf32, pages = 2>
  cb.push_back %exp, 1 : !cb.cb<64x128xf32, pages = 2>
  %2 = tile.binary addf %1, %0 : !tile.tile<64x128xf32>
  tt.return %2 : !tile.tile<64x128xf32>
}

// -----

// A use after the next reserve of the buffer could find the page written
// again: the multiply is computed twice, and the exponential, which costs
// more than a copy, stays where it is and is copied into its page.

// CHECK-LABEL: tt.func @used_after_the_next_reserve
// CHECK: %[[BUF:.*]] = cb.alloc "forward0"
// CHECK-NEXT: cb.reserve_back %[[BUF]], 1
// CHECK-NEXT: %[[INTO_PAGE:.*]] = tile.binary mulf %arg0, %arg1
// CHECK-NEXT: cb.write_back %[[INTO_PAGE]], %[[BUF]][0]
// CHECK-NEXT: cb.push_back %[[BUF]], 1
// CHECK-NEXT: %[[OWN:.*]] = tile.binary mulf %arg0, %arg1
// CHECK-NEXT: %[[P:.*]] = tile.sfu exp2 %[[OWN]]
// CHECK-NEXT: cb.reserve_back %[[BUF]], 1
// CHECK-NEXT: cb.write_back %[[P]], %[[BUF]][0]
// CHECK-NEXT: cb.push_back %[[BUF]], 1
// CHECK-NEXT: cb.reserve_back %[[BUF]], 1
// CHECK-NEXT: tile.binary addf %[[P]], %[[OWN]]
// CHECK-NOT: cb.read_pushed
tt.func @used_after_the_next_reserve(%arg0: !tile.tile<64xf32>, %arg1: !tile.tile<64xf32>) -> !tile.tile<64xf32> {
  %buf = cb.alloc "forward0", simd -> reduce : !cb.cb<64xf32, pages = 2>
  %0 = tile.binary mulf %arg0, %arg1 : !tile.tile<64xf32>
  cb.reserve_back %buf, 1 : !cb.cb<64xf32, pages = 2>
  cb.write_back %0, %buf[0] : !cb.cb<64xf32, pages = 2>
  cb.push_back %buf, 1 : !cb.cb<64xf32, pages = 2>
  %1 = tile.sfu exp2 %0 : !tile.tile<64xf32>
  cb.reserve_back %buf, 1 : !cb.cb<64xf32, pages = 2>
  cb.write_back %1, %buf[0] : !cb.cb<64xf32, pages = 2>
  cb.push_back %buf, 1 : !cb.cb<64xf32, pages = 2>
  cb.reserve_back %buf, 1 : !cb.cb<64xf32, pages = 2>
  %2 = tile.binary addf %1, %0 : !tile.tile<64xf32>
  tt.return %2 : !tile.tile<64xf32>
}

// -----

// An earlier run of the pass moved the reserve up to the multiply, and CSE
// merged the two computations again: the multiply is computed into the page
// once more.

// CHECK-LABEL: tt.func @reserved_before_the_producer
// CHECK: cb.reserve_back %[[SCORES:.*]], 1
// CHECK-NEXT: %[[INTO_PAGE:.*]] = tile.binary mulf %arg0, %arg1
// CHECK-NEXT: cb.write_back %[[INTO_PAGE]], %[[SCORES]][0]
// CHECK-NEXT: cb.push_back %[[SCORES]], 1
// CHECK-NEXT: %[[OWN:.*]] = tile.binary mulf %arg0, %arg1
// CHECK-NEXT: tt.return %[[OWN]]
tt.func @reserved_before_the_producer(%arg0: !tile.tile<64x128xf32>, %arg1: !tile.tile<64x128xf32>) -> !tile.tile<64x128xf32> {
  %scores = cb.alloc "forward0", simd -> reduce : !cb.cb<64x128xf32, pages = 2>
  cb.reserve_back %scores, 1 : !cb.cb<64x128xf32, pages = 2>
  %0 = tile.binary mulf %arg0, %arg1 : !tile.tile<64x128xf32>
  cb.write_back %0, %scores[0] : !cb.cb<64x128xf32, pages = 2>
  cb.push_back %scores, 1 : !cb.cb<64x128xf32, pages = 2>
  tt.return %0 : !tile.tile<64x128xf32>
}

// -----

// The next tile of the buffer is computed from the tile read in the pushed
// page: the reserve of its page stays after that read, which it may
// otherwise reserve again (the buffer has one page).

// CHECK-LABEL: tt.func @computed_from_the_pushed_page
// CHECK: %[[PAGE:.*]] = cb.read_pushed %[[BUF:.*]][0]
// CHECK: %[[NEXT:.*]] = tile.binary addf %[[PAGE]], %[[PAGE]]
// CHECK-NEXT: cb.reserve_back %[[BUF]], 1
// CHECK-NEXT: cb.write_back %[[NEXT]], %[[BUF]][0]
tt.func @computed_from_the_pushed_page(%arg0: !tile.tile<64xf32>, %arg1: !tile.tile<64xf32>) {
  %buf = cb.alloc "forward0", simd -> reduce : !cb.cb<64xf32, pages = 1>
  %0 = tile.binary mulf %arg0, %arg1 : !tile.tile<64xf32>
  cb.reserve_back %buf, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %0, %buf[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %buf, 1 : !cb.cb<64xf32, pages = 1>
  %1 = tile.binary addf %0, %0 : !tile.tile<64xf32>
  cb.reserve_back %buf, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %1, %buf[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %buf, 1 : !cb.cb<64xf32, pages = 1>
  tt.return
}

// -----

// The DPE's zeros are also the accumulator of a product, and the product a
// branch pushes when the loop it starts runs no iteration: the branch's
// write gets zeros of its own, which the DPE clears the page with, rather
// than zeros it keeps in its scratch to copy from.

// CHECK-LABEL: tt.func @zeros_used_elsewhere
// CHECK: %[[ZEROS:.*]] = tile.zeros
// CHECK: tile.matmul %arg0, %arg1, %[[ZEROS]]
// CHECK: } else {
// CHECK-NEXT: cb.reserve_back %[[PRODUCT:.*]], 1
// CHECK-NEXT: %[[OWN:.*]] = tile.zeros
// CHECK-NEXT: cb.write_back %[[OWN]], %[[PRODUCT]][0]
tt.func @zeros_used_elsewhere(%arg0: !tile.tile<64x64xf16>, %arg1: !tile.tile<64x64xf16>, %runs: i1) {
  %product = cb.alloc "carried0", dpe -> simd : !cb.cb<64x64xf32, pages = 2>
  %zeros = tile.zeros : !tile.tile<64x64xf32>
  scf.if %runs {
    %0 = tile.matmul %arg0, %arg1, %zeros : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    cb.reserve_back %product, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %0, %product[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %product, 1 : !cb.cb<64x64xf32, pages = 2>
  } else {
    cb.reserve_back %product, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %zeros, %product[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %product, 1 : !cb.cb<64x64xf32, pages = 2>
  }
  tt.return
}

// -----

// The same for a SIMD splat: the scores a branch pushes when the loop it
// starts runs no iteration are a constant the function also returns. The
// branch's write gets a constant of its own, which the SIMD engine fills
// the page with.

// CHECK-LABEL: tt.func @splat_used_elsewhere
// CHECK: %[[ZEROS:.*]] = tile.constant
// CHECK: } else {
// CHECK-NEXT: cb.reserve_back %[[SCORES:.*]], 1
// CHECK-NEXT: %[[OWN:.*]] = tile.constant
// CHECK-NEXT: cb.write_back %[[OWN]], %[[SCORES]][0]
// CHECK: tt.return %[[ZEROS]]
tt.func @splat_used_elsewhere(%arg0: !tile.tile<64x64xf32>, %runs: i1) -> !tile.tile<64x64xf32> {
  %scores = cb.alloc "forward0", simd -> reduce : !cb.cb<64x64xf32, pages = 2>
  %zeros = tile.constant dense<0.0> : tensor<64x64xf32> : !tile.tile<64x64xf32>
  scf.if %runs {
    %0 = tile.binary mulf %arg0, %arg0 : !tile.tile<64x64xf32>
    cb.reserve_back %scores, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %0, %scores[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %scores, 1 : !cb.cb<64x64xf32, pages = 2>
  } else {
    cb.reserve_back %scores, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %zeros, %scores[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %scores, 1 : !cb.cb<64x64xf32, pages = 2>
  }
  tt.return %zeros : !tile.tile<64x64xf32>
}

// -----

// The SIMD engine reads the tile it pushed first in its page (page 0, the
// last pushed) after it computes the next tile: the next tile's write and
// push stay after that read, or page 0 would be the next tile there. The
// reserve still moves up to the op that computes the next tile.

// CHECK-LABEL: tt.func @push_stays_after_a_read_of_the_pushed_page
// CHECK: %[[FIRST:.*]] = cb.read_pushed %[[B:.*]][0]
// CHECK-NEXT: cb.reserve_back %[[B]], 1
// CHECK-NEXT: %[[NEXT:.*]] = tile.binary addf
// CHECK-NEXT: tile.binary mulf %[[FIRST]], %[[FIRST]]
// CHECK-NEXT: cb.write_back %[[NEXT]], %[[B]][0]
// CHECK-NEXT: cb.push_back %[[B]], 1
tt.func @push_stays_after_a_read_of_the_pushed_page(%t: !tile.tile<64xf32>) -> !tile.tile<64xf32> {
  %b = cb.alloc "pushed", simd -> reduce : !cb.cb<64xf32, pages = 3>
  cb.reserve_back %b, 1 : !cb.cb<64xf32, pages = 3>
  cb.write_back %t, %b[0] : !cb.cb<64xf32, pages = 3>
  cb.push_back %b, 1 : !cb.cb<64xf32, pages = 3>
  %first = cb.read_pushed %b[0] : !cb.cb<64xf32, pages = 3>
  %next = tile.binary addf %t, %t : !tile.tile<64xf32>
  cb.reserve_back %b, 1 : !cb.cb<64xf32, pages = 3>
  %use = tile.binary mulf %first, %first : !tile.tile<64xf32>
  cb.write_back %next, %b[0] : !cb.cb<64xf32, pages = 3>
  cb.push_back %b, 1 : !cb.cb<64xf32, pages = 3>
  cb.wait_front %b, 2 : !cb.cb<64xf32, pages = 3>
  %x = cb.read_front %b[0] : !cb.cb<64xf32, pages = 3>
  %y = cb.read_front %b[1] : !cb.cb<64xf32, pages = 3>
  %sum = tile.reduce addf %x axis = 0 : !tile.tile<64xf32> -> !tile.tile<f32>
  %sum2 = tile.reduce addf %y axis = 0 : !tile.tile<64xf32> -> !tile.tile<f32>
  cb.pop_front %b, 2 : !cb.cb<64xf32, pages = 3>
  tt.return %use : !tile.tile<64xf32>
}

// -----

// The mean is stored, then spread over a block by a `tile.splat_element`
// that the SIMD engine reads in the loop, after the buffer takes the next
// scalar (the program stage folds the splat into its users, which read the
// mean itself): the mean cannot be read in the page it is pushed in, which
// the next scalar reuses, so the SIMD engine computes it once more, straight
// into the page, and the splat reads its own.

// CHECK-LABEL: tt.func @splat_read_after_the_next_push
// CHECK: cb.reserve_back %[[OUT:.*]], 1
// CHECK-NEXT: %[[INTO_PAGE:.*]] = tile.binary divf %arg0, %arg1
// CHECK-NEXT: cb.write_back %[[INTO_PAGE]], %[[OUT]][0]
// CHECK-NEXT: cb.push_back %[[OUT]], 1
// CHECK-NEXT: %[[MEAN:.*]] = tile.binary divf %arg0, %arg1
// CHECK-NOT: cb.read_pushed
// CHECK: tile.splat_element %[[MEAN]]
tt.func @splat_read_after_the_next_push(%arg0: !tile.tile<f32>, %arg1: !tile.tile<f32>, %arg2: !tile.tile<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %out = cb.alloc "store0", simd -> dma_out : !cb.cb<f32, pages = 2>
  %blocks = cb.alloc "store1", simd -> dma_out : !cb.cb<64xf32, pages = 2>
  %mean = tile.binary divf %arg0, %arg1 : !tile.tile<f32>
  cb.reserve_back %out, 1 : !cb.cb<f32, pages = 2>
  cb.write_back %mean, %out[0] : !cb.cb<f32, pages = 2>
  cb.push_back %out, 1 : !cb.cb<f32, pages = 2>
  %spread = tile.splat_element %mean : !tile.tile<f32> -> !tile.tile<64xf32>
  %next = tile.binary mulf %arg0, %arg1 : !tile.tile<f32>
  cb.reserve_back %out, 1 : !cb.cb<f32, pages = 2>
  cb.write_back %next, %out[0] : !cb.cb<f32, pages = 2>
  cb.push_back %out, 1 : !cb.cb<f32, pages = 2>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %centred = tile.binary subf %arg2, %spread : !tile.tile<64xf32>
    cb.reserve_back %blocks, 1 : !cb.cb<64xf32, pages = 2>
    cb.write_back %centred, %blocks[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %blocks, 1 : !cb.cb<64xf32, pages = 2>
  }
  tt.return
}
