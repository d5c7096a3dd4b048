"""Layer normalisation, forward and backward, over the last dimension.

The forward kernel normalises one row per program and keeps each row's mean
and reciprocal standard deviation for the backward pass. The backward kernel
computes the input gradient of its rows and accumulates its share of the
weight and bias gradients; a second kernel sums those shares column by column.

    python examples/layer_norm.py [--rows R] [--cols C]
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate


@triton.jit
def layer_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n_cols, eps,
                          BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    in_bounds = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=in_bounds, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    centred = tl.where(in_bounds, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(centred * centred, axis=0) / n_cols + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + cols, mask=in_bounds)
    b = tl.load(b_ptr + cols, mask=in_bounds)
    tl.store(y_ptr + row * stride + cols, centred * rstd * w + b, mask=in_bounds)


@triton.jit
def layer_norm_bwd_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_part_ptr,
                          db_part_ptr, stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    # Program p takes rows p, p + P, p + 2P, ... and writes its partial sums
    # of the weight and bias gradients to row p of the partial buffers.
    program = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    in_bounds = cols < n_cols
    w = tl.load(w_ptr + cols, mask=in_bounds, other=0.0)
    dw = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for row in tl.range(program, n_rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * stride + cols, mask=in_bounds, other=0.0)
        dy = tl.load(dy_ptr + row * stride + cols, mask=in_bounds, other=0.0)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        x_hat = tl.where(in_bounds, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(x_hat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        dx = (wdy - (x_hat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * stride + cols, dx, mask=in_bounds)
        dw += dy * x_hat
        db += dy
    tl.store(dw_part_ptr + program * n_cols + cols, dw, mask=in_bounds)
    tl.store(db_part_ptr + program * n_cols + cols, db, mask=in_bounds)


@triton.jit
def column_sum_kernel(part_ptr, out_ptr, n_parts, n_cols, BLOCK_PARTS: tl.constexpr,
                      BLOCK_COLS: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    total = tl.zeros((BLOCK_COLS,), dtype=tl.float32)
    for first in range(0, n_parts, BLOCK_PARTS):
        parts = first + tl.arange(0, BLOCK_PARTS)
        mask = (parts[:, None] < n_parts) & (cols[None, :] < n_cols)
        total += tl.sum(tl.load(part_ptr + parts[:, None] * n_cols + cols[None, :], mask=mask,
                                other=0.0), axis=0)
    tl.store(out_ptr + cols, total, mask=cols < n_cols)


def layer_norm_forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor,
                       eps: float) -> tuple[torch.Tensor, ...]:
    rows, cols = x.shape
    y = torch.empty_like(x)
    mean, rstd = torch.empty(rows), torch.empty(rows)
    layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, eps,
                                   BLOCK_SIZE=triton.next_power_of_2(cols))
    return y, mean, rstd


def layer_norm_backward(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, mean: torch.Tensor,
                        rstd: torch.Tensor, programs: int = 64) -> tuple[torch.Tensor, ...]:
    rows, cols = x.shape
    programs = min(programs, rows)
    dx = torch.empty_like(x)
    dw_part, db_part = torch.empty(programs, cols), torch.empty(programs, cols)
    block = triton.next_power_of_2(cols)
    layer_norm_bwd_kernel[(programs,)](dy, x, w, mean, rstd, dx, dw_part, db_part, x.stride(0),
                                       rows, cols, BLOCK_SIZE=block)
    dw, db = torch.empty(cols), torch.empty(cols)
    for part, out in ((dw_part, dw), (db_part, db)):
        column_sum_kernel[(triton.cdiv(cols, 128),)](part, out, programs, cols, BLOCK_PARTS=32,
                                                     BLOCK_COLS=128)
    return dx, dw, db


def main() -> None:
    args = parse_args(__doc__, rows=1024, cols=1024)
    rows, cols = (48, 200) if args.small else (args.rows, args.cols)
    torch.manual_seed(0)
    x = torch.randn(rows, cols, requires_grad=True)
    w = torch.rand(cols, requires_grad=True)
    b = torch.rand(cols, requires_grad=True)
    dy = torch.randn(rows, cols)
    eps = 1e-5
    reference = torch.nn.functional.layer_norm(x, (cols,), w, b, eps)
    reference.backward(dy)
    with torch.no_grad():
        y, mean, rstd = simulate(f"layer_norm forward {rows}x{cols}",
                                 lambda: layer_norm_forward(x, w, b, eps))
        dx, dw, db = simulate(f"layer_norm backward {rows}x{cols}",
                              lambda: layer_norm_backward(dy, x, w, mean, rstd))
    torch.testing.assert_close(y, reference, rtol=1e-4, atol=1e-5)
    for name, ours, theirs in (("dx", dx, x.grad), ("dw", dw, w.grad), ("db", db, b.grad)):
        torch.testing.assert_close(ours, theirs, rtol=1e-4, atol=1e-4, msg=name)
    print("layer_norm: forward and backward match torch")


if __name__ == "__main__":
    main()
