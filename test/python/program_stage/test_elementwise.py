"""Elementwise kernels: DMA with bounds and masks into CBs, SIMD between."""

from __future__ import annotations

import numpy as np
from program_stage_support import rng, run

VECTOR_ADD = """
#loc = loc("vadd.py":1:1)
!page = !cb.cb<256xf32, pages = 2>
module {
  tt.func public @vadd(%x: !tt.ptr<f32> loc("x_ptr"(#loc)), %y: !tt.ptr<f32> loc("y_ptr"(#loc)),
                       %out: !tt.ptr<f32> loc("out_ptr"(#loc)), %n: i32 loc("n"(#loc))) {
    %c1 = arith.constant 1 : index
    %block = arith.constant 256 : i32
    %zero = arith.constant 0.0 : f32
    %xs = cb.alloc "x", dma -> simd : !page
    %ys = cb.alloc "y", dma -> simd : !page
    %os = cb.alloc "out", simd -> dma : !page
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %block : i32
    %left = arith.subi %n, %start : i32
    %offset = arith.index_cast %start : i32 to index
    %bound = arith.index_cast %left : i32 to index
    cb.reserve_back %xs, 1 : !page
    %t0 = dma.load %x[%offset] strides [%c1] bounds [%bound] padding %zero
        into %xs[0] : !tt.ptr<f32>, !page
    cb.push_back %xs, 1 : !page
    cb.reserve_back %ys, 1 : !page
    %t1 = dma.load %y[%offset] strides [%c1] bounds [%bound] padding %zero
        into %ys[0] : !tt.ptr<f32>, !page
    cb.push_back %ys, 1 : !page
    cb.wait_front %xs, 1 : !page
    cb.wait_front %ys, 1 : !page
    %a = cb.read_front %xs[0] : !page
    %b = cb.read_front %ys[0] : !page
    cb.reserve_back %os, 1 : !page
    %sum = tile.binary addf %a, %b : !tile.tile<256xf32> loc("vadd.py":7:11)
    cb.write_back %sum, %os[0] : !page
    cb.push_back %os, 1 : !page
    cb.pop_front %xs, 1 : !page
    cb.pop_front %ys, 1 : !page
    cb.wait_front %os, 1 : !page
    %t2 = dma.store %os[0] to %out[%offset] strides [%c1] bounds [%bound] : !page, !tt.ptr<f32>
    cb.pop_front %os, 1 : !page
    tt.return
  }
}
"""


def test_vector_add_with_bounds_over_a_grid() -> None:
    generator = rng()
    n = 1000
    x = generator.standard_normal(n).astype(np.float32)
    y = generator.standard_normal(n).astype(np.float32)
    out = np.full(n + 24, 7.0, dtype=np.float32)
    run(VECTOR_ADD, [x, y, out, n], grid=(4,))
    np.testing.assert_array_equal(out[:n], x + y)
    np.testing.assert_array_equal(out[n:], 7.0)
