"""Scalar `math.fma` on the control core: one rounding, unlike a multiply
and an add."""

from __future__ import annotations

import numpy as np
import pytest

import mtia_compiler

KERNEL = """
module {{
  tt.func public @fma(%out: !tt.ptr<{t}>, %a: {t}, %b: {t}, %c: {t}) {{
    %r = math.fma %a, %b, %c : {t}
    tt.store %out, %r : !tt.ptr<{t}>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize(("dtype", "bits"), [("f32", 12), ("f64", 30)])
def test_scalar_fma_rounds_once(dtype: str, bits: int) -> None:
    # (1 + e)^2 - (1 + 2e) is e^2, which the product alone rounds away.
    e = 2.0 ** -bits
    out = np.zeros(1, np.float32 if dtype == "f32" else np.float64)
    kernel = mtia_compiler.compile(KERNEL.format(t=dtype))
    kernel.run(out, 1 + e, 1 + e, -(1 + 2 * e), grid=1)
    assert out[0] == e * e
