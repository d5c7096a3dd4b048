"""Helpers shared by the simulator tests: small kernels built with the
program builder that move tiles through DMA and CBs around the unit under
test."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from mtia_compiler.program import DTYPE_BYTES, ProgramBuilder, Slot, Unit
from mtia_compiler.sim import Result, Simulator

Emit = Callable[[ProgramBuilder, Slot, list[Slot]], None]


def page_bytes(n: int, dtype: str) -> int:
    return max(32, -(-n * DTYPE_BYTES[dtype] // 32) * 32)


def tile_program(inputs: Sequence[tuple[int, str]], output: tuple[int, str], emit: Emit,
                 unit: Unit = Unit.SIMD) -> bytes:
    """One program: DMA each 1-D input into its own CB, let ``unit`` run
    ``emit(builder, out_slot, in_slots)`` and DMA the result out."""
    b = ProgramBuilder("tile_test")
    params = [b.param_ptr(f"in{i}", dtype) for i, (_, dtype) in enumerate(inputs)]
    out_param = b.param_ptr("out", output[1])
    cbs = [b.cb(f"in{i}", page_bytes(n, dtype), pages=1) for i, (n, dtype) in enumerate(inputs)]
    out_cb = b.cb("out", page_bytes(*output), pages=1)
    for cb, param, (n, dtype) in zip(cbs, params, inputs, strict=True):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.param(param), dtype, [n], [1])
        b.push(Unit.DMA_IN, cb)
    for cb in cbs:
        b.wait(unit, cb)
    b.reserve(unit, out_cb)
    emit(b, out_cb.back(), [cb.front() for cb in cbs])
    b.push(unit, out_cb)
    for cb in cbs:
        b.pop(unit, cb)
    b.wait(Unit.DMA_OUT, out_cb)
    b.dma_store(out_cb.front(), b.param(out_param), output[1], [output[0]], [1])
    b.pop(Unit.DMA_OUT, out_cb)
    return b.build()


def run_tile(inputs: Sequence[tuple[np.ndarray, str]], out_dtype: str, out_np: type[Any],
             out_count: int, emit: Emit, unit: Unit = Unit.SIMD) -> np.ndarray:
    """Runs :func:`tile_program` on host arrays and returns the output array."""
    data = tile_program([(a.size, dtype) for a, dtype in inputs], (out_count, out_dtype),
                        emit, unit)
    out = np.zeros(out_count, dtype=out_np)
    arrays = [np.ascontiguousarray(a).copy() for a, _ in inputs]
    Simulator().run(data, [*arrays, out])
    return out


def copy_through_page(b: ProgramBuilder, cb: Any, src: Any, dst: Any, dtype: str, n: int,
                      **bounds: Any) -> None:
    """Emits a load of `n` elements at address `src` into a page of `cb` and
    its store to address `dst` (both registers), with the transfers'
    `bounds` (`lo`, `hi`)."""
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), src, dtype, [n], [1], **bounds)
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.DMA_OUT, cb)
    b.dma_store(cb.front(), dst, dtype, [n], [1], **bounds)
    b.pop(Unit.DMA_OUT, cb)


def copy_program(block: int, pages: int = 2) -> bytes:
    """A bandwidth-bound f32 copy, ``block`` elements per program."""
    b = ProgramBuilder("copy")
    src, dst, n = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32"), b.param_int("n")
    cb = b.cb("t", block * 4, pages=pages)
    start = b.mul(b.program_id(0), block)
    offset = b.mul(start, 4)
    limit = b.sub(b.param(n), start)
    copy_through_page(b, cb, b.add(b.param(src), offset), b.add(b.param(dst), offset), "f32",
                      block, lo=[0], hi=[limit])
    return b.build()


def run_copy(n: int, block: int) -> tuple[Result, np.ndarray, np.ndarray]:
    src = np.arange(n, dtype=np.float32)
    dst = np.zeros(n, dtype=np.float32)
    result = Simulator().run(copy_program(block), [src, dst, n], (-(-n // block),))
    return result, src, dst


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
