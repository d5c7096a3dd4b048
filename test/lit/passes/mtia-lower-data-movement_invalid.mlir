// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target,mtia-convert-tt-to-tile,mtia-lower-data-movement)' --verify-diagnostics

// Accesses the data-movement stage cannot lower are reported at their
// location, with the reason the pointer analysis gives.

// Pointers carried by a loop that advances them by its induction variable.
tt.func @loop_carried_changing_increment(%x: !tt.ptr<f32>, %m: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %range, %ms : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %base, %wrapped : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-note @+1 {{see the loop}}
  %end = scf.for %iv = %c0 to %k step %c1 iter_args(%p = %p0) -> (tensor<64x!tt.ptr<f32>>) : i32 {
    // expected-error @+1 {{the pointers of this access are carried by a loop that the indexed DMA lowering cannot follow: loop-carried value #0 has an increment that changes inside the loop}}
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<64xf32>
    tt.store %p, %w : tensor<64x!tt.ptr<f32>>
    %step = tt.splat %iv : i32 -> tensor<64xi32>
    %next = tt.addptr %p, %step : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    scf.yield %next : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}


// -----

// A descriptor argument's strides follow it as kernel arguments; one of
// another type than an integer is no stride.
tt.func @descriptor_stride_of_complex(%d: !tt.tensordesc<16x16xf16>, %m: i32, %n: i32, %s0: complex<f32>, %s1: i64) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{the stride arguments of a tensor descriptor argument must be integers, got 'complex<f32>'}}
  %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<16x16xf16> -> tensor<16x16xf16>
  %w = arith.addf %v, %v : tensor<16x16xf16>
  tt.descriptor_store %d[%c0, %c0], %w : !tt.tensordesc<16x16xf16>, tensor<16x16xf16>
  tt.return
}
