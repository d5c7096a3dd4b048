"""A tile a loop carries for the SIMD engine, which also pushes each
iteration's to the reduction engine, is read in the next iteration in the
page it pushed (`mtia-carry-in-pushed-pages`), not computed twice: the
numbers are torch's for any number of iterations, none included (the path
that pushes the initial tile itself)."""

from __future__ import annotations

import pytest
import torch

from . import kernels

ROWS, COLS = 16, 64


@pytest.mark.parametrize("steps", [0, 1, 5])
def test_carried_tile_read_in_its_pushed_page(steps: int) -> None:
    x = torch.randn(ROWS, COLS)
    maxima = torch.full((ROWS,), float("nan"))
    last = torch.full((ROWS, COLS), float("nan"))
    compiled = kernels.decaying_row_maxima_kernel[(1,)](x, maxima, last, steps, 0.75,
                                                        ROWS=ROWS, COLS=COLS)
    y = x * 2.0
    total = torch.zeros(ROWS)
    for _ in range(steps):
        y = y * 0.75 + 1.0
        total += y.amax(dim=1)
    torch.testing.assert_close(maxima, total, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(last, y, rtol=1e-5, atol=1e-5)
    # The loop no longer carries the tile: the body and the store after the
    # loop read it in the pages the SIMD engine pushed, and the SIMD engine
    # computes each step's tile once.
    loop = compiled.asm["dma"].split("scf.for", 1)[1]
    assert "cb.read_pushed" in loop.split("scf.yield", 1)[0]
    tile_adds = [line for line in compiled.asm["dma"].splitlines()
                 if "tile.binary addf" in line and f"tile<{ROWS}x{COLS}xf32>" in line]
    assert len(tile_adds) == 1
