"""`tl.dot` of float64 through the backend. The DPE has no f64, so the tile
stage puts the dot on the SIMD engine (`tile.simd_matmul`, `simd.mma`):
every product and every sum rounded to f64, in increasing k.

That order is reproduced exactly in numpy (one rounded multiply and one
rounded add per step), so results are compared for equality; numpy's own
matmul (BLAS, another order, possibly fused) is compared within the error
bound of K f64 roundings. The simulated time is checked against the cost the
docs state: two SIMD operations per multiply-accumulate."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from mtia_compiler.backend import launches
from mtia_compiler.sim import load_target


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M: tl.constexpr, N: tl.constexpr,
               K: tl.constexpr) -> None:
    rows, cols, ks = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rows[:, None] * K + ks[None, :])
    b = tl.load(b_ptr + ks[:, None] * N + cols[None, :])
    c = tl.load(c_ptr + rows[:, None] * N + cols[None, :])
    tl.store(d_ptr + rows[:, None] * N + cols[None, :], tl.dot(a, b, c))


@triton.jit
def dot3d_kernel(a_ptr, b_ptr, d_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                 K: tl.constexpr) -> None:
    batch = tl.arange(0, B)[:, None, None]
    rows = tl.arange(0, M)[None, :, None]
    cols = tl.arange(0, N)[None, None, :]
    ks_last = tl.arange(0, K)[None, None, :]
    ks_mid = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + batch * M * K + rows * K + ks_last)
    b = tl.load(b_ptr + batch * K * N + ks_mid * N + cols)
    tl.store(d_ptr + batch * M * N + rows * N + cols, tl.dot(a, b))


def sequential_dot(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`c + a @ b` with each product and each sum rounded to f64, in
    increasing k (batched over leading dimensions)."""
    out = c.copy()
    with np.errstate(invalid="ignore"):
        for p in range(a.shape[-1]):
            out = out + a[..., :, p:p + 1] * b[..., p:p + 1, :]
    return out


def check_against_blas(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> None:
    k = a.shape[-1]
    bound = (k + 1) * 2.0**-53 * (np.abs(a) @ np.abs(b) + np.abs(c))
    assert (np.abs(d - (a @ b + c)) <= bound).all()


@pytest.mark.parametrize(("m", "n", "k"), [(8, 8, 4), (16, 8, 4), (8, 8, 16), (32, 32, 64)])
def test_dot_f64(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m * n + k)
    # Values that f32 cannot hold: an f32 dot would differ in the low bits.
    a = rng.standard_normal((m, k)) * (1 + 2.0**-40)
    b = rng.standard_normal((k, n))
    c = rng.standard_normal((m, n))
    d = torch.empty((m, n), dtype=torch.float64)
    with launches() as records:
        dot_kernel[(1,)](torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(c), d, m, n, k)
    result = d.numpy()
    np.testing.assert_array_equal(result, sequential_dot(a, b, c))
    check_against_blas(a, b, c, result)
    assert not np.array_equal(result, (a.astype(np.float32) @ b.astype(np.float32)
                                       + c.astype(np.float32)).astype(np.float64))
    units = records[0].result.units
    assert units["dpe"]["busy_cycles"] == 0
    # The documented cost: 2·M·N·K SIMD operations at the f64 rate.
    rate = load_target().to_dict()["simd_ops_per_cycle_per_pe"]["f64"]
    assert units["simd"]["busy_cycles"] >= np.ceil(2 * m * n * k / rate)


@pytest.mark.parametrize("batches", [1, 2, 4])
def test_dot3d_f64(batches: int) -> None:
    m = n = k = 32
    rng = np.random.default_rng(batches)
    a = rng.standard_normal((batches, m, k))
    b = rng.standard_normal((batches, k, n))
    d = torch.empty((batches, m, n), dtype=torch.float64)
    dot3d_kernel[(1,)](torch.from_numpy(a), torch.from_numpy(b), d, batches, m, n, k)
    zero = np.zeros((batches, m, n))
    np.testing.assert_array_equal(d.numpy(), sequential_dot(a, b, zero))
    check_against_blas(a, b, zero, d.numpy())


def test_dot_f64_special_values() -> None:
    """Infinities and NaN propagate as IEEE arithmetic says (inf * 0 is NaN)."""
    m = n = 8
    k = 16
    a = np.ones((m, k))
    b = np.ones((k, n))
    a[0, 0], b[0, 1] = np.inf, 0.0
    a[1, 3] = np.nan
    c = np.zeros((m, n))
    d = torch.empty((m, n), dtype=torch.float64)
    dot_kernel[(1,)](torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(c), d, m, n, k)
    result = d.numpy()
    np.testing.assert_array_equal(result, sequential_dot(a, b, c))
    assert np.isnan(result[0, 1]) and np.isinf(result[0, 0]) and np.isnan(result[1]).all()
