"""`mtia-share-buffers` lets buffers of one producer and consumer share at a
cost of local memory only when the command processor's buffers would not
suffice otherwise, counted after the buffers of loops that run one after the
other (the two loops of `mtia-split-masked-loops`) share. Counted before,
the causal attention below, with 128-row blocks of 128-wide heads, seemed to
need more buffers than the target has, shared every buffer at any cost (the
rescaled accumulator and the probabilities in one buffer of two 64 KB
pages), and ran in strips of 64 rows, each loading the keys and values
again; it now fits local memory whole."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))

from fused_attention import attention_fwd_kernel  # noqa: E402

SEQ, DIM, BLOCK_M, BLOCK_N = 256, 128, 128, 32


def test_causal_attention_blocks_fit_whole() -> None:
    generator = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, SEQ, DIM, generator=generator).half() for _ in range(3))
    out = torch.full_like(q, float("nan"))
    compiled = attention_fwd_kernel[(SEQ // BLOCK_M, 1)](
        q, k, v, out, 1 / math.sqrt(DIM), SEQ, q.stride(1), q.stride(2), HEAD_DIM=DIM,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CAUSAL=True, num_stages=3)
    expected = torch.nn.functional.scaled_dot_product_attention(
        q.float(), k.float(), v.float(), is_causal=True).half()
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=2e-2)
    # The accumulator of all 128 rows, not strips of 64.
    assert f"tile<{BLOCK_M}x{DIM}xf32>" in compiled.asm["tile"]
