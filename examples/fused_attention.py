"""Fused attention forward (flash attention): `softmax(Q K^T * scale) V` for
every batch and head, one block of queries per program, streaming over blocks
of keys and values with an online softmax, so the score matrix never leaves
local memory. `--causal 1` masks keys after each query.

    python examples/fused_attention.py [--batch Z] [--heads H] [--seq N] [--dim D] [--causal 0|1]
"""

from __future__ import annotations

import functools
import math

import torch
import triton
import triton.language as tl
from common import parse_args, simulate


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, out_ptr, scale, seq_len, stride_head, stride_row,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr):
    block = tl.program_id(0)
    head = tl.program_id(1)
    rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    base = head * stride_head
    q = tl.load(q_ptr + base + rows[:, None] * stride_row + dims[None, :],
                mask=rows[:, None] < seq_len, other=0.0)
    running_max = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    running_sum = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    # exp(x) = exp2(x * log2(e)): fold log2(e) into the scale once.
    qk_scale = scale * 1.44269504
    end = tl.minimum((block + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start in range(0, end, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + keys[None, :] * stride_row + dims[:, None],
                    mask=keys[None, :] < seq_len, other=0.0)
        scores = tl.dot(q, k)
        valid = keys[None, :] < seq_len
        if CAUSAL:
            valid = valid & (keys[None, :] <= rows[:, None])
        scores = tl.where(valid, scores, -float("inf"))
        # As Triton's tutorial: the row maximum of the raw scores, scaled,
        # and the scores scaled and shifted in one fused multiply-add.
        new_max = tl.maximum(running_max, tl.max(scores, axis=1) * qk_scale)
        p = tl.math.exp2(scores * qk_scale - new_max[:, None])
        correction = tl.math.exp2(running_max - new_max)
        running_sum = running_sum * correction + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + keys[:, None] * stride_row + dims[None, :],
                    mask=keys[:, None] < seq_len, other=0.0)
        acc = acc * correction[:, None] + tl.dot(p.to(v.dtype), v)
        running_max = new_max
    out = acc / running_sum[:, None]
    tl.store(out_ptr + base + rows[:, None] * stride_row + dims[None, :], out.to(tl.float16),
             mask=rows[:, None] < seq_len)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool,
              block_m: int = 64, block_n: int = 64) -> torch.Tensor:
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty_like(q)
    grid = (triton.cdiv(seq_len, block_m), batch * heads)
    attention_fwd_kernel[grid](q, k, v, out, 1 / math.sqrt(head_dim), seq_len, q.stride(1),
                               q.stride(2), HEAD_DIM=head_dim, BLOCK_M=block_m,
                               BLOCK_N=block_n, CAUSAL=causal)
    return out


def main() -> None:
    args = parse_args(__doc__, batch=1, heads=8, seq=1024, dim=64, causal=0)
    batch, heads, seq, dim = (1, 2, 150, 64) if args.small else (args.batch, args.heads,
                                                                 args.seq, args.dim)
    torch.manual_seed(0)
    q, k, v = (torch.randn(batch, heads, seq, dim, dtype=torch.float16) for _ in range(3))
    for causal in ((False, True) if args.small else (bool(args.causal),)):
        out = simulate(f"fused_attention Z={batch} H={heads} N={seq} D={dim} causal={causal}",
                       functools.partial(attention, q, k, v, causal))
        reference = torch.nn.functional.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), is_causal=causal).half()
        torch.testing.assert_close(out, reference, rtol=2e-2, atol=2e-2)
    print("fused_attention: matches torch")


if __name__ == "__main__":
    main()
