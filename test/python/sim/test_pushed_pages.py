"""A producer reads the pages it pushed (`"side": "pushed"` slots) until it
reserves them again; anyone else, or a read after that, is cb_misuse."""

from __future__ import annotations

import numpy as np
import pytest

from mtia_compiler.program import CB, ProgramBuilder, Unit
from mtia_compiler.sim import SimulationError, Simulator

N = 16


def store_sum_of_pushed(pages: int, fills: list[float], pushed_page: int) -> np.ndarray:
    """SIMD fills one page of CB `shared` per value of `fills` and pushes it
    to the reduction engine, which sums each page into CB `sums` (unread);
    then SIMD adds its pushed page `pushed_page` to itself into CB `out`,
    which DMA stores. Returns the stored tile."""
    b = ProgramBuilder("pushed")
    out_param = b.param_ptr("out", "f32")
    shared = b.cb("shared", N * 4, pages)
    sums = b.cb("sums", 32, len(fills))
    out = b.cb("out", N * 4, 1)
    for value in fills:
        b.reserve(Unit.SIMD, shared)
        b.simd_fill("f32", shared.back(), N, value)
        b.push(Unit.SIMD, shared)
    for _ in fills:
        b.wait(Unit.RE, shared)
        b.reserve(Unit.RE, sums)
        b.reduce("sum", "f32", shared.front(), [N], 0, d=sums.back())
        b.push(Unit.RE, sums)
        b.pop(Unit.RE, shared)
    b.reserve(Unit.SIMD, out)
    b.simd_binary("add", "f32", out.back(), shared.pushed(pushed_page),
                  shared.pushed(pushed_page), N)
    b.push(Unit.SIMD, out)
    b.wait(Unit.DMA_OUT, out)
    b.dma_store(out.front(), b.param(out_param), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, out)
    result = np.zeros(N, np.float32)
    Simulator().run(b.build(), [result])
    return result


@pytest.mark.parametrize(("pages", "fills", "pushed_page", "expected"), [
    (1, [3.0], 0, 6.0),
    (2, [3.0, 5.0], 0, 10.0),
    # Page 1 is the one pushed before the last.
    (2, [3.0, 5.0], 1, 6.0),
    (3, [3.0, 5.0, 7.0], 2, 6.0),
])
def test_the_producer_reads_its_pushed_pages(pages: int, fills: list[float], pushed_page: int,
                                             expected: float) -> None:
    np.testing.assert_array_equal(store_sum_of_pushed(pages, fills, pushed_page),
                                  np.full(N, expected, np.float32))


def run_expecting_misuse(build: ProgramBuilder) -> str:
    with pytest.raises(SimulationError) as info:
        Simulator().run(build.build(), [])
    assert info.value.kind == "cb_misuse", str(info.value)
    return str(info.value)


def pushed_once(pages: int = 2) -> tuple[ProgramBuilder, CB]:
    b = ProgramBuilder("misuse")
    shared = b.cb("shared", N * 4, pages)
    b.reserve(Unit.SIMD, shared)
    b.simd_fill("f32", shared.back(), N, 1.0)
    b.push(Unit.SIMD, shared)
    return b, shared


def test_a_page_reserved_again_is_not_readable() -> None:
    b, shared = pushed_once(pages=1)
    b.wait(Unit.RE, shared)
    b.pop(Unit.RE, shared)
    b.reserve(Unit.SIMD, shared)
    b.simd_fill("f32", shared.pushed(), N, 2.0)
    message = run_expecting_misuse(b)
    assert "pushed page 0 of CB 'shared' but holds 0" in message
    assert "before reserving it again" in message


def test_a_page_not_pushed_yet_is_not_readable() -> None:
    b, shared = pushed_once()
    b.simd_fill("f32", shared.pushed(1), N, 2.0)
    assert "holds 1 such pages" in run_expecting_misuse(b)


def test_the_consumer_does_not_read_pushed_pages() -> None:
    b, shared = pushed_once()
    b.wait(Unit.RE, shared)
    b.reduce("sum", "f32", shared.pushed(), [N], 0, d=shared.front())
    message = run_expecting_misuse(b)
    assert "re accesses pushed page 0" in message
    assert "only the CB's producer reads its pushed pages" in message
