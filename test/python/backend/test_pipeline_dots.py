"""Loops of two stages or more (Triton's `num_stages`, or a loop's own
`tl.range(..., num_stages=)`) compute the dots that depend only on the
induction variable ahead of the rest of the body: one iteration with two
stages, two with three or more where the loop's schedule needs them (these
small blocks' chain is mostly latency: it does), none with one
(`mtia-pipeline-dots`).
The numbers are torch's for any number of iterations, none included, and
nothing is read before a loop that runs no iteration."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch
import triton

from mtia_compiler.backend import launches

from . import kernels

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
import variants  # noqa: E402 (after its folder is on the path)

BLOCK_M, BLOCK_N, DIM = 32, 32, 32
#: The tile stage's products of a kernel whose loop is pipelined 0, 1 or 2
#: iterations ahead: once in the body and once per iteration computed ahead
#: before the loop. (The loop is not split at `keys < n_keys`: the DPE and
#: the reduction engine bound it, not the select.)
MATMULS_BY_ROUNDS = {0: 1, 1: 2, 2: 3}


def run_row_max(n_keys: int, masked: bool, **options: int) -> tuple[str, int]:
    """Launches the row maximum of the scores of `n_keys` keys with
    `options` and checks it against torch; returns the tile stage's IR and
    the DPE's instructions."""
    q = torch.randn(BLOCK_M, DIM, dtype=torch.float16)
    keys = torch.randn(n_keys, DIM, dtype=torch.float16)
    # Whole blocks are read without a mask: pad the keys to whole blocks,
    # but hand an empty tensor over when there are none.
    padded = triton.cdiv(n_keys, BLOCK_N) * BLOCK_N
    k = torch.cat([keys, torch.zeros(padded - n_keys, DIM, dtype=torch.float16)])
    out = torch.zeros(BLOCK_M)
    with launches() as records:
        compiled = kernels.row_max_of_scores_kernel[(1,)](q, k, out, n_keys, BLOCK_M=BLOCK_M,
                                                          BLOCK_N=BLOCK_N, DIM=DIM,
                                                          MASKED=masked, **options)
    expected = (q.float() @ keys.float().T).amax(dim=1) if n_keys else \
        torch.full((BLOCK_M,), -float("inf"))
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)
    return compiled.asm["tile"], records[0].result.units["dpe"]["instructions"]


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("n_keys", [0, 32, 75, 128])
def test_dot_of_the_next_block_ahead(masked: bool, n_keys: int) -> None:
    # Two stages: one block ahead.
    tile_ir, dpe_instructions = run_row_max(n_keys, masked, num_stages=2)
    assert tile_ir.count("tile.matmul") == MATMULS_BY_ROUNDS[1]
    # The last iteration runs on the product computed ahead for it: the DPE
    # multiplies each block once, and none past the end.
    assert dpe_instructions == triton.cdiv(n_keys, BLOCK_N)


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("n_keys", [0, 32, 64, 75, 128])
def test_dot_two_blocks_ahead(masked: bool, n_keys: int) -> None:
    # With Triton's default of three stages the loop also carries the
    # product of the next block; the numbers are the same, and no block past
    # the end is read (the unmasked kernel reads whole blocks, so such a read
    # would leave the keys and fail the launch) for any number of blocks,
    # none included.
    tile_ir, _ = run_row_max(n_keys, masked)
    assert tile_ir.count("tile.matmul") == MATMULS_BY_ROUNDS[2]


@pytest.mark.parametrize(("options", "rounds"), [
    ({"num_stages": 1}, 0), ({"num_stages": 2}, 1), ({"num_stages": 5}, 2),
    # A loop's own stages override the launch's.
    ({"num_stages": 4, "LOOP_STAGES": 1}, 0), ({"num_stages": 1, "LOOP_STAGES": 2}, 1)])
def test_stages_set_how_far_ahead(options: dict[str, int], rounds: int) -> None:
    tile_ir, dpe_instructions = run_row_max(75, True, **options)
    assert tile_ir.count("tile.matmul") == MATMULS_BY_ROUNDS[rounds]
    # Each block is multiplied once; two iterations ahead, the DPE also
    # copies a product the loop carries into its buffer, or clears one.
    blocks = triton.cdiv(75, BLOCK_N)
    assert blocks <= dpe_instructions <= blocks + (2 if rounds == 2 else 0)


def test_num_stages_is_at_least_one() -> None:
    q = torch.randn(BLOCK_M, DIM, dtype=torch.float16)
    with pytest.raises(ValueError, match="num_stages must be at least 1, got 0"):
        kernels.row_max_of_scores_kernel[(1,)](q, q, torch.zeros(BLOCK_M), BLOCK_N,
                                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, DIM=DIM,
                                               MASKED=True, num_stages=0)



def descriptor_attention_cycles(block_n: int, **options: int) -> int:
    """Launches attention read through tensor descriptors (128-row query
    blocks of `block_n` keys, launch `options`) on 1x4x512x64, checks it
    against torch and returns its cycles."""
    q, k, v, expected = variants.attention_inputs(1, 4, 4, 512, 64, causal=False)
    out = torch.empty_like(q)
    with launches() as records:
        variants.launch_tensor_descriptor_attention(
            q, k, v, out, False, {"BLOCK_M": 128, "BLOCK_N": block_n, "num_warps": 4, **options})
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=2e-2)
    return sum(record.cycles for record in records)


@pytest.mark.parametrize("block_n", [64, 128])
def test_blocks_read_through_tensor_descriptors_are_computed_ahead(block_n: int) -> None:
    # Triton's attention tutorial reads its blocks through tensor
    # descriptors: they are pipelined as loads through pointers are. With
    # 128 x 128 blocks the pipelined plan does not fit local memory, and no
    # strip cuts a descriptor's block: the kernel then runs in one stage,
    # slower, rather than being refused.
    one_stage = descriptor_attention_cycles(block_n, num_stages=1)
    three_stages = descriptor_attention_cycles(block_n, num_stages=3)
    if block_n == 64:
        assert three_stages < 0.75 * one_stage, (three_stages, one_stage)
    else:
        assert three_stages == one_stage, (three_stages, one_stage)


def test_a_loop_with_its_own_stages_falls_back_to_one_stage() -> None:
    # The same 128 x 128 descriptor blocks, the loop's three stages its own
    # (`tl.range(..., num_stages=3)`): the last attempt bounds them too.
    assert (descriptor_attention_cycles(128, num_stages=1, LOOP_STAGES=3)
            == descriptor_attention_cycles(128, num_stages=1))
