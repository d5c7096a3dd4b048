"""A scalar computed from a block before a loop, stored, and read in the loop
after a second scalar is stored: the loop reads the first scalar, not the
page the second one was written to (`mtia-reserve-where-produced`)."""

from __future__ import annotations

import numpy as np
import torch

from . import scalar_loop_kernels as kernels

N = 64


def test_the_mean_stored_before_a_loop_is_subtracted_in_it() -> None:
    x = torch.arange(float(N))
    out = torch.empty(N)
    stats = torch.empty(2)
    kernels.centre_kernel[(1,)](x, out, stats, N, BLOCK=N)
    mean = x.numpy().mean()
    np.testing.assert_array_equal(stats.numpy(), [mean, 0.0])
    np.testing.assert_array_equal(out.numpy(), x.numpy() - mean)


def test_the_maximum_plus_one_stored_before_a_loop_is_subtracted_in_it() -> None:
    x = torch.linspace(-3.0, 5.0, N)
    out = torch.empty(N)
    stats = torch.empty(2)
    kernels.centre_on_max_kernel[(1,)](x, out, stats, N, BLOCK=N)
    np.testing.assert_array_equal(stats.numpy(), [6.0, -1.0 / N])
    np.testing.assert_array_equal(out.numpy(), x.numpy() - np.float32(6.0))


def test_the_mean_stored_before_two_loops_is_read_in_both() -> None:
    x = torch.arange(float(N))
    out = torch.empty(N)
    scaled = torch.empty(N)
    stats = torch.empty(2)
    kernels.centre_in_two_loops_kernel[(1,)](x, out, scaled, stats, N, BLOCK=N)
    mean = x.numpy().mean()
    np.testing.assert_array_equal(out.numpy(), x.numpy() - mean)
    np.testing.assert_array_equal(scaled.numpy(), x.numpy() * mean)


def test_an_integer_quotient_stored_before_a_loop_is_subtracted_in_it() -> None:
    x = torch.arange(N, dtype=torch.int32) * 3 + 5
    out = torch.empty(N, dtype=torch.int32)
    stats = torch.empty(2, dtype=torch.int32)
    kernels.centre_integers_kernel[(1,)](x, out, stats, N, BLOCK=N)
    quotient = int(x.sum()) // N
    np.testing.assert_array_equal(stats.numpy(),
                                  [quotient, int((x - quotient).sum()) // N])
    np.testing.assert_array_equal(out.numpy(), x.numpy() - quotient)


def test_the_mean_stored_before_a_while_loop_is_subtracted_in_it() -> None:
    x = torch.arange(float(N))
    out = torch.empty(N)
    stats = torch.empty(2)
    kernels.centre_in_while_loop_kernel[(1,)](x, out, stats, N, BLOCK=N)
    np.testing.assert_array_equal(out.numpy(), x.numpy() - x.numpy().mean())
