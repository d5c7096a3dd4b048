"""A DMA load of one unmasked row may leave its data in the host buffer until
a unit reads it (the simulator's host-speed shortcut, `HostAlias`): what a
unit reads must still be the data at the time of the load, even when the
buffer is written between the load and the read, by a DMA store of the same
or of another program, through arguments that share host memory, or when the
page is loaded again or written in place."""

from __future__ import annotations

import numpy as np
import pytest

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Simulator

N = 256


@pytest.mark.parametrize("reader", ["add", "cast"])
def test_a_store_after_the_load_does_not_change_the_loaded_page(reader: str) -> None:
    """dma.out overwrites x with y after dma.in loaded x and before the SIMD
    reads the page: the SIMD still sees the old x."""
    b = ProgramBuilder("store_between")
    x, y, z = (b.param_ptr(name, "f32") for name in ("x", "y", "z"))
    cx, cy, cz = (b.cb(name, N * 4, pages=1) for name in ("x", "y", "z"))
    stored = b.cb("stored", 32, pages=1)
    for cb, ptr in ((cx, x), (cy, y)):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.param(ptr), "f32", [N], [1])
        b.push(Unit.DMA_IN, cb)
    b.wait(Unit.DMA_OUT, cy)
    b.dma_store(cy.front(), b.param(x), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, cy)
    b.reserve(Unit.DMA_OUT, stored)
    b.push(Unit.DMA_OUT, stored)
    b.wait(Unit.SIMD, stored)
    b.wait(Unit.SIMD, cx)
    b.reserve(Unit.SIMD, cz)
    if reader == "add":
        b.simd_binary("add", "f32", cz.back(), cx.front(), cx.front(), N)
    else:
        b.simd_cast(cz.back(), cx.front(), N, "f32", "i32", bitcast=True)
    b.push(Unit.SIMD, cz)
    b.pop(Unit.SIMD, cx)
    b.pop(Unit.SIMD, stored)
    b.wait(Unit.DMA_OUT, cz)
    b.dma_store(cz.front(), b.param(z), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, cz)
    rng = np.random.default_rng(1)
    xs, ys = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    original = xs.copy()
    zs = np.zeros(N, np.float32)
    Simulator("mtia-2i").run(b.build(), [xs, ys, zs], (1,))
    np.testing.assert_array_equal(xs, ys)
    np.testing.assert_array_equal(zs, original + original if reader == "add" else original)


def shifted_add_program(block: int, rows: int) -> bytes:
    """z = x + y in blocks, each loaded as ``rows`` rows (one row may stay in
    the host buffer, several are copied); stores of some programs overwrite
    blocks that other programs load when z shares host memory with x."""
    b = ProgramBuilder("shifted_add")
    x, y, z = (b.param_ptr(name, "f32") for name in ("x", "y", "z"))
    cx, cy, cz = (b.cb(name, block * 4, pages=2) for name in ("x", "y", "z"))
    offset = b.mul(b.program_id(0), block * 4)
    shape, strides = [rows, block // rows], [block // rows, 1]
    for cb, ptr in ((cx, x), (cy, y)):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(ptr), offset), "f32", shape, strides)
        b.push(Unit.DMA_IN, cb)
    b.wait(Unit.SIMD, cx)
    b.wait(Unit.SIMD, cy)
    b.reserve(Unit.SIMD, cz)
    b.simd_binary("add", "f32", cz.back(), cx.front(), cy.front(), block)
    b.push(Unit.SIMD, cz)
    b.pop(Unit.SIMD, cx)
    b.pop(Unit.SIMD, cy)
    b.wait(Unit.DMA_OUT, cz)
    b.dma_store(cz.front(), b.add(b.param(z), offset), "f32", shape, strides)
    b.pop(Unit.DMA_OUT, cz)
    return b.build()


@pytest.mark.parametrize("blocks", [0, 1, -1, 63, 64, -64, 65, 130])
def test_overlapping_arguments_read_what_copies_would(blocks: int) -> None:
    """x and z are views of one array, z shifted by ``blocks`` blocks against
    x: programs store into blocks that they or other programs load later or
    have loaded and not read yet. Loads of one row (which may alias the host
    buffer) give what loads of two rows (which copy) give."""
    block, programs = 64, 300
    n, shift = block * programs, blocks * block
    rng = np.random.default_rng(2)
    initial = rng.random(n + 2 * abs(shift), dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    results = []
    for rows in (1, 2):
        memory = initial.copy()
        x_start = abs(shift)
        x = memory[x_start:x_start + n]
        z = memory[x_start + shift:x_start + shift + n]
        Simulator("mtia-2i").run(shifted_add_program(block, rows), [x, y, z],
                                 (programs,))
        results.append(memory)
    np.testing.assert_array_equal(results[0], results[1])
    if blocks == 0:
        np.testing.assert_array_equal(results[0][:n], initial[:n] + y)


def test_a_page_written_in_place_keeps_the_loaded_data() -> None:
    """The SIMD writes the page it reads (x = x + 1), then a second op reads
    it: the first op's result, not the host buffer's bytes."""
    b = ProgramBuilder("in_place")
    x, z = b.param_ptr("x", "f32"), b.param_ptr("z", "f32")
    cx = b.cb("x", N * 4, pages=1)
    cz = b.cb("z", N * 4, pages=1)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.param(x), "f32", [N], [1])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.SIMD, cx)
    b.simd_binary("add", "f32", cx.front(), cx.front(), 1.0, N)
    b.reserve(Unit.SIMD, cz)
    b.simd_binary("mul", "f32", cz.back(), cx.front(), 2.0, N)
    b.push(Unit.SIMD, cz)
    b.pop(Unit.SIMD, cx)
    b.wait(Unit.DMA_OUT, cz)
    b.dma_store(cz.front(), b.param(z), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, cz)
    xs = np.random.default_rng(3).random(N, dtype=np.float32)
    zs = np.zeros(N, np.float32)
    Simulator("mtia-2i").run(b.build(), [xs.copy(), zs], (1,))
    np.testing.assert_array_equal(zs, (xs + np.float32(1)) * np.float32(2))
