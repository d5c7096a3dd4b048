"""The reduction engine (reduce, scan, argmax) and SIMD casts."""

from __future__ import annotations

import numpy as np
from program_stage_support import rng, run

REDUCTIONS = """
#loc = loc("reduce.py":1:1)
!in_page = !cb.cb<8x64xf32, pages = 1>
!row_page = !cb.cb<8xf32, pages = 1>
!index_page = !cb.cb<64xi32, pages = 1>
module {
  tt.func public @reductions(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                             %sums: !tt.ptr<f32> loc("sums_ptr"(#loc)),
                             %prefix: !tt.ptr<f32> loc("prefix_ptr"(#loc)),
                             %argmax: !tt.ptr<i32> loc("argmax_ptr"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %in = cb.alloc "x", dma_in -> reduce : !in_page
    %rows = cb.alloc "sums", reduce -> dma_out : !row_page
    %scanned = cb.alloc "prefix", reduce -> dma_out : !in_page
    %indices = cb.alloc "argmax", reduce -> dma_out : !index_page
    cb.reserve_back %in, 1 : !in_page
    %t0 = dma.load %x[%c0] strides [%c64, %c1] into %in[0] : !tt.ptr<f32>, !in_page
    cb.push_back %in, 1 : !in_page
    cb.wait_front %in, 1 : !in_page
    %tile = cb.read_front %in[0] : !in_page
    cb.reserve_back %rows, 1 : !row_page
    %sum = tile.reduce addf %tile axis = 1 : !tile.tile<8x64xf32> -> !tile.tile<8xf32>
    cb.write_back %sum, %rows[0] : !row_page
    cb.push_back %rows, 1 : !row_page
    cb.reserve_back %scanned, 1 : !in_page
    %running = tile.scan %tile axis = 1 kind addf : (!tile.tile<8x64xf32>) -> !tile.tile<8x64xf32> {
    ^bb0(%acc: f32, %new: f32):
      %s = arith.addf %acc, %new : f32
      tile.yield %s : f32
    }
    cb.write_back %running, %scanned[0] : !in_page
    cb.push_back %scanned, 1 : !in_page
    cb.reserve_back %indices, 1 : !index_page
    %best = tile.arg_reduce argmax %tile axis = 0 : !tile.tile<8x64xf32> -> !tile.tile<64xi32>
    cb.write_back %best, %indices[0] : !index_page
    cb.push_back %indices, 1 : !index_page
    cb.pop_front %in, 1 : !in_page
    cb.wait_front %rows, 1 : !row_page
    %t1 = dma.store %rows[0] to %sums[%c0] strides [%c1] : !row_page, !tt.ptr<f32>
    cb.pop_front %rows, 1 : !row_page
    cb.wait_front %scanned, 1 : !in_page
    %t2 = dma.store %scanned[0] to %prefix[%c0] strides [%c64, %c1] : !in_page, !tt.ptr<f32>
    cb.pop_front %scanned, 1 : !in_page
    cb.wait_front %indices, 1 : !index_page
    %t3 = dma.store %indices[0] to %argmax[%c0] strides [%c1] : !index_page, !tt.ptr<i32>
    cb.pop_front %indices, 1 : !index_page
    tt.return
  }
}
"""


def test_reduce_scan_and_argmax_on_the_reduction_engine() -> None:
    x = rng().standard_normal((8, 64)).astype(np.float32)
    sums = np.zeros(8, dtype=np.float32)
    prefix = np.zeros((8, 64), dtype=np.float32)
    argmax = np.full(64, -1, dtype=np.int32)
    run(REDUCTIONS, [x, sums, prefix, argmax])
    np.testing.assert_allclose(sums, x.sum(axis=1, dtype=np.float64), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(prefix, np.cumsum(x, axis=1, dtype=np.float64), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(argmax, x.argmax(axis=0))


CASTS = """
#loc = loc("casts.py":1:1)
!int_page = !cb.cb<64xi32, pages = 1>
!half_page = !cb.cb<64xbf16, pages = 1>
!byte_page = !cb.cb<64xi8, pages = 1>
module {
  tt.func public @casts(%x: !tt.ptr<i32> loc("x_ptr"(#loc)),
                        %halves: !tt.ptr<bf16> loc("halves_ptr"(#loc)),
                        %bytes: !tt.ptr<i8> loc("bytes_ptr"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %scale = arith.constant 0.25 : f32
    %in = cb.alloc "x", dma_in -> simd : !int_page
    %h = cb.alloc "halves", simd -> dma_out : !half_page
    %b = cb.alloc "bytes", simd -> dma_out : !byte_page
    cb.reserve_back %in, 1 : !int_page
    %t0 = dma.load %x[%c0] strides [%c1] into %in[0] : !tt.ptr<i32>, !int_page
    cb.push_back %in, 1 : !int_page
    cb.wait_front %in, 1 : !int_page
    %ints = cb.read_front %in[0] : !int_page
    %floats = tile.cast sitofp %ints rounding = rtne : !tile.tile<64xi32> -> !tile.tile<64xf32>
    %factor = tile.splat %scale : !tile.tile<64xf32>
    %scaled = tile.binary mulf %floats, %factor : !tile.tile<64xf32>
    cb.reserve_back %h, 1 : !half_page
    %narrow = tile.cast truncf %scaled rounding = rtne : !tile.tile<64xf32> -> !tile.tile<64xbf16>
    cb.write_back %narrow, %h[0] : !half_page
    cb.push_back %h, 1 : !half_page
    %whole = tile.cast fptosi %scaled : !tile.tile<64xf32> -> !tile.tile<64xi32>
    %low = tile.cast trunci %whole : !tile.tile<64xi32> -> !tile.tile<64xi8>
    %steps = tile.constant dense<STEPS> : tensor<64xi8> : !tile.tile<64xi8>
    %stepped = tile.binary addi %low, %steps : !tile.tile<64xi8>
    cb.reserve_back %b, 1 : !byte_page
    cb.write_back %stepped, %b[0] : !byte_page
    cb.push_back %b, 1 : !byte_page
    cb.pop_front %in, 1 : !int_page
    cb.wait_front %h, 1 : !half_page
    %t1 = dma.store %h[0] to %halves[%c0] strides [%c1] : !half_page, !tt.ptr<bf16>
    cb.pop_front %h, 1 : !half_page
    cb.wait_front %b, 1 : !byte_page
    %t2 = dma.store %b[0] to %bytes[%c0] strides [%c1] : !byte_page, !tt.ptr<i8>
    cb.pop_front %b, 1 : !byte_page
    tt.return
  }
}
"""
STEPS = [index % 5 - 2 for index in range(64)]


def bf16_bits(values: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even bf16 bit patterns of finite f32 values."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def test_int_float_and_narrowing_casts() -> None:
    x = rng().integers(-3000, 3000, 64).astype(np.int32)
    halves = np.zeros(64, dtype=np.uint16)
    low_bytes = np.zeros(64, dtype=np.int8)
    run(CASTS.replace("STEPS", str(STEPS)), [x, halves, low_bytes])
    scaled = x.astype(np.float32) * np.float32(0.25)
    np.testing.assert_array_equal(halves, bf16_bits(scaled))
    truncated = np.trunc(scaled).astype(np.int32).astype(np.int8)
    np.testing.assert_array_equal(low_bytes, truncated + np.array(STEPS, dtype=np.int8))
