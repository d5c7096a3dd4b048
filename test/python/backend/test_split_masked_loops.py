"""Loops whose select masks hold for whole blocks in their first iterations
run those iterations without them (`mtia-split-masked-loops`): the numbers
are torch's for every split point, none and all included."""

from __future__ import annotations

import pytest
import torch

from . import kernels

BLOCK = 64


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200, 256])
def test_the_tail_mask_splits_off_the_last_block(n: int) -> None:
    x = torch.randn(max(n, 1))
    out = torch.empty(1)
    compiled = kernels.masked_block_max_kernel[(1,)](x, out, n, BLOCK=BLOCK)
    expected = x[:n].max() if n else torch.tensor(-float("inf"))
    assert out[0] == expected
    # The iterations before the tail run without the select (n = 1, which
    # Triton specialises, has no loop).
    if n != 1:
        assert compiled.asm["ttir"].count("scf.for") == 1
        assert compiled.asm["tile"].count("scf.for") == 2
        assert compiled.asm["tile"].count("tile.select") == 1


@pytest.mark.parametrize(("n", "block_m", "block_n"),
                         [(256, 64, 64), (200, 64, 64), (256, 128, 64), (256, 64, 32),
                          (96, 32, 64), (5, 32, 32)])
def test_causal_blocks_before_the_diagonal_run_without_the_mask(n: int, block_m: int,
                                                                 block_n: int) -> None:
    # Integers in floats: every order of the additions gives the same sums.
    x = torch.randint(-8, 8, (n, n)).float()
    out = torch.empty(n)
    programs = -(-n // block_m)
    compiled = kernels.causal_block_sums_kernel[(programs,)](x, out, n, BLOCK_M=block_m,
                                                             BLOCK_N=block_n)
    assert torch.equal(out, x.tril().sum(1))
    assert compiled.asm["tile"].count("scf.for") == 2


def test_a_loop_the_masks_do_not_bound_stays_whole() -> None:
    # The scores' select is a small part of a loop the DPE and the reduction
    # engine bound (a 32x32x32 product and its row maximum per block): a
    # second loop would cost buffers and save nothing, so the loop stays
    # one, with the same numbers.
    block, dim, n_keys = 32, 32, 75
    q = torch.randn(block, dim, dtype=torch.float16)
    keys = torch.randn(n_keys, dim, dtype=torch.float16)
    out = torch.zeros(block)
    compiled = kernels.row_max_of_scores_kernel[(1,)](q, keys, out, n_keys, BLOCK_M=block,
                                                      BLOCK_N=block, DIM=dim, MASKED=True,
                                                      num_stages=1)
    torch.testing.assert_close(out, (q.float() @ keys.float().T).amax(dim=1), rtol=1e-3,
                               atol=1e-3)
    assert compiled.asm["tile"].count("scf.for") == 1
