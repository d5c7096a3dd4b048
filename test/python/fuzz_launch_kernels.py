"""@triton.jit kernels the launch fuzzer (fuzz_launch.py) launches with
mutated arguments and grids: pointers, integers and floats, a constexpr
between runtime parameters, a tuple and two grid axes."""

import triton
import triton.language as tl


@triton.jit
def fuzz_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) +
             tl.load(y_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def fuzz_scale(x_ptr, SHIFT: tl.constexpr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * factor + SHIFT, mask=mask)


@triton.jit
def fuzz_tuple(pointers, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(pointers[1] + offsets, tl.load(pointers[0] + offsets, mask=mask) * 2, mask=mask)


@triton.jit
def fuzz_rows(x_ptr, out_ptr, rows, cols, stride, BLOCK_C: tl.constexpr):
    row = tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)
    offsets = tl.arange(0, BLOCK_C)
    mask = (offsets < cols) & (row < rows)
    values = tl.load(x_ptr + row * stride + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + row, tl.sum(values, axis=0), mask=row < rows)
