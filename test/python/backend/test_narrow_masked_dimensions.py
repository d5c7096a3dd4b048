"""Dimensions padded to a power of two and masked by a constant bound on
every load and store are cut to the bound (`mtia-narrow-masked-dimensions`):
attention with head dimensions of 80 and 96, GEMMs whose N or K is a
constant below the block, sums and maxima over padding that holds their
neutral element. The numbers are torch's; where the kernel looks at the
padding (a sum over ones, a store without the mask), nothing is cut and the
padding's values still count."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
import torch

from . import kernels

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
import variants  # noqa: E402 (after its folder is on the path)


@pytest.mark.parametrize("head_dim", [80, 96])
def test_attention_runs_on_the_head_dimension_only(head_dim: int) -> None:
    q, k, v, expected = variants.attention_inputs(1, 2, 2, 256, head_dim, causal=False)
    out = torch.empty_like(q)
    z, h, n, d = q.shape
    compiled = variants.attention_padded_head_kernel[(n // 64, z * h)](
        q, k, v, out, 1 / math.sqrt(d), n, n * d, d, HEAD_DIM=d, BLOCK_D=128, BLOCK_M=64,
        BLOCK_N=64)
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=2e-2)
    tile_ir = compiled.asm["tile"]
    assert f"!tile.tile<64x{head_dim}xf16>, !tile.tile<{head_dim}x64xf16>" in tile_ir
    assert "128x" not in tile_ir and "x128" not in tile_ir


def test_a_matmul_runs_on_its_bounds() -> None:
    torch.manual_seed(0)
    a = torch.randn(128, 40, dtype=torch.float16)
    b = torch.randn(40, 48, dtype=torch.float16)
    c = torch.empty(128, 48)
    compiled = kernels.bounded_matmul_kernel[(2,)](a, b, c, 128, N=48, K=40, BLOCK_M=64, BLOCK_N=64,
                                          BLOCK_K=64)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
    assert ("!tile.tile<64x40xf16>, !tile.tile<40x48xf16> -> !tile.tile<64x48xf32>"
            in compiled.asm["tile"])


def test_the_padding_counts_where_the_kernel_looks_at_it() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 48)
    sums = torch.empty(4)
    kernels.padded_row_sum_kernel[(4,)](x, sums, COLS=48, BLOCK=64)
    torch.testing.assert_close(sums, x.double().sum(1).float() + 16, rtol=1e-5, atol=1e-5)
    out = torch.full((4, 64), float("nan"))
    kernels.unmasked_store_kernel[(4,)](x, out, COLS=48, BLOCK=64)
    torch.testing.assert_close(out, torch.nn.functional.pad(x, (0, 16)))


def test_reductions_over_neutral_padding_run_on_the_bound() -> None:
    torch.manual_seed(0)
    x = -torch.rand(4, 48) - 1
    sums, maxima = torch.empty(4), torch.empty(4)
    compiled = kernels.padded_row_stats_kernel[(4,)](x, sums, maxima, COLS=48, BLOCK=64)
    torch.testing.assert_close(sums, x.double().sum(1).float(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(maxima, x.amax(1), rtol=0, atol=0)
    assert "!tile.tile<48xf32>" in compiled.asm["tile"]
    assert "64x" not in compiled.asm["tile"] and "<64xf32>" not in compiled.asm["tile"]
