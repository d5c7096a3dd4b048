"""Triton's float fusion on MTIA: `x * y + z` is one fused multiply-add,
rounded once, unless the kernel is compiled with `enable_fp_fusion=False`
(`mtia-combine-arithmetic{fp-fusion}`); and the maximum of a block scaled by
a scalar reduces the block and scales the row (`mtia-combine-arithmetic`),
with exactly the numbers of the product's maximum for every sign of the
scale."""

from __future__ import annotations

import pytest
import torch

from . import kernels

ROWS, COLS = 8, 64


def reference_multiply_add(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor,
                           fused: bool) -> torch.Tensor:
    if not fused:
        return x * y + z
    # f32 products are exact in f64, so one f64 addition rounded to f32 is
    # the fused result unless the f64 sum itself rounds to a tie, which
    # these inputs avoid (their sums need fewer than 53 bits).
    return (x.double() * y.double() + z.double()).float()


@pytest.mark.parametrize("fused", [True, False])
def test_multiply_add_rounds_once_with_fp_fusion(fused: bool) -> None:
    # (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 in f32; adding
    # -(1 + 2^-11) leaves 2^-24 when the product is not rounded, 0 when it is.
    one_plus = 1.0 + 2.0 ** -12
    x = torch.full((64,), one_plus)
    x[1::2] = torch.linspace(-3.0, 3.0, 32)
    y = x.clone()
    z = torch.full((64,), -(1.0 + 2.0 ** -11))
    z[1::2] = torch.linspace(5.0, -5.0, 32)
    out = torch.full((64,), float("nan"))
    compiled = kernels.multiply_add_kernel[(1,)](x, y, z, out, BLOCK=64,
                                                 enable_fp_fusion=fused)
    expected = reference_multiply_add(x, y, z, fused)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)
    assert out[0].item() == (2.0 ** -24 if fused else 0.0)
    assert ("tile.fma" in compiled.asm["tile"]) == fused


@pytest.mark.parametrize("scale", [0.37, -1.5, 0.0, -0.0, float("nan"), float("inf")])
def test_scaled_row_max_is_the_products_max(scale: float) -> None:
    x = torch.randn(ROWS, COLS)
    # Infinities and NaNs: `0 * inf` is NaN, which the maximum skips, so a
    # zero scale must not give `0 * max(x)`.
    x[1, 3] = float("inf")
    x[2, 5] = float("-inf")
    x[3, 7] = float("nan")
    x[4] = float("inf")
    out = torch.full((ROWS,), 123.0)
    compiled = kernels.scaled_row_max_kernel[(1,)](x, out, scale, ROWS=ROWS, COLS=COLS)
    # tl.max skips NaNs unless every element is one.
    product = x * scale
    expected = torch.where(product.isnan(), float("-inf"), product).amax(dim=1)
    expected = torch.where(product.isnan().all(dim=1), float("nan"), expected)
    torch.testing.assert_close(out, expected, rtol=0, atol=0, equal_nan=True)
    # The branch of a positive scale reduces the block and scales its row
    # maxima.
    assert any("tile.binary mulf" in line and f"tile<{ROWS}xf32>" in line
               for line in compiled.asm["tile"].splitlines())
