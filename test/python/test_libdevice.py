"""libdevice functions of CUDA-targeted TTIR (`__nv_*`) and their `math`
dialect twins, end to end against numpy."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import mtia_compiler

KERNEL = """
module {{
  tt.func public @apply(%x: !tt.ptr<f32> {{tt.divisibility = 16 : i32}},
                        %y: !tt.ptr<f32> {{tt.divisibility = 16 : i32}},
                        %out: !tt.ptr<{result}> {{tt.divisibility = 16 : i32}}) {{
    %range = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %a = tt.load %xp : tensor<64x!tt.ptr<f32>>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %b = tt.load %yp : tensor<64x!tt.ptr<f32>>
    {body}
    %os = tt.splat %out : !tt.ptr<{result}> -> tensor<64x!tt.ptr<{result}>>
    %op = tt.addptr %os, %range : tensor<64x!tt.ptr<{result}>>, tensor<64xi32>
    tt.store %op, %r : tensor<64x!tt.ptr<{result}>>
    tt.return
  }}
}}
"""

Reference = Callable[[np.ndarray, np.ndarray], np.ndarray]


def libdevice(symbol: str, operands: int, result: str = "f32") -> str:
    arguments = ", ".join(["%a", "%b"][:operands])
    types = ", ".join(["tensor<64xf32>"] * operands)
    return (f'%r = tt.extern_elementwise {arguments} {{libname = "", libpath = "", pure = true, '
            f'symbol = "__nv_{symbol}"}} : ({types}) -> tensor<64x{result}>')


def math_op(name: str, operands: int) -> str:
    return f"%r = math.{name} {', '.join(['%a', '%b'][:operands])} : tensor<64xf32>"


#: (body, result type, reference, low and high of the inputs)
CASES: dict[str, tuple[str, str, Reference, float, float]] = {
    "expm1f": (libdevice("expm1f", 1), "f32", lambda a, b: np.expm1(a), -3, 3),
    "log1pf": (libdevice("log1pf", 1), "f32", lambda a, b: np.log1p(a), -0.9, 5),
    "log10f": (libdevice("log10f", 1), "f32", lambda a, b: np.log10(a), 0.01, 100),
    "tanf": (libdevice("tanf", 1), "f32", lambda a, b: np.tan(a), -1.5, 1.5),
    "asinf": (libdevice("asinf", 1), "f32", lambda a, b: np.arcsin(a), -1, 1),
    "acosf": (libdevice("acosf", 1), "f32", lambda a, b: np.arccos(a), -1, 1),
    "atanf": (libdevice("atanf", 1), "f32", lambda a, b: np.arctan(a), -10, 10),
    "sinhf": (libdevice("sinhf", 1), "f32", lambda a, b: np.sinh(a), -5, 5),
    "coshf": (libdevice("coshf", 1), "f32", lambda a, b: np.cosh(a), -5, 5),
    "asinhf": (libdevice("asinhf", 1), "f32", lambda a, b: np.arcsinh(a), -5, 5),
    "acoshf": (libdevice("acoshf", 1), "f32", lambda a, b: np.arccosh(a), 1, 9),
    "atanhf": (libdevice("atanhf", 1), "f32", lambda a, b: np.arctanh(a), -0.99, 0.99),
    "erfcf": (libdevice("erfcf", 1), "f32", lambda a, b: _erfc(a), -3, 3),
    "cbrtf": (libdevice("cbrtf", 1), "f32", lambda a, b: np.cbrt(a), -8, 8),
    "erfinvf": (libdevice("erfinvf", 1), "f32", lambda a, b: _erfinv(a), -0.999, 0.999),
    "truncf": (libdevice("truncf", 1), "f32", lambda a, b: np.trunc(a), -9, 9),
    "roundf": (libdevice("roundf", 1), "f32",
               lambda a, b: np.sign(a) * np.floor(np.abs(a) + 0.5), -9, 9),
    "nearbyintf": (libdevice("nearbyintf", 1), "f32", lambda a, b: np.rint(a), -9, 9),
    "atan2f": (libdevice("atan2f", 2), "f32", np.arctan2, -4, 4),
    "copysignf": (libdevice("copysignf", 2), "f32", np.copysign, -4, 4),
    "fmaf": ('%r = tt.extern_elementwise %a, %b, %a {libname = "", libpath = "", pure = true, '
             'symbol = "__nv_fmaf"} : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) '
             '-> tensor<64xf32>', "f32", lambda a, b: a * b + a, -4, 4),
    "signbitf": (libdevice("signbitf", 1, "i32"), "i32",
                 lambda a, b: np.signbit(a).astype(np.int32), -4, 4),
    "isnanf": (libdevice("isnanf", 1, "i32"), "i32",
               lambda a, b: np.isnan(a).astype(np.int32), -4, 4),
    "isinff": (libdevice("isinff", 1, "i32"), "i32",
               lambda a, b: np.isinf(a).astype(np.int32), -4, 4),
    "math.log1p": (math_op("log1p", 1), "f32", lambda a, b: np.log1p(a), -0.9, 5),
    "math.atan2": (math_op("atan2", 2), "f32", np.arctan2, -4, 4),
    "math.trunc": (math_op("trunc", 1), "f32", lambda a, b: np.trunc(a), -9, 9),
}


def _erfinv(a: np.ndarray) -> np.ndarray:
    """Bisection on math.erf in double precision."""
    from math import erf

    def invert(y: float) -> float:
        low, high = -6.0, 6.0
        for _ in range(100):
            middle = (low + high) / 2
            low, high = (middle, high) if erf(middle) < y else (low, middle)
        return (low + high) / 2

    return np.array([invert(float(v)) for v in a], np.float32)


def _erfc(a: np.ndarray) -> np.ndarray:
    from math import erfc
    return np.array([erfc(float(v)) for v in a], np.float32)


@pytest.mark.parametrize("name", sorted(CASES))
def test_function(name: str) -> None:
    body, result, reference, low, high = CASES[name]
    kernel = mtia_compiler.compile(KERNEL.format(body=body, result=result))
    rng = np.random.default_rng(7)
    a = rng.uniform(low, high, 64).astype(np.float32)
    b = rng.uniform(low, high, 64).astype(np.float32)
    # Special values where the function has them: halves to round, a signed
    # zero, NaN and infinities to classify.
    if result == "i32":
        a[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, -np.nan]
    elif name in ("roundf", "nearbyintf", "truncf"):
        a[:4] = [0.5, 1.5, -2.5, -0.5]
    out = np.zeros(64, np.float32 if result == "f32" else np.int32)
    kernel.run(a, b, out)
    expected = reference(a, b)
    if result == "i32":
        np.testing.assert_array_equal(out, expected)
    else:
        np.testing.assert_allclose(out, expected.astype(np.float32), rtol=2e-6, atol=2e-6)


#: libdevice bit counts of i32 or i64 integers, each giving i32.
BIT_KERNEL = """
module {{
  tt.func public @count(%x: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}},
                        %out: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}) {{
    %range = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32>
    %xs = tt.splat %x : !tt.ptr<{t}> -> tensor<64x!tt.ptr<{t}>>
    %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<{t}>>, tensor<64xi32>
    %a = tt.load %xp : tensor<64x!tt.ptr<{t}>>
    %r = tt.extern_elementwise %a {{libname = "", libpath = "", pure = true,
                                    symbol = "__nv_{symbol}"}}
        : (tensor<64x{t}>) -> tensor<64xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %op = tt.addptr %os, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    tt.store %op, %r : tensor<64x!tt.ptr<i32>>
    tt.return
  }}
}}
"""


def _bit_reference(function: str, value: int, width: int) -> int:
    bits = value & ((1 << width) - 1)
    if function == "popc":
        return bin(bits).count("1")
    if function == "clz":
        return width - bits.bit_length()
    return (bits & -bits).bit_length()  # ffs: 1 + trailing zeros, 0 for 0


@pytest.mark.parametrize("function", ["popc", "clz", "ffs"])
@pytest.mark.parametrize("dtype", ["i32", "i64"])
def test_bit_count(function: str, dtype: str) -> None:
    width = int(dtype[1:])
    numpy_type = np.int32 if width == 32 else np.int64
    symbol = function if width == 32 else function + "ll"
    kernel = mtia_compiler.compile(BIT_KERNEL.format(t=dtype, symbol=symbol))
    info = np.iinfo(numpy_type)
    x = np.random.default_rng(3).integers(info.min, info.max, 64, dtype=numpy_type)
    x[:8] = [0, -1, 1, info.min, info.max, 2, 1 << (width - 2), -(1 << 20)]
    out = np.zeros(64, np.int32)
    kernel.run(x, out)
    expected = [_bit_reference(function, int(value), width) for value in x]
    np.testing.assert_array_equal(out, expected)
