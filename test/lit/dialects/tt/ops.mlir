// RUN: mtia-opt %s | mtia-opt | FileCheck %s
// RUN: mtia-opt %s --mlir-print-op-generic | mtia-opt | FileCheck %s

// Every operation and type of the tt dialect, in the syntax Triton 3.9 prints.

// CHECK-LABEL: tt.func public @types
// CHECK-SAME: !tt.ptr<f32>
// CHECK-SAME: !tt.ptr<i8, 3>
// CHECK-SAME: !tt.ptr<tensor<16x32xf16>>
// CHECK-SAME: !tt.tensordesc<64x32xf16>
// CHECK-SAME: tensor<4x!tt.ptr<bf16>>
tt.func public @types(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i8, 3>,
                      %b: !tt.ptr<tensor<16x32xf16>>, %d: !tt.tensordesc<64x32xf16>,
                      %t: tensor<4x!tt.ptr<bf16>>) attributes {noinline = false} {
  tt.return
}

// CHECK-LABEL: tt.func @casts_and_math
tt.func @casts_and_math(%i: tensor<8xi64>, %f: tensor<8xf16>, %x: tensor<8xf32>, %u: i32) {
  // CHECK: tt.int_to_ptr %{{.*}} : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  %p = tt.int_to_ptr %i : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  // CHECK: tt.ptr_to_int %{{.*}} : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %i2 = tt.ptr_to_int %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  // CHECK: tt.bitcast %{{.*}} : tensor<8xf16> -> tensor<8xi16>
  %bits = tt.bitcast %f : tensor<8xf16> -> tensor<8xi16>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<8xf16> -> tensor<8xf8E4M3FN>
  %f8 = tt.fp_to_fp %f, rounding = rtne : tensor<8xf16> -> tensor<8xf8E4M3FN>
  // CHECK: tt.fp_to_fp %{{.*}} : tensor<8xf8E4M3FN> -> tensor<8xf16>
  %back = tt.fp_to_fp %f8 : tensor<8xf8E4M3FN> -> tensor<8xf16>
  // Between types of one width a conversion may round (bf16 overflows f16).
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<8xf16> -> tensor<8xbf16>
  %brain = tt.fp_to_fp %f, rounding = rtne : tensor<8xf16> -> tensor<8xbf16>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<8xf32>
  %c = tt.clampf %x, %x, %x, propagateNan = all : tensor<8xf32>
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<8xf32>
  %s = tt.precise_sqrt %x : tensor<8xf32>
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<8xf32>
  %q = tt.precise_divf %x, %s : tensor<8xf32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : i32
  %h = tt.mulhiui %u, %u : i32
  // CHECK: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %pw = tt.extern_elementwise %x, %q {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<8xf32> -> tensor<8xf32>
  %asm = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<8xf32> -> tensor<8xf32>
  tt.return
}

// CHECK-LABEL: tt.func @memory
tt.func @memory(%p: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %pa = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<f32>, i32
  %p1 = tt.addptr %p, %n : !tt.ptr<f32>, i32
  %ns = tt.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<128xf32>
  // CHECK: tt.load %{{.*}} : !tt.ptr<f32>
  %s = tt.load %p1 : !tt.ptr<f32>
  // CHECK: tt.load %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
  %a = tt.load %pa, %m : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : tensor<128x!tt.ptr<f32>>
  %b = tt.load %pa, %m, %zero {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : tensor<128x!tt.ptr<f32>>
  // Triton's frontend also gives loads the streaming modifier cs.
  // CHECK: tt.load %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  %streamed = tt.load %pa {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %v = tt.load %pa {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  tt.store %pa, %a, %m {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
  tt.store %p1, %s : !tt.ptr<f32>
  tt.return
}

// CHECK-LABEL: tt.func @block_pointers
tt.func @block_pointers(%base: !tt.ptr<f16>, %m: i64, %i: i32) {
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
  %b = tt.make_tensor_ptr %base, [%m, %m], [%m, %m], [%i, %i] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<16x32xf16>>
  %b2 = tt.advance %b, [%i, %i] : <tensor<16x32xf16>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf16>>
  %t = tt.load %b2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x32xf16>>
  tt.store %b2, %t {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x32xf16>>
  tt.return
}

// CHECK-LABEL: tt.func @atomics
tt.func @atomics(%p: !tt.ptr<i32>, %f: !tt.ptr<f32>, %ps: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>, %m: tensor<16xi1>, %x: i32, %y: f32, %t: i1) {
  // CHECK: tt.atomic_rmw add, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
  %0 = tt.atomic_rmw add, acq_rel, gpu, %ps, %v, %m : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
  // CHECK: tt.atomic_rmw fadd, relaxed, sys, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32) -> f32
  %1 = tt.atomic_rmw fadd, relaxed, sys, %f, %y : (!tt.ptr<f32>, f32) -> f32
  // CHECK: tt.atomic_rmw exch, release, cta, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i1) -> i32
  %2 = tt.atomic_rmw exch, release, cta, %p, %x, %t : (!tt.ptr<i32>, i32, i1) -> i32
  // CHECK: tt.atomic_cas acquire, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
  %3 = tt.atomic_cas acquire, gpu, %p, %x, %x : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%x: tensor<32xf32>, %s: f32, %i: tensor<32xi32>, %sp1: tensor<1x1xf32>) {
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<4x8xf32>
  %sp = tt.splat %s : f32 -> tensor<4x8xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1x1xf32>
  %un = tt.unsplat %sp1 : tensor<1x1xf32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %e = tt.expand_dims %x {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<32x1xf32> -> tensor<32x4xf32>
  %bc = tt.broadcast %e : tensor<32x1xf32> -> tensor<32x4xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder : tensor<32x4xf32> -> tensor<128xf32>
  %r = tt.reshape %bc allow_reorder : tensor<32x4xf32> -> tensor<128xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<32xf32> -> tensor<4x8xf32>
  %r2 = tt.reshape %x : tensor<32xf32> -> tensor<4x8xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %t = tt.trans %r2 {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<64xf32>
  %c = tt.cat %x, %x : tensor<32xf32> -> tensor<64xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<32x2xf32>
  %j = tt.join %x, %x : tensor<32xf32> -> tensor<32x2xf32>
  // CHECK: tt.split %{{.*}} : tensor<32x2xf32> -> tensor<32xf32>
  %lo, %hi = tt.split %j : tensor<32x2xf32> -> tensor<32xf32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<32xf32>, tensor<32xi32>) -> tensor<32xf32>
  %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<32xf32>, tensor<32xi32>) -> tensor<32xf32>
  // CHECK: tt.histogram %{{.*}} : tensor<32xi32> -> tensor<8xi32>
  %h = tt.histogram %i : tensor<32xi32> -> tensor<8xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<32xi32> -> tensor<8xi32>
  %hm = tt.histogram %i, %m : tensor<32xi32> -> tensor<8xi32>
  // CHECK: tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
  %mr = tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
  tt.return
}

// CHECK-LABEL: tt.func @programs
tt.func @programs() -> i32 {
  // CHECK: tt.get_program_id z : i32
  %0 = tt.get_program_id z : i32
  // CHECK: tt.get_num_programs y : i32
  %1 = tt.get_num_programs y : i32
  %2 = arith.addi %0, %1 : i32
  // CHECK: tt.return %{{.*}} : i32
  tt.return %2 : i32
}

// CHECK-LABEL: tt.func @dots
tt.func @dots(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>,
              %ia: tensor<16x32xi8>, %ib: tensor<32x8xi8>, %ic: tensor<16x8xi32>,
              %ba: tensor<2x16x32xbf16>, %bb: tensor<2x32x8xbf16>, %bc: tensor<2x16x8xf32>) {
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  %1 = tt.dot %ia, %ib, %ic : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16x32xbf16> * tensor<2x32x8xbf16> -> tensor<2x16x8xf32>
  %2 = tt.dot %ba, %bb, %bc : tensor<2x16x32xbf16> * tensor<2x32x8xbf16> -> tensor<2x16x8xf32>
  tt.return
}

// CHECK-LABEL: tt.func @scaled_dots
tt.func @scaled_dots(%a: tensor<16x32xi8>, %sa: tensor<16x2xi8>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>,
                     %e: tensor<16x64xf8E4M3FN>, %f: tensor<64x8xf8E5M2>, %sf: tensor<8x4xi8>,
                     %g: tensor<64x4xi8>) {
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x8xf16> -> tensor<16x8xf32>
  %0 = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x8xf16> -> tensor<16x8xf32>
  // CHECK: tt.dot_scaled %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<16x64xf8E4M3FN> * tensor<64x8xf8E5M2>, tensor<8x4xi8> -> tensor<16x8xf32>
  %1 = tt.dot_scaled %e, %f scale %sf, %c lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<16x64xf8E4M3FN> * tensor<64x8xf8E5M2>, tensor<8x4xi8> -> tensor<16x8xf32>
  // CHECK: tt.dot_scaled %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<16x64xf8E4M3FN> * tensor<64x4xi8> -> tensor<16x8xf32>
  %2 = tt.dot_scaled %e, %g, %c lhs = e4m3 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<16x64xf8E4M3FN> * tensor<64x4xi8> -> tensor<16x8xf32>
  tt.return
}

// CHECK-LABEL: tt.func @reductions
tt.func @reductions(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 0 : i32}>
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  %1:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v, %vi : f32, i32
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = true}>
  // CHECK: tt.scan.return %{{.*}} : f32
  %2 = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tt.scan.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  tt.return
}

// CHECK-LABEL: tt.func @debug
tt.func @debug(%x: tensor<8xi32>, %c: tensor<8xi1>, %b: i1) {
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : tensor<8xi32>
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<8xi32>
  // CHECK: tt.print "done" {hex = true, isSigned = array<i32>}
  tt.print "done" {hex = true, isSigned = array<i32>}
  // CHECK: tt.assert %{{.*}}, "must hold" : tensor<8xi1>
  tt.assert %c, "must hold" : tensor<8xi1>
  // CHECK: tt.assert %{{.*}}, "scalar" : i1
  tt.assert %b, "scalar" : i1
  tt.return
}

// CHECK-LABEL: tt.func @descriptors
tt.func @descriptors(%p: !tt.ptr<f16>, %m: i32, %s: i64, %d: !tt.tensordesc<64x32xf16>) {
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f16>, <64x64xf16>
  %desc = tt.make_tensor_descriptor %p, [%m, %m], [%s, %s] : <f16>, <64x64xf16>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16>
  %t = tt.descriptor_load %desc[%m, %m] : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<64x64xf16>, tensor<64x64xf16>
  tt.descriptor_store %desc[%m, %m], %t : !tt.tensordesc<64x64xf16>, tensor<64x64xf16>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<64x32xf16> -> tensor<64x32xf16>
  %u = tt.descriptor_load %d[%m, %m] : !tt.tensordesc<64x32xf16> -> tensor<64x32xf16>
  tt.return
}

// Triton writes the signedness of integer blocks into descriptors; the
// pointers and tensors stay signless.
// CHECK-LABEL: tt.func @signed_descriptors
tt.func @signed_descriptors(%p: !tt.ptr<i32>, %m: i32, %s: i64) {
  // CHECK: tt.make_tensor_descriptor %{{.*}} : <i32>, <16x16xsi32>
  %desc = tt.make_tensor_descriptor %p, [%m, %m], [%s, %s] : <i32>, <16x16xsi32>
  // CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<16x16xsi32> -> tensor<16x16xi32>
  %t = tt.descriptor_load %desc[%m, %m] : !tt.tensordesc<16x16xsi32> -> tensor<16x16xi32>
  // CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<16x16xsi32>, tensor<16x16xi32>
  tt.descriptor_store %desc[%m, %m], %t : !tt.tensordesc<16x16xsi32>, tensor<16x16xi32>
  tt.return
}

// CHECK-LABEL: tt.func private @helper
// CHECK-SAME: -> f32 attributes {noinline = true}
tt.func private @helper(%x: f32) -> f32 attributes {noinline = true} {
  tt.return %x : f32
}

// CHECK-LABEL: tt.func @caller
tt.func @caller(%x: f32) -> f32 {
  // CHECK: tt.call @helper(%{{.*}}) : (f32) -> f32
  %0 = tt.call @helper(%x) : (f32) -> f32
  tt.return %0 : f32
}

// `tl.const` parameters point into the constant address space.
// CHECK-LABEL: tt.func @constant_pointers
// CHECK-SAME: !tt.ptr<f32, "constant">
tt.func @constant_pointers(%p: !tt.ptr<f32, "constant">, %q: !tt.ptr<f32, 3>) {
  tt.return
}

// `tl.map_elementwise`, in the generic form Triton 3.9 prints: a region with
// branches, and a pack of two elements with two results.
// CHECK-LABEL: tt.func @map_elementwise
tt.func @map_elementwise(%x: tensor<128xi32>, %y: tensor<128xi32>, %c: i32) -> (tensor<128xi32>, tensor<128xi32>, tensor<128xi32>) {
  // CHECK: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: cf.cond_br
  // CHECK: tt.map_elementwise.return %{{.*}} : i32
  // CHECK: }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  %z = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    cf.cond_br %lt, ^bb1(%c : i32), ^bb1(%a : i32)
  ^bb1(%r: i32):
    tt.map_elementwise.return %r : i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  // CHECK: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 2 : i32}>
  // CHECK: tt.map_elementwise.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, i32, i32
  %q:2 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
    %0 = arith.divui %a0, %b0 : i32
    %1 = arith.divui %a1, %b1 : i32
    %2 = arith.remui %a0, %b0 : i32
    %3 = arith.remui %a1, %b1 : i32
    tt.map_elementwise.return %0, %1, %2, %3 : i32, i32, i32, i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> (tensor<128xi32>, tensor<128xi32>)
  tt.return %z, %q#0, %q#1 : tensor<128xi32>, tensor<128xi32>, tensor<128xi32>
}
