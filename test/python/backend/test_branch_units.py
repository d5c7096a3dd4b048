"""A tile an `scf.if` branch yields from a page it reads (a tile another
unit computed in that branch, or a loaded one) leaves the branch: the page is
freed right before the yield, after the program stage copies the tile into
the result's storage. These kernels aborted the process before (a pop was
placed after the branch's terminator); they give torch's numbers on either
path."""

from __future__ import annotations

import pytest
import torch

from . import kernels

ROWS, COLS = 8, 64


@pytest.mark.parametrize("flag", [3, -2])
def test_branches_on_different_units(flag: int) -> None:
    # One branch computes the rows on the reduction engine, the other on the
    # SIMD engine, which passes them on.
    x = torch.randn(ROWS, COLS)
    out = torch.full((ROWS,), float("nan"))
    compiled = kernels.branch_units_kernel[(1,)](x, out, flag, ROWS=ROWS, COLS=COLS)
    expected = x.amax(dim=1) if flag > 0 else x.sum(dim=1) * 0.5
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)
    else_branch = compiled.asm["dma"].split("scf.if", 1)[1].split("} else {", 1)[1]
    before_yield = else_branch.split("scf.yield", 1)[0].strip().splitlines()
    assert "cb.pop_front" in before_yield[-1] and "cb.read_front" in before_yield[-2]


@pytest.mark.parametrize("flag", [3, -2])
def test_branch_yields_a_loaded_tile(flag: int) -> None:
    x, y = torch.randn(COLS), torch.randn(COLS)
    out = torch.full((COLS,), float("nan"))
    kernels.load_or_scale_kernel[(1,)](x, y, out, flag, BLOCK=COLS)
    torch.testing.assert_close(out, x if flag > 0 else y * 3.0, rtol=0, atol=0)
