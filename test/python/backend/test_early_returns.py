# ruff: noqa: ANN001, ANN201
# (@triton.jit functions: annotating their parameters would change how Triton specialises them.)
"""A `@triton.jit` function that returns from inside an `if` has a body of
several blocks; called inside an `if` of the kernel it is still inlined
(`mtia-lift-function-control-flow`) and computes what torch does."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

BLOCK = 64


@triton.jit
def scaled_or_shifted(x, pid):
    if pid % 4 == 0:
        return x * 2.0
    else:
        return x + pid


@triton.jit
def even_programs_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = x
    if pid % 2 == 0:
        y = scaled_or_shifted(x, pid)
    tl.store(out_ptr + offsets, y)


@triton.jit
def first_or_second(x, pid):
    if pid == 0:
        return x + 1
    return x + 2


@triton.jit
def scalar_kernel(out_ptr):
    pid = tl.program_id(0)
    o = tl.load(out_ptr + pid)
    if pid < 2:
        o = first_or_second(o, pid)
    tl.store(out_ptr + pid, o)


def test_a_function_returning_from_both_branches_inside_an_if() -> None:
    programs = 8
    x = torch.randn(programs * BLOCK)
    out = torch.empty_like(x)
    even_programs_kernel[(programs,)](x, out, BLOCK=BLOCK)
    expected = x.clone().view(programs, BLOCK)
    for pid in range(0, programs, 2):
        expected[pid] = expected[pid] * 2.0 if pid % 4 == 0 else expected[pid] + pid
    torch.testing.assert_close(out, expected.view(-1), rtol=0, atol=0)


def test_a_function_returning_early_without_an_else() -> None:
    out = torch.tensor([10, 20, 30], dtype=torch.int32)
    scalar_kernel[(3,)](out)
    assert out.tolist() == [11, 22, 30]
