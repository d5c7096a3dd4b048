"""An `scf.if` whose branches compute a tile result on different units (a
row maximum on the reduction engine, a scaled row sum on the SIMD engine)
compiles and gives torch's numbers on either path: each branch yields an MLU
copy of its tile, so that the page it read the other unit's tile from is
freed inside the branch (this aborted the process before)."""

from __future__ import annotations

import pytest
import torch

from . import kernels

ROWS, COLS = 8, 64


@pytest.mark.parametrize("flag", [3, -2])
def test_branches_on_different_units(flag: int) -> None:
    x = torch.randn(ROWS, COLS)
    out = torch.full((ROWS,), float("nan"))
    compiled = kernels.branch_units_kernel[(1,)](x, out, flag, ROWS=ROWS, COLS=COLS)
    expected = x.amax(dim=1) if flag > 0 else x.sum(dim=1) * 0.5
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)
    # Both branches hand their row to the MLU, which holds the result.
    branches = compiled.asm["dma"].split("scf.if", 1)[1].split("} else {")
    assert all("tile.copy" in branch for branch in branches[:2])
