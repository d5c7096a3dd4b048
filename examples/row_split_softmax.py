"""Softmax of a few long rows, each row split over a row of eight PEs whose
maximum and sum are combined on the reduction network
(`mtia_compiler.language.all_reduce(..., axis=0)`), beside the plain-Triton
softmax that gives each row to one program.

    python examples/row_split_softmax.py [--rows R] [--cols C]

With few rows, plain Triton keeps only as many PEs busy as there are rows;
split over a PE row, every row uses eight PEs, each holding an eighth of it.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate_cycles

import mtia_compiler.language as mtia

SPLIT = 8


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    numerator = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * n_cols + cols, numerator / tl.sum(numerator, axis=0),
             mask=cols < n_cols)


@triton.jit
def split_row_softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # Program (part, row) holds columns [part * BLOCK, (part + 1) * BLOCK).
    part = tl.program_id(0)
    row = tl.program_id(1)
    cols = part * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    row_max = mtia.all_reduce(tl.max(x, axis=0), "max", axis=0)
    numerator = tl.exp(x - row_max)
    row_sum = mtia.all_reduce(tl.sum(numerator, axis=0), "sum", axis=0)
    tl.store(out_ptr + row * n_cols + cols, numerator / row_sum, mask=cols < n_cols)


def softmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return out


def split_row_softmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    block = triton.next_power_of_2(triton.cdiv(x.shape[1], SPLIT))
    split_row_softmax_kernel[(SPLIT, x.shape[0])](x, out, x.shape[1], BLOCK=block)
    return out


def main() -> None:
    args = parse_args(__doc__, rows=8, cols=32768)
    rows, cols = (4, 4000) if args.small else (args.rows, args.cols)
    torch.manual_seed(0)
    x = torch.randn((rows, cols))
    expected = torch.softmax(x, dim=1)
    plain, plain_cycles = simulate_cycles(f"softmax {rows}x{cols}, a row per program "
                                          "(plain Triton)", lambda: softmax(x))
    split, split_cycles = simulate_cycles(f"softmax {rows}x{cols}, a row per row of PEs",
                                          lambda: split_row_softmax(x))
    for got in (plain, split):
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6)
    print(f"row_split_softmax: both match torch; the split rows are "
          f"{plain_cycles / split_cycles:.2f}x the speed of a row per program")


if __name__ == "__main__":
    main()
