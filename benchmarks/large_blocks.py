"""Blocks larger than local memory against the best block that fits.

    python benchmarks/large_blocks.py

Launches each kernel family through the Triton backend at block sizes that
fit a PE's local memory and at larger ones, which the compiler splits, on
the same problem (for the row-wise softmax and layer norm: the same number
of elements in rows of BLOCK), and prints one line per family, last:
`<kernel>: split <cycles>, best fitting <cycles>, ratio <r>` (the largest
split config against the fastest fitting one; the goal is a ratio of at
most 1.5). A family whose large configs do not compile yet prints the
compiler's message instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch
import triton
import triton.language as tl

from mtia_compiler import CompilationError
from mtia_compiler.backend import launches


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


def cycles_of(launch: Callable[[], None]) -> int | str:
    """The simulated cycles of `launch`'s one launch, or the first line of
    the compiler's message when it does not compile."""
    try:
        with launches() as records:
            launch()
    except CompilationError as error:
        return str(error).splitlines()[0]
    return records[0].cycles


def compare(name: str, fitting: list[int], split: list[int],
            launch: Callable[[int], None]) -> str:
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

    lines = [
        compare("vector_add", [1024, 4096, 16384, 32768], [1 << 16, 1 << 18, 1 << 20], add),
        compare("gelu", [1024, 4096, 16384], [1 << 16, 1 << 18, 1 << 20], gelu),
        compare("softmax", [1024, 4096, 16384], [1 << 15, 1 << 16], softmax),
        compare("layer_norm", [1024, 4096, 16384], [1 << 15, 1 << 16], layer_norm),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
