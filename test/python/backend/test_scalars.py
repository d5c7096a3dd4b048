"""Scalar operations of the control core, launched through the backend."""

from __future__ import annotations

import pytest
import torch
import triton.language as tl

from . import kernels

BITCAST_TYPES = [
    (torch.float16, torch.int16, tl.float16, tl.int16),
    (torch.bfloat16, torch.int16, tl.bfloat16, tl.int16),
    (torch.float32, torch.int32, tl.float32, tl.int32),
    (torch.float64, torch.int64, tl.float64, tl.int64),
]


@pytest.mark.parametrize(("float_dtype", "int_dtype", "float_type", "int_type"), BITCAST_TYPES)
@pytest.mark.parametrize("value", [1.5, -0.0, -3.25e-3, float("inf")])
def test_scalar_bitcasts_between_floats_and_integers(float_dtype: torch.dtype,
                                                     int_dtype: torch.dtype, float_type: object,
                                                     int_type: object, value: float) -> None:
    floats = torch.tensor([value], dtype=float_dtype)
    # Bit patterns of negative and positive floats, and of a NaN-free value.
    ints = torch.tensor([-2.5], dtype=float_dtype).view(int_dtype)
    float_out = torch.zeros(1, dtype=float_dtype)
    int_out = torch.zeros(1, dtype=int_dtype)
    kernels.scalar_bitcast_kernel[(1,)](floats, ints, float_out, int_out, FLOAT=float_type,
                                        INT=int_type)
    assert int_out.item() == floats.view(int_dtype).item()
    assert float_out.item() == ints.view(float_dtype).item() * 2


def test_scalar_conversions_between_f16_and_bf16() -> None:
    # 1 + 2^-9 is an f16 but no bf16 (it rounds to 1);
    # 70000 is a bf16 beyond f16's range (infinity); 1/3 rounds either way.
    halves = torch.tensor([1 + 2.0 ** -9], dtype=torch.float16)
    for brain_first in (70000.0, 1 / 3):
        brains = torch.tensor([brain_first, 0.5, -3.0, 1e-3], dtype=torch.bfloat16)
        sums = torch.zeros(4)
        to_brain = torch.zeros(1, dtype=torch.bfloat16)
        to_half = torch.zeros(1, dtype=torch.float16)
        kernels.scalar_half_conversions_kernel[(1,)](halves, brains, sums, to_brain, to_half,
                                                     BLOCK=4)
        # Triton adds an f16 and a bf16 in f16 (the bf16 converted first).
        assert torch.equal(sums, (halves + brains.to(torch.float16)).float())
        assert torch.equal(to_brain, halves.to(torch.bfloat16))
        assert torch.equal(to_half, brains[:1].to(torch.float16))


def test_libdevice_calls_and_clamps_of_scalars() -> None:
    x = torch.rand(16) + 0.5
    out = torch.zeros(20)
    kernels.scalar_libdevice_kernel[(1,)](x, out, BLOCK=16)
    first, total = x[0], x.sum()
    expected = torch.cat([torch.stack([total.rsqrt(), first.clamp(0.25, 0.75), first ** 3,
                                       first.exp() + total]), x ** -2])
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-6)


def test_item_of_a_one_element_block() -> None:
    x = torch.tensor([1.5, -2.0, 0.25])
    out = torch.zeros(3)
    kernels.item_kernel[(3,)](x, out, ROWS=3)
    torch.testing.assert_close(out, x * 2 + 3, rtol=0, atol=0)
