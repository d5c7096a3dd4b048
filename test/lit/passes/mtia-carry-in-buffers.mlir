// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-carry-in-buffers)' | FileCheck %s

// The loop carries a row maximum from the reduction engine to the SIMD
// engine, which the body writes into the buffer at its start. The page is
// pushed where the maximum is computed instead, and before the loop for
// the first iteration; after the loop the SIMD engine pops the page of the
// iteration that did not run, in which the reduction engine reads the
// loop's result. The loop no longer carries the maximum.

// CHECK-LABEL: tt.func @carried_maximum
// CHECK: %[[MAX:.*]] = cb.alloc "max"
// CHECK: cb.reserve_back %[[MAX]], 1
// CHECK-NEXT: cb.write_back %arg1, %[[MAX]][0]
// CHECK-NEXT: cb.push_back %[[MAX]], 1
// CHECK-NEXT: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %arg0) -> (!tile.tile<64xf32>)
// CHECK-NEXT: cb.wait_front %[[MAX]], 1
// CHECK-NEXT: %[[THIS:.*]] = cb.read_front %[[MAX]][0]
// CHECK-NEXT: %[[ADDED:.*]] = tile.binary addf %[[ACC]], %[[THIS]]
// CHECK-NEXT: cb.pop_front %[[MAX]], 1
// CHECK-NEXT: %[[NEXT:.*]] = tile.reduce maxnumf %arg2
// CHECK-NEXT: cb.reserve_back %[[MAX]], 1
// CHECK-NEXT: cb.write_back %[[NEXT]], %[[MAX]][0]
// CHECK-NEXT: cb.push_back %[[MAX]], 1
// CHECK-NEXT: scf.yield %[[ADDED]] : !tile.tile<64xf32>
// CHECK: cb.wait_front %[[MAX]], 1
// CHECK-NEXT: cb.pop_front %[[MAX]], 1
// CHECK-NEXT: %[[LAST:.*]] = cb.read_pushed %[[MAX]][0]
// CHECK-NEXT: cb.reserve_back
// CHECK-NEXT: cb.write_back %[[LAST]]
tt.func @carried_maximum(%sum: !tile.tile<64xf32>, %first: !tile.tile<64xf32>, %scores: !tile.tile<64x64xf32>, %n: index) -> !tile.tile<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %max = cb.alloc "max", reduce -> simd : !cb.cb<64xf32, pages = 2>
  %out = cb.alloc "out", reduce -> simd : !cb.cb<64xf32, pages = 1>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %sum, %carried = %first) -> (!tile.tile<64xf32>, !tile.tile<64xf32>) {
    cb.reserve_back %max, 1 : !cb.cb<64xf32, pages = 2>
    cb.write_back %carried, %max[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %max, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %max, 1 : !cb.cb<64xf32, pages = 2>
    %this = cb.read_front %max[0] : !cb.cb<64xf32, pages = 2>
    %added = tile.binary addf %acc, %this : !tile.tile<64xf32>
    cb.pop_front %max, 1 : !cb.cb<64xf32, pages = 2>
    %next = tile.reduce maxnumf %scores axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    scf.yield %added, %next : !tile.tile<64xf32>, !tile.tile<64xf32>
  }
  cb.reserve_back %out, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %0#1, %out[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %out, 1 : !cb.cb<64xf32, pages = 1>
  tt.return %0#0 : !tile.tile<64xf32>
}

// -----

// The SIMD engine pops the carried page only after the next maximum is
// computed, and the buffer has one page: pushing the next page there would
// wait for a pop that program order puts later. The loop is left alone.

// CHECK-LABEL: tt.func @no_free_page
// CHECK: scf.for {{.*}} iter_args(%[[CARRIED:.*]] = %arg0)
// CHECK-NEXT: cb.reserve_back
// CHECK-NEXT: cb.write_back %[[CARRIED]]
// CHECK-NOT: cb.read_pushed
tt.func @no_free_page(%first: !tile.tile<64xf32>, %scores: !tile.tile<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %max = cb.alloc "max", reduce -> simd : !cb.cb<64xf32, pages = 1>
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (!tile.tile<64xf32>) {
    cb.reserve_back %max, 1 : !cb.cb<64xf32, pages = 1>
    cb.write_back %carried, %max[0] : !cb.cb<64xf32, pages = 1>
    cb.push_back %max, 1 : !cb.cb<64xf32, pages = 1>
    cb.wait_front %max, 1 : !cb.cb<64xf32, pages = 1>
    %next = tile.reduce maxnumf %scores axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %this = cb.read_front %max[0] : !cb.cb<64xf32, pages = 1>
    %doubled = tile.binary addf %this, %this : !tile.tile<64xf32>
    cb.pop_front %max, 1 : !cb.cb<64xf32, pages = 1>
    scf.yield %next : !tile.tile<64xf32>
  }
  tt.return
}

// -----

// The buffer also takes the row sum, which the body pushes after the next
// maximum is computed: pushing the maximum there would put it before the sum
// the consumer reads first. The loop is left alone.

// CHECK-LABEL: tt.func @pushed_after_the_producer
// CHECK: scf.for {{.*}} iter_args(%[[CARRIED:.*]] = %arg0)
// CHECK-NEXT: cb.reserve_back
// CHECK-NEXT: cb.write_back %[[CARRIED]]
tt.func @pushed_after_the_producer(%first: !tile.tile<64xf32>, %scores: !tile.tile<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = cb.alloc "rows", reduce -> simd : !cb.cb<64xf32, pages = 3>
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (!tile.tile<64xf32>) {
    cb.reserve_back %rows, 1 : !cb.cb<64xf32, pages = 3>
    cb.write_back %carried, %rows[0] : !cb.cb<64xf32, pages = 3>
    cb.push_back %rows, 1 : !cb.cb<64xf32, pages = 3>
    %next = tile.reduce maxnumf %scores axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    cb.reserve_back %rows, 1 : !cb.cb<64xf32, pages = 3>
    %sum = tile.reduce addf %scores axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    cb.write_back %sum, %rows[0] : !cb.cb<64xf32, pages = 3>
    cb.push_back %rows, 1 : !cb.cb<64xf32, pages = 3>
    cb.wait_front %rows, 2 : !cb.cb<64xf32, pages = 3>
    %this = cb.read_front %rows[0] : !cb.cb<64xf32, pages = 3>
    %row_sum = cb.read_front %rows[1] : !cb.cb<64xf32, pages = 3>
    %both = tile.binary addf %this, %row_sum : !tile.tile<64xf32>
    cb.pop_front %rows, 2 : !cb.cb<64xf32, pages = 3>
    scf.yield %next : !tile.tile<64xf32>
  }
  tt.return
}

// -----

// The SIMD engine pops the carried page after the next maximum is computed:
// pushing the next page there needs both pages, so the page the buffer had
// for running ahead becomes one the program stage keeps.

// CHECK-LABEL: tt.func @needs_the_run_ahead_page
// CHECK: cb.alloc "max", reduce -> simd : !cb.cb<64xf32, pages = 2>
// CHECK-NOT: run_ahead_pages
// CHECK: cb.read_pushed
tt.func @needs_the_run_ahead_page(%first: !tile.tile<64xf32>, %scores: !tile.tile<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %max = cb.alloc "max", reduce -> simd {run_ahead_pages = 1 : i64} : !cb.cb<64xf32, pages = 2>
  %out = cb.alloc "out", reduce -> simd : !cb.cb<64xf32, pages = 1>
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (!tile.tile<64xf32>) {
    cb.reserve_back %max, 1 : !cb.cb<64xf32, pages = 2>
    cb.write_back %carried, %max[0] : !cb.cb<64xf32, pages = 2>
    cb.push_back %max, 1 : !cb.cb<64xf32, pages = 2>
    cb.wait_front %max, 1 : !cb.cb<64xf32, pages = 2>
    %next = tile.reduce maxnumf %scores axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %this = cb.read_front %max[0] : !cb.cb<64xf32, pages = 2>
    %doubled = tile.binary addf %this, %this : !tile.tile<64xf32>
    cb.pop_front %max, 1 : !cb.cb<64xf32, pages = 2>
    scf.yield %next : !tile.tile<64xf32>
  }
  cb.reserve_back %out, 1 : !cb.cb<64xf32, pages = 1>
  cb.write_back %0, %out[0] : !cb.cb<64xf32, pages = 1>
  cb.push_back %out, 1 : !cb.cb<64xf32, pages = 1>
  tt.return
}

// -----

// The first iteration's product comes out of a branch right before the loop
// (computed only when the loop runs, zeros otherwise): each branch pushes
// its page, where the product is computed, rather than a copy before the
// loop.

// CHECK-LABEL: tt.func @first_page_in_the_branches
// CHECK: %[[PRODUCTS:.*]] = cb.alloc "products"
// CHECK: scf.if
// CHECK: %[[FIRST:.*]] = tile.matmul
// CHECK-NEXT: cb.reserve_back %[[PRODUCTS]], 1
// CHECK-NEXT: cb.write_back %[[FIRST]], %[[PRODUCTS]][0]
// CHECK-NEXT: cb.push_back %[[PRODUCTS]], 1
// CHECK-NEXT: scf.yield %[[FIRST]]
// CHECK-NEXT: } else {
// CHECK-NEXT: cb.reserve_back %[[PRODUCTS]], 1
// CHECK-NEXT: cb.write_back %[[ZEROS:.*]], %[[PRODUCTS]][0]
// CHECK-NEXT: cb.push_back %[[PRODUCTS]], 1
// CHECK-NEXT: scf.yield %[[ZEROS]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
tt.func @first_page_in_the_branches(%runs: i1, %a: !tile.tile<64x64xf16>, %b: !tile.tile<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %products = cb.alloc "products", dpe -> simd : !cb.cb<64x64xf32, pages = 2>
  %zeros = tile.zeros : !tile.tile<64x64xf32>
  %first = scf.if %runs -> (!tile.tile<64x64xf32>) {
    %p = tile.matmul %a, %b, %zeros : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    scf.yield %p : !tile.tile<64x64xf32>
  } else {
    scf.yield %zeros : !tile.tile<64x64xf32>
  }
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (!tile.tile<64x64xf32>) {
    cb.reserve_back %products, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %carried, %products[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %products, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.wait_front %products, 1 : !cb.cb<64x64xf32, pages = 2>
    %this = cb.read_front %products[0] : !cb.cb<64x64xf32, pages = 2>
    %doubled = tile.binary addf %this, %this : !tile.tile<64x64xf32>
    cb.pop_front %products, 1 : !cb.cb<64x64xf32, pages = 2>
    %next = tile.matmul %a, %b, %zeros : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    scf.yield %next : !tile.tile<64x64xf32>
  }
  tt.return
}

// -----

// After the loop, the DPE copies its result into another buffer to the SIMD
// engine, which reads it there for the next loop: the SIMD engine reads it
// in the carrying buffer's last page instead, and pops that page where it
// popped the copy. The copy and its buffer are gone.

// CHECK-LABEL: tt.func @result_read_in_its_page
// CHECK: %[[PRODUCTS:.*]] = cb.alloc "products"
// CHECK-NOT: cb.alloc "copy"
// CHECK: scf.for
// CHECK: cb.push_back %[[PRODUCTS]], 1
// CHECK-NEXT: }
// CHECK-NEXT: cb.wait_front %[[PRODUCTS]], 1
// CHECK-NEXT: %[[LAST:.*]] = cb.read_front %[[PRODUCTS]][0]
// CHECK-NEXT: %[[SUM:.*]] = tile.binary addf %[[LAST]], %[[LAST]]
// CHECK-NEXT: cb.pop_front %[[PRODUCTS]], 1
// CHECK-NOT: cb.read_pushed
tt.func @result_read_in_its_page(%first: !tile.tile<64x64xf32>, %a: !tile.tile<64x64xf16>, %b: !tile.tile<64x64xf16>, %zeros: !tile.tile<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %products = cb.alloc "products", dpe -> simd : !cb.cb<64x64xf32, pages = 2>
  %copy = cb.alloc "copy", dpe -> simd : !cb.cb<64x64xf32, pages = 1>
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %first) -> (!tile.tile<64x64xf32>) {
    cb.reserve_back %products, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.write_back %carried, %products[0] : !cb.cb<64x64xf32, pages = 2>
    cb.push_back %products, 1 : !cb.cb<64x64xf32, pages = 2>
    cb.wait_front %products, 1 : !cb.cb<64x64xf32, pages = 2>
    %this = cb.read_front %products[0] : !cb.cb<64x64xf32, pages = 2>
    %doubled = tile.binary addf %this, %this : !tile.tile<64x64xf32>
    cb.pop_front %products, 1 : !cb.cb<64x64xf32, pages = 2>
    %next = tile.matmul %a, %b, %zeros : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    scf.yield %next : !tile.tile<64x64xf32>
  }
  cb.reserve_back %copy, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.write_back %0, %copy[0] : !cb.cb<64x64xf32, pages = 1>
  cb.push_back %copy, 1 : !cb.cb<64x64xf32, pages = 1>
  cb.wait_front %copy, 1 : !cb.cb<64x64xf32, pages = 1>
  %last = cb.read_front %copy[0] : !cb.cb<64x64xf32, pages = 1>
  %sum = tile.binary addf %last, %last : !tile.tile<64x64xf32>
  cb.pop_front %copy, 1 : !cb.cb<64x64xf32, pages = 1>
  tt.return
}
