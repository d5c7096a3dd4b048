"""A DPE product that the reduction engine and the SIMD engine both read
(attention as Triton's tutorial writes it: the row maximum of the raw scores,
then `exp2(qk * scale - m)`) reaches the SIMD engine through the reduction
engine's copy (`mtia-relay-shared-products`): the numbers are torch's, one
and two iterations ahead, and the DPE computes only the kernel's dots."""

from __future__ import annotations

import math

import pytest
import torch
import triton

from mtia_compiler.backend import launches

from . import kernels

BLOCK, DIM = 32, 32


@pytest.mark.parametrize("num_stages", [2, 3])
@pytest.mark.parametrize(("causal", "masked", "seq_len"), [
    (False, True, 32), (False, True, 100), (False, True, 192), (True, True, 32),
    (True, True, 100), (True, True, 192), (False, False, 64), (False, False, 192)])
def test_tutorial_attention(num_stages: int, causal: bool, masked: bool, seq_len: int) -> None:
    generator = torch.Generator().manual_seed(seq_len)
    q, k, v = (torch.randn(seq_len, DIM, generator=generator).half() for _ in range(3))
    out = torch.empty_like(q)
    programs = triton.cdiv(seq_len, BLOCK)
    with launches() as records:
        compiled = kernels.tutorial_attention_kernel[(programs,)](
            q, k, v, out, 1 / math.sqrt(DIM), seq_len, BLOCK_M=BLOCK, BLOCK_N=BLOCK, DIM=DIM,
            CAUSAL=causal, MASKED=masked, num_stages=num_stages)
    expected = torch.nn.functional.scaled_dot_product_attention(
        q.float()[None], k.float()[None], v.float()[None], is_causal=causal)[0]
    torch.testing.assert_close(out.float(), expected, rtol=2e-3, atol=2e-3)
    assert "tile.reduce_copy" in compiled.asm["tile"]
    # Two dots per block of keys a program reads, and the clear of each
    # program's accumulator: the DPE copies none of the products of the
    # loop. Two iterations ahead (three stages), each program adds up to
    # three: the loop's prologue computes the first two products in
    # conditionals, and the DPE
    # clears the tile of each that does not run (the first one's too when
    # the reduction engine relays it to the loop, which reads it whether or
    # not the loop runs), or copies the first product the loop carries into
    # its buffer.
    blocks = sum(min(program + 1, programs) if causal else programs
                 for program in range(programs))
    dpe_instructions = records[0].result.units["dpe"]["instructions"]
    per_program = 1 if num_stages == 2 else 4
    assert 2 * blocks + programs <= dpe_instructions <= 2 * blocks + per_program * programs
