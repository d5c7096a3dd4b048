"""Loads in loops prefetch through deep buffers; when the plan does not fit
the local memory, the program stage takes pages from those buffers (and only
from those) until it does."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import TARGET, emit, rng, run

from mtia_compiler.errors import CompilationError
from mtia_compiler.program import decode

#: Sums 4 blocks of 1024 floats streamed through a load buffer of `pages`
#: pages, next to two scratch tiles of `big` integers that take most of the
#: local memory (an iota, which unlike a splat needs storage, and its double,
#: computed while the iota is still needed).
SUM_OF_BLOCKS = """
#loc = loc("prefetch.py":1:1)
!block = !cb.cb<1024xf32, pages = {pages}>
!out = !cb.cb<1024xf32, pages = 2>
!tile = !tile.tile<1024xf32>
module {{
  tt.func public @sum_of_blocks(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                                %y: !tt.ptr<f32> loc("y_ptr"(#loc))) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %in = cb.alloc "blocks", dma_in -> simd : !block
    %out = cb.alloc "out", simd -> dma_out : !out
    %big = tile.iota 0 : !tile.tile<{big}xi32>
    %zero = tile.constant dense<0.0> : tensor<1024xf32> : !tile
    %total = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (!tile) : index {{
      %offset = arith.muli %k, %c1024 : index
      cb.reserve_back %in, 1 : !block
      %t = dma.load %x[%offset] strides [%c1] into %in[0] : !tt.ptr<f32>, !block
      cb.push_back %in, 1 : !block
      cb.wait_front %in, 1 : !block
      %v = cb.read_front %in[0] : !block
      %next = tile.binary addf %acc, %v : !tile
      cb.pop_front %in, 1 : !block
      scf.yield %next : !tile
    }}
    %twice = tile.binary addi %big, %big : !tile.tile<{big}xi32>
    %thrice = tile.binary addi %twice, %big : !tile.tile<{big}xi32>
    cb.reserve_back %out, 1 : !out
    cb.write_back %total, %out[0] : !out
    cb.push_back %out, 1 : !out
    cb.wait_front %out, 1 : !out
    %s = dma.store %out[0] to %y[%c0] strides [%c1] : !out, !tt.ptr<f32>
    cb.pop_front %out, 1 : !out
    tt.return
  }}
}}
"""


def buffer_pages(program: bytes) -> dict[str, int]:
    return {cb["name"]: cb["pages"] for cb in decode(program)["cbs"]}


def test_prefetch_keeps_its_depth_when_the_plan_fits() -> None:
    program = emit(SUM_OF_BLOCKS.format(pages=8, big=1024))
    assert buffer_pages(program)["blocks"] == 8


def test_prefetch_pages_are_shed_until_the_plan_fits() -> None:
    capacity = TARGET.to_dict()["local_memory_bytes"]
    # The two scratch tiles of `big` integers leave about 40 KiB for the
    # other tiles, the output buffer and fewer than 8 pages of the input.
    big = (capacity - 40 * 1024) // 8
    text = SUM_OF_BLOCKS.format(pages=8, big=big)
    pages = buffer_pages(emit(text))
    assert 2 <= pages["blocks"] < 8
    assert pages["out"] == 2
    x = rng().standard_normal(4096).astype(np.float32)
    y = np.zeros(1024, np.float32)
    run(text, [x, y])
    np.testing.assert_allclose(y, x.reshape(4, 1024).sum(axis=0), rtol=1e-6)


def test_a_plan_that_cannot_fit_is_still_an_error() -> None:
    capacity = TARGET.to_dict()["local_memory_bytes"]
    with pytest.raises(CompilationError, match="local-memory plan needs"):
        emit(SUM_OF_BLOCKS.format(pages=8, big=capacity // 4))


#: Doubles `n` floats through a load and a store buffer of two pages each.
DOUBLE = """
!page = !cb.cb<{n}xf32, pages = 2>
module {{
  tt.func public @double(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in = cb.alloc "in", dma_in -> simd : !page
    %out = cb.alloc "out", simd -> dma_out : !page
    cb.reserve_back %in, 1 : !page
    %t = dma.load %x[%c0] strides [%c1] into %in[0] : !tt.ptr<f32>, !page
    cb.push_back %in, 1 : !page
    cb.wait_front %in, 1 : !page
    %v = cb.read_front %in[0] : !page
    cb.reserve_back %out, 1 : !page
    %w = tile.binary addf %v, %v : !tile.tile<{n}xf32>
    cb.write_back %w, %out[0] : !page
    cb.push_back %out, 1 : !page
    cb.pop_front %in, 1 : !page
    cb.wait_front %out, 1 : !page
    %s = dma.store %out[0] to %y[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %out, 1 : !page
    tt.return
  }}
}}
"""


def test_serially_used_buffers_shed_their_second_page() -> None:
    # Four pages of 120 KiB do not fit; three do. Each buffer frees its page
    # before reserving again, so one page is enough for either.
    n = 120 * 1024 // 4
    text = DOUBLE.format(n=n)
    pages = buffer_pages(emit(text))
    assert sorted(pages.values()) == [1, 2]
    x = rng().standard_normal(n).astype(np.float32)
    y = np.zeros(n, np.float32)
    run(text, [x, y])
    np.testing.assert_array_equal(y, x + x)


#: Sums the blocks of `x` in one loop and of `y` in a second loop, each
#: streamed through a buffer of its own, and stores the sum of both.
TWO_LOOPS = """
!page = !cb.cb<{n}xf32, pages = 2>
!tile = !tile.tile<{n}xf32>
module {{
  tt.func public @two_loops(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %cn = arith.constant {n} : index
    %xs = cb.alloc "xs", dma_in -> simd : !page
    %ys = cb.alloc "ys", dma_in -> simd : !page
    %out = cb.alloc "out", simd -> dma_out : !page
    %zero = tile.constant dense<0.0> : tensor<{n}xf32> : !tile
    %sx = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (!tile) : index {{
      %offset = arith.muli %k, %cn : index
      cb.reserve_back %xs, 1 : !page
      %t = dma.load %x[%offset] strides [%c1] into %xs[0] : !tt.ptr<f32>, !page
      cb.push_back %xs, 1 : !page
      cb.wait_front %xs, 1 : !page
      %v = cb.read_front %xs[0] : !page
      %next = tile.binary addf %acc, %v : !tile
      cb.pop_front %xs, 1 : !page
      scf.yield %next : !tile
    }}
    %sy = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (!tile) : index {{
      %offset = arith.muli %k, %cn : index
      cb.reserve_back %ys, 1 : !page
      %t = dma.load %y[%offset] strides [%c1] into %ys[0] : !tt.ptr<f32>, !page
      cb.push_back %ys, 1 : !page
      cb.wait_front %ys, 1 : !page
      %v = cb.read_front %ys[0] : !page
      %next = tile.binary addf %acc, %v : !tile
      cb.pop_front %ys, 1 : !page
      scf.yield %next : !tile
    }}
    cb.reserve_back %out, 1 : !page
    %sum = tile.binary addf %sx, %sy : !tile
    cb.write_back %sum, %out[0] : !page
    cb.push_back %out, 1 : !page
    cb.wait_front %out, 1 : !page
    %s = dma.store %out[0] to %z[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %out, 1 : !page
    tt.return
  }}
}}
"""


def test_buffers_of_consecutive_loops_share_memory() -> None:
    # Three buffers of two 48 KiB pages and three scratch tiles (the zeros
    # and two accumulators) take 432 KiB; the loads of the two loops never
    # hold pages at the same time, and one buffer for both brings the plan
    # to 336 KiB, keeping every page.
    n = 48 * 1024 // 4
    text = TWO_LOOPS.format(n=n)
    pages = buffer_pages(emit(text))
    assert pages == {"xs+ys": 2, "out": 2, "scratch.simd": 1}
    generator = rng()
    x = generator.standard_normal(2 * n).astype(np.float32)
    y = generator.standard_normal(2 * n).astype(np.float32)
    z = np.zeros(n, np.float32)
    run(text, [x, y, z])
    expected = x.reshape(2, n).sum(axis=0) + y.reshape(2, n).sum(axis=0)
    np.testing.assert_allclose(z, expected, rtol=1e-6, atol=1e-6)
