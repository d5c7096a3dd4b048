"""f16 and bf16 arithmetic on the control core: every result is rounded to
the type (to nearest even), bit for bit as numpy's float16 and an exact
rational reference compute it."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from half_reference import BF16, F16, bf16_bits, bf16_values

from mtia_compiler.program import ProgramBuilder, Reg
from mtia_compiler.sim import SimulationError, Simulator

BINARY = ("add", "sub", "mul", "div")
EXACT_OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b,
             "mul": lambda a, b: a * b, "div": lambda a, b: a / b}


def half_operands(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """f16 pairs over the whole range: random bit patterns (subnormals,
    overflowing products and quotients included) plus chosen edge cases."""
    bits = rng.integers(0, 1 << 16, (2, count), dtype=np.uint16)
    a, b = bits.view(np.float16)
    edges_a = np.array([1.0, 65504.0, 6e-08, -2.0, 0.0, -0.0, 2049.0, 0.1], np.float16)
    edges_b = np.array([2.0**-11, 32.0, 0.5, 3.0, -0.0, 0.0, 1.0, 3.0], np.float16)
    return np.concatenate([a, edges_a]), np.concatenate([b, edges_b])


def binary_program(fn: str, dtype: str, count: int) -> bytes:
    """out[i] = fn(a[i], b[i]) computed by the control core in ``dtype``; the
    result register is stored as f64, so that it shows whether it holds the
    rounded value."""
    b = ProgramBuilder("scalar_binary")
    a_ptr, b_ptr = (b.param(b.param_ptr(name, dtype)) for name in ("a", "b"))
    out_ptr = b.param(b.param_ptr("out", "f64"))
    with b.for_range(0, count) as i:
        offset = b.mul(i, 2)
        x = b.load_scalar(b.add(a_ptr, offset), dtype)
        y = b.load_scalar(b.add(b_ptr, offset), dtype)
        assert not isinstance(x, Reg) and not isinstance(y, Reg)
        b.store_scalar(b.add(out_ptr, b.mul(i, 8)), b.fop(fn, x, y, dtype), "f64")
    return b.build()


@pytest.mark.parametrize("fn", BINARY)
def test_f16_arithmetic_matches_numpy(fn: str, rng: np.random.Generator) -> None:
    a, b = half_operands(rng, 2000)
    out = np.zeros(a.size, np.float64)
    Simulator().run(binary_program(fn, "f16", a.size), [a, b, out])
    with np.errstate(all="ignore"):
        expected = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
                    "div": np.divide}[fn](a, b).astype(np.float64)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(out), nan)
    # Bit for bit, so that the sign of zero counts.
    np.testing.assert_array_equal(out[~nan].view(np.int64), expected[~nan].view(np.int64))
    # The rational reference agrees wherever the operands are finite.
    for x, y, got in zip(a[:200], b[:200], out[:200], strict=True):
        if np.isfinite(x) and np.isfinite(y) and not (fn == "div" and y == 0):
            exact = EXACT_OPS[fn](Fraction(float(x)), Fraction(float(y)))
            assert float(got) == F16.round(exact), (fn, x, y)


@pytest.mark.parametrize("fn", BINARY)
def test_bf16_arithmetic_matches_the_exact_reference(fn: str,
                                                     rng: np.random.Generator) -> None:
    values = rng.standard_normal(1200) * np.exp2(rng.integers(-140, 120, 1200))
    finite = np.array([BF16.round(float(v)) for v in values])
    a_bits = bf16_bits(finite[:600])
    b_bits = bf16_bits(finite[600:])
    # Edge cases: 1 + 2^-8 is halfway between two bf16 values, 1.5 * 2^127
    # doubled overflows, 2^-133 is the smallest subnormal.
    a_bits = np.concatenate([a_bits, bf16_bits(np.array([1.0, 1.5 * 2.0**127, 1.0, 2.0**-133]))])
    b_bits = np.concatenate([b_bits, bf16_bits(np.array([2.0**-8, 1.5 * 2.0**127, 3.0, 0.75]))])
    got = np.zeros(a_bits.size, np.float64)
    Simulator().run(binary_program(fn, "bf16", a_bits.size), [a_bits, b_bits, got])
    for x, y, result in zip(bf16_values(a_bits), bf16_values(b_bits), got, strict=True):
        if fn == "div" and y == 0:
            continue
        exact = EXACT_OPS[fn](Fraction(float(x)), Fraction(float(y)))
        assert result == BF16.round(exact), (fn, x, y, result)
    if fn == "add":
        assert got[-4] == 1.0 and got[-3] == np.inf  # a tie to even and an overflow


def unary_program(fn: str, dtype: str, count: int) -> bytes:
    """out[i] = fn(a[i]) in ``dtype``, the register stored as f64."""
    b = ProgramBuilder("scalar_unary")
    a_ptr, out_ptr = b.param(b.param_ptr("a", dtype)), b.param(b.param_ptr("out", "f64"))
    with b.for_range(0, count) as i:
        x = b.load_scalar(b.add(a_ptr, b.mul(i, 2)), dtype)
        assert not isinstance(x, Reg)
        b.store_scalar(b.add(out_ptr, b.mul(i, 8)), b.fun(fn, x, dtype), "f64")
    return b.build()


def test_f16_sqrt_and_sign_ops_match_numpy(rng: np.random.Generator) -> None:
    a = rng.integers(0, 0x7C00, 3000, dtype=np.uint16).view(np.float16)  # finite, >= 0
    for fn, reference in (("sqrt", np.sqrt), ("neg", np.negative), ("abs", np.abs)):
        out = np.zeros(a.size, np.float64)
        Simulator().run(unary_program(fn, "f16", a.size), [a, out])
        np.testing.assert_array_equal(out.view(np.int64),
                                      reference(a).astype(np.float64).view(np.int64))


def test_bf16_sqrt_is_correctly_rounded(rng: np.random.Generator) -> None:
    bits = rng.integers(0, 0x7F80, 1000, dtype=np.uint16)
    out = np.zeros(bits.size, np.float64)
    Simulator().run(unary_program("sqrt", "bf16", bits.size), [bits, out])
    # The double square root is correctly rounded and has more than twice
    # bf16's precision, so rounding it again is exact.
    expected = [BF16.round(float(np.sqrt(v))) for v in bf16_values(bits)]
    np.testing.assert_array_equal(out, expected)


def test_half_compares_see_the_rounded_operands() -> None:
    """The f64 register 1 + 2^-12 rounds to 1.0 in f16 and bf16, so it
    compares equal to 1.0 there (and not in f32)."""
    b = ProgramBuilder("compare")
    out = b.param(b.param_ptr("out", "i32"))
    near, one = b.fconst(1.0 + 2.0**-12), b.fconst(1.0)
    for index, dtype in enumerate(("f16", "bf16", "f32")):
        b.store_scalar(b.add(out, 4 * index), b.fcmp("oeq", near, one, dtype), "i32")
    result = np.full(3, -1, np.int32)
    Simulator().run(b.build(), [result])
    assert result.tolist() == [1, 1, 0]


def conversion_program(values: list[int], dtype: str, signed: bool = True) -> bytes:
    """Converts every value to ``dtype`` and stores the register as f64."""
    b = ProgramBuilder("itof")
    out = b.param(b.param_ptr("out", "f64"))
    for index, value in enumerate(values):
        converted = b.itof(b.const(value), dtype, signed=signed)
        b.store_scalar(b.add(out, 8 * index), converted, "f64")
    return b.build()


LARGE = [2**60 + 2**52 + 1, -(2**60 + 2**52 + 1), 2**60 + 2**52, 2**63 - 1, -(2**63), 3, -7,
         2**24 + 1, 65519, 65520, 123456789]


def test_integers_convert_to_bf16_with_one_rounding() -> None:
    """2^60 + 2^52 + 1 lies just above the midpoint between two bf16 values:
    rounding it to a double first would land on the midpoint and round to
    even, down; one rounding goes up."""
    out = np.zeros(len(LARGE), np.float64)
    Simulator().run(conversion_program(LARGE, "bf16"), [out])
    np.testing.assert_array_equal(out, [BF16.round(Fraction(v)) for v in LARGE])
    assert out[0] == 2.0**60 + 2.0**53


def test_integers_convert_to_f16_with_one_rounding() -> None:
    out = np.zeros(len(LARGE), np.float64)
    Simulator().run(conversion_program(LARGE, "f16"), [out])
    np.testing.assert_array_equal(out, [F16.round(Fraction(v)) for v in LARGE])
    unsigned = np.zeros(2, np.float64)
    Simulator().run(conversion_program([-1, 65504], "f16", signed=False), [unsigned])
    assert unsigned.tolist() == [np.inf, 65504.0]


def test_rounding_a_double_to_half_types() -> None:
    """``x + -0.0`` computed in the narrow type rounds x once (arith.truncf)."""
    values = [1.0 / 3, 65519.99, 65520.0, 5.960464477539063e-08 * 0.5000001, -1e-30, 1 + 2.0**-8]
    b = ProgramBuilder("round")
    f16_out, bf16_out = b.param(b.param_ptr("h", "f64")), b.param(b.param_ptr("b", "f64"))
    zero = b.fconst(-0.0)
    for index, value in enumerate(values):
        reg = b.fconst(value)
        b.store_scalar(b.add(f16_out, 8 * index), b.fop("add", reg, zero, "f16"), "f64")
        b.store_scalar(b.add(bf16_out, 8 * index), b.fop("add", reg, zero, "bf16"), "f64")
    halves, brains = np.zeros(len(values), np.float64), np.zeros(len(values), np.float64)
    Simulator().run(b.build(), [halves, brains])
    with np.errstate(over="ignore"):
        expected = np.array(values).astype(np.float16).astype(np.float64)
    np.testing.assert_array_equal(halves.view(np.int64), expected.view(np.int64))
    np.testing.assert_array_equal(brains.view(np.int64),
                                  np.array([BF16.round(v) for v in values]).view(np.int64))


def test_fp8_is_not_a_scalar_type() -> None:
    b = ProgramBuilder("fp8")
    b.fop("add", b.fconst(1.0), b.fconst(2.0), "f8e4m3")
    with pytest.raises(SimulationError) as error:
        Simulator().run(b.build(), [])
    assert error.value.kind == "invalid_program"
    assert "field 't' must be f16, bf16, f32 or f64" in str(error.value)
