// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile,mtia-lower-data-movement)' --verify-diagnostics

// Accesses the data-movement stage cannot lower are reported at their
// location, with the reason the pointer analysis gives.

// Pointers carried by a loop whose first value has no structure (a modulo).
tt.func @loop_carried_unstructured(%x: !tt.ptr<f32>, %m: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %range, %ms : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %base, %wrapped : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %step = arith.constant dense<64> : tensor<64xi32>
  %end = scf.for %iv = %c0 to %k step %c1 iter_args(%p = %p0) -> (tensor<64x!tt.ptr<f32>>) : i32 {
    // expected-error @+1 {{the pointers of this access are computed by 'a block argument', which the indexed DMA lowering does not support yet}}
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<64xf32>
    tt.store %p, %w : tensor<64x!tt.ptr<f32>>
    %next = tt.addptr %p, %step : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    scf.yield %next : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}

// -----

tt.func @lower_bound_mask(%x: !tt.ptr<f32>, %lo: i32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %los = tt.splat %lo : i32 -> tensor<64xi32>
  %mask = arith.cmpi sge, %range, %los : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-error @+1 {{masks with a lower bound on an index are not supported by the DMA lowering yet}}
  %v = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  tt.return
}
