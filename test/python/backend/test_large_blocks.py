"""Blocks larger than a PE's local memory (384 KiB on mtia-2i): elementwise
kernels and reductions of one-dimensional blocks run in strips
(`mtia-strip-mine-blocks`); what cannot is refused with a located error that
names what takes the memory."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from mtia_compiler import CompilationError
from mtia_compiler.backend import launches


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask)
    y = tl.load(y_ptr + offsets, mask)
    tl.store(out_ptr + offsets, x + y, mask)


@triton.jit
def gelu_kernel(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Mixed types and a libdevice call: f16 in, f32 math, f16 out.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask, other=0.0).to(tl.float32)
    x += tl.load(bias_ptr + offsets % 7, mask)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y.to(tl.float16), mask)


@triton.jit
def sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr, tl.sum(x * x, 0))


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n_cols
    x = tl.load(x_ptr + row * n_cols + offsets, mask, other=-float("inf"))
    x = tl.exp(x - tl.max(x, 0))
    tl.store(out_ptr + row * n_cols + offsets, x / tl.sum(x, 0), mask)


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n, eps,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + row * n + offsets, mask, other=0.0)
    mean = tl.sum(x, 0) / n
    centered = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(centered * centered, 0) / n + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + offsets, mask)
    b = tl.load(b_ptr + offsets, mask)
    tl.store(y_ptr + row * n + offsets, centered * rstd * w + b, mask)


@triton.jit
def argmax_kernel(x_ptr, index_ptr, value_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, offsets < n, other=-float("inf"))
    value, index = tl.max(x, 0, return_indices=True)
    tl.store(index_ptr, index)
    tl.store(value_ptr, value)


@triton.jit
def add_2d_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) + 1)


@pytest.mark.parametrize("block", [1 << 15, 1 << 16, 1 << 20])
def test_vector_add_with_any_block(block: int) -> None:
    # Two programs, the second partly masked: n is not a multiple of BLOCK.
    n = block + block // 3 + 1
    x, y = torch.randn(n), torch.randn(n)
    out = torch.full((n,), float("nan"))
    with launches() as records:
        add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    assert torch.equal(out, x + y)
    assert records[0].cycles > 0


def test_an_elementwise_chain_runs_in_strips() -> None:
    block, n = 1 << 17, 200_000
    x = torch.randn(n, dtype=torch.float16)
    bias = torch.randn(7)
    out = torch.empty(n, dtype=torch.float16)
    gelu_kernel[(triton.cdiv(n, block),)](x, bias, out, n, BLOCK=block)
    pre = x.float() + bias[torch.arange(n) % 7]
    expected = torch.nn.functional.gelu(pre).half()
    # One f16 rounding of results computed in f32 (erf to a few ulp of f32).
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)


def test_stripped_kernel_keeps_the_tile_stage_in_strips() -> None:
    x, y = torch.randn(1 << 16), torch.randn(1 << 16)
    out = torch.empty(1 << 16)
    compiled = add_kernel[(1,)](x, y, out, 1 << 16, BLOCK=1 << 16)
    assert "scf.for" in compiled.asm["tile"] and "tensor<65536" not in compiled.asm["tile"]


def test_a_reduction_runs_in_strips() -> None:
    x = torch.randn(1 << 17)
    out = torch.empty(1)
    sum_kernel[(1,)](x, out, BLOCK=1 << 17)
    # Strips of partial sums: another order of f32 additions than torch's.
    torch.testing.assert_close(out[0], (x.double() ** 2).sum().float(), rtol=1e-5, atol=0)


@pytest.mark.parametrize("cols", [50_000, 65_536])
def test_softmax_and_layer_norm_with_block_65536(cols: int) -> None:
    rows = 3
    x = torch.randn(rows, cols)
    out = torch.empty(rows, cols)
    softmax_kernel[(rows,)](x, out, cols, BLOCK=65_536)
    torch.testing.assert_close(out, torch.softmax(x, 1), rtol=1e-5, atol=1e-9)
    w, b = torch.randn(cols), torch.randn(cols)
    y, mean, rstd = torch.empty(rows, cols), torch.empty(rows), torch.empty(rows)
    layer_norm_kernel[(rows,)](x, w, b, y, mean, rstd, cols, 1e-5, BLOCK=65_536)
    torch.testing.assert_close(mean, x.mean(1), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(rstd, torch.rsqrt(x.var(1, unbiased=False) + 1e-5), rtol=1e-5,
                               atol=0)
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5),
                               rtol=1e-4, atol=1e-5)


def test_argmax_combines_the_strips_indices() -> None:
    n = 100_000
    x = torch.randn(n)
    x[77_777] = 10.0  # in a later strip than the first
    index, value = torch.empty(1, dtype=torch.int32), torch.empty(1)
    argmax_kernel[(1,)](x, index, value, n, BLOCK=1 << 17)
    assert index.item() == 77_777 and value.item() == 10.0


def test_a_two_dimensional_block_beyond_local_memory_is_refused_at_the_kernel() -> None:
    # Two-dimensional blocks do not run in strips (yet): the error is
    # located at the kernel and names its buffers.
    x = torch.randn(512 * 512)
    with pytest.raises(CompilationError, match=r"test_large_blocks\.py:\d+:1: error: the "
                       r"local-memory plan needs \d+ bytes .*'load0' 1048576 B"):
        add_2d_kernel[(1,)](x, torch.empty_like(x), ROWS=512, COLS=512)
