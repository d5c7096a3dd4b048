"""Scalar f16 and bf16 arithmetic and casts on the control core, bit for bit
as numpy's float16 computes them (every operation rounds to the type) and
as f32 arithmetic rounded once to bf16 does (exact for + - * /: f32 holds
more than twice bf16's precision)."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import emit, run

from mtia_compiler.errors import CompilationError

HALVES = """
#loc = loc("half.py":1:1)
module {
  tt.func public @halves(%h: !tt.ptr<f16> loc("h_ptr"(#loc)), %g: !tt.ptr<bf16> loc("g_ptr"(#loc)),
                         %x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                         %out_h: !tt.ptr<f16> loc("out_h_ptr"(#loc)),
                         %out_g: !tt.ptr<bf16> loc("out_g_ptr"(#loc)),
                         %out_i: !tt.ptr<i32> loc("out_i_ptr"(#loc)),
                         %out_f: !tt.ptr<f32> loc("out_f_ptr"(#loc)),
                         %scale: f16 loc("scale"(#loc)), %n: i64 loc("n"(#loc))) {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %third = arith.constant 0.333251953125 : f16
    %a = tt.load %h : !tt.ptr<f16>
    %h1 = tt.addptr %h, %c1 : !tt.ptr<f16>, i32
    %b = tt.load %h1 : !tt.ptr<f16>
    %product = arith.mulf %a, %b : f16
    %sum = arith.addf %product, %scale : f16
    %quotient = arith.divf %sum, %b : f16
    %root = math.sqrt %quotient : f16
    %diff = arith.subf %root, %third : f16
    tt.store %out_h, %product : !tt.ptr<f16>
    %o1 = tt.addptr %out_h, %c1 : !tt.ptr<f16>, i32
    tt.store %o1, %sum : !tt.ptr<f16>
    %o2 = tt.addptr %out_h, %c2 : !tt.ptr<f16>, i32
    tt.store %o2, %quotient : !tt.ptr<f16>
    %o3 = tt.addptr %out_h, %c3 : !tt.ptr<f16>, i32
    tt.store %o3, %diff : !tt.ptr<f16>
    %wide = tt.load %x : !tt.ptr<f32>
    %narrow = arith.truncf %wide : f32 to f16
    %o4 = tt.addptr %out_h, %c4 : !tt.ptr<f16>, i32
    tt.store %o4, %narrow : !tt.ptr<f16>
    %a32 = arith.extf %a : f16 to f32
    %mixed = arith.mulf %a32, %wide : f32
    %mixed_h = arith.truncf %mixed : f32 to f16
    %o5 = tt.addptr %out_h, %c5 : !tt.ptr<f16>, i32
    tt.store %o5, %mixed_h : !tt.ptr<f16>
    %p = tt.load %g : !tt.ptr<bf16>
    %g1 = tt.addptr %g, %c1 : !tt.ptr<bf16>, i32
    %q = tt.load %g1 : !tt.ptr<bf16>
    %gsum = arith.addf %p, %q : bf16
    %gprod = arith.mulf %gsum, %q : bf16
    tt.store %out_g, %gsum : !tt.ptr<bf16>
    %go1 = tt.addptr %out_g, %c1 : !tt.ptr<bf16>, i32
    tt.store %go1, %gprod : !tt.ptr<bf16>
    %wide64 = arith.extf %wide : f32 to f64
    %gnarrow = arith.truncf %wide64 : f64 to bf16
    %go2 = tt.addptr %out_g, %c2 : !tt.ptr<bf16>, i32
    tt.store %go2, %gnarrow : !tt.ptr<bf16>
    %gn = arith.sitofp %n : i64 to bf16
    %go3 = tt.addptr %out_g, %c3 : !tt.ptr<bf16>, i32
    tt.store %go3, %gn : !tt.ptr<bf16>
    %truncated = arith.fptosi %quotient : f16 to i32
    tt.store %out_i, %truncated : !tt.ptr<i32>
    %less = arith.cmpf olt, %a, %b : f16
    %flag = arith.extui %less : i1 to i32
    %i1 = tt.addptr %out_i, %c1 : !tt.ptr<i32>, i32
    tt.store %i1, %flag : !tt.ptr<i32>
    %hn = arith.sitofp %n : i64 to f16
    %i2 = tt.addptr %out_i, %c2 : !tt.ptr<i32>, i32
    %hn_bits = arith.fptosi %hn : f16 to i32
    tt.store %i2, %hn_bits : !tt.ptr<i32>
    %scale32 = arith.extf %scale : f16 to f32
    tt.store %out_f, %scale32 : !tt.ptr<f32>
    tt.return
  }
}
"""


def bf16_of_f32(values: np.ndarray) -> np.ndarray:
    """f32 values rounded to nearest even bf16, as bf16 bits."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def f32_of_bf16(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("seed", range(6))
def test_scalar_halves_round_after_every_operation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h = (rng.standard_normal(2) * 40).astype(np.float16)
    g = bf16_of_f32(rng.standard_normal(2).astype(np.float32) * 3)
    x = (rng.standard_normal(1) * 100).astype(np.float32)
    # The scale is passed as a double: the kernel sees it rounded to f16.
    scale = float(rng.standard_normal() * 10)
    n = int(rng.integers(-2**62, 2**62)) if seed % 2 else int(rng.integers(-3000, 3000))
    out_h, out_g, out_i = np.zeros(6, np.float16), np.zeros(4, np.uint16), np.zeros(3, np.int32)
    out_f = np.zeros(1, np.float32)
    run(HALVES, [h, g, x, out_h, out_g, out_i, out_f, scale, n])
    assert out_f[0] == np.float32(np.float16(scale))

    a, b = h
    product = a * b
    total = product + np.float16(scale)
    quotient = total / b
    with np.errstate(invalid="ignore"):
        difference = np.sqrt(quotient) - np.float16(0.333251953125)
    mixed = (np.float32(a) * x[0]).astype(np.float16)
    expected_h = np.array([product, total, quotient, difference, x[0].astype(np.float16), mixed],
                          np.float16)
    np.testing.assert_array_equal(out_h.view(np.uint16), expected_h.view(np.uint16))

    p, q = f32_of_bf16(g)
    gsum = bf16_of_f32(p + q)
    gprod = bf16_of_f32(f32_of_bf16(gsum) * q)
    # f32 -> f64 -> bf16 rounds once; an i64 goes to bf16 through f32 exactly
    # only when it fits, so the reference rounds the exact integer.
    expected_n = bf16_of_f32(np.float32(n)) if abs(n) < 2**24 else _bf16_of_int(n)
    np.testing.assert_array_equal(out_g, [gsum, gprod, bf16_of_f32(x)[0], expected_n])

    with np.errstate(over="ignore"):
        n_half = np.float16(n)
    assert out_i.tolist() == [_saturated_i32(quotient), int(a < b), _saturated_i32(n_half)]


def _saturated_i32(value: np.floating) -> int:
    """fptosi as the control core computes it: truncation, saturating at the
    i32 range (NaN gives 0)."""
    if np.isnan(value):
        return 0
    return int(np.clip(np.trunc(np.float64(value)), -2**31, 2**31 - 1))


def _bf16_of_int(value: int) -> int:
    """The bf16 bits of an integer rounded to nearest even (8 significant
    bits), for magnitudes of 2^24 and more."""
    magnitude = abs(value)
    shift = magnitude.bit_length() - 8
    kept, rest = magnitude >> shift, magnitude & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    rounded = np.float32(float(kept << shift) * (1 if value >= 0 else -1))
    return int(rounded.view(np.uint32) >> 16)


def test_the_halves_compute_in_their_own_type() -> None:
    """The instructions name f16 and bf16: no widening to f32 between steps."""
    body = emit(HALVES)
    assert b'"op":"fop","fn":"mul","t":"f16"' in body
    assert b'"op":"fop","fn":"add","t":"bf16"' in body
    assert b'"op":"fun","fn":"sqrt","t":"f16"' in body
    assert b'"op":"itof"' in body and b'"t":"bf16","signed":true' in body


FP8 = """
module {
  tt.func public @fp8(%x: !tt.ptr<f8E4M3FN>) {
    %a = tt.load %x : !tt.ptr<f8E4M3FN>
    %b = arith.addf %a, %a : f8E4M3FN loc("fp8.py":4:9)
    tt.return
  }
}
"""


def test_fp8_scalar_arithmetic_is_refused() -> None:
    with pytest.raises(CompilationError, match=r"^fp8.py:4:9: error: scalar f8e4m3 arithmetic "
                                               r"is not supported: the control core computes "
                                               r"in f16, bf16, f32 and f64 only"):
        emit(FP8)
