// The kernels below run on one PE each; the check sums their circular buffers
// and the scratch tiles live at the same time.
//
// RUN: not mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-check-local-memory{target=mtia-2i})' 2>&1 | FileCheck %s --check-prefix=MTIA2I
// RUN: not mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-check-local-memory{target=mtia-v1})' 2>&1 | FileCheck %s --check-prefix=MTIAV1
//
// The same kernels on a target with 1 MiB of local memory per PE (mtia-2i
// otherwise): the memory plans fit, only the circular-buffer count fails.
// RUN: %python -c "import json, sys; t = json.load(open(sys.argv[1])); t['local_memory']['bytes_per_pe'] = 1048576; json.dump(t, open(sys.argv[2], 'w'))" %S/../../../targets/mtia-2i.json %t.json
// RUN: not mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-check-local-memory{target=%t.json})' 2>&1 | FileCheck %s --check-prefix=LARGE
//
// RUN: not mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-check-local-memory{target=no-such-target})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A matmul tile loop whose buffers take all 384 KB, with a 64 KB accumulator
// on top: over on mtia-2i and mtia-v1, within 1 MiB.
// MTIA2I: error: kernel @matmul needs 458752 bytes of local memory per PE but mtia-2i has 393216: circular buffer "a" (131072 bytes), circular buffer "b" (131072 bytes), circular buffer "c" (131072 bytes), tile acc (65536 bytes)
// MTIA2I: note: circular buffer "a" allocated here
// MTIA2I: note: circular buffer "b" allocated here
// MTIA2I: note: circular buffer "c" allocated here
// MTIA2I: kernel.py:12:3: note: tile acc live at the peak
// MTIAV1: error: kernel @matmul needs 458752 bytes of local memory per PE but mtia-v1 has 131072: circular buffer "a" (131072 bytes), circular buffer "b" (131072 bytes), circular buffer "c" (131072 bytes), tile acc (65536 bytes){{$}}
// LARGE-NOT: kernel @matmul
// UNKNOWN: error: cannot load target 'no-such-target' from {{.*}}targets/no-such-target.json
tt.func @matmul(%k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = cb.alloc "a", dma_in -> dpe : !cb.cb<128x128xf16, pages = 4>
  %b = cb.alloc "b", dma_in -> dpe : !cb.cb<128x128xf16, pages = 4>
  %c = cb.alloc "c", simd -> dma_out : !cb.cb<128x128xf32, pages = 2>
  %init = tile.splat %zero : !tile.tile<128x128xf32> loc("acc"("kernel.py":12:3))
  %acc = scf.for %i = %c0 to %k step %c1 iter_args(%sum = %init) -> (!tile.tile<128x128xf32>) {
    cb.wait_front %a, 1 : !cb.cb<128x128xf16, pages = 4>
    cb.wait_front %b, 1 : !cb.cb<128x128xf16, pages = 4>
    %x = cb.read_front %a[0] : !cb.cb<128x128xf16, pages = 4>
    %y = cb.read_front %b[0] : !cb.cb<128x128xf16, pages = 4>
    %next = tile.matmul %x, %y, %sum : !tile.tile<128x128xf16>, !tile.tile<128x128xf16> -> !tile.tile<128x128xf32>
    cb.pop_front %a, 1 : !cb.cb<128x128xf16, pages = 4>
    cb.pop_front %b, 1 : !cb.cb<128x128xf16, pages = 4>
    scf.yield %next : !tile.tile<128x128xf32>
  }
  cb.reserve_back %c, 1 : !cb.cb<128x128xf32, pages = 2>
  %out = tile.unary absf %acc : !tile.tile<128x128xf32>
  cb.write_back %out, %c[0] : !cb.cb<128x128xf32, pages = 2>
  cb.push_back %c, 1 : !cb.cb<128x128xf32, pages = 2>
  tt.return
}

// -----

// Two 256 KB tiles that are never live together: the peak is one of them,
// two scalar results and the 16 KB buffer, which fits mtia-2i but not
// mtia-v1.
// MTIA2I-NOT: kernel @sequential
// MTIAV1: error: kernel @sequential needs 278536 bytes of local memory per PE but mtia-v1 has 131072: circular buffer "out" (16384 bytes), tile first_sum (4 bytes), tile second (262144 bytes), tile second_max (4 bytes)
// LARGE-NOT: kernel @sequential
tt.func @sequential(%s: f32) {
  %out = cb.alloc "out", simd -> dma_out : !cb.cb<4096xf32, pages = 1>
  %first = tile.splat %s : !tile.tile<65536xf32> loc("first"("kernel.py":30:3))
  %first_sum = tile.reduce addf %first axis = 0 : !tile.tile<65536xf32> -> !tile.tile<f32> loc("first_sum"("kernel.py":31:3))
  %second = tile.splat %s : !tile.tile<65536xf32> loc("second"("kernel.py":32:3))
  %second_max = tile.reduce maximumf %second axis = 0 : !tile.tile<65536xf32> -> !tile.tile<f32> loc("second_max"("kernel.py":33:3))
  %both = tile.binary addf %first_sum, %second_max : !tile.tile<f32>
  tt.return
}

// -----

// More circular buffers than the command processor tracks.
// MTIA2I: error: kernel @too_many_buffers allocates 33 circular buffers but the command processor of mtia-2i tracks 32
// LARGE: error: kernel @too_many_buffers allocates 33 circular buffers but the command processor of mtia-2i tracks 32
tt.func @too_many_buffers() {
  %cb0 = cb.alloc "b0", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb1 = cb.alloc "b1", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb2 = cb.alloc "b2", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb3 = cb.alloc "b3", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb4 = cb.alloc "b4", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb5 = cb.alloc "b5", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb6 = cb.alloc "b6", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb7 = cb.alloc "b7", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb8 = cb.alloc "b8", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb9 = cb.alloc "b9", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb10 = cb.alloc "b10", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb11 = cb.alloc "b11", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb12 = cb.alloc "b12", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb13 = cb.alloc "b13", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb14 = cb.alloc "b14", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb15 = cb.alloc "b15", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb16 = cb.alloc "b16", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb17 = cb.alloc "b17", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb18 = cb.alloc "b18", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb19 = cb.alloc "b19", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb20 = cb.alloc "b20", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb21 = cb.alloc "b21", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb22 = cb.alloc "b22", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb23 = cb.alloc "b23", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb24 = cb.alloc "b24", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb25 = cb.alloc "b25", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb26 = cb.alloc "b26", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb27 = cb.alloc "b27", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb28 = cb.alloc "b28", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb29 = cb.alloc "b29", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb30 = cb.alloc "b30", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb31 = cb.alloc "b31", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  %cb32 = cb.alloc "b32", dma_in -> simd : !cb.cb<8xf32, pages = 1>
  tt.return
}
