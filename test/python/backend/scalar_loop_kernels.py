"""Kernels that store a scalar computed from a block before a loop, store a
second scalar of the same type, then read the first in the loop (FlagGems'
layer_norm centres its rows this way)."""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def centre_kernel(x_ptr, out_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    mean = tl.sum(x) / BLOCK
    tl.store(stats_ptr, mean)
    tl.store(stats_ptr + 1, tl.sum(x - mean) / N)
    for start in range(0, N, BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o) - mean)


@triton.jit
def centre_on_max_kernel(x_ptr, out_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    top = tl.max(x) + 1.0
    tl.store(stats_ptr, top)
    tl.store(stats_ptr + 1, tl.max(x - top) / N)
    for start in range(0, N, BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o) - top)


@triton.jit
def centre_in_two_loops_kernel(x_ptr, out_ptr, scaled_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    mean = tl.sum(x) / BLOCK
    tl.store(stats_ptr, mean)
    tl.store(stats_ptr + 1, tl.sum(x - mean) / N)
    for start in range(0, N, BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o) - mean)
    for start in range(0, N, BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(scaled_ptr + o, tl.load(x_ptr + o) * mean)


@triton.jit
def centre_integers_kernel(x_ptr, out_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    quotient = tl.sum(x) // N
    tl.store(stats_ptr, quotient)
    tl.store(stats_ptr + 1, tl.sum(x - quotient) // N)
    for start in range(0, N, BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o) - quotient)


@triton.jit
def centre_in_while_loop_kernel(x_ptr, out_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    mean = tl.sum(x) / BLOCK
    tl.store(stats_ptr, mean)
    tl.store(stats_ptr + 1, tl.sum(x - mean) / N)
    start = 0
    while start < N:
        o = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.load(x_ptr + o) - mean)
        start += BLOCK
