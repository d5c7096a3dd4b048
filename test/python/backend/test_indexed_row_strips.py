# ruff: noqa: ANN001, ANN201
# (@triton.jit kernels: annotating their parameters would change how Triton specialises them.)
"""The fallback gathers and scatters of large blocks run in strips of rows,
each with index and mask tiles computed on its rows alone (`dma.gather`/
`dma.scatter` with a first `row`): Triton's matmul tutorial wraps its offsets
with `% M`, and where a block crosses the end of the matrix the fallback
gathers it in such strips.
The numbers are those of torch where the fallback runs (blocks that wrap,
rows written twice by a wrapped store), and no index tile of a whole block
takes local memory, so the tutorial's 128 x 256 x 64 block keeps its loads'
prefetch pages."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from mtia_compiler.backend import launches
from mtia_compiler.program import decode

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
import variants  # noqa: E402 (after its folder is on the path)


@triton.jit
def wrapped_copy_kernel(x_ptr, y_ptr, M, BLOCK_M: tl.constexpr, COLS: tl.constexpr,
                        MASKED: tl.constexpr):
    # Rows wrapped with `% M`, as the tutorial wraps them, on the load and
    # the store: a block past the end reads the first rows again and writes
    # them again (the later row of the block wins).
    rows = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = tl.arange(0, COLS)
    offsets = rows[:, None] * COLS + cols[None, :]
    if MASKED:
        mask = cols[None, :] < COLS - 3
        block = tl.load(x_ptr + offsets, mask=mask, other=-1.0)
        tl.store(y_ptr + offsets, block * 2.0, mask=mask)
    else:
        block = tl.load(x_ptr + offsets)
        tl.store(y_ptr + offsets, block * 2.0)


def wrapped_copy_reference(x: np.ndarray, programs: int, block_m: int,
                           masked: bool) -> np.ndarray:
    m, cols = x.shape
    y = np.zeros_like(x)
    kept = cols - 3 if masked else cols
    for program in range(programs):
        for row in range(program * block_m, (program + 1) * block_m):
            y[row % m, :kept] = x[row % m, :kept] * 2
    return y


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("m", [128, 200, 96])
def test_wrapped_rows_gather_and_scatter_in_strips(m: int, masked: bool) -> None:
    # M = 200: the second block wraps; M = 96: the block is larger than the
    # matrix and rows wrap within it.
    block_m, cols = 128, 64
    x = torch.arange(m * cols, dtype=torch.float32).reshape(m, cols)
    y = torch.zeros_like(x)
    programs = triton.cdiv(m, block_m)
    compiled = wrapped_copy_kernel[(programs,)](x, y, m, BLOCK_M=block_m, COLS=cols,
                                               MASKED=masked)
    expected = wrapped_copy_reference(x.numpy(), programs, block_m, masked)
    np.testing.assert_array_equal(y.numpy(), expected)
    # The fallback's index tiles are strips of 16 rows (4 KiB of i32), not
    # the 32 KiB block; masked, of the 61 columns the mask keeps
    # (`mtia-narrow-masked-dimensions`).
    dma = compiled.asm["dma"]
    width = cols - 3 if masked else cols
    assert f"!tile.tile<16x{width}xi32>" in dma
    assert f"!tile.tile<128x{width}xi32>" not in dma
    assert "{row = 112 : i64}" in dma


def test_tutorial_block_keeps_its_prefetch_where_the_fallback_gathers_in_strips() -> None:
    m = n = k = 512
    a = torch.randn(m, k, dtype=torch.float16)
    b = torch.randn(k, n, dtype=torch.float16)
    c = torch.empty(m, n, dtype=torch.float16)
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 256),)
    with launches() as records:
        compiled = variants.gemm_tutorial_kernel[grid](
            a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
            c.stride(1), BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=1e-2, atol=1e-2)
    pages = {cb["name"]: cb["pages"] for cb in decode(compiled.asm["bin"])["cbs"]}
    # `a`'s 16 KiB blocks prefetch 3 ahead, `b`'s 32 KiB blocks 2 ahead.
    assert (pages["load0"], pages["load1"]) == (4, 3), pages
    forward_bytes = [cb["page_bytes"] for cb in decode(compiled.asm["bin"])["cbs"]
                     if cb["name"].startswith("forward")]
    assert max(forward_bytes) <= 32 * 1024, forward_bytes
    assert records[-1].cycles > 0
