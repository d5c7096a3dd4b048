"""SIMD/SFU results against numpy: integer ops bit-exact, IEEE basic float
ops exact, transcendental functions within 2 ulp-ish relative tolerance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import run_tile

from mtia_compiler.program import Broadcast, ProgramBuilder, Slot
from mtia_compiler.sim import SimulationError, parse_program

N = 1000


def binary(fn: str, dtype: str, x: np.ndarray, y: np.ndarray, np_type: type) -> np.ndarray:
    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_binary(fn, dtype, out, ins[0], ins[1], x.size)

    return run_tile([(x, dtype), (y, dtype)], dtype, np_type, x.size, emit)


@pytest.mark.parametrize(("fn", "ref"), [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
    ("maxnum", np.fmax), ("minnum", np.fmin), ("max", np.maximum), ("min", np.minimum),
])
def test_float_binary_exact(fn: str, ref: np.ufunc, rng: np.random.Generator) -> None:
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    x[:4] = [np.nan, 1.0, -0.0, np.inf]
    y[:4] = [1.0, np.nan, 0.0, 2.0]
    got = binary(fn, "f32", x, y, np.float32)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, ref(x, y))


@pytest.mark.parametrize(("fn", "ref"), [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
    ("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor),
    ("max", np.maximum), ("min", np.minimum),
])
def test_int_binary_exact(fn: str, ref: np.ufunc, rng: np.random.Generator) -> None:
    x = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    y = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    np.testing.assert_array_equal(binary(fn, "i32", x, y, np.int32), ref(x, y))


def test_int_division_and_shifts(rng: np.random.Generator) -> None:
    x = rng.integers(-10**6, 10**6, N).astype(np.int32)
    y = rng.integers(1, 1000, N).astype(np.int32) * rng.choice([-1, 1], N).astype(np.int32)
    # C semantics: truncation toward zero.
    np.testing.assert_array_equal(binary("div", "i32", x, y, np.int32),
                                  (np.trunc(x / y)).astype(np.int32))
    np.testing.assert_array_equal(binary("rem", "i32", x, y, np.int32),
                                  np.fmod(x, y).astype(np.int32))
    shifts = rng.integers(0, 32, N).astype(np.int32)
    np.testing.assert_array_equal(binary("shl", "i32", x, shifts, np.int32),
                                  np.left_shift(x, shifts))
    np.testing.assert_array_equal(binary("shrs", "i32", x, shifts, np.int32),
                                  np.right_shift(x, shifts))
    ux = x.view(np.uint32)
    np.testing.assert_array_equal(binary("shru", "i32", x, shifts, np.int32).view(np.uint32),
                                  np.right_shift(ux, shifts.view(np.uint32)))


def test_mulhiu_matches_wide_product(rng: np.random.Generator) -> None:
    x = rng.integers(0, 2**32, N, dtype=np.uint64)
    y = rng.integers(0, 2**32, N, dtype=np.uint64)
    got = binary("mulhiu", "i32", x.astype(np.uint32).view(np.int32),
                 y.astype(np.uint32).view(np.int32), np.int32)
    np.testing.assert_array_equal(got.view(np.uint32), ((x * y) >> 32).astype(np.uint32))


@pytest.mark.parametrize(("fn", "ref"), [
    ("exp", np.exp), ("exp2", np.exp2), ("log", np.log), ("log2", np.log2),
    ("sqrt", np.sqrt), ("sin", np.sin), ("cos", np.cos), ("tanh", np.tanh),
    ("rsqrt", lambda v: 1 / np.sqrt(v)), ("erf", np.vectorize(math.erf)),
    ("floor", np.floor), ("ceil", np.ceil), ("abs", np.abs), ("neg", np.negative),
])
def test_float_unary(fn: str, ref: np.ufunc, rng: np.random.Generator) -> None:
    x = (rng.random(N) * 8 + 0.01).astype(np.float32)

    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_unary(fn, "f32", out, ins[0], N)

    got = run_tile([(x, "f32")], "f32", np.float32, N, emit)
    expected = ref(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(got, expected, rtol=2e-7 * 4, atol=0)


@pytest.mark.parametrize(("pred", "ref"), [
    ("olt", np.less), ("oge", np.greater_equal), ("une", np.not_equal), ("oeq", np.equal),
])
def test_float_compare_with_nan(pred: str, ref: np.ufunc, rng: np.random.Generator) -> None:
    x = rng.integers(-3, 3, N).astype(np.float32)
    y = rng.integers(-3, 3, N).astype(np.float32)
    x[::7] = np.nan

    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_cmp(pred, "f32", out, ins[0], ins[1], N)

    got = run_tile([(x, "f32"), (y, "f32")], "i1", np.uint8, N, emit)
    np.testing.assert_array_equal(got, ref(x, y).astype(np.uint8))


def test_select_with_scalar_operand(rng: np.random.Generator) -> None:
    x = rng.standard_normal(N).astype(np.float32)
    mask = (rng.random(N) > 0.5).astype(np.uint8)

    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_select("f32", out, ins[0], ins[1], -1.5, N)

    got = run_tile([(mask, "i1"), (x, "f32")], "f32", np.float32, N, emit)
    np.testing.assert_array_equal(got, np.where(mask == 1, x, np.float32(-1.5)))


def test_fma_is_single_rounding(rng: np.random.Generator) -> None:
    a = rng.standard_normal(N).astype(np.float32)
    b_ = rng.standard_normal(N).astype(np.float32)
    c = rng.standard_normal(N).astype(np.float32)

    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_fma("f32", out, ins[0], ins[1], ins[2], N)

    got = run_tile([(a, "f32"), (b_, "f32"), (c, "f32")], "f32", np.float32, N, emit)
    exact = (a.astype(np.float64) * b_ + c).astype(np.float32)
    np.testing.assert_array_equal(got, exact)


def test_bf16_arithmetic_rounds_once(rng: np.random.Generator) -> None:
    x = (rng.standard_normal(N).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    y = (rng.standard_normal(N).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    got = binary("add", "bf16", x, y, np.uint16)
    wide = ((x.astype(np.uint32) << 16).view(np.float32)
            + (y.astype(np.uint32) << 16).view(np.float32))
    np.testing.assert_array_equal(got, bf16_rne(wide))


def bf16_rne(values: np.ndarray) -> np.ndarray:
    """Reference f32 -> bf16 (round to nearest even) by integer arithmetic."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def test_broadcast_inputs_read_a_tile_with_zero_strides(rng: np.random.Generator) -> None:
    """`x - row_max[:, None]` and `x * col_scale[None, :]`, `x` 12x20: the
    column and the row are read through broadcast inputs, and so is a 3-D
    replication of a 2x1x4 tile (strides 4, 0, 1)."""
    x = rng.standard_normal(240).astype(np.float32)
    column = rng.standard_normal(12).astype(np.float32)
    row = rng.standard_normal(20).astype(np.float32)
    small = rng.standard_normal(8).astype(np.float32)

    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_binary("sub", "f32", out, ins[0], Broadcast(ins[1], (12, 20), (1, 0)), 240)
        b.simd_binary("mul", "f32", out, out, Broadcast(ins[2], (12, 20), (0, 1)), 240)
        b.simd_binary("add", "f32", out, out, Broadcast(ins[3], (2, 30, 4), (4, 0, 1)), 240)

    got = run_tile([(x, "f32"), (column, "f32"), (row, "f32"), (small, "f32")], "f32",
                   np.float32, 240, emit)
    expected = (x.reshape(12, 20) - column[:, None]) * row[None, :]
    expected = expected.reshape(2, 30, 4) + small.reshape(2, 1, 4)
    np.testing.assert_array_equal(got, expected.ravel())


@pytest.mark.parametrize(("broadcast", "message"), [
    ({"shape": [3, 5], "strides": [1, 0]}, "must have the instruction's n elements"),
    ({"shape": [4, 4], "strides": [-1, 0]}, "must not be negative"),
    ({"shape": [4, 4], "strides": [100, 0]}, "an operand needs"),
])
def test_broadcast_inputs_are_checked_at_load(broadcast: dict, message: str) -> None:
    b = ProgramBuilder("bad_broadcast")
    cb = b.cb("t", 256, 1)
    slot = cb.back()
    b.simd_binary("add", "f32", slot, slot,
                  Broadcast(slot, tuple(broadcast["shape"]), tuple(broadcast["strides"])), 16)
    with pytest.raises(SimulationError) as info:
        parse_program(b)
    assert info.value.kind == "invalid_program"
    assert message in str(info.value)
