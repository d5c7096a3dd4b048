"""`tt.fp_to_fp ... rounding = rtz` (round toward zero) to fp8, f16 and
bf16, end to end against a reference that picks, among every value of the
narrow type, the one of largest magnitude not above the source's."""

from __future__ import annotations

import numpy as np
import pytest

import mtia_compiler

KERNEL = """
module {{
  tt.func public @rtz(%x: !tt.ptr<f32> {{tt.divisibility = 16 : i32}},
                      %out: !tt.ptr<{bits}> {{tt.divisibility = 16 : i32}}) {{
    %range = tt.make_range {{end = 256 : i32, start = 0 : i32}} : tensor<256xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %range : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %a = tt.load %xp : tensor<256x!tt.ptr<f32>>
    %r = tt.fp_to_fp %a, rounding = rtz : tensor<256xf32> -> tensor<256x{narrow}>
    %b = tt.bitcast %r : tensor<256x{narrow}> -> tensor<256x{bits}>
    %os = tt.splat %out : !tt.ptr<{bits}> -> tensor<256x!tt.ptr<{bits}>>
    %op = tt.addptr %os, %range : tensor<256x!tt.ptr<{bits}>>, tensor<256xi32>
    tt.store %op, %b : tensor<256x!tt.ptr<{bits}>>
    tt.return
  }}
}}
"""


def _e4m3fn(bits: int) -> float:
    if bits & 0x7F == 0x7F:
        return float("nan")
    exponent, mantissa = (bits >> 3) & 0xF, bits & 0x7
    if exponent == 0:
        value = mantissa / 8 * 2.0 ** -6
    else:
        value = (1 + mantissa / 8) * 2.0 ** (exponent - 7)
    return -value if bits & 0x80 else value


def _e5m2(bits: int) -> float:
    return float(np.array([bits << 8], np.uint16).view(np.float16)[0])


def _fnuz(bits: int, mantissa_bits: int, bias: int) -> float:
    """An fnuz pattern: 0x80 (negative zero elsewhere) is the NaN, every
    other pattern is finite, the top exponent field included."""
    if bits == 0x80:
        return float("nan")
    exponent, mantissa = (bits & 0x7F) >> mantissa_bits, bits & ((1 << mantissa_bits) - 1)
    if exponent == 0:
        value = mantissa / 2**mantissa_bits * 2.0 ** (1 - bias)
    else:
        value = (1 + mantissa / 2**mantissa_bits) * 2.0 ** (exponent - bias)
    return -value if bits & 0x80 else value


def _e4m3fnuz(bits: int) -> float:
    return _fnuz(bits, mantissa_bits=3, bias=8)


def _e5m2fnuz(bits: int) -> float:
    return _fnuz(bits, mantissa_bits=2, bias=16)


def _bf16(bits: int) -> float:
    return float(np.array([bits << 16], np.uint32).view(np.float32)[0])


def _f16(bits: int) -> float:
    return float(np.array([bits], np.uint16).view(np.float16)[0])


#: narrow type -> (bits type, numpy bits dtype, decoder of a bit pattern, pattern count)
TYPES = {
    "f8E4M3FN": ("i8", np.uint8, _e4m3fn, 256),
    "f8E5M2": ("i8", np.uint8, _e5m2, 256),
    "f8E4M3FNUZ": ("i8", np.uint8, _e4m3fnuz, 256),
    "f8E5M2FNUZ": ("i8", np.uint8, _e5m2fnuz, 256),
    "f16": ("i16", np.uint16, _f16, 1 << 16),
    "bf16": ("i16", np.uint16, _bf16, 1 << 16),
}


def _toward_zero(x: float, patterns: np.ndarray, values: np.ndarray) -> int:
    """The pattern of the largest-magnitude finite value not above |x|, with
    x's sign; infinities and NaN map to themselves."""
    if np.isnan(x):
        return -1
    finite = np.isfinite(values) & (np.signbit(values) == np.signbit(x))
    if np.isinf(x):
        infinite = np.isinf(values) & (np.signbit(values) == np.signbit(x))
        if infinite.any():
            return int(patterns[infinite][0])
    candidates = finite & (np.abs(values) <= abs(x))
    if not candidates.any():
        return 0  # +0: a negative x below the smallest value, without -0
    best = np.argmax(np.where(candidates, np.abs(values), -1.0))
    return int(patterns[best])


@pytest.mark.parametrize("narrow", sorted(TYPES))
def test_round_toward_zero(narrow: str) -> None:
    bits, bits_dtype, decode, count = TYPES[narrow]
    patterns = np.arange(count)
    values = np.array([decode(int(p)) for p in patterns])
    rng = np.random.default_rng(11)
    # Small, unit and near-overflow magnitudes (within f32), and beyond.
    largest = min(float(np.max(np.abs(values[np.isfinite(values)]))), 1e37)
    scales = rng.choice([1e-3, 1.0, largest], 256)
    x = (rng.standard_normal(256) * scales).astype(np.float32)
    # ... and between zero and the smallest magnitude, of either sign.
    smallest = float(np.min(np.abs(values[np.isfinite(values) & (values != 0)])))
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, largest * 4, smallest * 0.75, -smallest * 0.75]
    out = np.zeros(256, bits_dtype)
    kernel = mtia_compiler.compile(KERNEL.format(narrow=narrow, bits=bits))
    kernel.run(x, out)
    for value, got in zip(x, out, strict=True):
        if np.isnan(value):
            assert np.isnan(decode(int(got)))
            continue
        expected = _toward_zero(float(value), patterns, values)
        assert decode(int(got)) == decode(expected), (value, got, expected)
