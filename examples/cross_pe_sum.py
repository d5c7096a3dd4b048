"""The sum of a large vector, reduced across all 64 PEs on the reduction
network (`mtia_compiler.language.all_reduce`), beside the plain-Triton way
of combining the blocks' partial sums with an atomic add to DRAM.

    python examples/cross_pe_sum.py [--size N]

Plain Triton: one program per block, each adding its partial sum to the
result with `tl.atomic_add`, which the DMA engine performs in DRAM one
after another. With the extension: one program per PE, each summing every
64th block, then one all-reduce of the 64 partial sums.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate_cycles

import mtia_compiler.language as mtia

PES = 64


@triton.jit
def sum_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    partial = tl.sum(tl.load(x_ptr + offsets, mask=offsets < n, other=0.0), axis=0)
    tl.atomic_add(out_ptr, partial)


@triton.jit
def sum_all_reduce_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(pid * BLOCK, n, programs * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    total = mtia.all_reduce(tl.sum(acc, axis=0), "sum")
    if pid == 0:
        tl.store(out_ptr, total)


def sum_with_atomics(x: torch.Tensor, block: int) -> torch.Tensor:
    out = torch.zeros(1)
    sum_atomic_kernel[(triton.cdiv(x.numel(), block),)](x, out, x.numel(), BLOCK=block)
    return out


def sum_with_all_reduce(x: torch.Tensor, block: int) -> torch.Tensor:
    out = torch.zeros(1)
    sum_all_reduce_kernel[(PES,)](x, out, x.numel(), BLOCK=block)
    return out


def main() -> None:
    args = parse_args(__doc__, size=1 << 24)
    size = 100_000 if args.small else args.size
    block = 1024 if args.small else 4096
    torch.manual_seed(0)
    x = torch.rand(size)
    expected = x.double().sum().float()
    plain, plain_cycles = simulate_cycles(f"sum n={size}, atomics (plain Triton)",
                                          lambda: sum_with_atomics(x, block))
    reduced, reduced_cycles = simulate_cycles(f"sum n={size}, all_reduce over 64 PEs",
                                              lambda: sum_with_all_reduce(x, block))
    for got in (plain, reduced):
        torch.testing.assert_close(got[0], expected, rtol=1e-5, atol=1e-3)
    print(f"cross_pe_sum: both match torch; all_reduce is {plain_cycles / reduced_cycles:.2f}x "
          "the speed of atomics")


if __name__ == "__main__":
    main()
