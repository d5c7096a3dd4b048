# ruff: noqa: ANN001, ANN201
# (@triton.jit kernels: annotating their parameters would change how Triton specialises them.)
"""Pointers and offsets that loops advance by an invariant step
(`ptrs += BLOCK * stride`) are computed from the induction variable
(`mtia-substitute-induction-variables`): in the body, after the loop, for
loops that run no iteration (a negative step included), with steps the body
computes. The
numbers are exactly those of torch; the loops no longer carry them, so an
attention written this way is pipelined like one that indexes its blocks."""

from __future__ import annotations

import re

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def strided_copy_kernel(x_ptr, y_ptr, last_ptr, start, stop, step, stride,
                        BLOCK: tl.constexpr):
    # Blocks of `stride` elements from `start` to `stop` by `step`: each read
    # through pointers advanced by the loop, then the pointer past the last
    # block read once more after it.
    offs = tl.arange(0, BLOCK)
    src = x_ptr + start * stride + offs
    dst = y_ptr + offs
    for _ in range(start, stop, step):
        tl.store(dst, tl.load(src))
        src += step * stride
        dst += BLOCK
    tl.store(last_ptr + offs, tl.load(src))


@triton.jit
def offsets_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # An integer offset advanced by a step the body computes.
    offs = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    position = 0
    for _ in range(0, n):
        total += tl.load(x_ptr + position + offs)
        position += BLOCK * 2
    tl.store(out_ptr + offs, total)
    tl.store(out_ptr + BLOCK + offs, tl.load(x_ptr + position + offs))


@pytest.mark.parametrize(("start", "stop", "step"),
                         [(0, 5, 1), (1, 8, 3), (2, 11, 4), (4, 4, 1), (5, 2, 1), (9, 2, -2)])
def test_pointers_advanced_by_a_loop(start: int, stop: int, step: int) -> None:
    block, rows = 16, 16
    x = torch.arange(rows * block, dtype=torch.float32)
    y = torch.full((rows * block,), -1.0)
    last = torch.empty(block)
    compiled = strided_copy_kernel[(1,)](x, y, last, start, stop, step, block, BLOCK=block)
    # `scf.for` runs while iv < stop, so a negative step runs no iteration
    # (as Triton's GPU backends run it).
    taken = list(range(start, stop, step)) if step > 0 else []
    expected = torch.full((rows * block,), -1.0)
    for index, row in enumerate(taken):
        expected[index * block:(index + 1) * block] = x[row * block:(row + 1) * block]
    after = start + len(taken) * step
    assert torch.equal(y, expected)
    assert torch.equal(last, x[after * block:(after + 1) * block])
    # The loop carries no pointer any more.
    loops = re.findall(r"scf\.for .*", compiled.asm["tile"])
    assert loops and all("!tt.ptr" not in loop for loop in loops)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_offsets_advanced_by_a_step_the_body_computes(n: int) -> None:
    block = 8
    x = torch.randn(8 * block)
    out = torch.empty(2 * block)
    offsets_kernel[(1,)](x, out, n, BLOCK=block)
    rows = x.reshape(-1, block)
    expected_total = rows[0:2 * n:2].sum(0) if n else torch.zeros(block)
    torch.testing.assert_close(out[:block], expected_total, rtol=1e-6, atol=1e-6)
    assert torch.equal(out[block:], rows[2 * n])
