"""`tl.dot_scaled` through the backend: operands in e2m1 (fp4, two per
byte), e4m3, e5m2, bf16 or fp16, with e8m0 scales (2^(s - 127), one per 32
elements of K), decoded and scaled to f32 on the SIMD engine and multiplied
on the DPE.

The reference decodes the formats from their definitions (fp4 by table,
fp8/bf16/fp16 through torch) and multiplies in f64. Every scaled value is
exact in f32, and the DPE's products are exact and summed in f32, so the
result is within K roundings of f32 of the exact dot: |error| <= K · 2^-24 ·
(|A| @ |B|). Triton's interpreter (the conformance oracle) computes the same
values with numpy's f32 matmul and is held to twice that bound (it has no
bfloat16, so cases with bf16 are compared with the reference only). Where
they differ on purpose: a scale byte 0 is 2^-127 here, which the interpreter
takes as 0 when the other operand is fp16."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from triton.runtime.interpreter import InterpretedFunction

FP4_VALUES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
                       -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0])
TORCH_TYPES = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2,
               "bf16": torch.bfloat16, "fp16": torch.float16}


@triton.jit
def dot_scaled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr,
                      M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                      A_ROWS: tl.constexpr, A_COLS: tl.constexpr,
                      B_ROWS: tl.constexpr, B_COLS: tl.constexpr,
                      TYPE_A: tl.constexpr, TYPE_B: tl.constexpr,
                      RHS_K_PACK: tl.constexpr) -> None:
    a = tl.load(a_ptr + tl.arange(0, A_ROWS)[:, None] * A_COLS + tl.arange(0, A_COLS)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_ROWS)[:, None] * B_COLS + tl.arange(0, B_COLS)[None, :])
    a_scale = None
    b_scale = None
    if a_scale_ptr is not None:
        a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32)
                          + tl.arange(0, K // 32)[None, :])
    if b_scale_ptr is not None:
        b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // 32)
                          + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, a_scale, TYPE_A, b, b_scale, TYPE_B, rhs_k_pack=RHS_K_PACK)
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def decode(codes: torch.Tensor, fmt: str, axis: int) -> np.ndarray:
    """The values of `codes` in `fmt` as f64; fp4 unpacks along `axis`, the
    low nibble first."""
    if fmt != "e2m1":
        return codes.view(TORCH_TYPES[fmt]).double().numpy()
    packed = codes.numpy()
    low, high = FP4_VALUES[packed & 0xF], FP4_VALUES[packed >> 4]
    return np.stack([low, high], axis=axis + 1).reshape(
        [2 * size if d == axis else size for d, size in enumerate(packed.shape)])


def decode_scales(scales: torch.Tensor | None) -> np.ndarray | float:
    """e8m0: 2^(s - 127), NaN for 255, repeated over 32 elements of K."""
    if scales is None:
        return 1.0
    s = scales.numpy().astype(np.float64)
    return np.repeat(np.where(s == 255, np.nan, 2.0 ** (s - 127)), 32, axis=1)


def make_operand(fmt: str, shape: tuple[int, int], rng: np.random.Generator) -> torch.Tensor:
    if fmt in ("bf16", "fp16"):
        return torch.from_numpy(rng.standard_normal(shape)).to(TORCH_TYPES[fmt])
    codes = rng.integers(0, 256, shape, dtype=np.uint8)
    if fmt == "e4m3":
        codes[(codes & 0x7F) == 0x7F] = 0x38  # NaN codes become 1.0
    if fmt == "e5m2":
        codes[(codes & 0x7C) == 0x7C] = 0x3C  # infinities and NaN become 1.0
    return torch.from_numpy(codes)


def run(type_a: str, type_b: str, a_scaled: bool, b_scaled: bool, m: int = 32, n: int = 16,
        k: int = 64, rhs_k_pack: bool = True, scale_range: tuple[int, int] = (118, 136),
        interpret: bool = False, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs the kernel; returns its result, the exact f64 dot and |A| @ |B|."""
    rng = np.random.default_rng(seed)
    a_shape = (m, k // 2) if type_a == "e2m1" else (m, k)
    if type_b != "e2m1":
        b_shape = (k, n)
    else:
        b_shape = (k // 2, n) if rhs_k_pack else (k, n // 2)
    a, b = make_operand(type_a, a_shape, rng), make_operand(type_b, b_shape, rng)
    low, high = scale_range
    a_scale = torch.from_numpy(rng.integers(low, high + 1, (m, k // 32), dtype=np.uint8)) \
        if a_scaled else None
    b_scale = torch.from_numpy(rng.integers(low, high + 1, (n, k // 32), dtype=np.uint8)) \
        if b_scaled else None
    out = torch.empty((m, n))
    kernel = InterpretedFunction(dot_scaled_kernel.fn) if interpret else dot_scaled_kernel
    kernel[(1,)](a, a_scale, b, b_scale, out, m, n, k, *a_shape, *b_shape, type_a, type_b,
                 rhs_k_pack)
    a_values = decode(a, type_a, 1) * decode_scales(a_scale)
    b_values = decode(b, type_b, 0 if rhs_k_pack else 1)
    b_values = b_values * np.swapaxes(np.asarray(decode_scales(b_scale)), 0, -1) \
        if b_scaled else b_values
    return out.numpy(), a_values @ b_values, np.abs(a_values) @ np.abs(b_values)


CASES = [("e2m1", "fp16", True, False), ("fp16", "e2m1", False, True),
         ("e4m3", "bf16", True, False), ("bf16", "e5m2", False, True),
         ("e5m2", "e4m3", True, True), ("e2m1", "e2m1", True, True),
         ("e4m3", "fp16", False, False)]


@pytest.mark.parametrize(("type_a", "type_b", "a_scaled", "b_scaled"), CASES)
def test_dot_scaled(type_a: str, type_b: str, a_scaled: bool, b_scaled: bool) -> None:
    result, exact, magnitude = run(type_a, type_b, a_scaled, b_scaled)
    k = 64
    assert (np.abs(result - exact) <= k * 2.0**-24 * magnitude).all()
    if "bf16" in (type_a, type_b):
        return  # The interpreter has no bfloat16.
    oracle, _, _ = run(type_a, type_b, a_scaled, b_scaled, interpret=True)
    assert (np.abs(result - oracle) <= 2 * k * 2.0**-24 * magnitude).all()


def test_dot_scaled_fp4_packed_along_n() -> None:
    """fp4 packed along N (`rhs_k_pack=False`) unpacks along N."""
    result, exact, magnitude = run("e4m3", "e2m1", False, True, rhs_k_pack=False)
    assert (np.abs(result - exact) <= 64 * 2.0**-24 * magnitude).all()


def test_dot_scaled_every_fp4_code() -> None:
    """Each of the 16 fp4 codes in each nibble, against the format's table:
    a 1x32 identity-like product reads every decoded value back exactly."""
    codes = np.arange(256, dtype=np.uint8).reshape(16, 16)
    a = torch.from_numpy(np.repeat(codes, 2, axis=0))  # 32 rows of 16 bytes: K = 32
    b = torch.from_numpy(np.eye(32, dtype=np.float16))
    scale = torch.full((32, 1), 127, dtype=torch.uint8)  # 2^0
    out = torch.empty((32, 32))
    dot_scaled_kernel[(1,)](a, scale, b, None, out, 32, 32, 32, 32, 16, 32, 32, "e2m1", "fp16",
                            True)
    np.testing.assert_array_equal(out.numpy(), decode(a, "e2m1", 1))


def test_dot_scaled_extreme_scales() -> None:
    """Scale 255 is NaN (its rows are NaN), scale 0 is 2^-127 (an f32
    subnormal, kept), and the largest scales overflow to infinity as the
    exact product does."""
    m, n, k = 32, 16, 64
    a = torch.full((m, k // 2), 0x22, dtype=torch.uint8)  # every value 1.0
    b = torch.ones((k, n), dtype=torch.float16)
    scale = torch.full((m, k // 32), 127, dtype=torch.uint8)
    scale[0, 1], scale[1, :], scale[2, :] = 255, 0, 254
    out = torch.empty((m, n))
    dot_scaled_kernel[(1,)](a, scale, b, None, out, m, n, k, m, k // 2, k, n, "e2m1", "fp16",
                            True)
    result = out.numpy()
    assert np.isnan(result[0]).all()
    np.testing.assert_array_equal(result[1], np.float32(64 * 2.0**-127))
    assert np.isinf(result[2]).all()
    np.testing.assert_array_equal(result[3:], 64.0)
