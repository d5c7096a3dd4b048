"""Loops whose dots depend only on the induction variable compute the next
iteration's one iteration ahead, or two with `dots_ahead=2`
(`mtia-pipeline-dots`): the numbers are
torch's for any number of iterations, none included, and nothing is read
before a loop that runs no iteration."""

from __future__ import annotations

import pytest
import torch
import triton

from mtia_compiler.backend import launches

from . import kernels

BLOCK_M, BLOCK_N, DIM = 32, 32, 32


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("n_keys", [0, 32, 75, 128])
def test_dot_of_the_next_block_ahead(masked: bool, n_keys: int) -> None:
    q = torch.randn(BLOCK_M, DIM, dtype=torch.float16)
    keys = torch.randn(n_keys, DIM, dtype=torch.float16)
    # Whole blocks are read without a mask: pad the keys to whole blocks,
    # but hand an empty tensor over when there are none.
    blocks = triton.cdiv(n_keys, BLOCK_N)
    padded = blocks * BLOCK_N
    k = torch.cat([keys, torch.zeros(padded - n_keys, DIM, dtype=torch.float16)])
    out = torch.zeros(BLOCK_M)
    with launches() as records:
        compiled = kernels.row_max_of_scores_kernel[(1,)](q, k, out, n_keys, BLOCK_M=BLOCK_M,
                                                          BLOCK_N=BLOCK_N, DIM=DIM, MASKED=masked)
    expected = (q.float() @ keys.float().T).amax(dim=1) if n_keys else \
        torch.full((BLOCK_M,), -float("inf"))
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)
    # The product is computed before the loop and in it, in each of the two
    # loops `mtia-split-masked-loops` makes: the blocks before the last,
    # without the select of `keys < n_keys`, and the last.
    assert compiled.asm["tile"].count("tile.matmul") == 4
    # The last iteration runs on the product computed ahead for it: the DPE
    # multiplies each block once, and none past the end.
    assert records[0].result.units["dpe"]["instructions"] == blocks


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("n_keys", [0, 32, 64, 75, 128])
def test_dot_two_blocks_ahead(masked: bool, n_keys: int) -> None:
    # With `dots_ahead=2` the loop also carries the product of the next
    # block; the numbers are the same, and no block past the end is read
    # (the unmasked kernel reads whole blocks, so such a read would leave
    # the keys and fail the launch) for any number of blocks, none included.
    q = torch.randn(BLOCK_M, DIM, dtype=torch.float16)
    keys = torch.randn(n_keys, DIM, dtype=torch.float16)
    padded = triton.cdiv(n_keys, BLOCK_N) * BLOCK_N
    k = torch.cat([keys, torch.zeros(padded - n_keys, DIM, dtype=torch.float16)])
    out = torch.zeros(BLOCK_M)
    compiled = kernels.row_max_of_scores_kernel[(1,)](q, k, out, n_keys, BLOCK_M=BLOCK_M,
                                                      BLOCK_N=BLOCK_N, DIM=DIM, MASKED=masked,
                                                      dots_ahead=2)
    expected = (q.float() @ keys.float().T).amax(dim=1) if n_keys else \
        torch.full((BLOCK_M,), -float("inf"))
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)
    # The product is computed before the loop for its first two iterations,
    # and in it, in each of the two loops `mtia-split-masked-loops` makes.
    assert compiled.asm["tile"].count("tile.matmul") == 6


def test_dots_ahead_is_one_or_two() -> None:
    q = torch.randn(BLOCK_M, DIM, dtype=torch.float16)
    with pytest.raises(ValueError, match="dots_ahead must be 1 or 2, got 3"):
        kernels.row_max_of_scores_kernel[(1,)](q, q, torch.zeros(BLOCK_M), BLOCK_N,
                                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, DIM=DIM,
                                               MASKED=True, dots_ahead=3)
