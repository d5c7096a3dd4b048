"""Blocks larger than a PE's local memory (384 KiB on mtia-2i): elementwise
kernels run in strips (`mtia-strip-mine-blocks`); what cannot is refused
with a located error that names what takes the memory."""

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


def test_a_reduction_beyond_local_memory_is_refused_at_the_kernel() -> None:
    # A reduction combines the whole block, so it does not run in strips
    # (yet): the error is located at the kernel and names its buffers.
    x = torch.randn(1 << 17)
    out = torch.empty(1)
    with pytest.raises(CompilationError, match=r"test_large_blocks\.py:\d+:1: error: the "
                       r"local-memory plan needs \d+ bytes .*'load0' 524288 B"):
        sum_kernel[(1,)](x, out, BLOCK=1 << 17)
