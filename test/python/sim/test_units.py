"""Casts, DPE, reduction engine, layout unit and DMA against numpy."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import torch
from conftest import copy_through_page, page_bytes, run_tile
from half_reference import BF16, bf16_values
from test_simd import bf16_rne

from mtia_compiler.program import ProgramBuilder, Slot, Unit, seal
from mtia_compiler.sim import SimulationError, Simulator, parse_program

N = 777


def cast(x: np.ndarray, src: str, dst: str, np_type: type, signed: bool = True) -> np.ndarray:
    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.simd_cast(out, ins[0], x.size, src, dst, signed=signed)

    return run_tile([(x, src)], dst, np_type, x.size, emit)


#: fp8 dtype -> (exponent bits, mantissa bits, bias, special values): "ieee"
#: (infinities and NaNs in the top exponent field), "nan_all_ones" (e4m3fn:
#: only the all-ones magnitude is NaN) or "fnuz" (the negative-zero pattern
#: 0x80 is the only NaN, every other code is finite).
FP8_FORMATS = {
    "f8e4m3": (4, 3, 7, "nan_all_ones"), "f8e5m2": (5, 2, 15, "ieee"),
    "f8e4m3fnuz": (4, 3, 8, "fnuz"), "f8e5m2fnuz": (5, 2, 16, "fnuz"),
}


def fp8_values(exponent_bits: int, mantissa_bits: int, bias: int, special: str) -> np.ndarray:
    """Values of all 128 non-negative fp8 codes, decoded from the definition
    (NaN for the infinities too)."""
    codes = np.arange(128)
    exponent = codes >> mantissa_bits
    mantissa = codes & ((1 << mantissa_bits) - 1)
    normal = (1 + mantissa / 2**mantissa_bits) * 2.0 ** (exponent - bias)
    subnormal = mantissa / 2**mantissa_bits * 2.0 ** (1 - bias)
    values = np.where(exponent == 0, subnormal, normal)
    top = (1 << exponent_bits) - 1
    if special == "ieee":
        values[exponent == top] = np.nan
    elif special == "nan_all_ones":
        values[(exponent == top) & (mantissa == (1 << mantissa_bits) - 1)] = np.nan
    return values


def fp8_reference(x: np.ndarray, values: np.ndarray, signed_zero: bool = True) -> np.ndarray:
    """Nearest code by brute force, ties to the even code (sign separate);
    beyond the largest finite value, that value. Without a signed zero, what
    rounds to zero is +0."""
    finite = np.where(np.isnan(values), np.inf, values)
    distance = np.abs(np.abs(x.astype(np.float64))[:, None] - finite[None, :])
    best = distance.min(axis=1, keepdims=True)
    candidates = np.where(distance == best, np.arange(128)[None, :], 1 << 20)
    even = np.where(candidates % 2 == 0, candidates, 1 << 20).min(axis=1)
    code = np.where(even < (1 << 20), even, candidates.min(axis=1))
    negative = np.signbit(x) & ((code != 0) | signed_zero)
    return (code | np.where(negative, 0x80, 0)).astype(np.uint8)


@pytest.mark.parametrize("name", sorted(FP8_FORMATS))
def test_fp8_round_trip_is_rne(name: str, rng: np.random.Generator) -> None:
    fmt = FP8_FORMATS[name]
    values = fp8_values(*fmt)
    largest = np.nanmax(values)
    # Random values, exact codes and exact midpoints (ties) within range.
    finite = values[~np.isnan(values)]
    midpoints = (finite[1:] + finite[:-1]) / 2
    x = np.concatenate([rng.uniform(-largest, largest, 400), finite, -midpoints, midpoints])
    x16 = x.astype(np.float16)
    got = cast(x16, "f16", name, np.uint8)
    np.testing.assert_array_equal(got, fp8_reference(x16, values, fmt[3] != "fnuz"))
    back = cast(got, name, "f16", np.float16)
    decoded = np.where(got & 0x80, -1, 1) * values[got & 0x7F]
    np.testing.assert_array_equal(back, decoded.astype(np.float16))


def test_fp8_overflow() -> None:
    # e4m3fn saturates to +-448; e5m2 is IEEE: past max + half an ulp
    # (61440) it rounds to infinity, below that to the largest finite 57344.
    x = np.array([1e5, -1e5, np.inf, 60000.0], dtype=np.float32)
    assert list(cast(x, "f32", "f8e4m3", np.uint8)) == [0x7E, 0xFE, 0x7E, 0x7E]
    assert list(cast(x, "f32", "f8e5m2", np.uint8)) == [0x7C, 0xFC, 0x7C, 0x7B]


FNUZ_TORCH = {"f8e4m3fnuz": torch.float8_e4m3fnuz, "f8e5m2fnuz": torch.float8_e5m2fnuz}


@pytest.mark.parametrize("name", sorted(FNUZ_TORCH))
def test_fnuz_every_code_to_f32_and_back(name: str) -> None:
    """All 256 codes decode as torch decodes them (0x80 is NaN, the others
    finite, the top exponent field included) and f32 -> fp8 gives each back."""
    codes = np.arange(256, dtype=np.uint8)
    got = cast(codes, name, "f32", np.float32)
    expected = torch.from_numpy(codes).view(FNUZ_TORCH[name]).float().numpy()
    np.testing.assert_array_equal(got.view(np.uint32)[codes != 0x80],
                                  expected.view(np.uint32)[codes != 0x80])
    assert np.isnan(got[0x80]) and np.isnan(expected[0x80])
    values = fp8_values(*FP8_FORMATS[name])
    np.testing.assert_array_equal(got[:128], values.astype(np.float32))
    np.testing.assert_array_equal(cast(got, "f32", name, np.uint8), codes)


@pytest.mark.parametrize("name", sorted(FNUZ_TORCH))
def test_fnuz_rounding_matches_torch(name: str, rng: np.random.Generator) -> None:
    """Within range, f32 -> fnuz rounds to nearest even as torch does: at
    the codes, at the midpoints between them (ties) and between."""
    values = fp8_values(*FP8_FORMATS[name])
    midpoints = (values[1:] + values[:-1]) / 2
    largest = values.max()
    x = np.concatenate([values, midpoints, rng.uniform(-largest, largest, 500),
                        rng.uniform(-values[8], values[8], 200)]).astype(np.float32)
    x = np.concatenate([x, -x])
    got = cast(x, "f32", name, np.uint8)
    expected = torch.from_numpy(x).to(FNUZ_TORCH[name]).view(torch.uint8).numpy()
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, fp8_reference(x, values, signed_zero=False))


@pytest.mark.parametrize("name", sorted(FNUZ_TORCH))
def test_fnuz_special_values(name: str) -> None:
    """Infinities and overflows saturate to the largest finite value (torch
    gives NaN; Triton's hardware conversions saturate), NaN is 0x80 and
    zeros, signed or rounded to, are +0."""
    values = fp8_values(*FP8_FORMATS[name])
    largest, smallest = values.max(), values[1]
    x = np.array([np.inf, -np.inf, 1e30, -1e30, largest * 1.2, np.nan, -np.nan, 0.0, -0.0,
                  -smallest / 4, smallest / 4, -smallest * 0.75], dtype=np.float32)
    expected = [0x7F, 0xFF, 0x7F, 0xFF, 0x7F, 0x80, 0x80, 0x00, 0x00, 0x00, 0x00, 0x81]
    assert list(cast(x, "f32", name, np.uint8)) == expected
    assert list(cast(x.astype(np.float64), "f64", name, np.uint8)) == expected


def test_float_narrowing_is_rne(rng: np.random.Generator) -> None:
    x = (rng.standard_normal(N) * 1e3).astype(np.float32)
    x[:6] = [np.nan, np.inf, -np.inf, 1e-40, 65520.0, 3.4e38]
    with np.errstate(over="ignore"):
        reference = x.astype(np.float16)
    np.testing.assert_array_equal(cast(x, "f32", "f16", np.float16).view(np.uint16),
                                  reference.view(np.uint16))
    bf16 = cast(x, "f32", "bf16", np.uint16)
    finite = ~np.isnan(x)
    np.testing.assert_array_equal(bf16[finite], bf16_rne(x)[finite])
    assert (bf16[0] & 0x7F80) == 0x7F80 and (bf16[0] & 0x7F) != 0


def test_integer_casts_bit_exact(rng: np.random.Generator) -> None:
    x = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    np.testing.assert_array_equal(cast(x, "i32", "i8", np.int8), x.astype(np.int8))
    np.testing.assert_array_equal(cast(x, "i32", "i64", np.int64), x.astype(np.int64))
    np.testing.assert_array_equal(cast(x, "i32", "i64", np.int64, signed=False),
                                  x.view(np.uint32).astype(np.int64))
    big = rng.integers(-2**62, 2**62, N, dtype=np.int64)
    np.testing.assert_array_equal(cast(big, "i64", "f32", np.float32), big.astype(np.float32))
    f = np.array([1e10, -1e10, np.nan, -2.7, 2.7, 2**31 - 128], dtype=np.float32)
    assert list(cast(f, "f32", "i32", np.int32)) == [2**31 - 1, -2**31, 0, -2, 2, 2**31 - 128]


def test_f16_casts_match_numpy(rng: np.random.Generator) -> None:
    """Every f16 code decodes exactly, and f32 -> f16 rounds to nearest even
    with overflow to infinity: around the rounding boundaries (the 13 bits
    f16 drops at 0, halfway and just around it), subnormals and NaN."""
    def chunked(x: np.ndarray, src: str, dst: str, np_type: type) -> np.ndarray:
        # One tile per launch fits a PE's local memory.
        return np.concatenate([cast(x[i:i + 16384], src, dst, np_type)
                               for i in range(0, x.size, 16384)])

    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    decoded = chunked(codes.view(np.float16), "f16", "f32", np.float32)
    np.testing.assert_array_equal(decoded, codes.view(np.float16).astype(np.float32))
    high = rng.integers(0, 1 << 16, 20000, dtype=np.uint32) << 16
    low = np.array([0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x2001, 0xFFFF], np.uint32)
    bits = (high[:, None] | low[None, :]).ravel()
    bits = np.concatenate([bits, rng.integers(0, 1 << 32, 50000, dtype=np.uint64).astype(np.uint32),
                           np.array([0x477FEFFF, 0x477FF000, 0x477FF001, 0x33000000,
                                     0x33000001, 0x387FFFFF, 0x7F800000, 0xFF800001],
                                    np.uint32)])
    floats = bits.view(np.float32)
    with np.errstate(over="ignore"):
        expected = floats.astype(np.float16)
    got = chunked(floats, "f32", "f16", np.float16)
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), expected[~nan].view(np.uint16))


def test_wide_integers_round_once_to_narrow_floats(rng: np.random.Generator) -> None:
    """i64 -> bf16 rounds the integer itself: through a double (53 bits)
    2^60 + 2^52 + 1 would become the midpoint 2^60 + 2^52 and round down."""
    big = rng.integers(-2**63, 2**63, N, dtype=np.int64, endpoint=False)
    big[:3] = [2**60 + 2**52 + 1, -(2**60 + 2**52 + 1), 2**60 + 2**52]
    got = bf16_values(cast(big, "i64", "bf16", np.uint16))
    np.testing.assert_array_equal(got, [BF16.round(Fraction(int(v))) for v in big])
    assert got[:3].tolist() == [2.0**60 + 2.0**53, -(2.0**60 + 2.0**53), 2.0**60]


def mma_kernel(m: int, n: int, k: int, dtype: str, acc_dtype: str, steps: int) -> bytes:
    """C = sum over `steps` K-chunks of A_s @ B_s, accumulating in place."""
    esize = {"bf16": 2, "f16": 2, "f32": 4, "i8": 1}[dtype]
    b = ProgramBuilder("mma")
    pa, pb = b.param_ptr("a", dtype), b.param_ptr("b", dtype)
    pc = b.param_ptr("c", acc_dtype)
    ca, cb_ = b.cb("a", m * k * esize, 2), b.cb("b", k * n * esize, 2)
    cc = b.cb("c", m * n * 4, 1)
    b.reserve(Unit.DPE, cc)
    for s in range(steps):
        b.reserve(Unit.DMA_IN, ca)
        b.dma_load(ca.back(), b.add(b.param(pa), s * k * esize), dtype, [m, k], [k * steps, 1])
        b.push(Unit.DMA_IN, ca)
        b.reserve(Unit.DMA_IN, cb_)
        b.dma_load(cb_.back(), b.add(b.param(pb), s * k * n * esize), dtype, [k, n], [n, 1])
        b.push(Unit.DMA_IN, cb_)
        b.wait(Unit.DPE, ca)
        b.wait(Unit.DPE, cb_)
        b.mma(ca.front(), cb_.front(), cc.back(), m, n, k, dtype, acc_dtype,
              acc=cc.back() if s else None)
        b.pop(Unit.DPE, ca)
        b.pop(Unit.DPE, cb_)
    b.push(Unit.DPE, cc)
    b.wait(Unit.DMA_OUT, cc)
    b.dma_store(cc.front(), b.param(pc), acc_dtype, [m, n], [n, 1])
    b.pop(Unit.DMA_OUT, cc)
    return b.build()


def test_dpe_bf16_matmul(rng: np.random.Generator) -> None:
    m, n, k, steps = 48, 80, 32, 3
    a = bf16_rne(rng.standard_normal((m, k * steps)))
    b = bf16_rne(rng.standard_normal((k * steps, n)))
    c = np.zeros((m, n), np.float32)
    Simulator().run(mma_kernel(m, n, k, "bf16", "f32", steps), [a, b, c])
    wide = lambda v: (v.astype(np.uint32) << 16).view(np.float32).astype(np.float64)  # noqa: E731
    np.testing.assert_allclose(c, wide(a) @ wide(b), rtol=1e-5, atol=1e-4)


def test_dpe_f32_matmul_rounds_once_per_dot_product(rng: np.random.Generator) -> None:
    """Each `dpe.mma` adds the products of 32 consecutive k (the DPE tile's K)
    at a time to its f32 accumulator, with one rounding. Integer operands keep
    every f64 sum exact, while the f32 roundings of a product-by-product sum
    would differ; six rows also take the kernel's edge loop."""
    m, n, k, steps, depth = 6, 24, 48, 2, 32
    a = rng.integers(-(2**12), 2**12, (m, k * steps)).astype(np.float32)
    b = rng.integers(-(2**12), 2**12, (k * steps, n)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    Simulator().run(mma_kernel(m, n, k, "f32", "f32", steps), [a, b, c])
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    expected = np.zeros((m, n), np.float32)
    for step in range(steps):
        for begin in range(step * k, (step + 1) * k, depth):
            end = min(begin + depth, (step + 1) * k)
            partial = wide_a[:, begin:end] @ wide_b[begin:end, :]
            expected = (expected.astype(np.float64) + partial).astype(np.float32)
    np.testing.assert_array_equal(c, expected)
    product_by_product = np.zeros((m, n), np.float32)
    for p in range(k * steps):
        product_by_product += np.outer(a[:, p], b[p, :])
    assert not np.array_equal(c, product_by_product)


def test_dpe_f32_matmul_matches_an_f64_sum_in_k_order(rng: np.random.Generator) -> None:
    """With operands of every magnitude (not integers), each element is the
    f64 sum of its products in increasing k, rounded to f32 once per 32 k:
    the same bits whichever of the kernel's host-CPU variants runs (the one
    with fused multiply-adds included, since every product is exact in
    f64)."""
    m, n, k, depth = 8, 16, 64, 32
    a = (rng.standard_normal((m, k)) * 2.0 ** rng.integers(-20, 20, (m, k))).astype(np.float32)
    b = (rng.standard_normal((k, n)) * 2.0 ** rng.integers(-20, 20, (k, n))).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    Simulator().run(mma_kernel(m, n, k, "f32", "f32", 1), [a, b, c])
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    expected = np.zeros((m, n), np.float64)
    for p in range(k):
        expected += np.outer(wide_a[:, p], wide_b[p, :])
        if (p + 1) % depth == 0:
            expected = expected.astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(c, expected.astype(np.float32))


def test_every_f16_widens_to_f64_as_the_table_decodes_it() -> None:
    """`simd.cast` f16 -> f64 of all 65536 encodings, eight at a time through
    F16C instructions where the host has them: the exact value, and every
    NaN the quiet NaN of its sign (the instructions would keep the payload)."""
    encodings = np.arange(1 << 16, dtype=np.uint16)
    chunk = 8192
    for start in range(0, encodings.size, chunk):
        x = encodings[start:start + chunk].view(np.float16)
        got = cast(x, "f16", "f64", np.float64).view(np.uint64)
        expected = x.astype(np.float64).view(np.uint64)
        nan = np.isnan(x)
        expected[nan] = (expected[nan] & np.uint64(1 << 63)) | np.uint64(0x7FF8000000000000)
        np.testing.assert_array_equal(got, expected)


def test_dpe_takes_every_f16_value_exactly() -> None:
    """Each of the 65536 f16 encodings times 1.0 is the f16's value in f32,
    whichever host-CPU variant widens the operands (the one with F16C
    instructions included); zeros added to the accumulator's +0 are +0, and
    every NaN result is the DPE's one quiet NaN, whatever its operand's sign
    and payload."""
    encodings = np.arange(1 << 16, dtype=np.uint16)
    one = np.ones((1, 1), np.float16)
    columns = 4096  # The DPE instruction's largest n.
    for start in range(0, encodings.size, columns):
        b = encodings[start:start + columns].view(np.float16).reshape(1, columns)
        c = np.zeros((1, columns), np.float32)
        Simulator().run(mma_kernel(1, columns, 1, "f16", "f32", 1), [one, b, c])
        expected = b.astype(np.float32).view(np.uint32)
        expected[np.isnan(b)] = 0x7FC00000
        expected[b == 0] = 0
        np.testing.assert_array_equal(c.view(np.uint32), expected)


def test_dpe_nan_results_are_one_nan(rng: np.random.Generator) -> None:
    """NaN operands and products of infinities by zeros give the quiet NaN
    0x7FC00000 in every element they reach, in the vector kernel's blocks and
    in the columns it takes one at a time."""
    m, n, k = 9, 24, 40
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    a[1, 3] = -np.float32(np.nan)
    a[2, 5] = np.frombuffer(np.uint32(0xFFA00001).tobytes(), np.float32)[0]
    a[4, 0], b[0, 20] = np.inf, 0.0
    b[7, 2] = np.frombuffer(np.uint32(0x7F800123).tobytes(), np.float32)[0]
    c = np.zeros((m, n), np.float32)
    Simulator().run(mma_kernel(m, n, k, "f32", "f32", 1), [a, b, c])
    with np.errstate(invalid="ignore"):
        wide = a.astype(np.float64) @ b.astype(np.float64)
    nan = np.isnan(wide)
    assert nan[1].all() and nan[2].all() and nan[:, 2].all() and nan[4, 20]
    np.testing.assert_array_equal(c.view(np.uint32)[nan], 0x7FC00000)
    np.testing.assert_allclose(c[~nan], wide[~nan], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("m, n", [(32, 64), (9, 96)])
def test_dpe_int8_matmul_exact(m: int, n: int, rng: np.random.Generator) -> None:
    """i8 products accumulate exactly in i32, in the kernel's register blocks
    and in the rows left over (9 = 8 + 1)."""
    k, steps = 64, 2
    a = rng.integers(-128, 128, (m, k * steps)).astype(np.int8)
    b = rng.integers(-128, 128, (k * steps, n)).astype(np.int8)
    c = np.zeros((m, n), np.int32)
    Simulator().run(mma_kernel(m, n, k, "i8", "i32", steps), [a, b, c])
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


@pytest.mark.parametrize("axis", [0, 1])
def test_reductions(axis: int, rng: np.random.Generator) -> None:
    rows, cols = 24, 40
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    x[3, 7] = x[3, 9] = 10.0  # A tie for argmax: the first wins.
    count = cols if axis == 0 else rows

    def reduce_with(fn: str) -> np.ndarray:
        def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
            if fn.startswith("arg"):
                b.reduce(fn, "f32", ins[0], [rows, cols], axis, idx=out)
            else:
                b.reduce(fn, "f32", ins[0], [rows, cols], axis, d=out)

        out_dtype, out_np = ("i32", np.int32) if fn.startswith("arg") else ("f32", np.float32)
        return run_tile([(x.reshape(-1), "f32")], out_dtype, out_np, count, emit, Unit.RE)

    np.testing.assert_allclose(reduce_with("sum"), x.sum(axis=axis), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(reduce_with("max"), x.max(axis=axis))
    np.testing.assert_array_equal(reduce_with("argmax"), x.argmax(axis=axis))
    np.testing.assert_array_equal(reduce_with("argmin"), x.argmin(axis=axis))


def test_scan_and_int_reductions(rng: np.random.Generator) -> None:
    x = rng.integers(-1000, 1000, 300).astype(np.int32)

    def scan(reverse: bool) -> np.ndarray:
        def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
            b.scan("sum", "i32", ins[0], out, [300], 0, reverse=reverse)

        return run_tile([(x, "i32")], "i32", np.int32, 300, emit, Unit.RE)

    np.testing.assert_array_equal(scan(False), np.cumsum(x).astype(np.int32))
    np.testing.assert_array_equal(scan(True), np.cumsum(x[::-1])[::-1].astype(np.int32))

    def xor_all(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.reduce("xor", "i32", ins[0], [300], 0, d=out)

    got = run_tile([(x, "i32")], "i32", np.int32, 1, xor_all, Unit.RE)
    assert got[0] == np.bitwise_xor.reduce(x)


def test_layout_transpose_and_broadcast(rng: np.random.Generator) -> None:
    x = rng.integers(0, 2**16, (12, 20)).astype(np.uint16)

    def transpose(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.transpose(out, ins[0], 2, 12, 20)

    got = run_tile([(x.reshape(-1), "f16")], "f16", np.uint16, 240, transpose, Unit.MLU)
    np.testing.assert_array_equal(got.reshape(20, 12), x.T)
    row = x[0]

    def broadcast(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.broadcast(out, ins[0], 2, [1, 20], [12, 20])

    got = run_tile([(row, "f16")], "f16", np.uint16, 240, broadcast, Unit.MLU)
    np.testing.assert_array_equal(got.reshape(12, 20), np.broadcast_to(row, (12, 20)))


def test_layout_and_reduction_of_six_dimensions(rng: np.random.Generator) -> None:
    """Tiles of more dimensions than the units take (as `tl.sort` makes):
    the builder merges contiguous dimensions and splits the rest into one
    instruction per index, and reduces around the axis."""
    shape = (2, 3, 2, 2, 3, 2)
    x = rng.integers(-2**31, 2**31, shape).astype(np.int32)
    row = x[:1, :1, :, :1, :, :1]

    def broadcast(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.broadcast(out, ins[0], 4, row.shape, shape)

    got = run_tile([(row.reshape(-1), "i32")], "i32", np.int32, x.size, broadcast, Unit.MLU)
    np.testing.assert_array_equal(got.reshape(shape), np.broadcast_to(row, shape))
    permutation = (5, 1, 3, 0, 4, 2)
    source_strides = [x.strides[d] // 4 for d in permutation]
    permuted = tuple(shape[d] for d in permutation)

    def transpose(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.mlu_copy(out, ins[0], 4, permuted, source_strides,
                   [int(np.prod(permuted[d + 1:])) for d in range(6)])

    got = run_tile([(x.reshape(-1), "i32")], "i32", np.int32, x.size, transpose, Unit.MLU)
    np.testing.assert_array_equal(got.reshape(permuted), x.transpose(permutation))
    for axis in range(6):
        def xor(b: ProgramBuilder, out: Slot, ins: list[Slot], axis: int = axis) -> None:
            b.reduce("xor", "i32", ins[0], shape, axis, d=out)

        got = run_tile([(x.reshape(-1), "i32")], "i32", np.int32, x.size // shape[axis], xor,
                       Unit.RE)
        np.testing.assert_array_equal(got, np.bitwise_xor.reduce(x, axis=axis).reshape(-1))


def test_dma_2d_window_with_bounds_and_other(rng: np.random.Generator) -> None:
    """A 16x16 f32 window at (row 8, col 8) of a 20x24 matrix: rows >= 20 and
    columns >= 24 are masked off and read as -inf."""
    src = rng.standard_normal((20, 24)).astype(np.float32)
    out = np.zeros((16, 16), np.float32)
    b = ProgramBuilder("window")
    ps, po = b.param_ptr("src", "f32"), b.param_ptr("out", "f32")
    cb = b.cb("t", 16 * 16 * 4, 1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.add(b.param(ps), (8 * 24 + 8) * 4), "f32", [16, 16], [24, 1],
               lo=[0, 0], hi=[20 - 8, 24 - 8], other=float("-inf"))
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.DMA_OUT, cb)
    b.dma_store(cb.front(), b.param(po), "f32", [16, 16], [16, 1])
    b.pop(Unit.DMA_OUT, cb)
    Simulator().run(b.build(), [src, out])
    expected = np.full((16, 16), -np.inf, np.float32)
    expected[:12, :16] = src[8:20, 8:24]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("n", [1023, 1024, 1024 + 9, 16384 + 3])
@pytest.mark.parametrize("skew", [0, 1, 3])
def test_dma_store_writes_exactly_its_run_at_any_host_alignment(
        n: int, skew: int, rng: np.random.Generator) -> None:
    """A contiguous DMA store of f32 runs around the 4 KiB from which it
    streams past the host's caches, into host memory `skew` elements past a
    16-byte boundary: the run lands whole and the neighbours stay intact."""
    src = rng.standard_normal(n).astype(np.float32)
    backing = np.full(n + 8, 7.0, np.float32)
    out = backing[skew:skew + n]
    b = ProgramBuilder("copy")
    ps, po = b.param_ptr("src", "f32"), b.param_ptr("out", "f32")
    copy_through_page(b, b.cb("t", n * 4, 1), b.param(ps), b.param(po), "f32", n)
    Simulator().run(b.build(), [src, out])
    np.testing.assert_array_equal(out, src)
    np.testing.assert_array_equal(backing[:skew], 7.0)
    np.testing.assert_array_equal(backing[skew + n:], 7.0)


def test_gather_scatter_and_atomics(rng: np.random.Generator) -> None:
    n, size = 256, 100
    table = rng.standard_normal(size).astype(np.float32)
    index = rng.integers(0, size, n).astype(np.int32)
    perm = rng.permutation(n).astype(np.int32)
    mask = (rng.random(n) > 0.3).astype(np.uint8)
    gathered = np.zeros(n, np.float32)
    scattered = np.zeros(n, np.float32)
    counts = np.zeros(size, np.int32)
    b = ProgramBuilder("indexed")
    pt, pi = b.param_ptr("table", "f32"), b.param_ptr("index", "i32")
    pp = b.param_ptr("perm", "i32")
    pm, pg = b.param_ptr("mask", "i1"), b.param_ptr("gathered", "f32")
    ps, pc = b.param_ptr("scattered", "f32"), b.param_ptr("counts", "i32")
    gather_index = b.cb("gather_index", page_bytes(n, "i32"), 1)
    atomic_index = b.cb("atomic_index", page_bytes(n, "i32"), 1)
    scatter_index = b.cb("scatter_index", page_bytes(n, "i32"), 1)
    cm = b.cb("mask", page_bytes(n, "i1"), 1)
    cg = b.cb("gathered", page_bytes(n, "f32"), 1)
    for cb, param, dtype in ((gather_index, pi, "i32"), (atomic_index, pi, "i32"),
                             (scatter_index, pp, "i32"), (cm, pm, "i1")):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.param(param), dtype, [n], [1])
        b.push(Unit.DMA_IN, cb)
    # gathered[i] = mask[i] ? table[index[i]] : 7.0, on the read queue.
    b.wait(Unit.DMA_IN, gather_index)
    b.wait(Unit.DMA_IN, cm)
    b.reserve(Unit.DMA_IN, cg)
    b.dma_gather(cg.back(), b.param(pt), "f32", n, gather_index.front(), mask=cm.front(),
                 other=7.0)
    b.push(Unit.DMA_IN, cg)
    b.pop(Unit.DMA_IN, gather_index)
    b.pop(Unit.DMA_IN, cm)
    # counts[index[i]] += 1 for every i, scattered[perm[i]] = gathered[i].
    b.wait(Unit.DMA_OUT, atomic_index)
    b.wait(Unit.DMA_OUT, scatter_index)
    b.wait(Unit.DMA_OUT, cg)
    b.dma_atomic("add", b.param(pc), "i32", n, 1, index=atomic_index.front())
    b.dma_store(cg.front(), b.param(pg), "f32", [n], [1])
    b.dma_scatter(cg.front(), b.param(ps), "f32", n, scatter_index.front())
    for cb in (atomic_index, scatter_index, cg):
        b.pop(Unit.DMA_OUT, cb)
    Simulator().run(b.build(), [table, index, perm, mask, gathered, scattered, counts])
    expected_gather = np.where(mask == 1, table[index], np.float32(7.0))
    np.testing.assert_array_equal(gathered, expected_gather)
    expected_scatter = np.zeros(n, np.float32)
    expected_scatter[perm] = expected_gather
    np.testing.assert_array_equal(scattered, expected_scatter)
    np.testing.assert_array_equal(counts, np.bincount(index, minlength=size))


def test_simd_f64_matmul_rounds_each_product_and_sum(rng: np.random.Generator) -> None:
    """`simd.mma`: c = acc + a @ b in f64, a rounded product and a rounded sum
    per step of k in increasing order (reproduced exactly by numpy)."""
    m, n, k = 8, 12, 20
    a = rng.standard_normal((m, k))
    b = rng.standard_normal((k, n))
    acc = rng.standard_normal((m, n))

    def emit(builder: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        builder.simd_mma(ins[0], ins[1], out, m, n, k, acc=ins[2])

    c = run_tile([(a, "f64"), (b, "f64"), (acc, "f64")], "f64", np.float64, m * n, emit)
    expected = acc.copy()
    for p in range(k):
        expected = expected + a[:, p:p + 1] * b[p:p + 1, :]
    np.testing.assert_array_equal(c.reshape(m, n), expected)


def test_simd_mma_is_f64_only() -> None:
    b = ProgramBuilder("mma")
    cb = b.cb("t", 1024, pages=1)
    b.reserve(Unit.SIMD, cb)
    b.simd_mma(cb.back(), cb.back(), cb.back(), 4, 4, 4)
    program = b.build()
    assert program.count(b'"t":"f64"') == 1
    with pytest.raises(SimulationError) as info:
        parse_program(seal(program[28:].replace(b'"t":"f64"', b'"t":"f32"')))
    assert info.value.kind == "invalid_program"
    assert "simd.mma supports f64 only" in str(info.value)
