"""The routing of a mixture of experts on the simulated chip: Triton kernels
for the operations a router and its experts need beyond sorts and top-k
(which Inductor generates kernels for):

* `histc`, the tokens per expert: a histogram of any floating or integer
  input, as PyTorch defines it (bins of equal width over [min, max], elements
  outside left out, the maximum in the last bin; with min = max, the range of
  the data, widened by one each way if that is empty too), counted with
  Triton's `tl.histogram` in one program (a router's histogram is small);
* the grouped matmul of the experts: rows sorted by expert, `offs` the
  cumulative row counts, expert e multiplying its rows by its own weight
  (PyTorch's `_grouped_mm` of a 2-D input and 3-D weights, and the fallback
  `transformers` defines for it), and the gradient of its weights; the
  gradient of its input is a grouped matmul with the weights transposed.

They are PyTorch operators (`torch.ops.mtia_compiler.histc`, `grouped_mm`,
`grouped_mm_weight_grad`): the runtime runs `histc` of `mtia` tensors with
them, and `mtia_compiler.torch.compile` decomposes the operations into them
on either device.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton
from torch.utils.flop_counter import register_flop_formula

from mtia.host_runtime.torch_mtia.kernels import tile

#: The elements of the input each program of a histogram counts.
HISTOGRAM_BLOCK = 1024


@triton.jit
def _histogram_kernel(x_ptr, out_ptr, n, bins, low, high, AUTO_RANGE: tl.constexpr,
                      INTEGER: tl.constexpr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """The histogram of `n` elements in `bins` bins over [low, high], in
    one program: with AUTO_RANGE, [low, high] is the data's range (widened
    by one each way when empty) from a first pass. An element's bin is
    (x - low) * bins / (high - low), in integers for integer inputs, the
    maximum in the last bin; the counts are stored in `out`'s type."""
    if AUTO_RANGE:
        # The range in the input's own type, from its first element on.
        first = tl.load(x_ptr, mask=n > 0, other=0)
        smallest = tl.zeros([BLOCK], dtype=x_ptr.dtype.element_ty) + first
        largest = smallest
        for start in range(0, n, BLOCK):
            offsets = start + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offsets, mask=offsets < n, other=0)
            smallest = tl.minimum(smallest, tl.where(offsets < n, x, first))
            largest = tl.maximum(largest, tl.where(offsets < n, x, first))
        low = tl.min(smallest, 0)
        high = tl.max(largest, 0)
        if INTEGER:
            low = low.to(tl.int64)
            high = high.to(tl.int64)
        else:
            low = low.to(tl.float32)
            high = high.to(tl.float32)
    empty = low == high
    low = tl.where(empty, low - 1, low)
    high = tl.where(empty, high + 1, high)
    counts = tl.zeros([BINS], dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offsets, mask=offsets < n, other=0)
        inside = (offsets < n) & (x >= low) & (x <= high)
        if INTEGER:
            position = ((x - low) * bins) // (high - low)
        else:
            position = ((x - low) * bins / (high - low)).to(tl.int32)
        position = tl.where(inside, tl.minimum(position.to(tl.int32), bins - 1), 0)
        counts += tl.histogram(position, BINS, mask=inside)
    which = tl.arange(0, BINS)
    tl.store(out_ptr + which, counts.to(out_ptr.dtype.element_ty), mask=which < bins)


@triton.jit
def _group_rows(offs_ptr, group, groups, rows):
    """The first and the last-plus-one row of `group` (offs: the cumulative
    row counts of `groups` groups); group `groups` stands for the rows past
    the last group, up to `rows`."""
    start = tl.load(offs_ptr + group - 1, mask=group > 0, other=0)
    return start, tl.load(offs_ptr + group, mask=group < groups, other=rows)


@triton.jit
def _grouped_matmul_kernel(a_ptr, b_ptr, offs_ptr, out_ptr, M, N, K, GROUPS,
                           sam, sak, sbe, sbk, sbn, som, son,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr):
    """out[rows of group e] = a[rows of group e] @ b[e] (grid: row blocks of
    the largest possible group, column blocks, GROUPS + 1); the row blocks
    past a group's rows multiply nothing, and the last grid group writes
    zeros to the rows past the last group."""
    group = tl.program_id(2)
    start, end = _group_rows(offs_ptr, group, GROUPS, M)
    rows = start + tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    steps = tl.arange(0, BLOCK_K)
    multiplies = (start + tl.program_id(0) * BLOCK_M < end) & (group < GROUPS)
    reduction = tl.where(multiplies, K, 0)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, reduction, BLOCK_K):
        ks = k + steps
        a = tl.load(a_ptr + rows[:, None] * sam + ks[None, :] * sak,
                    mask=(rows[:, None] < end) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + group * sbe + ks[:, None] * sbk + cols[None, :] * sbn,
                    mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(out_ptr + rows[:, None] * som + cols[None, :] * son,
             acc.to(out_ptr.dtype.element_ty), mask=(rows[:, None] < end) & (cols[None, :] < N))


@triton.jit
def _grouped_weight_grad_kernel(a_ptr, g_ptr, offs_ptr, out_ptr, K, N,
                                sam, sak, sgm, sgn, soe, sok, son,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr):
    """out[e] = a[rows of group e]^T @ g[rows of group e] (grid: blocks of
    a's columns (BLOCK_M), blocks of g's (BLOCK_N), groups): the reduction
    runs over the group's rows, BLOCK_K at a time."""
    group = tl.program_id(2)
    start, end = _group_rows(offs_ptr, group, tl.num_programs(2), 0)
    inputs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for first in range(start, end, BLOCK_K):
        rows = first + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[None, :] * sam + inputs[:, None] * sak,
                    mask=(rows[None, :] < end) & (inputs[:, None] < K), other=0.0)
        g = tl.load(g_ptr + rows[:, None] * sgm + cols[None, :] * sgn,
                    mask=(rows[:, None] < end) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, g, acc, input_precision="ieee")
    tl.store(out_ptr + group * soe + inputs[:, None] * sok + cols[None, :] * son,
             acc.to(out_ptr.dtype.element_ty), mask=(inputs[:, None] < K) & (cols[None, :] < N))


def _histogram_output(x: torch.Tensor, bins: int, *range_: object) -> torch.Tensor:
    """The counts `histc_operator` allocates (also its fake implementation:
    the operators' shapes may be symbolic in a graph)."""
    return torch.empty(bins, dtype=x.dtype, device=x.device)


@triton_op("mtia_compiler::histc", mutates_args={})
def histc_operator(x: torch.Tensor, bins: int = 100, low: float = 0.0,
                   high: float = 0.0) -> torch.Tensor:
    """`torch.histc` of `x` (any floating or integer type): `bins` counts of
    `x`'s type."""
    if bins <= 0:
        raise RuntimeError(f"histc: bins must be > 0, but got {bins}")
    if low > high:
        raise RuntimeError(f"histc: max must be larger than min, got {low} and {high}")
    flat = x.reshape(-1)
    out = _histogram_output(x, bins)
    integer = not x.is_floating_point()
    bounds = (int(low), int(high)) if integer else (float(low), float(high))
    wrap_triton(_histogram_kernel)[(1,)](
        flat, out, flat.numel(), bins, *bounds, AUTO_RANGE=low == high, INTEGER=integer,
        BLOCK=HISTOGRAM_BLOCK, BINS=triton.next_power_of_2(bins))
    return out


def grouped_matmul(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor,
                   out: torch.Tensor) -> None:
    """out[rows of group e] = a[rows of group e] @ b[e]: a (rows, K), b
    (groups, K, N), offs the groups' cumulative row counts, any strides; the
    rows past the last group are zeros."""
    rows, reduction = a.shape
    groups, _, columns = b.shape
    # The tile of one group's product, which may have every row.
    config = tile(rows, columns, reduction, a.element_size())
    grid = (triton.cdiv(rows, config.block_m), triton.cdiv(columns, config.block_n), groups + 1)
    wrap_triton(_grouped_matmul_kernel)[grid](
        a, b, offs, out, rows, columns, reduction, groups, *a.stride(), *b.stride(),
        *out.stride(), BLOCK_M=config.block_m, BLOCK_N=config.block_n, BLOCK_K=config.block_k)


@triton_op("mtia_compiler::grouped_mm", mutates_args={})
def grouped_mm_operator(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor) -> torch.Tensor:
    """The grouped matmul of `a` (rows sorted by group) and `b` (groups, K,
    N) at the cumulative row counts `offs`; rows past the last group are 0."""
    out = _grouped_output(a, b, offs)
    grouped_matmul(a, b, offs, out)
    return out


def _grouped_output(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor) -> torch.Tensor:
    return torch.empty(a.shape[0], b.shape[2], dtype=a.dtype, device=a.device)


@triton_op("mtia_compiler::grouped_mm_weight_grad", mutates_args={})
def grouped_mm_weight_grad_operator(a: torch.Tensor, grad: torch.Tensor,
                                    offs: torch.Tensor) -> torch.Tensor:
    """The gradient of the weights (groups, K, N) of `grouped_mm(a, weights,
    offs)` from the gradient of its output: a[rows of e]^T @ grad[rows of e]."""
    inputs, columns, groups = a.shape[1], grad.shape[1], offs.shape[0]
    out = _weight_grad_output(a, grad, offs)
    config = tile(inputs, columns, max(a.shape[0], 1), a.element_size())
    grid = (triton.cdiv(inputs, config.block_m), triton.cdiv(columns, config.block_n), groups)
    wrap_triton(_grouped_weight_grad_kernel)[grid](
        a, grad, offs, out, inputs, columns, *a.stride(), *grad.stride(), *out.stride(),
        BLOCK_M=config.block_m, BLOCK_N=config.block_n, BLOCK_K=config.block_k)
    return out


def _weight_grad_output(a: torch.Tensor, grad: torch.Tensor, offs: torch.Tensor) -> torch.Tensor:
    return torch.empty(offs.shape[0], a.shape[1], grad.shape[1], dtype=a.dtype, device=a.device)


# The operators' fake implementations allocate their outputs and launch
# nothing, so that a graph with symbolic shapes can hold them.
histc_operator.register_fake(_histogram_output)
grouped_mm_operator.register_fake(_grouped_output)
grouped_mm_weight_grad_operator.register_fake(_weight_grad_output)


@register_flop_formula(torch.ops.mtia_compiler.grouped_mm)
def _grouped_mm_flops(a_shape: torch.Size, b_shape: torch.Size, *args: object,
                      **kwargs: object) -> int:
    """Each row is multiplied by one group's (K x N) weight."""
    return 2 * a_shape[0] * a_shape[1] * b_shape[2]


@register_flop_formula(torch.ops.mtia_compiler.grouped_mm_weight_grad)
def _grouped_mm_weight_grad_flops(a_shape: torch.Size, grad_shape: torch.Size, *args: object,
                                  **kwargs: object) -> int:
    return 2 * a_shape[0] * a_shape[1] * grad_shape[1]
