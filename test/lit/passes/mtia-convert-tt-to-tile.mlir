// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile)' | FileCheck %s

// The tile stage: compute becomes tile ops by unit; loads and stores keep
// their tensors, joined to tiles by casts; addressing stays on tensors.

// CHECK-LABEL: tt.func @elementwise
tt.func @elementwise(%x: !tt.ptr<f32>, %n: i32, %s: f32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %bound = tt.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // The addressing stays on tensors for the pointer analysis.
  // CHECK: %[[RANGE:.*]] = tt.make_range
  // CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[RANGE]]
  // CHECK: %[[LOADED:.*]] = tt.load %{{.*}}, %[[MASK]] : tensor<64x!tt.ptr<f32>>
  // CHECK: %[[V:.*]] = builtin.unrealized_conversion_cast %[[LOADED]] : tensor<64xf32> to !tile.tile<64xf32>
  %v = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  // CHECK: %[[S:.*]] = tile.splat %arg2 : !tile.tile<64xf32>
  %ss = tt.splat %s : f32 -> tensor<64xf32>
  // CHECK: %[[M:.*]] = tile.binary mulf %[[V]], %[[S]] : !tile.tile<64xf32>
  %m = arith.mulf %v, %ss : tensor<64xf32>
  // CHECK: %[[E:.*]] = tile.sfu exp %[[M]] : !tile.tile<64xf32>
  %e = math.exp %m : tensor<64xf32>
  // CHECK: tile.unary absf
  %a = math.absf %e : tensor<64xf32>
  // CHECK: tile.fma
  %f = math.fma %a, %a, %e : tensor<64xf32>
  // CHECK: tile.cmpf ogt
  %gt = arith.cmpf ogt, %f, %ss : tensor<64xf32>
  // CHECK: tile.select
  %sel = arith.select %gt, %f, %ss : tensor<64xi1>, tensor<64xf32>
  // CHECK: tile.cast truncf %{{.*}} rounding = rtne : !tile.tile<64xf32> -> !tile.tile<64xf16>
  %h = arith.truncf %sel : tensor<64xf32> to tensor<64xf16>
  // CHECK: tile.cast extf %{{.*}} : !tile.tile<64xf16> -> !tile.tile<64xf32>
  %back = arith.extf %h : tensor<64xf16> to tensor<64xf32>
  // CHECK: tile.binary maxnumf
  // CHECK: tile.binary minnumf
  %c = tt.clampf %back, %ss, %ss, propagateNan = none : tensor<64xf32>
  // CHECK: tile.sfu tanh
  %t = tt.extern_elementwise %c {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tile.binary powf
  %p = tt.extern_elementwise %t, %c {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: %[[OUT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !tile.tile<64xf32> to tensor<64xf32>
  // CHECK: tt.store %{{.*}}, %[[OUT]], %[[MASK]]
  tt.store %ptrs, %p, %mask : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// A mask that is also computed with exists twice: a tensor for the load and
// a tile for the select.
// CHECK-LABEL: tt.func @mixed_use
tt.func @mixed_use(%x: !tt.ptr<f32>, %n: i32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %bound = tt.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  // CHECK-DAG: %[[TILE_MASK:.*]] = tile.cmpi slt
  // CHECK-DAG: %[[TENSOR_MASK:.*]] = arith.cmpi slt
  // CHECK: tt.load %{{.*}}, %[[TENSOR_MASK]]
  %v = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  // CHECK: tile.select %[[TILE_MASK]]
  %sel = arith.select %mask, %v, %zero : tensor<64xi1>, tensor<64xf32>
  tt.store %ptrs, %sel : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Reductions: known combiners go to the reduction engine by kind, others
// keep their region; scalar arithmetic on the result stays in local memory
// on rank-0 tiles and is broadcast back.
// CHECK-LABEL: tt.func @reductions
tt.func @reductions(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %out: !tt.ptr<f32>) {
  // CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0
  // CHECK: %[[SUM:.*]] = tile.reduce addf %[[X]] axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: %[[MAX:.*]] = tile.reduce maxnumf %[[SUM]] axis = 0 : !tile.tile<4xf32> -> !tile.tile<f32>
  %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %b, %a : f32
    tt.reduce.return %m : f32
  }) : (tensor<4xf32>) -> f32
  // CHECK: %[[HALF:.*]] = tile.binary mulf %[[MAX]], %{{.*}} : !tile.tile<f32>
  // CHECK-NEXT: %[[STORED:.*]] = tile.extract %[[HALF]][] : !tile.tile<f32>
  %half = arith.constant 0.5 : f32
  %2 = arith.mulf %1, %half : f32
  // The SIMD engine spreads the rank-0 tile's element over the tile.
  // CHECK: %[[SPREAD:.*]] = tile.splat_element %[[HALF]] : !tile.tile<f32> -> !tile.tile<4x8xf32>
  // CHECK: tile.binary subf %{{.*}}, %[[SPREAD]] : !tile.tile<4x8xf32>
  %3 = tt.splat %2 : f32 -> tensor<4x8xf32>
  %4 = arith.subf %x, %3 : tensor<4x8xf32>
  // CHECK: tile.reduce_region %{{.*}}, %{{.*}} axis = 0
  // CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
  %5:2 = "tt.reduce"(%4, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v, %vi : f32, i32
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  // CHECK: tile.scan %{{.*}} axis = 1 reverse
  // CHECK: tile.yield %{{.*}} : f32
  %6 = "tt.scan"(%4) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tt.scan.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0, 1, 0>} : %5#0, %5#1, %6 : tensor<8xf32>, tensor<8xi32>, tensor<4x8xf32>
  // A scalar stored to memory is read back from its tile.
  // CHECK: tt.store %arg2, %[[STORED]] : !tt.ptr<f32>
  tt.store %out, %2 : !tt.ptr<f32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @dot_loop
tt.func @dot_loop(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %k: i32) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x8xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!tile.tile<16x8xf32>)
  %acc = scf.for %iv = %c0 to %k step %c1 iter_args(%c = %zero) -> (tensor<16x8xf32>) : i32 {
    // CHECK: tile.matmul %{{.*}}, %{{.*}}, %[[ACC]] : !tile.tile<16x32xf16>, !tile.tile<32x8xf16> -> !tile.tile<16x8xf32>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
    scf.yield %d : tensor<16x8xf32>
  }
  tt.return %acc : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%x: tensor<32xf32>) {
  // The broadcast of an expansion spreads the unexpanded tile: no reshape.
  // CHECK-NOT: tile.reshape
  // CHECK: tile.broadcast %{{.*}} {dimensions = array<i64: 0>} : !tile.tile<32xf32> -> !tile.tile<32x4xf32>
  %e = tt.expand_dims %x {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %b = tt.broadcast %e : tensor<32x1xf32> -> tensor<32x4xf32>
  // CHECK: tile.transpose %{{.*}} [1, 0]
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<32x4xf32> -> tensor<4x32xf32>
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis = 0 : !tile.tile<32xf32>, !tile.tile<32xf32> -> !tile.tile<64xf32>
  %c = tt.cat %x, %x : tensor<32xf32> -> tensor<64xf32>
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis = 1 : !tile.tile<32x1xf32>, !tile.tile<32x1xf32> -> !tile.tile<32x2xf32>
  %j = tt.join %x, %x : tensor<32xf32> -> tensor<32x2xf32>
  // CHECK: tile.slice %{{.*}} [0, 1] : !tile.tile<32x2xf32> -> !tile.tile<32x1xf32>
  %lo, %hi = tt.split %j : tensor<32x2xf32> -> tensor<32xf32>
  // CHECK: tile.iota 4 : !tile.tile<8xi32>
  %r = tt.make_range {end = 12 : i32, start = 4 : i32} : tensor<8xi32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] axis = 0
  %g = tt.gather %x[%r] {axis = 0 : i32} : (tensor<32xf32>, tensor<8xi32>) -> tensor<8xf32>
  // CHECK: tile.histogram %{{.*}} : !tile.tile<8xi32> -> !tile.tile<4xi32>
  %h = tt.histogram %r : tensor<8xi32> -> tensor<4xi32>
  tt.print "g" {hex = false, isSigned = array<i32: 0, 1>} : %g, %h : tensor<8xf32>, tensor<4xi32>
  tt.print "r" {hex = false, isSigned = array<i32: 1>} : %r : tensor<8xi32>
  tt.print "hi" {hex = false, isSigned = array<i32: 0>} : %hi : tensor<32xf32>
  tt.print "t" {hex = false, isSigned = array<i32: 0>} : %t : tensor<4x32xf32>
  tt.print "c" {hex = false, isSigned = array<i32: 0>} : %c : tensor<64xf32>
  tt.print "lo" {hex = false, isSigned = array<i32: 0>} : %lo : tensor<32xf32>
  tt.return
}

// -----

// A 3-d dot multiplies batch by batch on the DPE.
// CHECK-LABEL: tt.func @batched_dot
// CHECK: tile.matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<2x4x8xf16>, !tile.tile<2x8x4xf16> -> !tile.tile<2x4x4xf32>
tt.func @batched_dot(%a: tensor<2x4x8xf16>, %b: tensor<2x8x4xf16>, %c: tensor<2x4x4xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<2x4x8xf16> * tensor<2x8x4xf16> -> tensor<2x4x4xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<2x4x4xf32>
  tt.return
}

// -----

// TorchInductor's NaN-propagating maximum (`triton_helpers.max2`) and an
// integer minimum written as compare and select reduce by kind; a select
// that prefers the other argument does not.
// CHECK-LABEL: tt.func @select_combiners
// CHECK: tile.reduce maximumf %{{.*}} axis = 1
// CHECK: tile.reduce minsi %{{.*}} axis = 0
// CHECK: tile.reduce_region
tt.func @select_combiners(%x: tensor<4x8xf32>, %i: tensor<8xi32>) {
  %max = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %a : f32
    %pick = arith.ori %gt, %nan : i1
    %r = arith.select %pick, %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %max : tensor<4xf32>
  %min = "tt.reduce"(%i) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    %r = arith.select %lt, %a, %b : i32
    tt.reduce.return %r : i32
  }) : (tensor<8xi32>) -> i32
  tt.print "" {hex = false, isSigned = array<i32: 1>} : %min : i32
  %odd = "tt.reduce"(%i) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    %r = arith.select %lt, %b, %a : i32
    tt.reduce.return %r : i32
  }) : (tensor<8xi32>) -> i32
  tt.print "" {hex = false, isSigned = array<i32: 1>} : %odd : i32
  tt.return
}

// -----

// libdevice functions beyond the basic ones: special functions, rounding,
// binary functions and `fma` map onto single tile ops; the classifications
// of floats become compare (or bit) tile ops yielding i32 0s and 1s.
// CHECK-LABEL: tt.func @more_libdevice
// CHECK: tile.sfu log1p
// CHECK: tile.unary roundeven
// CHECK: tile.binary atan2f
// CHECK: tile.fma
// CHECK: %[[NAN:.*]] = tile.cmpf uno %{{.*}}, %{{.*}} : !tile.tile<8xf32>
// CHECK: tile.cast extui %[[NAN]] : !tile.tile<8xi1> -> !tile.tile<8xi32>
// CHECK: %[[BITS:.*]] = tile.cast bitcast %{{.*}} : !tile.tile<8xf32> -> !tile.tile<8xi32>
// CHECK: %[[TOP:.*]] = tile.binary shrui %[[BITS]], %{{.*}} : !tile.tile<8xi32>
// CHECK: tile.cast trunci %[[TOP]] : !tile.tile<8xi32> -> !tile.tile<8xi1>
tt.func @more_libdevice(%x: tensor<8xf32>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_log1pf"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tt.extern_elementwise %0 {libname = "", libpath = "", pure = true, symbol = "__nv_nearbyintf"} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = tt.extern_elementwise %1, %x {libname = "", libpath = "", pure = true, symbol = "__nv_atan2f"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = tt.extern_elementwise %2, %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_fmaf"} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = tt.extern_elementwise %3 {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (tensor<8xf32>) -> tensor<8xi32>
  %5 = tt.extern_elementwise %3 {libname = "", libpath = "", pure = true, symbol = "__nv_signbitf"} : (tensor<8xf32>) -> tensor<8xi32>
  %6 = arith.addi %4, %5 : tensor<8xi32>
  tt.print "" {hex = false, isSigned = array<i32: 1>} : %6 : tensor<8xi32>
  tt.return
}

// -----

// A dot with an f16 accumulator (`out_dtype=tl.float16`): the DPE
// accumulates in f32, and the result is rounded back.
// CHECK-LABEL: tt.func @dot_f16_accumulator
// CHECK: %[[WIDE:.*]] = tile.cast extf %{{.*}} : !tile.tile<16x16xf16> -> !tile.tile<16x16xf32>
// CHECK: %[[PRODUCT:.*]] = tile.matmul %{{.*}}, %{{.*}}, %[[WIDE]] : !tile.tile<16x16xf16>, !tile.tile<16x16xf16> -> !tile.tile<16x16xf32>
// CHECK: tile.cast truncf %[[PRODUCT]] rounding = rtne : !tile.tile<16x16xf32> -> !tile.tile<16x16xf16>
tt.func @dot_f16_accumulator(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x16xf16>
  tt.return
}

// -----

// fp8 operands are widened to f16, which holds every fp8 value exactly, for
// the DPE.
// CHECK-LABEL: tt.func @dot_fp8
// CHECK: %[[A:.*]] = tile.cast extf %{{.*}} : !tile.tile<32x16xf8E4M3FN> -> !tile.tile<32x16xf16>
// CHECK: %[[B:.*]] = tile.cast extf %{{.*}} : !tile.tile<16x32xf8E5M2> -> !tile.tile<16x32xf16>
// CHECK: tile.matmul %[[A]], %[[B]], %{{.*}} : !tile.tile<32x16xf16>, !tile.tile<16x32xf16> -> !tile.tile<32x32xf32>
tt.func @dot_fp8(%a: tensor<32x16xf8E4M3FN>, %b: tensor<16x32xf8E5M2>, %c: tensor<32x32xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<32x16xf8E4M3FN> * tensor<16x32xf8E5M2> -> tensor<32x32xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<32x32xf32>
  tt.return
}

// -----

// So are the fnuz formats' operands (every value of e4m3fnuz and e5m2fnuz
// is an f16).
// CHECK-LABEL: tt.func @dot_fp8_fnuz
// CHECK: %[[A:.*]] = tile.cast extf %{{.*}} : !tile.tile<32x16xf8E4M3FNUZ> -> !tile.tile<32x16xf16>
// CHECK: %[[B:.*]] = tile.cast extf %{{.*}} : !tile.tile<16x32xf8E5M2FNUZ> -> !tile.tile<16x32xf16>
// CHECK: tile.matmul %[[A]], %[[B]], %{{.*}} : !tile.tile<32x16xf16>, !tile.tile<16x32xf16> -> !tile.tile<32x32xf32>
tt.func @dot_fp8_fnuz(%a: tensor<32x16xf8E4M3FNUZ>, %b: tensor<16x32xf8E5M2FNUZ>, %c: tensor<32x32xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<32x16xf8E4M3FNUZ> * tensor<16x32xf8E5M2FNUZ> -> tensor<32x32xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<32x32xf32>
  tt.return
}

// -----

// libdevice bit counts: clz counts the zeros of the value with its highest
// set bit smeared right (shifts 1, 2, 4, ... 32 for i64); the i32 result
// truncates the count.
// CHECK-LABEL: tt.func @count_leading_zeros
// CHECK-COUNT-6: tile.binary shrui
// CHECK: %[[SMEARED:.*]] = tile.binary ori
// CHECK: %[[ZEROS:.*]] = tile.binary xori %[[SMEARED]], %{{.*}} : !tile.tile<8xi64>
// CHECK: %[[COUNT:.*]] = tile.unary ctpop %[[ZEROS]] : !tile.tile<8xi64>
// CHECK: tile.cast trunci %[[COUNT]] : !tile.tile<8xi64> -> !tile.tile<8xi32>
tt.func @count_leading_zeros(%x: tensor<8xi64>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_clzll"} : (tensor<8xi64>) -> tensor<8xi32>
  tt.print "" {hex = false, isSigned = array<i32: 1>} : %0 : tensor<8xi32>
  tt.return
}

// -----

// Rounding toward zero: the nearest-even result, stepped one unit toward
// zero (its bit pattern less one) where it lies farther from zero than the
// source.
// CHECK-LABEL: tt.func @round_toward_zero
// CHECK: %[[NEAREST:.*]] = tile.cast truncf %[[X:.*]] rounding = rtne : !tile.tile<8xf32> -> !tile.tile<8xf8E4M3FN>
// CHECK: %[[BACK:.*]] = tile.cast extf %[[NEAREST]] : !tile.tile<8xf8E4M3FN> -> !tile.tile<8xf32>
// CHECK: %[[ABS_BACK:.*]] = tile.unary absf %[[BACK]]
// CHECK: %[[ABS_X:.*]] = tile.unary absf %[[X]]
// CHECK: %[[AWAY:.*]] = tile.cmpf ogt %[[ABS_BACK]], %[[ABS_X]]
// CHECK: %[[BITS:.*]] = tile.cast bitcast %[[NEAREST]] : !tile.tile<8xf8E4M3FN> -> !tile.tile<8xi8>
// CHECK: %[[LESS:.*]] = tile.binary subi %[[BITS]], %{{.*}} : !tile.tile<8xi8>
// CHECK: %[[STEPPED:.*]] = tile.cast bitcast %[[LESS]] : !tile.tile<8xi8> -> !tile.tile<8xf8E4M3FN>
// CHECK: tile.select %[[AWAY]], %[[STEPPED]], %[[NEAREST]] : !tile.tile<8xf8E4M3FN>
tt.func @round_toward_zero(%x: tensor<8xf32>) {
  %0 = tt.fp_to_fp %x, rounding = rtz : tensor<8xf32> -> tensor<8xf8E4M3FN>
  %1 = tt.fp_to_fp %0 : tensor<8xf8E4M3FN> -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %1 : tensor<8xf32>
  tt.return
}

// -----

// Between fp8 formats (one width) the op carries no rounding mode; the
// conversion may round, to nearest even.
// CHECK-LABEL: tt.func @fp8_to_fp8
// CHECK: tile.cast truncf %{{.*}} rounding = rtne : !tile.tile<8xf8E5M2FNUZ> -> !tile.tile<8xf8E4M3FNUZ>
tt.func @fp8_to_fp8(%x: tensor<8xf8E5M2FNUZ>) {
  %0 = tt.fp_to_fp %x : tensor<8xf8E5M2FNUZ> -> tensor<8xf8E4M3FNUZ>
  %1 = tt.fp_to_fp %0 : tensor<8xf8E4M3FNUZ> -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %1 : tensor<8xf32>
  tt.return
}

// -----

// In an fnuz format the pattern of negative zero is the NaN: a step onto it
// (from the negative smallest subnormal) gives +0 instead.
// CHECK-LABEL: tt.func @round_toward_zero_fnuz
// CHECK-DAG: %[[ZERO_BITS:.*]] = arith.constant 0 : i8
// CHECK-DAG: %[[NAN_BITS:.*]] = arith.constant -128 : i8
// CHECK: %[[NEAREST:.*]] = tile.cast truncf %{{.*}} rounding = rtne : !tile.tile<8xf32> -> !tile.tile<8xf8E4M3FNUZ>
// CHECK: %[[AWAY:.*]] = tile.cmpf ogt
// CHECK: %[[BITS:.*]] = tile.cast bitcast %[[NEAREST]] : !tile.tile<8xf8E4M3FNUZ> -> !tile.tile<8xi8>
// CHECK: %[[LESS:.*]] = tile.binary subi %[[BITS]], %{{.*}} : !tile.tile<8xi8>
// CHECK: %[[NAN:.*]] = tile.splat %[[NAN_BITS]] : !tile.tile<8xi8>
// CHECK: %[[ONTO_NAN:.*]] = tile.cmpi eq %[[LESS]], %[[NAN]] : !tile.tile<8xi8>
// CHECK: %[[ZERO:.*]] = tile.splat %[[ZERO_BITS]] : !tile.tile<8xi8>
// CHECK: %[[FIXED:.*]] = tile.select %[[ONTO_NAN]], %[[ZERO]], %[[LESS]] : !tile.tile<8xi8>
// CHECK: %[[STEPPED:.*]] = tile.cast bitcast %[[FIXED]] : !tile.tile<8xi8> -> !tile.tile<8xf8E4M3FNUZ>
// CHECK: tile.select %[[AWAY]], %[[STEPPED]], %[[NEAREST]] : !tile.tile<8xf8E4M3FNUZ>
tt.func @round_toward_zero_fnuz(%x: tensor<8xf32>) {
  %0 = tt.fp_to_fp %x, rounding = rtz : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
  %1 = tt.fp_to_fp %0 : tensor<8xf8E4M3FNUZ> -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %1 : tensor<8xf32>
  tt.return
}

// -----

// A scan of one tensor whose region is one of the reduction engine's
// combine operations names it as its kind; a scan of several tensors keeps
// only its region.
// CHECK-LABEL: tt.func @scan_kinds
// CHECK: tile.scan %{{.*}} axis = 0 kind addi : (!tile.tile<8xi32>) -> !tile.tile<8xi32>
// CHECK: tile.scan %{{.*}}, %{{.*}} axis = 0 : (!tile.tile<8xi32>, !tile.tile<8xi32>) -> (!tile.tile<8xi32>, !tile.tile<8xi32>)
tt.func @scan_kinds(%x: tensor<8xi32>) {
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.scan.return %s : i32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  %1:2 = "tt.scan"(%x, %x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %ai: i32, %b: i32, %bi: i32):
    %s = arith.addi %a, %b : i32
    %t = arith.addi %ai, %bi : i32
    tt.scan.return %s, %t : i32, i32
  }) : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
  tt.print "" {hex = false, isSigned = array<i32: 1, 1, 1>} : %0, %1#0, %1#1 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
  tt.return
}

// -----

// Scalar libdevice calls and clamps, which the control core cannot compute,
// run on rank-0 tiles, with what depends on them; `powi` raises to its
// exponent converted to a float.
// CHECK-LABEL: tt.func @simd_only_scalars
tt.func @simd_only_scalars(%x: f32, %n: i32, %out: !tt.ptr<f32>) {
  // CHECK-DAG: %[[N:.*]] = tile.splat %arg1 : !tile.tile<i32>
  // CHECK-DAG: %[[X:.*]] = tile.splat %arg0 : !tile.tile<f32>
  // CHECK: %[[R:.*]] = tile.sfu rsqrt %[[X]] : !tile.tile<f32>
  %r = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (f32) -> f32
  // CHECK: %[[NF:.*]] = tile.cast sitofp %[[N]] rounding = rtne : !tile.tile<i32> -> !tile.tile<f32>
  // CHECK: %[[P:.*]] = tile.binary powf %[[R]], %[[NF]] : !tile.tile<f32>
  %p = tt.extern_elementwise %r, %n {libname = "", libpath = "", pure = true, symbol = "__nv_powif"} : (f32, i32) -> f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 1.0 : f32
  // CHECK: %[[LOWER:.*]] = tile.binary maxnumf %[[P]], %{{.*}} : !tile.tile<f32>
  // CHECK: %[[C:.*]] = tile.binary minnumf %[[LOWER]], %{{.*}} : !tile.tile<f32>
  %c = tt.clampf %p, %lo, %hi, propagateNan = none : f32
  // CHECK: %[[S:.*]] = tile.binary addf %[[C]], %[[X]] : !tile.tile<f32>
  // CHECK: %[[V:.*]] = tile.extract %[[S]][] : !tile.tile<f32>
  // CHECK: tt.store %arg2, %[[V]]
  %s = arith.addf %c, %x : f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// -----

// `x.item()`: the one element of a tile of one element is reshaped to a
// rank-0 tile, so that the scalar arithmetic on it runs on the SIMD engine and
// the control core reads the result.
// CHECK-LABEL: tt.func @unsplat_of_a_loaded_block
tt.func @unsplat_of_a_loaded_block(%x: tensor<1x1xf32>, %out: !tt.ptr<f32>) {
  // CHECK: %[[T:.*]] = tile.binary mulf
  %y = arith.mulf %x, %x : tensor<1x1xf32>
  // CHECK: %[[E:.*]] = tile.reshape %[[T]] : !tile.tile<1x1xf32> -> !tile.tile<f32>
  // CHECK: %[[V:.*]] = tile.extract %[[E]][] : !tile.tile<f32>
  // CHECK: tt.store %arg1, %[[V]]
  %s = tt.unsplat %y : tensor<1x1xf32>
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// -----

// Scalar float conversions of constants fold, rounding as the SIMD engine
// does (the control core has no fp8): to nearest even or toward zero, an
// overflow or infinity saturating where the format has no infinities, and
// zero unsigned in the fnuz formats.
// CHECK-LABEL: tt.func @fold_scalar_conversions
// CHECK-DAG: arith.constant 3.125000e-01 : f8E4M3FNUZ
// CHECK-DAG: arith.constant 2.400000e+02 : f8E4M3FNUZ
// CHECK-DAG: arith.constant 4.480000e+02 : f8E4M3FN
// CHECK-DAG: arith.constant 0.000000e+00 : f8E5M2FNUZ
// CHECK-DAG: arith.constant 2.880000e+02 : f8E4M3FN
// CHECK-DAG: arith.constant 3.125000e-01 : f8E5M2FNUZ
// CHECK-DAG: arith.constant 56 : i8
// CHECK-NOT: tt.fp_to_fp
// CHECK-NOT: arith.truncf
// CHECK-NOT: tt.bitcast
// CHECK: tt.return
tt.func @fold_scalar_conversions() {
  %inexact = arith.constant 3.000000e-01 : f32
  %big = arith.constant 1.000000e+06 : f32
  %inf = arith.constant 0x7F800000 : f32
  %tiny = arith.constant -1.000000e-09 : f32
  %between = arith.constant 3.000000e+02 : f32
  %one = arith.constant 1.000000e+00 : f8E4M3FN
  %0 = tt.fp_to_fp %inexact, rounding = rtne : f32 -> f8E4M3FNUZ
  %1 = tt.fp_to_fp %big, rounding = rtne : f32 -> f8E4M3FNUZ
  %2 = tt.fp_to_fp %inf, rounding = rtne : f32 -> f8E4M3FN
  %3 = tt.fp_to_fp %tiny, rounding = rtne : f32 -> f8E5M2FNUZ
  %4 = tt.fp_to_fp %between, rounding = rtz : f32 -> f8E4M3FN
  %5 = arith.truncf %inexact : f32 to f8E5M2FNUZ
  %6 = tt.bitcast %one : f8E4M3FN -> i8
  %t0 = tt.splat %0 : f8E4M3FNUZ -> tensor<8xf8E4M3FNUZ>
  %t1 = tt.splat %1 : f8E4M3FNUZ -> tensor<8xf8E4M3FNUZ>
  %t2 = tt.splat %2 : f8E4M3FN -> tensor<8xf8E4M3FN>
  %t3 = tt.splat %3 : f8E5M2FNUZ -> tensor<8xf8E5M2FNUZ>
  %t4 = tt.splat %4 : f8E4M3FN -> tensor<8xf8E4M3FN>
  %t5 = tt.splat %5 : f8E5M2FNUZ -> tensor<8xf8E5M2FNUZ>
  %t6 = tt.splat %6 : i8 -> tensor<8xi8>
  tt.print "" {hex = false, isSigned = array<i32: 0, 0, 0, 0, 0, 0, 0>} : %t0, %t1, %t2, %t3, %t4, %t5, %t6 : tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FN>, tensor<8xf8E5M2FNUZ>, tensor<8xf8E4M3FN>, tensor<8xf8E5M2FNUZ>, tensor<8xi8>
  tt.return
}

// -----

// The DPE has no f64: a dot of f64 multiplies on the SIMD engine.
// CHECK-LABEL: tt.func @dot_f64
// CHECK: tile.simd_matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<8x4xf64>, !tile.tile<4x8xf64> -> !tile.tile<8x8xf64>
// CHECK-NOT: tile.matmul
tt.func @dot_f64(%a: tensor<8x4xf64>, %b: tensor<4x8xf64>, %c: tensor<8x8xf64>) {
  %0 = tt.dot %a, %b, %c : tensor<8x4xf64> * tensor<4x8xf64> -> tensor<8x8xf64>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8x8xf64>
  tt.return
}

// -----

// So does a batched one, and a dot of f64 operands into an f32 accumulator,
// which is widened exactly and the result rounded back.
// CHECK-LABEL: tt.func @dot_f64_mixed
// CHECK: tile.simd_matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<2x8x4xf64>, !tile.tile<2x4x8xf64> -> !tile.tile<2x8x8xf64>
// CHECK: %[[WIDE:.*]] = tile.cast extf %{{.*}} : !tile.tile<8x8xf32> -> !tile.tile<8x8xf64>
// CHECK: %[[PRODUCT:.*]] = tile.simd_matmul %{{.*}}, %{{.*}}, %[[WIDE]] : !tile.tile<8x4xf64>, !tile.tile<4x8xf64> -> !tile.tile<8x8xf64>
// CHECK: tile.cast truncf %[[PRODUCT]] rounding = rtne : !tile.tile<8x8xf64> -> !tile.tile<8x8xf32>
tt.func @dot_f64_mixed(%a: tensor<2x8x4xf64>, %b: tensor<2x4x8xf64>, %c: tensor<2x8x8xf64>,
                       %d: tensor<8x4xf64>, %e: tensor<4x8xf64>, %f: tensor<8x8xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<2x8x4xf64> * tensor<2x4x8xf64> -> tensor<2x8x8xf64>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<2x8x8xf64>
  %1 = tt.dot %d, %e, %f : tensor<8x4xf64> * tensor<4x8xf64> -> tensor<8x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %1 : tensor<8x8xf32>
  tt.return
}

// -----

// tt.dot_scaled of fp4 (packed along K) with e8m0 scales and fp16: the
// nibbles are interleaved along K and decoded through f16 bits; the scale
// bytes are repeated over their 32 elements of K and become f32 (2^-127 for
// 0, NaN for 255); the f16 operand widens to f32; the DPE multiplies in f32.
// CHECK-LABEL: tt.func @dot_scaled_e2m1
// CHECK: %[[LOW:.*]] = tile.binary andi
// CHECK: %[[HIGH:.*]] = tile.binary shrui
// CHECK-DAG: %[[L:.*]] = tile.reshape %[[LOW]] : !tile.tile<16x32xi8> -> !tile.tile<16x32x1xi8>
// CHECK-DAG: %[[H:.*]] = tile.reshape %[[HIGH]] : !tile.tile<16x32xi8> -> !tile.tile<16x32x1xi8>
// CHECK: %[[PAIRS:.*]] = tile.concat %[[L]], %[[H]] axis = 2
// CHECK: %[[CODES:.*]] = tile.reshape %[[PAIRS]] : !tile.tile<16x32x2xi8> -> !tile.tile<16x64xi8>
// CHECK: tile.cast extui %[[CODES]] : !tile.tile<16x64xi8> -> !tile.tile<16x64xi16>
// CHECK: %[[HALF:.*]] = tile.cast bitcast %{{.*}} : !tile.tile<16x64xi16> -> !tile.tile<16x64xf16>
// CHECK: %[[WIDE:.*]] = tile.cast extf %[[HALF]] : !tile.tile<16x64xf16> -> !tile.tile<16x64xf32>
// CHECK: %[[VALUES:.*]] = tile.binary mulf %[[WIDE]], %{{.*}} : !tile.tile<16x64xf32>
// CHECK: %[[S1:.*]] = tile.reshape %{{.*}} : !tile.tile<16x2xi8> -> !tile.tile<16x2x1xi8>
// CHECK: %[[S2:.*]] = tile.broadcast %[[S1]] : !tile.tile<16x2x1xi8> -> !tile.tile<16x2x32xi8>
// CHECK: %[[S3:.*]] = tile.reshape %[[S2]] : !tile.tile<16x2x32xi8> -> !tile.tile<16x64xi8>
// CHECK: tile.cast extui %[[S3]] : !tile.tile<16x64xi8> -> !tile.tile<16x64xi32>
// CHECK: tile.binary shli
// CHECK: tile.binary maxui
// CHECK: tile.cmpi eq
// CHECK: tile.select
// CHECK: %[[SCALE:.*]] = tile.cast bitcast %{{.*}} : !tile.tile<16x64xi32> -> !tile.tile<16x64xf32>
// CHECK: %[[LHS:.*]] = tile.binary mulf %[[VALUES]], %[[SCALE]] : !tile.tile<16x64xf32>
// CHECK: %[[RHS:.*]] = tile.cast extf %{{.*}} : !tile.tile<64x8xf16> -> !tile.tile<64x8xf32>
// CHECK: tile.matmul %[[LHS]], %[[RHS]], %{{.*}} : !tile.tile<16x64xf32>, !tile.tile<64x8xf32> -> !tile.tile<16x8xf32>
tt.func @dot_scaled_e2m1(%a: tensor<16x32xi8>, %sa: tensor<16x2xi8>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>) {
  %0 = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x8xf16> -> tensor<16x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x8xf32>
  tt.return
}

// -----

// The right operand's scales (NxK/32) are repeated along K and transposed to
// KxN; fp8 operands widen to f32. fp4 packed along N (rhs_k_pack = false)
// is interleaved along N.
// CHECK-LABEL: tt.func @dot_scaled_rhs
// CHECK: %[[A:.*]] = tile.cast extf %{{.*}} : !tile.tile<16x64xf8E5M2> -> !tile.tile<16x64xf32>
// CHECK: %[[B:.*]] = tile.cast extf %{{.*}} : !tile.tile<64x8xf8E4M3FN> -> !tile.tile<64x8xf32>
// CHECK: tile.broadcast %{{.*}} : !tile.tile<8x2x1xi8> -> !tile.tile<8x2x32xi8>
// CHECK: %[[T:.*]] = tile.transpose %{{.*}} [1, 0] : !tile.tile<8x64xi8> -> !tile.tile<64x8xi8>
// CHECK: tile.cast extui %[[T]] : !tile.tile<64x8xi8> -> !tile.tile<64x8xi32>
// CHECK: %[[S:.*]] = tile.cast bitcast %{{.*}} : !tile.tile<64x8xi32> -> !tile.tile<64x8xf32>
// CHECK: %[[SCALED:.*]] = tile.binary mulf %[[B]], %[[S]] : !tile.tile<64x8xf32>
// CHECK: tile.matmul %[[A]], %[[SCALED]], %{{.*}} : !tile.tile<16x64xf32>, !tile.tile<64x8xf32> -> !tile.tile<16x8xf32>
// CHECK: tile.concat %{{.*}}, %{{.*}} axis = 2 : !tile.tile<64x4x1xi8>, !tile.tile<64x4x1xi8> -> !tile.tile<64x4x2xi8>
// CHECK: tile.reshape %{{.*}} : !tile.tile<64x4x2xi8> -> !tile.tile<64x8xi8>
tt.func @dot_scaled_rhs(%a: tensor<16x64xf8E5M2>, %b: tensor<64x8xf8E4M3FN>, %sb: tensor<8x2xi8>, %c: tensor<16x8xf32>,
                        %d: tensor<64x4xi8>) {
  %0 = tt.dot_scaled %a, %b scale %sb, %c lhs = e5m2 rhs = e4m3 {fastMath = false} : tensor<16x64xf8E5M2> * tensor<64x8xf8E4M3FN>, tensor<8x2xi8> -> tensor<16x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x8xf32>
  %1 = tt.dot_scaled %a, %d, %c lhs = e5m2 rhs = e2m1 {fastMath = true, rhs_k_pack = false} : tensor<16x64xf8E5M2> * tensor<64x4xi8> -> tensor<16x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %1 : tensor<16x8xf32>
  tt.return
}

// -----

// Batched: the right operand's scales are transposed in their last two
// dimensions; an f16 accumulator is widened for the DPE and rounded back.
// CHECK-LABEL: tt.func @dot_scaled_batched
// CHECK: tile.transpose %{{.*}} [0, 2, 1] : !tile.tile<2x8x64xi8> -> !tile.tile<2x64x8xi8>
// CHECK: %[[PRODUCT:.*]] = tile.matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<2x16x64xf32>, !tile.tile<2x64x8xf32> -> !tile.tile<2x16x8xf32>
// CHECK: tile.cast truncf %[[PRODUCT]] rounding = rtne : !tile.tile<2x16x8xf32> -> !tile.tile<2x16x8xf16>
tt.func @dot_scaled_batched(%a: tensor<2x16x32xi8>, %sa: tensor<2x16x2xi8>, %b: tensor<2x64x8xf8E4M3FN>, %sb: tensor<2x8x2xi8>, %c: tensor<2x16x8xf16>) {
  %0 = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<2x16x32xi8>, tensor<2x16x2xi8> * tensor<2x64x8xf8E4M3FN>, tensor<2x8x2xi8> -> tensor<2x16x8xf16>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<2x16x8xf16>
  tt.return
}

// -----

// tl.map_elementwise keeps its scalar region (branches and all) on a
// tile.map_elementwise, whose returns become tile.yield.

// CHECK-LABEL: tt.func @map
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %arg1 : tensor<128xi32> to !tile.tile<128xi32>
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<128xi32> to !tile.tile<128xi32>
// CHECK: %[[Z:.*]] = tile.map_elementwise %[[X]], %[[Y]] pack = 1 : (!tile.tile<128xi32>, !tile.tile<128xi32>) -> !tile.tile<128xi32> {
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK: cf.cond_br
// CHECK: ^bb1(%[[R:.*]]: i32):
// CHECK-NEXT: tile.yield %[[R]] : i32
// CHECK: builtin.unrealized_conversion_cast %[[Z]] : !tile.tile<128xi32> to tensor<128xi32>
tt.func @map(%x: tensor<128xi32>, %y: tensor<128xi32>) -> tensor<128xi32> {
  %c = arith.constant 3 : i32
  %z = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    cf.cond_br %lt, ^bb1(%c : i32), ^bb1(%a : i32)
  ^bb1(%r: i32):
    tt.map_elementwise.return %r : i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  tt.return %z : tensor<128xi32>
}

// -----

// tt.ptr_to_int of a tensor of pointers (tl.where between pointers, stored as
// integers): the addresses are computed as i64 tiles from what computes the
// pointers: a splat of a scalar pointer, offsets scaled by the pointee's
// bytes, integers cast to pointers, and selects.

// CHECK-LABEL: tt.func @pointers_as_integers
// CHECK: %[[Q:.*]] = builtin.unrealized_conversion_cast %arg1 : tensor<64xi64> to !tile.tile<64xi64>
// CHECK: %[[C:.*]] = builtin.unrealized_conversion_cast %arg2 : tensor<64xi1> to !tile.tile<64xi1>
// CHECK: %[[R:.*]] = tile.iota 0 : !tile.tile<64xi32>
// CHECK: %[[BASE:.*]] = tt.ptr_to_int %arg0 : !tt.ptr<i16> -> i64
// CHECK: %[[BASES:.*]] = tile.splat %[[BASE]] : !tile.tile<64xi64>
// CHECK: %[[WIDE:.*]] = tile.cast extsi %[[R]] : !tile.tile<64xi32> -> !tile.tile<64xi64>
// CHECK: %[[BYTES:.*]] = tile.constant dense<2> : tensor<64xi64> : !tile.tile<64xi64>
// CHECK: %[[SCALED:.*]] = tile.binary muli %[[WIDE]], %[[BYTES]] : !tile.tile<64xi64>
// CHECK: %[[ADDR:.*]] = tile.binary addi %[[BASES]], %[[SCALED]] : !tile.tile<64xi64>
// CHECK: %[[W:.*]] = tile.select %[[C]], %[[ADDR]], %[[Q]] : !tile.tile<64xi64>
// CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %[[W]] : !tile.tile<64xi64> to tensor<64xi64>
// CHECK: tt.store %arg3, %[[T]]
// CHECK-NOT: tt.int_to_ptr
tt.func @pointers_as_integers(%p: !tt.ptr<i16>, %q: tensor<64xi64>, %c: tensor<64xi1>, %out: tensor<64x!tt.ptr<i64>>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<i16> -> tensor<64x!tt.ptr<i16>>
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<i16>>, tensor<64xi32>
  %b = tt.int_to_ptr %q : tensor<64xi64> -> tensor<64x!tt.ptr<i16>>
  %w = arith.select %c, %a, %b : tensor<64xi1>, tensor<64x!tt.ptr<i16>>
  %i = tt.ptr_to_int %w : tensor<64x!tt.ptr<i16>> -> tensor<64xi64>
  tt.store %out, %i : tensor<64x!tt.ptr<i64>>
  tt.return
}

// -----

// The MTIA language extensions (`mtia_compiler.language`, library `mtia`):
// the PE's identity on the control core, a barrier, and collectives over
// the reduction network, on tensors and on scalars (as rank-0 tiles).
// CHECK-LABEL: tt.func @language_extensions
// CHECK: %[[ROW:.*]] = tile.pe_info row : i32
// CHECK: tile.pe_info columns : i32
// CHECK: tile.barrier over column
// CHECK: %[[SUM:.*]] = tile.cross_pe_reduce addf %{{.*}} over grid : !tile.tile<8xf32>
// CHECK: tile.cross_pe_reduce maxui %{{.*}} over row : !tile.tile<8xi32>
// CHECK: tile.cross_pe_reduce minsi %{{.*}} over row : !tile.tile<8xi32>
// CHECK: %[[LIFTED:.*]] = tile.splat %{{.*}} : !tile.tile<f32>
// CHECK: %[[BCAST:.*]] = tile.cross_pe_broadcast %[[LIFTED]] from 5 over row : !tile.tile<f32>
// CHECK: tile.extract %[[BCAST]][] : !tile.tile<f32>
// CHECK: tile.cross_pe_arg_reduce argmax %{{.*}}, %{{.*}} over column : !tile.tile<8xf32>, !tile.tile<8xi32>
// CHECK: tile.cross_pe_shift %{{.*}} toward west : !tile.tile<8xf32>
tt.func @language_extensions(%x: tensor<8xf32>, %i: tensor<8xi32>, %s: f32) {
  %c0 = arith.constant 0 : i32
  %row = tt.extern_elementwise %c0 {libname = "mtia", libpath = "", pure = true, symbol = "mtia.pe.row"} : (i32) -> i32
  %cols = tt.extern_elementwise %c0 {libname = "mtia", libpath = "", pure = true, symbol = "mtia.pe.columns"} : (i32) -> i32
  %b = tt.extern_elementwise %c0 {libname = "mtia", libpath = "", pure = false, symbol = "mtia.barrier.column"} : (i32) -> i32
  %sum = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_reduce.sum.grid"} : (tensor<8xf32>) -> tensor<8xf32>
  %umax = tt.extern_elementwise %i {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_reduce.umax.row"} : (tensor<8xi32>) -> tensor<8xi32>
  %min = tt.extern_elementwise %umax {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_reduce.min.row"} : (tensor<8xi32>) -> tensor<8xi32>
  %one = tt.extern_elementwise %s {libname = "mtia", libpath = "", pure = false, symbol = "mtia.broadcast.row.5"} : (f32) -> f32
  %arg = tt.extern_elementwise %x, %i {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_argmax.column"} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xi32>
  %west = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.shift.west"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 1, 1, 1, 1, 1, 1, 1>} : %row, %cols, %sum, %min, %one, %arg, %west : i32, i32, tensor<8xf32>, tensor<8xi32>, f32, tensor<8xi32>, tensor<8xf32>
  tt.return
}
