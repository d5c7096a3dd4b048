"""Tensors of pointers that nested loops carry after their accesses became
DMA transfers are dropped before the program stage, which has no tensors:
triton-shared's `nested2_complex_body` failed to compile with "constant
dense<1> : tensor<2x2xi32> is not a scalar" (the outer loop's pointers,
advanced by a splat constant, were the inner loop's initial pointers; the
same construct is data/nested_loop_pointers.ttir)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import mtia_compiler

NESTED_LOOP_POINTERS = Path(__file__).parent / "data" / "nested_loop_pointers.ttir"


def test_nested_loops_copy_through_carried_pointers() -> None:
    stride = 4
    source = np.arange(32, dtype=np.float32) + 1
    out = np.zeros(32, dtype=np.float32)
    kernel = mtia_compiler.compile(NESTED_LOOP_POINTERS)
    kernel.run(source, out, stride, grid=(1,))

    # Iteration i of the outer loop starts two rows after the last, and its
    # inner loop copies the block 1 and 4 elements after that.
    rows, columns = np.meshgrid(np.arange(2), np.arange(2), indexing="ij")
    block = rows * stride + columns
    expected = np.zeros_like(out)
    for i in range(2):
        for j in range(2):
            copied = block + i * 2 * stride + 1 + 3 * j
            expected[copied] = source[copied]
    np.testing.assert_array_equal(out, expected)
