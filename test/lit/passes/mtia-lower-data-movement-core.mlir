// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target,mtia-convert-tt-to-tile,mtia-lower-data-movement,canonicalize,cse)' | FileCheck %s

// Scalars that units compute reach the control core's code through a buffer
// the core consumes: the unit writes the rank-0 tile, the core waits for the
// page, reads the element (tile.extract) and pops it. The program stage turns
// the core's side into cb.wait/ldl/cb.pop of the control core.

// CHECK-LABEL: tt.func @reduction_bounds_a_loop
// CHECK: %[[TO_CORE:.*]] = cb.alloc "forward{{[0-9]+}}", reduce -> core : !cb.cb<i32, pages = 1>
// CHECK: cb.reserve_back %[[TO_CORE]], 1
// CHECK: %[[SUM:.*]] = tile.reduce addi %{{.*}} axis = 0 : !tile.tile<64xi32> -> !tile.tile<i32>
// CHECK: cb.write_back %[[SUM]], %[[TO_CORE]][0]
// CHECK: cb.push_back %[[TO_CORE]], 1
// CHECK: cb.wait_front %[[TO_CORE]], 1
// CHECK: %[[PAGE:.*]] = cb.read_front %[[TO_CORE]][0]
// CHECK: %[[BOUND:.*]] = tile.extract %[[PAGE]][] : !tile.tile<i32>
// CHECK: cb.pop_front %[[TO_CORE]], 1
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step
tt.func @reduction_bounds_a_loop(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %v = tt.load %ptrs : tensor<64x!tt.ptr<i32>>
  %n = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<64xi32>) -> i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = tt.addptr %out, %i : !tt.ptr<i32>, i32
    tt.store %p, %i : !tt.ptr<i32>
  }
  tt.return
}

// -----

// A condition computed from a reduction on the SIMD engine: the i1 tile
// goes to the core, which branches on it.

// CHECK-LABEL: tt.func @reduction_decides_a_branch
// CHECK-DAG: %[[TO_SIMD:.*]] = cb.alloc "forward{{[0-9]+}}", reduce -> simd : !cb.cb<f32, pages = 1>
// CHECK-DAG: %[[TO_CORE:.*]] = cb.alloc "forward{{[0-9]+}}", simd -> core : !cb.cb<i1, pages = 1>
// CHECK: %[[OVER:.*]] = tile.cmpf ogt
// CHECK: cb.write_back %[[OVER]], %[[TO_CORE]][0]
// CHECK: cb.wait_front %[[TO_CORE]], 1
// CHECK: %[[PAGE:.*]] = cb.read_front %[[TO_CORE]][0]
// CHECK: %[[FLAG:.*]] = tile.extract %[[PAGE]][] : !tile.tile<i1>
// CHECK: cb.pop_front %[[TO_CORE]], 1
// CHECK: scf.if %[[FLAG]]
tt.func @reduction_decides_a_branch(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32>, %limit: f32) {
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
  %peak = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<64xf32>) -> f32
  %over = arith.cmpf ogt, %peak, %limit : f32
  scf.if %over {
    tt.store %out, %c1 : !tt.ptr<i32>
  }
  tt.return
}
