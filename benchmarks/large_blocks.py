"""Blocks larger than local memory against the best block that fits.

    python benchmarks/large_blocks.py

Launches each kernel family through the Triton backend at block sizes that
fit a PE's local memory and at larger ones, which the compiler splits, on
the same problem (for the row-wise softmax and layer norm: the same number
of elements in rows of BLOCK; for the matmul and the Inductor-style
reduction, the same problem in blocks of each shape), and prints one line
per family, last:
`<kernel>: split <cycles>, best fitting <cycles>, ratio <r>` (the largest
split config against the fastest fitting one; the goal is a ratio of at
most 1.5). A family whose large configs do not compile yet prints the
compiler's message instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TypeVar

import torch
import triton
import triton.language as tl

from mtia_compiler import CompilationError
from mtia_compiler.backend import launches

#: A block size: an int, or a tuple of them for blocks of several dimensions.
Block = TypeVar("Block", bound=Hashable)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask) + tl.load(y_ptr + offsets, mask),
             mask)


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y.to(tl.float16), mask)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n_cols
    x = tl.load(x_ptr + row * n_cols + offsets, mask, other=-float("inf"))
    x = tl.exp(x - tl.max(x, 0))
    tl.store(out_ptr + row * n_cols + offsets, x / tl.sum(x, 0), mask)


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + row * n + offsets, mask, other=0.0)
    centered = tl.where(mask, x - tl.sum(x, 0) / n, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(centered * centered, 0) / n + 1e-5)
    y = centered * rstd * tl.load(w_ptr + offsets, mask) + tl.load(b_ptr + offsets, mask)
    tl.store(y_ptr + row * n + offsets, y, mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    # Triton's matmul tutorial (row-major operands): `% M` rows, K-masked loads.
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BLOCK_N)
    pid_n = pid % tl.cdiv(N, BLOCK_N)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_bn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc.to(tl.float16),
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def row_sum_of_squares_kernel(in_ptr, out_ptr, xnumel, rnumel, XBLOCK: tl.constexpr,
                              RBLOCK: tl.constexpr):
    # As TorchInductor writes a looped reduction, with a carried accumulator.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    acc = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        x = tl.load(in_ptr + (rindex + rnumel * xindex), rmask & xmask, other=0.0)
        acc = tl.where(rmask & xmask, acc + x * x, acc)
    tl.store(out_ptr + xindex, tl.sum(acc, 1)[:, None], xmask)


def cycles_of(launch: Callable[[], None]) -> int | str:
    """The simulated cycles of `launch`'s one launch, or the first line of
    the compiler's message when it does not compile."""
    try:
        with launches() as records:
            launch()
    except CompilationError as error:
        return str(error).splitlines()[0]
    return records[0].cycles


def compare(name: str, fitting: list[Block], split: list[Block],
            launch: Callable[[Block], None]) -> str:
    """Runs `launch` at every block size, prints each, and returns the line
    comparing the largest split block with the fastest fitting one."""
    results = {block: cycles_of(functools.partial(launch, block)) for block in fitting + split}
    for block, cycles in results.items():
        print(f"{name} BLOCK={block}: {cycles}")
    largest = results[split[-1]]
    if not isinstance(largest, int):
        return f"{name}: split BLOCK={split[-1]} does not compile: {largest}"
    fitted = [cycles for block in fitting if isinstance(cycles := results[block], int)]
    if not fitted:
        return f"{name}: split {largest}, no fitting config"
    best = min(fitted)
    return f"{name}: split {largest}, best fitting {best}, ratio {largest / best:.2f}"


def main() -> None:
    n = 1 << 22
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    half = torch.empty(n, dtype=torch.float16)

    def add(block: int) -> None:
        add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)

    def gelu(block: int) -> None:
        gelu_kernel[(triton.cdiv(n, block),)](x, half, n, BLOCK=block)

    weight, bias = torch.randn(1 << 16), torch.randn(1 << 16)

    def softmax(block: int) -> None:
        softmax_kernel[(n // block,)](x, out, block, BLOCK=block)

    def layer_norm(block: int) -> None:
        layer_norm_kernel[(n // block,)](x, weight, bias, out, block, BLOCK=block)

    # 2048 x 2048 outputs: even 256 x 256 blocks make a program for each PE.
    size, depth = 2048, 256
    a = torch.randn(size, depth, dtype=torch.float16)
    b = torch.randn(depth, size, dtype=torch.float16)
    c = torch.empty(size, size, dtype=torch.float16)

    def matmul(block: tuple[int, int, int]) -> None:
        block_m, block_n, block_k = block
        grid = (triton.cdiv(size, block_m) * triton.cdiv(size, block_n),)
        matmul_kernel[grid](a, b, c, size, size, depth, BLOCK_M=block_m, BLOCK_N=block_n,
                            BLOCK_K=block_k)

    rows = x.view(512, n // 512)
    sums = torch.empty(512)

    def reduction(block: tuple[int, int]) -> None:
        xblock, rblock = block
        row_sum_of_squares_kernel[(triton.cdiv(512, xblock),)](
            rows, sums, 512, n // 512, XBLOCK=xblock, RBLOCK=rblock)

    lines = [
        compare("vector_add", [1024, 4096, 16384, 32768], [1 << 16, 1 << 18, 1 << 20], add),
        compare("gelu", [1024, 4096, 16384], [1 << 16, 1 << 18, 1 << 20], gelu),
        compare("softmax", [1024, 4096, 16384], [1 << 15, 1 << 16], softmax),
        compare("layer_norm", [1024, 4096, 16384], [1 << 15, 1 << 16], layer_norm),
        compare("matmul", [(64, 64, 32), (128, 64, 32), (128, 128, 64)],
                [(128, 256, 64), (256, 128, 64), (256, 256, 64)], matmul),
        compare("inductor_reduction", [(1, 2048), (4, 1024), (8, 512)],
                [(8, 8192), (64, 8192)], reduction),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
