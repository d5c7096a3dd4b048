"""Grouped GEMM: `C_g = A_g @ B_g` for a group of problems of different sizes
in one launch. A fixed number of programs walks the output blocks of every
problem in turn (a persistent kernel). The problems' matrices lie in three
flat fp16 buffers; per-problem sizes and element offsets into those buffers
describe the group, as in mixture-of-experts layers.

    python examples/grouped_gemm.py [--groups G] [--size S] [--programs P]
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate


@triton.jit
def grouped_matmul_kernel(a_ptr, b_ptr, c_ptr, sizes_ptr, offsets_ptr, group_count,
                          NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile = tl.program_id(0)
    first_tile = 0
    for g in range(group_count):
        M = tl.load(sizes_ptr + g * 3)
        N = tl.load(sizes_ptr + g * 3 + 1)
        K = tl.load(sizes_ptr + g * 3 + 2)
        blocks_n = tl.cdiv(N, BLOCK_N)
        tiles = tl.cdiv(M, BLOCK_M) * blocks_n
        while tile >= first_tile and tile < first_tile + tiles:
            local = tile - first_tile
            rows = (local // blocks_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            cols = (local % blocks_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            ks = tl.arange(0, BLOCK_K)
            a = a_ptr + tl.load(offsets_ptr + g * 3)
            b = b_ptr + tl.load(offsets_ptr + g * 3 + 1)
            c = c_ptr + tl.load(offsets_ptr + g * 3 + 2)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k in range(0, K, BLOCK_K):
                a_block = tl.load(a + rows[:, None] * K + (k + ks)[None, :],
                                  mask=(rows[:, None] < M) & ((k + ks)[None, :] < K), other=0.0)
                b_block = tl.load(b + (k + ks)[:, None] * N + cols[None, :],
                                  mask=((k + ks)[:, None] < K) & (cols[None, :] < N), other=0.0)
                acc = tl.dot(a_block, b_block, acc)
            tl.store(c + rows[:, None] * N + cols[None, :], acc.to(tl.float16),
                     mask=(rows[:, None] < M) & (cols[None, :] < N))
            tile += NUM_PROGRAMS
        first_tile += tiles


def grouped_matmul(a_list: list[torch.Tensor], b_list: list[torch.Tensor],
                   programs: int = 64) -> list[torch.Tensor]:
    sizes = [(a.shape[0], b.shape[1], a.shape[1]) for a, b in zip(a_list, b_list, strict=True)]
    a_flat = torch.cat([a.reshape(-1) for a in a_list])
    b_flat = torch.cat([b.reshape(-1) for b in b_list])
    c_flat = torch.empty(sum(m * n for m, n, _ in sizes), dtype=torch.float16)
    offsets, position = [], [0, 0, 0]
    for m, n, k in sizes:
        offsets.extend(position)
        position = [position[0] + m * k, position[1] + k * n, position[2] + m * n]
    grouped_matmul_kernel[(programs,)](
        a_flat, b_flat, c_flat, torch.tensor(sizes, dtype=torch.int32).reshape(-1),
        torch.tensor(offsets, dtype=torch.int64), len(sizes), NUM_PROGRAMS=programs,
        BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    out, start = [], 0
    for m, n, _ in sizes:
        out.append(c_flat[start:start + m * n].view(m, n))
        start += m * n
    return out


def main() -> None:
    args = parse_args(__doc__, groups=4, size=512, programs=64)
    groups, size, programs = (3, 96, 8) if args.small else (args.groups, args.size, args.programs)
    torch.manual_seed(0)
    shapes = [(size + 32 * g, size - 16 * g, size // 2 + 48 * g) for g in range(groups)]
    a_list = [torch.randn(m, k, dtype=torch.float16) for m, _, k in shapes]
    b_list = [torch.randn(k, n, dtype=torch.float16) for _, n, k in shapes]
    out = simulate(f"grouped_gemm {groups} problems around {size}",
                   lambda: grouped_matmul(a_list, b_list, programs))
    for a, b, c in zip(a_list, b_list, out, strict=True):
        torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-2, atol=1e-2)
    print("grouped_gemm: matches torch")


if __name__ == "__main__":
    main()
