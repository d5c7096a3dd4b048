"""Constructs of Triton 3.9 that Triton's own language tests use, launched
through the backend and compared with numpy: `tl.debug_barrier()`
(`ttg.barrier`), `ub.poison`, `tl.map_elementwise`, `tt.ptr_to_int` of
tensors, histograms of values outside the bins, and transfers of more than
four dimensions."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

# -- tl.debug_barrier ------------------------------------------------------------


@triton.jit
def barrier_exchange_kernel(x_ptr, scratch_ptr, alias_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(scratch_ptr + offsets, tl.load(x_ptr + offsets) * 2)
    tl.debug_barrier()
    # The same memory through another argument, in reverse: a GPU's threads
    # read what other threads wrote before the barrier.
    tl.store(out_ptr + offsets, tl.load(alias_ptr + BLOCK - 1 - offsets))


def test_debug_barrier_orders_accesses_through_aliasing_arguments() -> None:
    x = torch.arange(64, dtype=torch.float32)
    scratch = torch.zeros(64)
    out = torch.zeros(64)
    compiled = barrier_exchange_kernel[(1,)](x, scratch, scratch, out, BLOCK=64)
    assert "ttg.barrier all" in compiled.asm["ttir"]
    assert compiled.asm["bin"].count(b'"op":"fence"') == 1
    np.testing.assert_array_equal(out.numpy(), (x * 2).flip(0).numpy())


@triton.jit
def serialized_add_kernel(data_ptr, lock_ptr):
    offsets = tl.arange(0, 128)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(data_ptr + offsets, tl.load(data_ptr + offsets) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)


def test_debug_barrier_in_a_critical_section() -> None:
    data = torch.zeros(128)
    lock = torch.zeros(1, dtype=torch.int32)
    serialized_add_kernel[(96,)](data, lock)
    np.testing.assert_array_equal(data.numpy(), np.full(128, 96.0, np.float32))
    assert lock.item() == 0


# -- ub.poison ---------------------------------------------------------------------


@triton.jit
def loop_variable_after_loop_kernel(x_ptr, out_ptr, last_ptr, n):
    for i in range(n):
        tl.store(out_ptr + i, tl.load(x_ptr + i) + 1.0)
    # After the loop, `i` is Triton's placeholder, ub.poison: any value is
    # legal, and the backend takes zero.
    tl.store(last_ptr, i.to(tl.float32))


def test_poison_is_zero() -> None:
    x = torch.rand(10)
    out = torch.zeros(10)
    last = torch.full((1,), 7.0)
    compiled = loop_variable_after_loop_kernel[(1,)](x, out, last, 10)
    assert "ub.poison" in compiled.asm["ttir"]
    np.testing.assert_array_equal(out.numpy(), (x + 1).numpy())
    assert last.item() == 0.0


# -- tl.map_elementwise ------------------------------------------------------------


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def compare_kernel(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    z = tl.map_elementwise(compare, tl.load(x_ptr + offsets), tl.load(y_ptr + offsets))
    tl.store(z_ptr + offsets, z)


def test_map_elementwise_with_branches() -> None:
    rng = np.random.default_rng(17)
    x = rng.integers(-4, 4, 128, dtype=np.int32)
    y = rng.integers(-4, 4, 128, dtype=np.int32)
    z = torch.zeros(128, dtype=torch.int32)
    compare_kernel[(1,)](torch.from_numpy(x), torch.from_numpy(y), z, BLOCK=128)
    np.testing.assert_array_equal(z.numpy(), np.sign(x - y))


@triton.jit
def clamp_below(x, low):
    y = x
    if x < low:
        y = low * 2.0
    return y


@triton.jit
def divmod_packed(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def map_2d_kernel(x_ptr, a_ptr, b_ptr, clamped_ptr, q_ptr, r_ptr, low, M: tl.constexpr,
                  N: tl.constexpr):
    offsets = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    # A scalar operand is broadcast; the region holds an scf.if.
    tl.store(clamped_ptr + offsets, tl.map_elementwise(clamp_below, tl.load(x_ptr + offsets),
                                                       low))
    q, r = tl.map_elementwise(divmod_packed, tl.load(a_ptr + offsets),
                              tl.load(b_ptr + offsets), pack=2)
    tl.store(q_ptr + offsets, q)
    tl.store(r_ptr + offsets, r)


def test_map_elementwise_scalar_operand_if_and_pack() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 16)).astype(np.float32)
    a = rng.integers(0, 1 << 31, (8, 16)).astype(np.uint32)
    b = rng.integers(1, 1000, (8, 16)).astype(np.uint32)
    b[0, :3] = 0  # a SIMD division by zero is defined, whatever Triton makes of it
    clamped = torch.zeros(8, 16)
    q = torch.zeros(8, 16, dtype=torch.int32)
    r = torch.zeros(8, 16, dtype=torch.int32)
    map_2d_kernel[(1,)](torch.from_numpy(x), torch.from_numpy(a.view(np.int32)),
                        torch.from_numpy(b.view(np.int32)), clamped, q, r, 0.25, M=8, N=16)
    np.testing.assert_array_equal(clamped.numpy(), np.where(x < 0.25, np.float32(0.5), x))
    defined = b != 0
    divisor = np.maximum(b, 1)
    np.testing.assert_array_equal(q.numpy().view(np.uint32)[defined], (a // divisor)[defined])
    np.testing.assert_array_equal(r.numpy().view(np.uint32)[defined], (a % divisor)[defined])


# -- tt.ptr_to_int of tensors --------------------------------------------------------


@triton.jit
def where_pointers_kernel(cond_ptr, a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    decide = tl.load(cond_ptr + offsets, mask=mask)
    a = tl.load(a_ptr + offsets, mask=mask).to(tl.pi32_t)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.pi32_t)
    tl.store(out_ptr + offsets, tl.where(decide, a, b), mask=mask)


@triton.jit
def pointer_addresses_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    pointers = x_ptr + offsets * 3
    tl.store(out_ptr + offsets, pointers.to(tl.int64, bitcast=True) - x_ptr.to(tl.int64,
                                                                             bitcast=True))


def test_pointers_stored_as_integers() -> None:
    rng = np.random.default_rng(5)
    n = 1000
    cond = rng.random(n) < 0.5
    a = rng.integers(-(1 << 62), 1 << 62, n)
    b = rng.integers(-(1 << 62), 1 << 62, n)
    out = torch.zeros(n, dtype=torch.int64)
    where_pointers_kernel[(triton.cdiv(n, 256),)](torch.from_numpy(cond), torch.from_numpy(a),
                                                  torch.from_numpy(b), out, n, BLOCK=256)
    np.testing.assert_array_equal(out.numpy(), np.where(cond, a, b))
    addresses = torch.zeros(32, dtype=torch.int64)
    pointer_addresses_kernel[(1,)](torch.zeros(96, dtype=torch.int16), addresses, BLOCK=32)
    np.testing.assert_array_equal(addresses.numpy(), np.arange(32) * 3 * 2)


# -- tl.histogram -----------------------------------------------------------------------


@triton.jit
def histogram_kernel(x_ptr, z_ptr, limit, M: tl.constexpr, N: tl.constexpr,
                     MASKED: tl.constexpr):
    offsets = tl.arange(0, M)
    x = tl.load(x_ptr + offsets)
    if MASKED:
        z = tl.histogram(x, N, offsets < limit)
    else:
        z = tl.histogram(x, N)
    tl.store(z_ptr + tl.arange(0, N), z)


@pytest.mark.parametrize("masked", [False, True])
def test_histogram_ignores_values_outside_the_bins(masked: bool) -> None:
    rng = np.random.default_rng(11)
    x = rng.integers(-20, 40, 512).astype(np.int32)
    z = torch.full((33,), -1, dtype=torch.int32)
    histogram_kernel[(1,)](torch.from_numpy(x), z, 300, M=512, N=32, MASKED=masked)
    counted = x[:300] if masked else x
    expected = np.bincount(counted[(counted >= 0) & (counted < 32)], minlength=32)
    np.testing.assert_array_equal(z.numpy()[:32], expected)
    assert z[32].item() == -1


# -- transfers of more than four dimensions -----------------------------------------------


@triton.jit
def reshape_9d_kernel(z_ptr, x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 512))
    z = tl.reshape(x, (2, 2, 2, 2, 2, 2, 2, 2, 2))
    r = tl.arange(0, 2)
    offsets = (r[:, None, None, None, None, None, None, None, None] * 256 +
               r[None, :, None, None, None, None, None, None, None] * 128 +
               r[None, None, :, None, None, None, None, None, None] * 64 +
               r[None, None, None, :, None, None, None, None, None] * 32 +
               r[None, None, None, None, :, None, None, None, None] * 16 +
               r[None, None, None, None, None, :, None, None, None] * 8 +
               r[None, None, None, None, None, None, :, None, None] * 4 +
               r[None, None, None, None, None, None, None, :, None] * 2 +
               r[None, None, None, None, None, None, None, None, :])
    tl.store(z_ptr + offsets, z)


def test_contiguous_nine_dimensional_store() -> None:
    x = torch.randint(-1000, 1000, (512,), dtype=torch.int32)
    z = torch.zeros((2,) * 9, dtype=torch.int32)
    compiled = reshape_9d_kernel[(1,)](z, x)
    np.testing.assert_array_equal(z.numpy(), x.numpy().reshape((2,) * 9))
    # Its nine dimensions are contiguous: one DMA instruction.
    assert compiled.asm["bin"].count(b'"op":"dma.store"') == 1


@triton.jit
def strided_5d_copy_kernel(x_ptr, out_ptr, s0, s1, s2, s3, s4, n0,
                           A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
                           D: tl.constexpr, E: tl.constexpr):
    i0 = tl.arange(0, A)[:, None, None, None, None]
    i1 = tl.arange(0, B)[None, :, None, None, None]
    i2 = tl.arange(0, C)[None, None, :, None, None]
    i3 = tl.arange(0, D)[None, None, None, :, None]
    i4 = tl.arange(0, E)[None, None, None, None, :]
    source = x_ptr + i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3 + i4 * s4
    dense = (((i0 * B + i1) * C + i2) * D + i3) * E + i4
    mask = (i0 < n0) & (i1 < B) & (i2 < C) & (i3 < D) & (i4 < E)
    tl.store(out_ptr + dense, tl.load(source, mask=mask, other=-1.0), mask=mask)


@pytest.mark.parametrize("rows", [3, 4])
def test_strided_five_dimensional_copy(rows: int) -> None:
    # A permuted view: no two dimensions are contiguous, and the strides are
    # known only at run time.
    base = torch.randn(8, 4, 2, 2, 4)
    x = base.permute(4, 2, 0, 3, 1)  # shape (4, 2, 8, 2, 4)
    out = torch.full((4, 2, 8, 2, 4), 7.0)
    compiled = strided_5d_copy_kernel[(1,)](x, out, *x.stride(), rows, A=4, B=2, C=8, D=2,
                                            E=4)
    # One load per index of the first dimension (the dense store merges).
    assert compiled.asm["bin"].count(b'"op":"dma.load"') == 4
    expected = x.clone()
    expected[rows:] = 7.0
    np.testing.assert_array_equal(out.numpy(), expected.numpy())
