"""A branch that yields a tile read from a page, whose pop is not right
before the `scf.yield` (the buffer of another tile is used in between, as
`mtia-pipeline-dots`' first-iteration guards do): the pop frees the page
only after the yield has moved the tile into the branch's result, or the
reduction engine reads a freed page."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import run

YIELDED_PAGE = """
#loc = loc("yielded.py":1:1)
!vec_page = !cb.cb<64xf32, pages = 1>
!other_page = !cb.cb<64xf32, pages = 1>
!vec = !tile.tile<64xf32>
module {
  tt.func public @yielded(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                          %out: !tt.ptr<f32> loc("out_ptr"(#loc)),
                          %flag: i32 loc("flag"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %load_cb = cb.alloc "load", dma_in -> simd : !vec_page
    %zeros_cb = cb.alloc "zeros", simd -> reduce : !vec_page
    %other_cb = cb.alloc "other", simd -> reduce : !other_page
    %out_cb = cb.alloc "out", reduce -> dma_out : !vec_page
    %take = arith.cmpi ne, %flag, %z : i32
    %picked = scf.if %take -> (!vec) {
      cb.reserve_back %load_cb, 1 : !vec_page
      %t = dma.load %x[%c0] strides [%c1] into %load_cb[0] : !tt.ptr<f32>, !vec_page
      cb.push_back %load_cb, 1 : !vec_page
      cb.wait_front %load_cb, 1 : !vec_page
      %v = cb.read_front %load_cb[0] : !vec_page
      cb.reserve_back %other_cb, 1 : !other_page
      %doubled = tile.binary addf %v, %v : !vec
      cb.write_back %doubled, %other_cb[0] : !other_page
      cb.push_back %other_cb, 1 : !other_page
      cb.pop_front %load_cb, 1 : !vec_page
      cb.wait_front %other_cb, 1 : !other_page
      %w = cb.read_front %other_cb[0] : !other_page
      %copy = tile.reduce_copy %w : !vec
      cb.pop_front %other_cb, 1 : !other_page
      scf.yield %copy : !vec
    } else {
      cb.reserve_back %zeros_cb, 1 : !vec_page
      %zeros = tile.constant dense<7.0> : tensor<64xf32> : !vec
      cb.write_back %zeros, %zeros_cb[0] : !vec_page
      cb.push_back %zeros_cb, 1 : !vec_page
      cb.wait_front %zeros_cb, 1 : !vec_page
      %read = cb.read_front %zeros_cb[0] : !vec_page
      cb.pop_front %zeros_cb, 1 : !vec_page
      cb.reserve_back %other_cb, 1 : !other_page
      %unused = tile.constant dense<1.0> : tensor<64xf32> : !vec
      cb.write_back %unused, %other_cb[0] : !other_page
      cb.push_back %other_cb, 1 : !other_page
      cb.wait_front %other_cb, 1 : !other_page
      cb.pop_front %other_cb, 1 : !other_page
      scf.yield %read : !vec
    }
    cb.reserve_back %out_cb, 1 : !vec_page
    cb.write_back %picked, %out_cb[0] : !vec_page
    cb.push_back %out_cb, 1 : !vec_page
    cb.wait_front %out_cb, 1 : !vec_page
    %s = dma.store %out_cb[0] to %out[%c0] strides [%c1] : !vec_page, !tt.ptr<f32>
    cb.pop_front %out_cb, 1 : !vec_page
    tt.return
  }
}
"""



@pytest.mark.parametrize("flag", [1, 0])
def test_a_yielded_page_is_freed_after_the_yield(flag: int) -> None:
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    run(YIELDED_PAGE, [x, out, flag])
    np.testing.assert_array_equal(out, 2 * x if flag else np.full(64, 7.0, np.float32))
