// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i}, mtia-test-loop-schedule)' --verify-diagnostics

// The modulo schedule the pipelining and loop-splitting passes estimate
// for a loop body on mtia-2i (1024 f16 multiply-adds, about 63.7 SIMD
// operations, 16 special-function evaluations and 32 reduced elements per
// cycle per PE; latencies: DPE 32, SIMD 8, reduction engine 16 cycles). The
// initiation interval is the busiest unit's time per iteration, the
// critical path the longest chain of dependent operations with their
// latencies, and the stages the intervals that path spans.

// Attention's loop with 64-wide heads in blocks of 128x128: Q·K^T and P·V
// (2047 DPE cycles) against the softmax's scaling, exponentials and casts
// on the SIMD engine: the chain spans three intervals, so its dots go two
// iterations ahead when the loop has four stages.
tt.func @attention_d64(%q: tensor<128x64xf16>, %kp: tensor<64x128x!tt.ptr<f16>>, %vp: tensor<128x64x!tt.ptr<f16>>, %n: i32) -> tensor<128x64xf32> {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %acc0 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %scale = arith.constant dense<1.250000e-01> : tensor<128x128xf32>
  // expected-remark @+1 {{initiation interval 2047.4 cycles, critical path 4609.7 cycles, 3 stage(s) needed, num_stages 4}}
  %r = scf.for %iv = %c0 to %n step %c128 iter_args(%acc = %acc0) -> (tensor<128x64xf32>) : i32 {
    %k = tt.load %kp : tensor<64x128x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    %scaled = arith.mulf %s, %scale : tensor<128x128xf32>
    %m = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %mb = tt.broadcast %m2 : tensor<128x1xf32> -> tensor<128x128xf32>
    %shifted = arith.subf %scaled, %mb : tensor<128x128xf32>
    %p = math.exp2 %shifted : tensor<128x128xf32>
    %ph = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
    %v = tt.load %vp : tensor<128x64x!tt.ptr<f16>>
    %pv = tt.dot %ph, %v, %acc0 : tensor<128x128xf16> * tensor<128x64xf16> -> tensor<128x64xf32>
    %next = arith.addf %acc, %pv : tensor<128x64xf32>
    scf.yield %next : tensor<128x64xf32>
  } {tt.num_stages = 4 : i32}
  tt.return %r : tensor<128x64xf32>
}

// -----

// The same loop with 128-wide heads: the DPE's time doubles, the chain spans
// two intervals, and the dots go one iteration ahead whatever the stages.
// Without its own `tt.num_stages` the loop has Triton's default of 3.
tt.func @attention_d128(%q: tensor<128x128xf16>, %kp: tensor<128x128x!tt.ptr<f16>>, %vp: tensor<128x128x!tt.ptr<f16>>, %n: i32) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %acc0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %scale = arith.constant dense<1.250000e-01> : tensor<128x128xf32>
  // expected-remark @+1 {{initiation interval 4094.8 cycles, critical path 6785.8 cycles, 2 stage(s) needed, num_stages 3}}
  %r = scf.for %iv = %c0 to %n step %c128 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %k = tt.load %kp : tensor<128x128x!tt.ptr<f16>>
    %s = tt.dot %q, %k, %zero : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %scaled = arith.mulf %s, %scale : tensor<128x128xf32>
    %m = "tt.reduce"(%scaled) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tt.reduce.return %x : f32
    }) : (tensor<128x128xf32>) -> tensor<128xf32>
    %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %mb = tt.broadcast %m2 : tensor<128x1xf32> -> tensor<128x128xf32>
    %shifted = arith.subf %scaled, %mb : tensor<128x128xf32>
    %p = math.exp2 %shifted : tensor<128x128xf32>
    %ph = arith.truncf %p : tensor<128x128xf32> to tensor<128x128xf16>
    %v = tt.load %vp : tensor<128x128x!tt.ptr<f16>>
    %pv = tt.dot %ph, %v, %acc0 : tensor<128x128xf16> * tensor<128x128xf16> -> tensor<128x128xf32>
    %next = arith.addf %acc, %pv : tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  } 
  tt.return %r : tensor<128x128xf32>
}
