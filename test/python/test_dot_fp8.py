"""`tl.dot` of fp8 operands (float8e4nv and float8e5) end to end: the DPE
multiplies them widened to f16, exactly, and accumulates in f32."""

from __future__ import annotations

import numpy as np

import mtia_compiler

KERNEL = """
module {
  tt.func public @dot_fp8(%a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32},
                          %b: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32},
                          %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %zero = arith.constant dense<0.0> : tensor<32x32xf32>
    %c16 = arith.constant dense<16> : tensor<32x1xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %c32b = arith.constant dense<32> : tensor<32x1xi32>
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %ks = tt.expand_dims %r16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %krows = tt.expand_dims %r16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %cols = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %arow = arith.muli %rows, %c16 : tensor<32x1xi32>
    %arows = tt.broadcast %arow : tensor<32x1xi32> -> tensor<32x16xi32>
    %acols = tt.broadcast %ks : tensor<1x16xi32> -> tensor<32x16xi32>
    %aoff = arith.addi %arows, %acols : tensor<32x16xi32>
    %as = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<32x16x!tt.ptr<f8E4M3FN>>
    %ap = tt.addptr %as, %aoff : tensor<32x16x!tt.ptr<f8E4M3FN>>, tensor<32x16xi32>
    %av = tt.load %ap : tensor<32x16x!tt.ptr<f8E4M3FN>>
    %brow = arith.muli %krows, %c32 : tensor<16x1xi32>
    %brows = tt.broadcast %brow : tensor<16x1xi32> -> tensor<16x32xi32>
    %bcols = tt.broadcast %cols : tensor<1x32xi32> -> tensor<16x32xi32>
    %boff = arith.addi %brows, %bcols : tensor<16x32xi32>
    %bs = tt.splat %b : !tt.ptr<f8E5M2> -> tensor<16x32x!tt.ptr<f8E5M2>>
    %bp = tt.addptr %bs, %boff : tensor<16x32x!tt.ptr<f8E5M2>>, tensor<16x32xi32>
    %bv = tt.load %bp : tensor<16x32x!tt.ptr<f8E5M2>>
    %d = tt.dot %av, %bv, %zero : tensor<32x16xf8E4M3FN> * tensor<16x32xf8E5M2> -> tensor<32x32xf32>
    %crow = arith.muli %rows, %c32b : tensor<32x1xi32>
    %crows = tt.broadcast %crow : tensor<32x1xi32> -> tensor<32x32xi32>
    %ccols = tt.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
    %coff = arith.addi %crows, %ccols : tensor<32x32xi32>
    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
    %cp = tt.addptr %cs, %coff : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %cp, %d : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}
"""


def decode_e4m3fn(bits: np.ndarray) -> np.ndarray:
    """float8e4nv bit patterns (no infinities; 0x7f/0xff are NaN) as float64."""
    sign = np.where(bits & 0x80, -1.0, 1.0)
    exponent = (bits >> 3) & 0xF
    mantissa = (bits & 0x7).astype(np.float64)
    normal = (1.0 + mantissa / 8.0) * np.exp2(exponent.astype(np.float64) - 7.0)
    subnormal = mantissa / 8.0 * np.exp2(-6.0)
    return sign * np.where(exponent == 0, subnormal, normal)


def decode_e5m2(bits: np.ndarray) -> np.ndarray:
    """float8e5 bit patterns: the upper byte of an IEEE f16."""
    return (bits.astype(np.uint16) << 8).view(np.float16).astype(np.float64)


def test_fp8_dot_matches_the_exact_products() -> None:
    rng = np.random.default_rng(8)
    # Every finite pattern of either format, NaN and infinities left out.
    a = rng.integers(0, 256, (32, 16), dtype=np.uint8)
    a[(a & 0x7F) == 0x7F] = 0x38  # 1.0
    b = rng.integers(0, 256, (16, 32), dtype=np.uint8)
    b[(b & 0x7C) == 0x7C] = 0x3C  # 1.0
    c = np.zeros((32, 32), np.float32)
    kernel = mtia_compiler.compile(KERNEL)
    kernel.run(a, b, c, grid=1)
    expected = decode_e4m3fn(a) @ decode_e5m2(b)
    # Products are exact in f32; only the f32 sums round.
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())
