// RUN: mtia-opt %s | mtia-opt | FileCheck %s

// Round trip of every type and operation of the dma dialect.

// CHECK-LABEL: tt.func @types
// CHECK-SAME: !dma.token
tt.func @types(%t: !dma.token) {
  tt.return
}

// Vector add's data movement: bounded loads with padding, a bounded store.
// A transposed window: rows of stride 37 move element by element, so their
// starts need no alignment.
// CHECK-LABEL: tt.func @transposed
// CHECK: dma.load %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] into
tt.func @transposed(%x: !tt.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %in = cb.alloc "x", dma_in -> simd : !cb.cb<32x32xf32, pages = 2>
  cb.reserve_back %in, 1 : !cb.cb<32x32xf32, pages = 2>
  %t = dma.load %x[%c3] strides [%c1, %c37] into %in[0] : !tt.ptr<f32>, !cb.cb<32x32xf32, pages = 2>
  tt.return
}

// An elementwise window: rows that start 3 and 781 floats apart are not
// aligned, and move element by element.
// CHECK-LABEL: tt.func @elementwise
// CHECK: dma.load elementwise %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] bounds [%{{.*}}, %{{.*}}] into
// CHECK: dma.store elementwise %{{.*}}[0] to %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] :
tt.func @elementwise(%x: !tt.ptr<f32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c781 = arith.constant 781 : index
  %in = cb.alloc "x", dma_in -> dma_out : !cb.cb<4x16xf32, pages = 1>
  cb.reserve_back %in, 1 : !cb.cb<4x16xf32, pages = 1>
  %t = dma.load elementwise %x[%c3] strides [%c781, %c1] bounds [%n, %n] into %in[0] : !tt.ptr<f32>, !cb.cb<4x16xf32, pages = 1>
  cb.push_back %in, 1 : !cb.cb<4x16xf32, pages = 1>
  cb.wait_front %in, 1 : !cb.cb<4x16xf32, pages = 1>
  %s = dma.store elementwise %in[0] to %x[%c3] strides [%c781, %c1] : !cb.cb<4x16xf32, pages = 1>, !tt.ptr<f32>
  cb.pop_front %in, 1 : !cb.cb<4x16xf32, pages = 1>
  tt.return
}

// CHECK-LABEL: tt.func @strided
tt.func @strided(%x: !tt.ptr<f32>, %out: !tt.ptr<f16>, %offset: index, %n: index, %rows: index,
                 %stride: index, %m: !tile.tile<64x32xi1>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %in = cb.alloc "x", dma_in -> simd : !cb.cb<1024xf32, pages = 2>
  %a = cb.alloc "a", dma_in -> dpe : !cb.cb<64x32xf32, pages = 2>
  %o = cb.alloc "out", simd -> dma_out : !cb.cb<64x32xf16, pages = 1>
  cb.reserve_back %in, 2 : !cb.cb<1024xf32, pages = 2>
  cb.reserve_back %a, 2 : !cb.cb<64x32xf32, pages = 2>
  cb.wait_front %o, 1 : !cb.cb<64x32xf16, pages = 1>
  // CHECK: %[[T0:.*]] = dma.load %{{.*}}[%{{.*}}] strides [%{{.*}}] bounds [%{{.*}}] padding %{{.*}} into %{{.*}}[1] : !tt.ptr<f32>, !cb.cb<1024xf32, pages = 2>
  %t0 = dma.load %x[%offset] strides [%c1] bounds [%n] padding %zero into %in[1] : !tt.ptr<f32>, !cb.cb<1024xf32, pages = 2>
  // CHECK: dma.load %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] mask %{{.*}} into %{{.*}}[0] : !tt.ptr<f32>, !cb.cb<64x32xf32, pages = 2>
  %t1 = dma.load %x[%offset] strides [%stride, %c1] mask %m into %a[0] : !tt.ptr<f32>, !cb.cb<64x32xf32, pages = 2>
  // CHECK: dma.load %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] into %{{.*}}[1] : !tt.ptr<f32>, !cb.cb<64x32xf32, pages = 2>
  %t2 = dma.load %x[%offset] strides [%c64, %c1] into %a[1] : !tt.ptr<f32>, !cb.cb<64x32xf32, pages = 2>
  // CHECK: %[[T3:.*]] = dma.store %{{.*}}[0] to %{{.*}}[%{{.*}}] strides [%{{.*}}, %{{.*}}] bounds [%{{.*}}, %{{.*}}] mask %{{.*}} : !cb.cb<64x32xf16, pages = 1>, !tt.ptr<f16>
  %t3 = dma.store %o[0] to %out[%offset] strides [%stride, %c1] bounds [%rows, %n] mask %m : !cb.cb<64x32xf16, pages = 1>, !tt.ptr<f16>
  // CHECK: dma.wait %[[T0]], %{{.*}}, %{{.*}}, %[[T3]]
  dma.wait %t0, %t1, %t2, %t3
  // A wait without tokens waits for every transfer issued before it.
  // CHECK-NEXT: dma.wait{{$}}
  dma.wait
  tt.return
}

// CHECK-LABEL: tt.func @indexed
tt.func @indexed(%x: !tt.ptr<f32>, %idx: !tile.tile<64xi32>, %idx64: !tile.tile<64xi64>, %m: !tile.tile<64xi1>) {
  %zero = arith.constant 0.0 : f32
  %in = cb.alloc "gathered", dma_in -> simd : !cb.cb<64xf32, pages = 1>
  %out = cb.alloc "scattered", simd -> dma_out : !cb.cb<64xf32, pages = 1>
  cb.reserve_back %in, 1 : !cb.cb<64xf32, pages = 1>
  cb.wait_front %out, 1 : !cb.cb<64xf32, pages = 1>
  // CHECK: dma.gather %{{.*}}[%{{.*}}] mask %{{.*}} padding %{{.*}} into %{{.*}}[0] : !tt.ptr<f32>, !tile.tile<64xi32>, !cb.cb<64xf32, pages = 1>
  %t0 = dma.gather %x[%idx] mask %m padding %zero into %in[0] : !tt.ptr<f32>, !tile.tile<64xi32>, !cb.cb<64xf32, pages = 1>
  // CHECK: dma.gather %{{.*}}[%{{.*}}] into %{{.*}}[0] : !tt.ptr<f32>, !tile.tile<64xi64>, !cb.cb<64xf32, pages = 1>
  %t1 = dma.gather %x[%idx64] into %in[0] : !tt.ptr<f32>, !tile.tile<64xi64>, !cb.cb<64xf32, pages = 1>
  // CHECK: dma.scatter %{{.*}}[0] to %{{.*}}[%{{.*}}] mask %{{.*}} : !cb.cb<64xf32, pages = 1>, !tt.ptr<f32>, !tile.tile<64xi32>
  %t2 = dma.scatter %out[0] to %x[%idx] mask %m : !cb.cb<64xf32, pages = 1>, !tt.ptr<f32>, !tile.tile<64xi32>
  dma.wait %t0, %t1, %t2
  tt.return
}

// A page gathered in two blocks of rows, each with its own indices and mask.
// CHECK-LABEL: tt.func @indexed_rows
tt.func @indexed_rows(%x: !tt.ptr<f16>, %top: !tile.tile<16x64xi32>, %bottom: !tile.tile<16x64xi32>, %m: !tile.tile<16x64xi1>) {
  %zero = arith.constant 0.0 : f16
  %in = cb.alloc "gathered", dma_in -> simd : !cb.cb<32x64xf16, pages = 1>
  cb.reserve_back %in, 1 : !cb.cb<32x64xf16, pages = 1>
  // CHECK: dma.gather %{{.*}}[%{{.*}}] into %{{.*}}[0] : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<32x64xf16, pages = 1>
  %t0 = dma.gather %x[%top] into %in[0] : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<32x64xf16, pages = 1>
  // CHECK: dma.gather %{{.*}}[%{{.*}}] mask %{{.*}} padding %{{.*}} into %{{.*}}[0] {row = 16 : i64} : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<32x64xf16, pages = 1>
  %t1 = dma.gather %x[%bottom] mask %m padding %zero into %in[0] {row = 16} : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<32x64xf16, pages = 1>
  dma.wait %t0, %t1
  tt.return
}

// CHECK-LABEL: tt.func @atomics
tt.func @atomics(%y: !tt.ptr<f32>, %lock: !tt.ptr<i32>, %idx: !tile.tile<64xi32>, %v: !tile.tile<64xf32>,
                 %m: !tile.tile<64xi1>, %one: !tile.tile<1xi32>, %i1: !tile.tile<1xi32>) {
  %old = cb.alloc "old", dma_out -> core : !cb.cb<1xi32, pages = 1>
  cb.reserve_back %old, 1 : !cb.cb<1xi32, pages = 1>
  // CHECK: dma.atomic_rmw fadd, relaxed, chip %{{.*}}[%{{.*}}], %{{.*}} mask %{{.*}} : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xf32>
  %t0 = dma.atomic_rmw fadd, relaxed, chip %y[%idx], %v mask %m : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xf32>
  // CHECK: dma.atomic_rmw exch, acq_rel, system %{{.*}}[%{{.*}}], %{{.*}} into %{{.*}}[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  %t1 = dma.atomic_rmw exch, acq_rel, system %lock[%i1], %one into %old[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  // CHECK: dma.atomic_cas acquire, pe %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} into %{{.*}}[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  %t2 = dma.atomic_cas acquire, pe %lock[%i1], %i1, %one into %old[0] : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>, !cb.cb<1xi32, pages = 1>
  // CHECK: dma.atomic_cas release, chip %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>
  %t3 = dma.atomic_cas release, chip %lock[%i1], %one, %i1 : !tt.ptr<i32>, !tile.tile<1xi32>, !tile.tile<1xi32>
  dma.wait %t0, %t1, %t2, %t3
  tt.return
}

// CHECK-LABEL: tt.func @global_memory
// CHECK: %[[SCRATCH:.*]] = dma.scratch 4096 : !tt.ptr<f32>
// CHECK: %[[OTHER:.*]] = dma.scratch 4096 : !tt.ptr<f32>
// CHECK: dma.descriptor_base %{{.*}} : !tt.tensordesc<64x64xf16> -> !tt.ptr<f16>
tt.func @global_memory(%desc: !tt.tensordesc<64x64xf16>) -> (!tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f16>) {
  %a = dma.scratch 4096 : !tt.ptr<f32>
  %b = dma.scratch 4096 : !tt.ptr<f32>
  %base = dma.descriptor_base %desc : !tt.tensordesc<64x64xf16> -> !tt.ptr<f16>
  tt.return %a, %b, %base : !tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f16>
}
