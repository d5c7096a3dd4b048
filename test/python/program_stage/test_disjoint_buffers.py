"""When the plan does not fit the local memory, buffers of one producer and
consumer used at disjoint times share memory; a buffer is in use for as long
as a tile read in a page its producer pushed (`cb.read_pushed`) is used."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import TARGET, emit, rng, run

from mtia_compiler.errors import CompilationError
from mtia_compiler.program import decode

#: The SIMD engine passes two tiles of 1024 floats to the reduction engine
#: through buffers "a" and "b", one after the other, next to two scratch
#: tiles of `big` integers that take most of the local memory. It reads the
#: first tile again in the page it pushed to "a" (`cb.read_pushed`), before
#: "b" is used (`early`) or after (`late`).
TWO_TILES = """
#loc = loc("disjoint.py":1:1)
!page = !cb.cb<1024xf32, pages = 1>
!sums = !cb.cb<1xf32, pages = 1>
!tile = !tile.tile<1024xf32>
module {{
  tt.func public @two_tiles(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                            %y: !tt.ptr<f32> loc("y_ptr"(#loc))) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in = cb.alloc "in", dma_in -> simd : !page
    %a = cb.alloc "a", simd -> reduce : !page
    %b = cb.alloc "b", simd -> reduce : !page
    %sums = cb.alloc "sums", reduce -> simd : !sums
    %out = cb.alloc "out", simd -> dma_out : !page
    %big = tile.iota 0 : !tile.tile<{big}xi32>
    cb.reserve_back %in, 1 : !page
    %t = dma.load %x[%c0] strides [%c1] into %in[0] : !tt.ptr<f32>, !page
    cb.push_back %in, 1 : !page
    cb.wait_front %in, 1 : !page
    %v = cb.read_front %in[0] : !page
    cb.reserve_back %a, 1 : !page
    %first = tile.binary addf %v, %v : !tile
    cb.write_back %first, %a[0] : !page
    cb.push_back %a, 1 : !page
    %kept = cb.read_pushed %a[0] : !page
    cb.wait_front %a, 1 : !page
    %a_read = cb.read_front %a[0] : !page
    cb.reserve_back %sums, 1 : !sums
    %a_sum = tile.reduce addf %a_read axis = 0 : !tile -> !tile.tile<f32>
    cb.pop_front %a, 1 : !page
    cb.write_back %a_sum, %sums[0] : !sums view !tile.tile<f32>
    cb.push_back %sums, 1 : !sums
    cb.wait_front %sums, 1 : !sums
    %s = cb.read_front %sums[0] : !sums view !tile.tile<f32>
    cb.pop_front %sums, 1 : !sums
    {early}
    cb.reserve_back %b, 1 : !page
    %second = tile.binary mulf %v, %v : !tile
    cb.write_back %second, %b[0] : !page
    cb.push_back %b, 1 : !page
    cb.wait_front %b, 1 : !page
    %b_read = cb.read_front %b[0] : !page
    cb.reserve_back %sums, 1 : !sums
    %b_sum = tile.reduce addf %b_read axis = 0 : !tile -> !tile.tile<f32>
    cb.pop_front %b, 1 : !page
    cb.write_back %b_sum, %sums[0] : !sums view !tile.tile<f32>
    cb.push_back %sums, 1 : !sums
    cb.wait_front %sums, 1 : !sums
    %s2 = cb.read_front %sums[0] : !sums view !tile.tile<f32>
    cb.pop_front %sums, 1 : !sums
    {late}
    %twice = tile.binary addi %big, %big : !tile.tile<{big}xi32>
    %thrice = tile.binary addi %twice, %big : !tile.tile<{big}xi32>
    cb.reserve_back %out, 1 : !page
    cb.write_back %result, %out[0] : !page
    cb.push_back %out, 1 : !page
    cb.wait_front %out, 1 : !page
    %stored = dma.store %out[0] to %y[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %out, 1 : !page
    cb.pop_front %in, 1 : !page
    tt.return
  }}
}}
"""
#: The use of the pushed page: the first tile plus the input.
USE = "%result = tile.binary addf %kept, %v : !tile"


def two_tiles(big: int, late: bool) -> str:
    return TWO_TILES.format(big=big, early="" if late else USE, late=USE if late else "")


def buffer_names(program: bytes) -> set[str]:
    return {cb["name"] for cb in decode(program)["cbs"]}


def scratch_size(extra: int) -> int:
    """Scratch tiles of integers that leave the five buffers' pages less
    `extra` bytes of the local memory."""
    capacity = TARGET.to_dict()["local_memory_bytes"]
    return (capacity - 5 * 4096 + extra) // 8


def test_buffers_used_one_after_the_other_share_memory() -> None:
    names = buffer_names(emit(two_tiles(scratch_size(2048), late=False)))
    assert "a+b" in names, names


def test_a_read_pushed_page_keeps_its_buffer_in_use() -> None:
    # Were "a" and "b" one buffer, the first tile's read would find the
    # second tile in the last pushed page, and the sum would be wrong.
    with pytest.raises(CompilationError, match="the local-memory plan needs"):
        emit(two_tiles(scratch_size(2048), late=True))
    text = two_tiles(scratch_size(-4096), late=True)
    assert {"a", "b"} <= buffer_names(emit(text))
    x = rng().standard_normal(1024).astype(np.float32)
    y = np.zeros(1024, np.float32)
    run(text, [x, y])
    np.testing.assert_array_equal(y, x + x + x)


#: The first tile's first element, read in the page pushed to "a" as a
#: rank-0 tile and spread over the block before "b" is used; the spread
#: tile is folded into the addition after "b" is used, which reads the page.
SPREAD = """%kept_first = cb.read_pushed %a[0] : !page view !tile.tile<f32>
    %spread = tile.splat_element %kept_first : !tile.tile<f32> -> !tile"""
SPREAD_USE = "%result = tile.binary addf %spread, %v : !tile"


def test_a_splat_of_a_read_pushed_page_keeps_its_buffer_in_use() -> None:
    # Were "a" and "b" one buffer, the addition would read the second
    # tile's first element in the last pushed page.
    text = TWO_TILES.format(big=scratch_size(2048), early=SPREAD, late=SPREAD_USE)
    with pytest.raises(CompilationError, match="the local-memory plan needs"):
        emit(text)
    text = TWO_TILES.format(big=scratch_size(-4096), early=SPREAD, late=SPREAD_USE)
    assert {"a", "b"} <= buffer_names(emit(text))
    x = rng().standard_normal(1024).astype(np.float32)
    y = np.zeros(1024, np.float32)
    run(text, [x, y])
    np.testing.assert_array_equal(y, (x[0] + x[0]) + x)
