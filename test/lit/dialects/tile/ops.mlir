// RUN: mtia-opt %s | mtia-opt | FileCheck %s

// Round trip of every type and operation of the tile dialect.

// CHECK-LABEL: tt.func @types
// CHECK-SAME: !tile.tile<64x32xf16>
// CHECK-SAME: !tile.tile<64x32xf16, order = [0, 1]>
// CHECK-SAME: !tile.tile<f32>
// CHECK-SAME: !tile.tile<2x3x4xi8, order = [1, 2, 0]>
// CHECK-SAME: !tile.tile<16xf8E4M3FN>
tt.func @types(%a: !tile.tile<64x32xf16>, %b: !tile.tile<64x32xf16, order = [0, 1]>,
               %c: !tile.tile<f32>, %d: !tile.tile<2x3x4xi8, order = [1, 2, 0]>,
               %e: !tile.tile<16xf8E4M3FN>) {
  tt.return
}

// CHECK-LABEL: tt.func @dpe
tt.func @dpe(%a: !tile.tile<64x32xf16>, %b: !tile.tile<32x64xf16>, %acc: !tile.tile<64x64xf32>,
             %qa: !tile.tile<32x64xi8>, %qb: !tile.tile<64x32xi8>, %qacc: !tile.tile<32x32xi32>,
             %ba: !tile.tile<64x32xbf16, order = [0, 1]>, %bb: !tile.tile<32x64xbf16>) {
  // CHECK: tile.matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<64x32xf16>, !tile.tile<32x64xf16> -> !tile.tile<64x64xf32>
  %0 = tile.matmul %a, %b, %acc : !tile.tile<64x32xf16>, !tile.tile<32x64xf16> -> !tile.tile<64x64xf32>
  // CHECK: tile.matmul %{{.*}} : !tile.tile<32x64xi8>, !tile.tile<64x32xi8> -> !tile.tile<32x32xi32>
  %1 = tile.matmul %qa, %qb, %qacc : !tile.tile<32x64xi8>, !tile.tile<64x32xi8> -> !tile.tile<32x32xi32>
  // CHECK: tile.matmul %{{.*}} : !tile.tile<64x32xbf16, order = [0, 1]>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
  %2 = tile.matmul %ba, %bb, %0 : !tile.tile<64x32xbf16, order = [0, 1]>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
  tt.return
}

// CHECK-LABEL: @simd_matmul
tt.func @simd_matmul(%a: !tile.tile<2x8x4xf64>, %b: !tile.tile<2x4x8xf64>, %c: !tile.tile<2x8x8xf64>) {
  // CHECK: tile.simd_matmul %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<2x8x4xf64>, !tile.tile<2x4x8xf64> -> !tile.tile<2x8x8xf64>
  %0 = tile.simd_matmul %a, %b, %c : !tile.tile<2x8x4xf64>, !tile.tile<2x4x8xf64> -> !tile.tile<2x8x8xf64>
  tt.return
}

// CHECK-LABEL: tt.func @simd
tt.func @simd(%x: !tile.tile<1024xf32>, %y: !tile.tile<1024xf32>, %i: !tile.tile<1024xi32>,
              %s: f32, %h: !tile.tile<1024xf16>) {
  // CHECK: tile.binary addf %{{.*}}, %{{.*}} : !tile.tile<1024xf32>
  %0 = tile.binary addf %x, %y : !tile.tile<1024xf32>
  // CHECK: tile.binary maxnumf
  %1 = tile.binary maxnumf %x, %0 : !tile.tile<1024xf32>
  // CHECK: tile.binary remsi %{{.*}} : !tile.tile<1024xi32>
  %2 = tile.binary remsi %i, %i : !tile.tile<1024xi32>
  // CHECK: tile.unary negf %{{.*}} : !tile.tile<1024xf32>
  %3 = tile.unary negf %1 : !tile.tile<1024xf32>
  // CHECK: tile.unary sqrt %{{.*}} : !tile.tile<1024xf32>
  %sqrt = tile.unary sqrt %x : !tile.tile<1024xf32>
  // CHECK: tile.unary round
  %round = tile.unary round %x : !tile.tile<1024xf32>
  // CHECK: tile.unary trunc
  %trunc = tile.unary trunc %x : !tile.tile<1024xf32>
  // CHECK: tile.unary absi %{{.*}} : !tile.tile<1024xi32>
  %4 = tile.unary absi %2 : !tile.tile<1024xi32>
  // CHECK: tile.fma %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<1024xf32>
  %5 = tile.fma %x, %y, %3 : !tile.tile<1024xf32>
  // CHECK: tile.sfu exp %{{.*}} : !tile.tile<1024xf32>
  %6 = tile.sfu exp %5 : !tile.tile<1024xf32>
  // CHECK: tile.sfu rsqrt
  %7 = tile.sfu rsqrt %6 : !tile.tile<1024xf32>
  // CHECK: %[[C:.*]] = tile.cmpi slt %{{.*}}, %{{.*}} : !tile.tile<1024xi32>
  %8 = tile.cmpi slt %i, %4 : !tile.tile<1024xi32>
  // CHECK: tile.cmpf uno %{{.*}}, %{{.*}} : !tile.tile<1024xf32>
  %9 = tile.cmpf uno %x, %7 : !tile.tile<1024xf32>
  // CHECK: tile.select %[[C]], %{{.*}}, %{{.*}} : !tile.tile<1024xf32>
  %10 = tile.select %8, %x, %7 : !tile.tile<1024xf32>
  // CHECK: tile.cast truncf %{{.*}} rounding = rtne : !tile.tile<1024xf32> -> !tile.tile<1024xf16>
  %11 = tile.cast truncf %10 rounding = rtne : !tile.tile<1024xf32> -> !tile.tile<1024xf16>
  // CHECK: tile.cast extf %{{.*}} : !tile.tile<1024xf16> -> !tile.tile<1024xf32>
  %12 = tile.cast extf %h : !tile.tile<1024xf16> -> !tile.tile<1024xf32>
  // CHECK: tile.cast fptosi %{{.*}} : !tile.tile<1024xf32> -> !tile.tile<1024xi32>
  %13 = tile.cast fptosi %12 : !tile.tile<1024xf32> -> !tile.tile<1024xi32>
  // CHECK: tile.cast sitofp %{{.*}} rounding = rtz : !tile.tile<1024xi32> -> !tile.tile<1024xf32>
  %14 = tile.cast sitofp %13 rounding = rtz : !tile.tile<1024xi32> -> !tile.tile<1024xf32>
  // CHECK: tile.cast bitcast %{{.*}} : !tile.tile<1024xf32> -> !tile.tile<1024xi32>
  %15 = tile.cast bitcast %14 : !tile.tile<1024xf32> -> !tile.tile<1024xi32>
  // CHECK: tile.cast trunci %{{.*}} : !tile.tile<1024xi32> -> !tile.tile<1024xi8>
  %16 = tile.cast trunci %15 : !tile.tile<1024xi32> -> !tile.tile<1024xi8>
  // CHECK: tile.cast extui %{{.*}} : !tile.tile<1024xi1> -> !tile.tile<1024xi32>
  %17 = tile.cast extui %9 : !tile.tile<1024xi1> -> !tile.tile<1024xi32>
  tt.return
}

// CHECK-LABEL: tt.func @scalars
tt.func @scalars(%s: f32, %t: !tile.tile<4x8xf32>, %i: index, %j: index) -> f32 {
  // CHECK: tile.splat %{{.*}} : !tile.tile<4x8xf32>
  %0 = tile.splat %s : !tile.tile<4x8xf32>
  // CHECK: tile.iota 16 : !tile.tile<64xi32>
  %1 = tile.iota 16 : !tile.tile<64xi32>
  // CHECK: tile.iota 0 : !tile.tile<4x8xi32>
  %iota2d = tile.iota 0 : !tile.tile<4x8xi32>
  %r = tile.reduce addf %t axis = 0 : !tile.tile<4x8xf32> -> !tile.tile<8xf32>
  %total = tile.reduce addf %r axis = 0 : !tile.tile<8xf32> -> !tile.tile<f32>
  // CHECK: tile.splat_element %{{.*}} : !tile.tile<f32> -> !tile.tile<4x8xf32>
  %spread = tile.splat_element %total : !tile.tile<f32> -> !tile.tile<4x8xf32>
  // CHECK: tile.constant dense<1.000000e+00> : tensor<4x8xf32> : !tile.tile<4x8xf32>
  %2 = tile.constant dense<1.0> : tensor<4x8xf32> : !tile.tile<4x8xf32>
  // CHECK: tile.constant dense<[0, 1, 2, 3]> : tensor<4xi8> : !tile.tile<4xi8>
  %3 = tile.constant dense<[0, 1, 2, 3]> : tensor<4xi8> : !tile.tile<4xi8>
  // CHECK: tile.extract %{{.*}}[%{{.*}}, %{{.*}}] : !tile.tile<4x8xf32>
  %4 = tile.extract %t[%i, %j] : !tile.tile<4x8xf32>
  tt.return %4 : f32
}

// CHECK-LABEL: tt.func @reductions
tt.func @reductions(%x: !tile.tile<64x128xf32>, %i: !tile.tile<64x128xi32>, %v: !tile.tile<128xf32>) {
  // CHECK: tile.reduce addf %{{.*}} axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xf32>
  %0 = tile.reduce addf %x axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xf32>
  // CHECK: tile.reduce maxsi %{{.*}} axis = 0 : !tile.tile<64x128xi32> -> !tile.tile<128xi32>
  %1 = tile.reduce maxsi %i axis = 0 : !tile.tile<64x128xi32> -> !tile.tile<128xi32>
  // CHECK: tile.reduce maximumf %{{.*}} axis = 0 : !tile.tile<128xf32> -> !tile.tile<f32>
  %2 = tile.reduce maximumf %v axis = 0 : !tile.tile<128xf32> -> !tile.tile<f32>
  // CHECK: tile.reduce_copy %{{.*}} : !tile.tile<64x128xf32>
  %copy = tile.reduce_copy %x : !tile.tile<64x128xf32>
  // CHECK: tile.reduce_region %{{.*}}, %{{.*}} axis = 1 : (!tile.tile<64x128xf32>, !tile.tile<64x128xi32>) -> (!tile.tile<64xf32>, !tile.tile<64xi32>) {
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
  %3:2 = tile.reduce_region %x, %i axis = 1 : (!tile.tile<64x128xf32>, !tile.tile<64x128xi32>) -> (!tile.tile<64xf32>, !tile.tile<64xi32>) {
  ^bb0(%accv: f32, %acci: i32, %newv: f32, %newi: i32):
    %gt = arith.cmpf ogt, %newv, %accv : f32
    %v2 = arith.select %gt, %newv, %accv : f32
    %i2 = arith.select %gt, %newi, %acci : i32
    tile.yield %v2, %i2 : f32, i32
  }
  // CHECK: tile.scan %{{.*}} axis = 0 reverse : (!tile.tile<128xf32>) -> !tile.tile<128xf32> {
  %4 = tile.scan %v axis = 0 reverse : (!tile.tile<128xf32>) -> !tile.tile<128xf32> {
  ^bb0(%acc: f32, %new: f32):
    %sum = arith.addf %acc, %new : f32
    tile.yield %sum : f32
  }
  // CHECK: tile.scan %{{.*}} axis = 1 : (!tile.tile<64x128xi32>) -> !tile.tile<64x128xi32> {
  %5 = tile.scan %i axis = 1 : (!tile.tile<64x128xi32>) -> !tile.tile<64x128xi32> {
  ^bb0(%acc: i32, %new: i32):
    %sum = arith.addi %acc, %new : i32
    tile.yield %sum : i32
  }
  // CHECK: tile.scan %{{.*}} axis = 0 reverse kind maxnumf : (!tile.tile<128xf32>) -> !tile.tile<128xf32> {
  %running_max = tile.scan %v axis = 0 reverse kind maxnumf : (!tile.tile<128xf32>) -> !tile.tile<128xf32> {
  ^bb0(%acc: f32, %new: f32):
    %max = arith.maxnumf %acc, %new : f32
    tile.yield %max : f32
  }
  // CHECK: tile.arg_reduce argmax %{{.*}} axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xi32>
  %6 = tile.arg_reduce argmax %x axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xi32>
  // CHECK: tile.arg_reduce argmin %{{.*}} axis = 0 : !tile.tile<128xf32> -> !tile.tile<i64>
  %7 = tile.arg_reduce argmin %v axis = 0 : !tile.tile<128xf32> -> !tile.tile<i64>
  // CHECK: tile.histogram %{{.*}} : !tile.tile<64x128xi32> -> !tile.tile<8xi32>
  %hist = tile.histogram %i : !tile.tile<64x128xi32> -> !tile.tile<8xi32>
  // CHECK: tile.histogram %{{.*}} mask %{{.*}} : !tile.tile<64xi32> -> !tile.tile<16xi32>
  %valid = tile.cmpi sgt %6, %6 : !tile.tile<64xi32>
  %hist2 = tile.histogram %6 mask %valid : !tile.tile<64xi32> -> !tile.tile<16xi32>
  // CHECK: tile.cross_pe_reduce addf %{{.*}} over row : !tile.tile<64xf32>
  %8 = tile.cross_pe_reduce addf %0 over row : !tile.tile<64xf32>
  // CHECK: tile.cross_pe_reduce maxsi %{{.*}} over grid : !tile.tile<128xi32>
  %9 = tile.cross_pe_reduce maxsi %1 over grid : !tile.tile<128xi32>
  // CHECK: tile.cross_pe_broadcast %{{.*}} from 3 over column : !tile.tile<64xf32>
  %10 = tile.cross_pe_broadcast %0 from 3 over column : !tile.tile<64xf32>
  // CHECK: tile.cross_pe_arg_reduce argmin %{{.*}}, %{{.*}} over grid : !tile.tile<128xi32>, !tile.tile<128xi32>
  %12 = tile.cross_pe_arg_reduce argmin %1, %1 over grid : !tile.tile<128xi32>, !tile.tile<128xi32>
  // CHECK: tile.cross_pe_shift %{{.*}} toward north : !tile.tile<64xf32>
  %13 = tile.cross_pe_shift %0 toward north : !tile.tile<64xf32>
  // CHECK: tile.barrier over row
  tile.barrier over row
  // CHECK: tile.pe_info columns : i32
  %11 = tile.pe_info columns : i32
  tt.return
}

// CHECK-LABEL: tt.func @layout
tt.func @layout(%x: !tile.tile<64x32xf32>, %c: !tile.tile<64x1xf32>, %y: !tile.tile<64x16xf32>,
                %idx: !tile.tile<16x32xi32>) {
  // CHECK: tile.copy %{{.*}} : !tile.tile<64x32xf32>
  %copy = tile.copy %x : !tile.tile<64x32xf32>
  // CHECK: tile.transpose %{{.*}} [1, 0] : !tile.tile<64x32xf32> -> !tile.tile<32x64xf32>
  %0 = tile.transpose %x [1, 0] : !tile.tile<64x32xf32> -> !tile.tile<32x64xf32>
  // CHECK: tile.convert_layout %{{.*}} : !tile.tile<64x32xf32> -> !tile.tile<64x32xf32, order = [0, 1]>
  %1 = tile.convert_layout %x : !tile.tile<64x32xf32> -> !tile.tile<64x32xf32, order = [0, 1]>
  // CHECK: tile.reshape %{{.*}} : !tile.tile<64x32xf32> -> !tile.tile<2048xf32>
  %2 = tile.reshape %x : !tile.tile<64x32xf32> -> !tile.tile<2048xf32>
  // CHECK: tile.broadcast %{{.*}} : !tile.tile<64x1xf32> -> !tile.tile<64x32xf32>
  %3 = tile.broadcast %c : !tile.tile<64x1xf32> -> !tile.tile<64x32xf32>
  // CHECK: tile.broadcast %{{.*}} {dimensions = array<i64: 0>} : !tile.tile<64xf32> -> !tile.tile<64x32xf32>
  %rows = tile.reshape %c : !tile.tile<64x1xf32> -> !tile.tile<64xf32>
  %rb = tile.broadcast %rows {dimensions = array<i64: 0>} : !tile.tile<64xf32> -> !tile.tile<64x32xf32>
  // CHECK: tile.broadcast %{{.*}} : !tile.tile<f32> -> !tile.tile<64x32xf32>
  %s = tile.reduce addf %c axis = 0 : !tile.tile<64x1xf32> -> !tile.tile<1xf32>
  %s0 = tile.reshape %s : !tile.tile<1xf32> -> !tile.tile<f32>
  %sb = tile.broadcast %s0 : !tile.tile<f32> -> !tile.tile<64x32xf32>
  // CHECK: tile.slice %{{.*}} [0, 16] : !tile.tile<64x32xf32> -> !tile.tile<64x16xf32>
  %4 = tile.slice %x [0, 16] : !tile.tile<64x32xf32> -> !tile.tile<64x16xf32>
  // CHECK: tile.subview %{{.*}} [32, 0] : !tile.tile<64x32xf32> -> !tile.tile<16x32xf32>
  %strip = tile.subview %x [32, 0] : !tile.tile<64x32xf32> -> !tile.tile<16x32xf32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] axis = 0 : (!tile.tile<64x32xf32>, !tile.tile<16x32xi32>) -> !tile.tile<16x32xf32>
  %g = tile.gather %x[%idx] axis = 0 : (!tile.tile<64x32xf32>, !tile.tile<16x32xi32>) -> !tile.tile<16x32xf32>
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis = 1 : !tile.tile<64x32xf32>, !tile.tile<64x16xf32> -> !tile.tile<64x48xf32>
  %5 = tile.concat %x, %y axis = 1 : !tile.tile<64x32xf32>, !tile.tile<64x16xf32> -> !tile.tile<64x48xf32>
  // CHECK: tile.print " x: ", %{{.*}} {hex, isSigned} : !tile.tile<64x32xf32>
  tile.print " x: ", %x {hex, isSigned} : !tile.tile<64x32xf32>
  %p = tile.iota 0 : !tile.tile<64xi32>
  %ok = tile.cmpi sge %p, %p : !tile.tile<64xi32>
  // CHECK: tile.assert %{{.*}}, "must hold" : !tile.tile<64xi1>
  tile.assert %ok, "must hold" : !tile.tile<64xi1>
  tt.return
}

// CHECK-LABEL: tt.func @map_elementwise
tt.func @map_elementwise(%a: !tile.tile<8x4xi32>, %b: !tile.tile<8x4xf32>) -> !tile.tile<8x4xf32> {
  // CHECK: tile.map_elementwise %{{.*}}, %{{.*}} pack = 2 : (!tile.tile<8x4xi32>, !tile.tile<8x4xf32>) -> !tile.tile<8x4xf32> {
  // CHECK: ^bb1(%{{.*}}: f32):
  // CHECK: tile.yield %{{.*}}, %{{.*}} : f32, f32
  %r = tile.map_elementwise %a, %b pack = 2 : (!tile.tile<8x4xi32>, !tile.tile<8x4xf32>) -> !tile.tile<8x4xf32> {
  ^bb0(%a0: i32, %a1: i32, %b0: f32, %b1: f32):
    %f = arith.sitofp %a0 : i32 to f32
    %c = arith.cmpf olt, %f, %b0 : f32
    cf.cond_br %c, ^bb1(%f : f32), ^bb1(%b0 : f32)
  ^bb1(%m: f32):
    tile.yield %m, %b1 : f32, f32
  }
  tt.return %r : !tile.tile<8x4xf32>
}
