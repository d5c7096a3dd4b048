"""Triton's other fp8 formats through the backend: `tl.float8e4b15` (e4m3,
bias 15, no infinities or NaN; `i8` in the IR, converted by the backend's
`convert_custom_types`) and the fnuz formats `tl.float8e4b8` (e4m3, bias 8)
and `tl.float8e5b16` (e5m2, bias 16), whose one NaN is 0x80 and which have no
infinities and no negative zero (`f8E4M3FNUZ`, `f8E5M2FNUZ` in the IR).

Every code is decoded and encoded exhaustively against a reference model
written from the formats' definitions: decoding is exact; encoding rounds
once, to nearest even or toward zero, and saturates (infinities and
overflows become the largest finite value, as Triton's hardware conversions
do). Triton's interpreter is compared where it is exact: it decodes every
code as the model does except the fnuz NaN (which it reads as -0.0) and
encodes every exactly representable f32 value as the model does, but it does
not round to nearest even (it rounds halves up) and does not saturate.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction


@triton.jit
def convert_kernel(x_ptr, y_ptr, N: tl.constexpr, ROUNDING: tl.constexpr) -> None:
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets)
    tl.store(y_ptr + offsets, x.to(y_ptr.dtype.element_ty, fp_downcast_rounding=ROUNDING))


@triton.jit
def abs_kernel(x_ptr, y_ptr, N: tl.constexpr) -> None:
    offsets = tl.arange(0, N)
    tl.store(y_ptr + offsets, tl.abs(tl.load(x_ptr + offsets)))


@triton.jit
def permute_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr) -> None:
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tl.permute(x, (1, 0)))


@triton.jit
def masked_copy_kernel(x_ptr, y_ptr, n, N: tl.constexpr) -> None:
    offsets = tl.arange(0, N)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n), mask=offsets < n)


@triton.jit
def constants_kernel(x_ptr, y_ptr, n, N: tl.constexpr, OTHER: tl.constexpr,
                     FULL: tl.constexpr) -> None:
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=OTHER)
    tl.store(y_ptr + offsets, tl.where(offsets == 0, tl.full((N,), FULL, x.dtype), x))


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr) -> None:
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b))


#: Triton dtype name -> (mantissa bits, bias, special values): "ieee"
#: (infinities and NaNs in the top exponent field), "nan_all_ones" (only the
#: all-ones magnitude is NaN), "fnuz" (0x80 is the only NaN; no negative
#: zero) or "none" (every code is a number).
FORMATS = {
    "float8e4nv": (3, 7, "nan_all_ones"),
    "float8e5": (2, 15, "ieee"),
    "float8e4b15": (3, 15, "none"),
    "float8e4b8": (3, 8, "fnuz"),
    "float8e5b16": (2, 16, "fnuz"),
}
NEW_FORMATS = ["float8e4b15", "float8e4b8", "float8e5b16"]
CODES = np.arange(256, dtype=np.uint8)
TORCH_FLOATS = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
                "f64": torch.float64}


def decode(name: str) -> np.ndarray:
    """The values of the 256 codes of `name` (float64), from its definition."""
    mantissa_bits, bias, special = FORMATS[name]
    magnitude = CODES & 0x7F
    exponent = (magnitude >> mantissa_bits).astype(np.float64)
    mantissa = (magnitude & ((1 << mantissa_bits) - 1)) / 2.0**mantissa_bits
    values = np.where(exponent == 0, mantissa * 2.0 ** (1 - bias),
                      (1 + mantissa) * 2.0 ** (exponent - bias))
    values = np.where(CODES & 0x80, -values, values)
    top = (0x7F >> mantissa_bits) << mantissa_bits
    if special == "ieee":
        values[(magnitude & top) == top] = np.where(mantissa[(magnitude & top) == top] == 0,
                                                    np.inf, np.nan)
        values[CODES >= 0x80] = np.where(np.isnan(values[CODES >= 0x80]), np.nan,
                                         -np.abs(values[CODES >= 0x80]))
    elif special == "nan_all_ones":
        values[magnitude == 0x7F] = np.nan
    elif special == "fnuz":
        values[0x80] = np.nan
    return values


def encode(x: np.ndarray, name: str, rounding: str) -> np.ndarray:
    """The codes of `name` that `x` (float64) rounds to, to nearest even
    (`rtne`) or toward zero (`rtz`), saturating; NaN gives the format's NaN
    (for fp8e4b15, which has none, the largest magnitude with its sign)."""
    special = FORMATS[name][2]
    assert special != "ieee", "the model saturates; e5m2 overflows to infinity"
    values = decode(name)[:128]
    finite = np.where(np.isnan(values), np.inf, values)
    magnitude = np.abs(x)[:, None]
    if rounding == "rtz":
        candidates = np.where(finite <= magnitude, finite, -1.0)
        code = candidates.argmax(axis=1)
    else:
        distance = np.abs(finite[None, :] - np.minimum(magnitude, finite.max()))
        nearest = distance == distance.min(axis=1, keepdims=True)
        # Of two equally near codes, the even one.
        code = np.where(nearest & (np.arange(128) % 2 == 0), 1, 0).argmax(axis=1)
        code = np.where(nearest.sum(axis=1) == 1, nearest.argmax(axis=1), code)
    negative = np.signbit(x)
    nan = np.isnan(x)
    code = np.where(nan, 0x7F if special != "fnuz" else 0, code)
    if special == "fnuz":
        negative &= code != 0
        return np.where(nan, 0x80, code | np.where(negative, 0x80, 0)).astype(np.uint8)
    return (code | np.where(negative, 0x80, 0)).astype(np.uint8)


def as_format(codes: np.ndarray, name: str) -> triton.TensorWrapper:
    """`codes` (uint8, shared, so that a kernel writes them in place) as a
    tensor of the fp8 format `name`."""
    return triton.reinterpret(torch.from_numpy(codes.view(np.int8)), getattr(tl, name))


def float_bits(values: torch.Tensor) -> np.ndarray:
    """The bit patterns of a float tensor (NaNs made one pattern)."""
    widths = {torch.float16: np.uint16, torch.bfloat16: np.uint16, torch.float32: np.uint32,
              torch.float64: np.uint64}
    canonical = torch.where(torch.isnan(values), torch.full_like(values, float("nan")), values)
    integer = {2: torch.int16, 4: torch.int32, 8: torch.int64}[values.element_size()]
    return canonical.view(integer).numpy().view(widths[values.dtype])


def run_decode(name: str, dst: torch.dtype, interpret: bool = False) -> torch.Tensor:
    out = torch.empty(256, dtype=dst)
    kernel = InterpretedFunction(convert_kernel.fn) if interpret else convert_kernel
    kernel[(1,)](as_format(CODES, name), out, 256, None)
    return out


def run_encode(x: torch.Tensor, name: str, rounding: str, interpret: bool = False) -> np.ndarray:
    """`x` (1-D) converted to `name`, run on a block padded to a power of two."""
    size = triton.next_power_of_2(x.numel())
    padded = torch.cat([x, torch.zeros(size - x.numel(), dtype=x.dtype)])
    out = np.zeros(size, np.uint8)
    kernel = InterpretedFunction(convert_kernel.fn) if interpret else convert_kernel
    kernel[(1,)](padded, as_format(out, name), size, rounding)
    return out[:x.numel()]


@pytest.mark.parametrize("dst", sorted(TORCH_FLOATS))
@pytest.mark.parametrize("name", NEW_FORMATS)
def test_every_code_decodes_exactly(name: str, dst: str) -> None:
    got = run_decode(name, TORCH_FLOATS[dst])
    expected = torch.from_numpy(decode(name)).to(TORCH_FLOATS[dst])
    np.testing.assert_array_equal(float_bits(got), float_bits(expected))


@pytest.mark.parametrize("name", ["float8e4b8", "float8e5b16"])
def test_fnuz_decoding_matches_torch(name: str) -> None:
    torch_type = {"float8e4b8": torch.float8_e4m3fnuz, "float8e5b16": torch.float8_e5m2fnuz}[name]
    expected = torch.from_numpy(CODES).view(torch_type).float()
    np.testing.assert_array_equal(float_bits(run_decode(name, torch.float32)),
                                  float_bits(expected))


@pytest.mark.parametrize("name", NEW_FORMATS)
def test_decoding_matches_the_interpreter(name: str) -> None:
    got = float_bits(run_decode(name, torch.float32))
    interpreted = float_bits(run_decode(name, torch.float32, interpret=True))
    differing = CODES[got != interpreted]
    # The interpreter reads the fnuz NaN as -0.0; nothing else differs.
    assert differing.tolist() == ([0x80] if FORMATS[name][2] == "fnuz" else [])


@pytest.mark.parametrize("rounding", ["rtne", "rtz"])
@pytest.mark.parametrize("src", sorted(TORCH_FLOATS))
@pytest.mark.parametrize("name", NEW_FORMATS)
def test_every_value_encodes_to_its_code(name: str, src: str, rounding: str) -> None:
    """Every code's value (the NaN included) converts back to the code,
    except that the fnuz formats have no -0 (0x80 is their NaN)."""
    values = torch.from_numpy(decode(name)).to(TORCH_FLOATS[src])
    got = run_encode(values, name, rounding)
    np.testing.assert_array_equal(got, CODES)
    if src == "f32":
        # The interpreter agrees on all of them but the NaN.
        interpreted = run_encode(values, name, rounding, interpret=True)
        numbers = ~np.isnan(decode(name))
        np.testing.assert_array_equal(got[numbers], interpreted[numbers])


def rounding_inputs(name: str, rng: np.random.Generator) -> np.ndarray:
    """Values that round: the midpoints between neighbouring codes (ties),
    points a quarter and three quarters of the way, random values over the
    range and its tiny end, values beyond the range, infinities, NaN and
    zeros; of both signs."""
    values = decode(name)[:128]
    values = values[~np.isnan(values)]
    low, high = values[:-1], values[1:]
    largest = values.max()
    x = np.concatenate([(low + high) / 2, low + (high - low) / 4, low + 3 * (high - low) / 4,
                        rng.uniform(0, largest, 256), rng.uniform(0, values[9], 64),
                        [largest * 1.03, largest * 1.1, largest * 4, 1e30, np.inf, np.nan, 0.0,
                         values[1] / 2, values[1] / 4]])
    return np.concatenate([x, -x])


@pytest.mark.parametrize("rounding", ["rtne", "rtz"])
@pytest.mark.parametrize("src", sorted(TORCH_FLOATS))
@pytest.mark.parametrize("name", NEW_FORMATS)
def test_rounding_and_saturation(name: str, src: str, rounding: str) -> None:
    """Against the model, from the source's values (f16 and bf16 sources hold
    fewer of the ties and saturate earlier)."""
    x = rounding_inputs(name, np.random.default_rng(8))
    source = torch.from_numpy(x).to(TORCH_FLOATS[src])
    got = run_encode(source, name, rounding)
    expected = encode(source.double().numpy(), name, rounding)
    mismatches = np.nonzero(got != expected)[0]
    assert mismatches.size == 0, [(float(x[i]), hex(got[i]), hex(expected[i]))
                                  for i in mismatches[:8]]


@pytest.mark.parametrize("name", ["float8e4b8", "float8e5b16"])
def test_fnuz_rounding_matches_torch_in_range(name: str) -> None:
    torch_type = {"float8e4b8": torch.float8_e4m3fnuz, "float8e5b16": torch.float8_e5m2fnuz}[name]
    x = torch.from_numpy(rounding_inputs(name, np.random.default_rng(9))).float()
    in_range = x.abs() <= float(np.nanmax(decode(name)))
    got = run_encode(x[in_range].contiguous(), name, "rtne")
    np.testing.assert_array_equal(got, x[in_range].to(torch_type).view(torch.uint8).numpy())


#: fp8 -> fp8 conversions: the exact value of the source code rounded once to
#: nearest even into the destination.
CROSS_CONVERSIONS = [("float8e4b8", "float8e5b16"), ("float8e5b16", "float8e4b8"),
                     ("float8e4b15", "float8e4b8"), ("float8e4b8", "float8e4b15"),
                     ("float8e5b16", "float8e4b15"), ("float8e5", "float8e5b16"),
                     ("float8e5b16", "float8e4nv")]


@pytest.mark.parametrize(("src", "dst"), CROSS_CONVERSIONS)
def test_fp8_to_fp8(src: str, dst: str) -> None:
    out = np.zeros(256, np.uint8)
    convert_kernel[(1,)](as_format(CODES, src), as_format(out, dst), 256, None)
    np.testing.assert_array_equal(out, encode(decode(src), dst, "rtne"))


@pytest.mark.parametrize("name", NEW_FORMATS)
def test_abs(name: str) -> None:
    """`tl.abs` clears the sign of every number and keeps the fnuz NaN."""
    out = np.zeros(256, np.uint8)
    abs_kernel[(1,)](as_format(CODES, name), as_format(out, name), 256)
    expected = CODES & 0x7F
    if FORMATS[name][2] == "fnuz":
        expected[0x80] = 0x80
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("name", NEW_FORMATS)
def test_loads_stores_and_permutes_move_the_bytes(name: str) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (32, 64), dtype=np.uint8)
    out = np.zeros((64, 32), np.uint8)
    permute_kernel[(1,)](as_format(x, name), as_format(out, name), 32, 64)
    np.testing.assert_array_equal(out, x.T)
    copied = np.full(100, 0x55, np.uint8)
    masked_copy_kernel[(1,)](as_format(x.ravel()[:100].copy(), name), as_format(copied, name),
                             77, 128)
    np.testing.assert_array_equal(copied[:77], x.ravel()[:77])
    assert (copied[77:] == 0x55).all()


@pytest.mark.parametrize(("other", "full"), [(0.0, 0.3), (-1.5, 1e6)])
@pytest.mark.parametrize("name", NEW_FORMATS)
def test_scalar_constants(name: str, other: float, full: float) -> None:
    """The `other` of a masked load and `tl.full` are float constants the
    compiler converts to the format (rounding and saturating as at run time)."""
    x = np.arange(32, dtype=np.uint8)
    out = np.zeros(32, np.uint8)
    constants_kernel[(1,)](as_format(x, name), as_format(out, name), 20, 32, other, full)
    expected = np.concatenate([encode(np.array([full]), name, "rtne"), x[1:20],
                               np.repeat(encode(np.array([other]), name, "rtne"), 12)])
    np.testing.assert_array_equal(out, expected)


DOT_OPERANDS = [("float8e4b15", "float8e4b15"), ("float8e4b8", "float8e4b8"),
                ("float8e5b16", "float8e5b16"), ("float8e4b8", "float8e5b16"),
                ("float8e4b15", "float8e4nv")]


@pytest.mark.parametrize(("a_name", "b_name"), DOT_OPERANDS)
def test_dot(a_name: str, b_name: str) -> None:
    """`tl.dot` widens the operands exactly (to f16) for the DPE: the result
    is the exact product summed in f32, within the bound of K roundings."""
    rng = np.random.default_rng(5)
    m, n, k = 32, 32, 64
    a = rng.integers(0, 256, (m, k), dtype=np.uint8)
    b = rng.integers(0, 256, (k, n), dtype=np.uint8)
    # Numbers only: the NaN codes become 1.0 (the fnuz 0x80, e4m3fn's 0x7F).
    for codes, name in ((a, a_name), (b, b_name)):
        codes[np.isnan(decode(name)[codes])] = encode(np.array([1.0]), name, "rtne")[0]
    c = torch.empty((m, n))
    dot_kernel[(1,)](as_format(a, a_name), as_format(b, b_name), c, m, n, k)
    a_values, b_values = decode(a_name)[a], decode(b_name)[b]
    expected = a_values @ b_values
    bound = k * 2.0**-24 * (np.abs(a_values) @ np.abs(b_values))
    assert (np.abs(c.double().numpy() - expected) <= bound).all()
