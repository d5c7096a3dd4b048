"""Split-K matrix multiplication, `C = A @ B` with a long K, whose partial
products are reduced over a row of PEs on the reduction network
(`mtia_compiler.language.all_reduce(..., axis=0)`), beside the plain-Triton
split-K that adds them into C with atomics.

    python examples/split_k_gemm.py [--m M] [--n N] [--k K]

Both launch a grid of (SPLIT_K, tiles of C): program (s, t) multiplies the
s-th slice of K for tile t. Plain Triton adds its partial tile into C with
`tl.atomic_add`, one DRAM read-modify-write per element; with the
extension the SPLIT_K programs of a tile (a row of PEs) all-reduce their
partial tiles, and the first stores the sum.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate_cycles

import mtia_compiler.language as mtia

SPLIT_K = 8


@triton.jit
def partial_product(a_ptr, b_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """The product of the program's slice of K for its tile of C, and the
    tile's rows and columns."""
    split = tl.program_id(0)
    tile = tl.program_id(1)
    tiles_n = tl.cdiv(N, BLOCK_N)
    rows = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    k_per_split = tl.cdiv(K, SPLIT_K * BLOCK_K) * BLOCK_K
    for k in range(split * k_per_split, tl.minimum((split + 1) * k_per_split, K), BLOCK_K):
        ks = k + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :],
                    mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :],
                    mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    return acc, rows, cols


@triton.jit
def split_k_atomic_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    acc, rows, cols = partial_product(a_ptr, b_ptr, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K)
    tl.atomic_add(c_ptr + rows[:, None] * N + cols[None, :], acc,
                  mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def split_k_all_reduce_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                              BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              SPLIT_K: tl.constexpr):
    acc, rows, cols = partial_product(a_ptr, b_ptr, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K)
    total = mtia.all_reduce(acc, "sum", axis=0)
    if tl.program_id(0) == 0:
        tl.store(c_ptr + rows[:, None] * N + cols[None, :], total,
                 mask=(rows[:, None] < M) & (cols[None, :] < N))


def split_k_gemm(kernel: triton.JITFunction, a: torch.Tensor, b: torch.Tensor,
                 block: tuple[int, int, int]) -> torch.Tensor:
    (m, k), n = a.shape, b.shape[1]
    c = torch.zeros((m, n))
    tiles = triton.cdiv(m, block[0]) * triton.cdiv(n, block[1])
    kernel[(SPLIT_K, tiles)](a, b, c, m, n, k, BLOCK_M=block[0], BLOCK_N=block[1],
                             BLOCK_K=block[2], SPLIT_K=SPLIT_K)
    return c


def main() -> None:
    args = parse_args(__doc__, m=256, n=256, k=16384)
    m, n, k = (64, 64, 2048) if args.small else (args.m, args.n, args.k)
    block = (32, 32, 64) if args.small else (64, 64, 128)
    torch.manual_seed(0)
    a, b = torch.randn((m, k)).half(), torch.randn((k, n)).half()
    expected = a.float() @ b.float()
    plain, plain_cycles = simulate_cycles(
        f"split-K GEMM {m}x{n}x{k}, atomics (plain Triton)",
        lambda: split_k_gemm(split_k_atomic_kernel, a, b, block))
    reduced, reduced_cycles = simulate_cycles(
        f"split-K GEMM {m}x{n}x{k}, all_reduce over a row of PEs",
        lambda: split_k_gemm(split_k_all_reduce_kernel, a, b, block))
    for got in (plain, reduced):
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-2)
    print(f"split_k_gemm: both match torch; all_reduce is {plain_cycles / reduced_cycles:.2f}x "
          "the speed of atomics")


if __name__ == "__main__":
    main()
