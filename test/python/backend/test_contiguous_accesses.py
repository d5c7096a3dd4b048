"""Blocks read or written across their contiguous dimension move in memory
order (`mtia-contiguous-accesses`): the transfer is of whole rows, the
memory-layout unit transposes in local memory, and the numbers are those of
torch, masked edges included."""

from __future__ import annotations

import pytest
import torch
import triton

from mtia_compiler.backend import launches

from . import kernels


@pytest.mark.parametrize("transposed_load", [True, False])
@pytest.mark.parametrize(("rows", "cols"), [(64, 128), (100, 75)])
def test_transposed_blocks_move_whole_rows(transposed_load: bool, rows: int, cols: int) -> None:
    x = torch.randn(rows, cols)
    out = torch.full((cols, rows), float("nan"))
    grid = (triton.cdiv(rows, 32), triton.cdiv(cols, 64))
    with launches() as records:
        compiled = kernels.transpose_kernel[grid](x, out, rows, cols, BLOCK_R=32, BLOCK_C=64,
                                                  TRANSPOSED_LOAD=transposed_load)
    torch.testing.assert_close(out, x.T * 2, rtol=0, atol=0)
    # The layout unit did the transposing, and where the rows are aligned
    # (a row of 75 f32 is not: such rows move element by element whatever
    # their order) every transfer is of whole rows.
    assert ("elementwise" not in compiled.asm["dma"]) == (cols % 8 == 0 and rows % 8 == 0)
    assert "tile.transpose" in compiled.asm["dma"]
    assert records[0].result.units["mlu"]["instructions"] > 0
