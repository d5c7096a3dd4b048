"""Blocks larger than a PE's local memory (384 KiB on mtia-2i) run in strips
of one axis (`mtia-strip-mine-blocks`): elementwise work, reductions over the
axis and under it, loops with carried accumulators, dots along their rows or
columns; a reshape of a block that large goes through scratch memory, each
side in strips, and so does the work of a kernel that no axis can split (the
networks of `tl.sort`, `tl.topk` and `tl.flip`), in loops over flat strips.
What cannot is refused with a located error that names what takes the
memory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl
from corpus_data import load_hand_written_kernels, load_module
from torch._inductor.runtime import triton_helpers
from triton.tools.tensor_descriptor import TensorDescriptor

from mtia_compiler import SimulationError
from mtia_compiler.backend import launches

# Triton's matmul tutorial (grouped ordering, `% M` rows, K-masked loads),
# as the second corpus has it.
matmul_kernel = load_hand_written_kernels().matmul_grouped
# The benchmark's kernels: the tutorial matmul with row-major operands
# addressed through two additions to each pointer (their offsets reach the
# transfers as tiles of i64, which the plan holds for a whole operand unless
# both the rows and the columns are split), and the row softmax.
benchmark = load_module("large_blocks_benchmark",
                        Path(__file__).resolve().parents[3] / "benchmarks" / "large_blocks.py")
row_major_matmul_kernel = benchmark.matmul_kernel
softmax_kernel = benchmark.softmax_kernel


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask)
    y = tl.load(y_ptr + offsets, mask)
    tl.store(out_ptr + offsets, x + y, mask)


@triton.jit
def gelu_kernel(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Mixed types and a libdevice call: f16 in, f32 math, f16 out.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask, other=0.0).to(tl.float32)
    x += tl.load(bias_ptr + offsets % 7, mask)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y.to(tl.float16), mask)


@triton.jit
def sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr, tl.sum(x * x, 0))


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n, eps,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + row * n + offsets, mask, other=0.0)
    mean = tl.sum(x, 0) / n
    centered = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(centered * centered, 0) / n + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + offsets, mask)
    b = tl.load(b_ptr + offsets, mask)
    tl.store(y_ptr + row * n + offsets, centered * rstd * w + b, mask)


@triton.jit
def argmax_kernel(x_ptr, index_ptr, value_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, offsets < n, other=-float("inf"))
    value, index = tl.max(x, 0, return_indices=True)
    tl.store(index_ptr, index)
    tl.store(value_ptr, value)


@triton.jit
def add_2d_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) + 1)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.cumsum(tl.load(x_ptr + offsets), 0, reverse=REVERSE))


@triton.jit
def running_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, offsets < n, other=0.0)
    tl.store(out_ptr + offsets, tl.associative_scan(x, 0, running_max) * 2.0, offsets < n)


@triton.jit
def running_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def row_cumsum_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + offsets, tl.cumsum(tl.load(x_ptr + offsets), 1))


@triton.jit
def transposed_row_sums_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    # Offsets as a reshaped range, a permute, a reduction of the transpose.
    offsets = tl.arange(0, ROWS * COLS).reshape(ROWS, COLS)
    x = tl.permute(tl.load(x_ptr + offsets), [1, 0])
    tl.store(out_ptr + tl.arange(0, ROWS), tl.sum(x * x, 0))


@triton.jit
def flatten_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    # The reshape mixes the rows and columns: no axis runs through it.
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    flat = tl.reshape(tl.load(x_ptr + offsets) + 1, (ROWS * COLS,))
    tl.store(out_ptr + tl.arange(0, ROWS * COLS), flat)


@triton.jit
def flatten_rows_in_loop_kernel(x_ptr, out_ptr, n, ROWS: tl.constexpr, COLS: tl.constexpr):
    # The same reshape in a loop over blocks.
    for block in range(n):
        offsets = block * ROWS * COLS + tl.arange(0, ROWS)[:, None] * COLS + \
            tl.arange(0, COLS)[None, :]
        flat = tl.reshape(tl.load(x_ptr + offsets) + 1, (ROWS * COLS,))
        tl.store(out_ptr + block * ROWS * COLS + tl.arange(0, ROWS * COLS), flat)


@triton.jit
def permute_kernel(x_ptr, index_ptr, out_ptr, N: tl.constexpr):
    # Any element of the gather's source may be read: no axis runs through it.
    offsets = tl.arange(0, N)
    x = tl.load(x_ptr + offsets) * 2
    tl.store(out_ptr + offsets, tl.gather(x, tl.load(index_ptr + offsets), 0))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, N: tl.constexpr, BINS: tl.constexpr):
    # Every value may fall in any bin: the bins run in strips, the values do not.
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def sort_rows_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr,
                     DESCENDING: tl.constexpr):
    # Triton's bitonic network reshapes the block into dimensions of two and
    # reduces along each: no axis runs in strips.
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + offsets, tl.sort(tl.load(x_ptr + offsets), descending=DESCENDING))


@triton.jit
def topk_kernel(x_ptr, out_ptr, N: tl.constexpr, K: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, K), tl.topk(tl.load(x_ptr + tl.arange(0, N)), K))


@triton.jit
def flip_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    tl.store(out_ptr + offsets, tl.flip(tl.load(x_ptr + offsets), 0))


@triton.jit
def sort_weighted_sum_kernel(x_ptr, out_ptr, sum_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    x = tl.sort(tl.load(x_ptr + offsets))
    tl.store(out_ptr + offsets, x)
    tl.store(sum_ptr, tl.sum(x * offsets.to(tl.float32), 0))


@triton.jit
def flip_scans_kernel(x_ptr, i_ptr, out_ptr, int_out_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    tl.store(out_ptr + offsets, tl.cumsum(tl.flip(tl.load(x_ptr + offsets)), 0, reverse=True))
    tl.store(int_out_ptr + offsets, tl.cumsum(tl.flip(tl.load(i_ptr + offsets)), 0))


@triton.jit
def affine(a_first, b_first, a_second, b_second):
    return a_first * a_second, b_first * a_second + b_second


@triton.jit
def flip_recurrence_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    # h[j] = a[j] * h[j - 1] + b[j] (from the end when REVERSE), with `a`
    # flipped first: a scan whose combine does not commute.
    offsets = tl.arange(0, N)
    a = tl.flip(tl.load(a_ptr + offsets))
    _, h = tl.associative_scan((a, tl.load(b_ptr + offsets)), 0, affine, reverse=REVERSE)
    tl.store(out_ptr + offsets, h)


@triton.jit
def flip_rows_argmax_kernel(x_ptr, value_ptr, index_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    columns = tl.arange(0, COLS)[None, :]
    x = tl.flip(tl.load(x_ptr + tl.arange(0, ROWS)[:, None] * COLS + columns), 1)
    value, index = tl.reduce((x, tl.broadcast_to(columns, (ROWS, COLS))), 1,
                             maximum_with_index)
    tl.store(value_ptr + tl.arange(0, ROWS), value)
    tl.store(index_ptr + tl.arange(0, ROWS), index)


@triton.jit
def persistent_sort_rows_kernel(x_ptr, out_ptr, rows, COLS: tl.constexpr):
    columns = tl.arange(0, COLS)
    for row in range(tl.program_id(0), rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * COLS + columns)
        tl.store(out_ptr + row * COLS + columns, tl.sort(x, descending=True))


@triton.jit
def flip_gather_kernel(x_ptr, index_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.flip(tl.load(x_ptr + offsets), 1)
    tl.store(out_ptr + offsets, tl.gather(x, tl.load(index_ptr + offsets), 1))


@triton.jit
def inductor_sort_kernel(in_out_ptr0, in_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr,
                         R0_BLOCK: tl.constexpr):
    # TorchInductor's kernel for `values, indices = torch.sort(x, dim=-1)` and
    # `values * 2` (a persistent reduction), as it generates it.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    tmp0 = tl.load(in_ptr0 + (r0_index + R0_BLOCK * xindex), xmask, eviction_policy="evict_first",
                   other=0.0)
    tmp1 = (r0_index).to(tl.int32)
    tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4, tmp5, = triton_helpers.sort_with_index(tmp2, tmp3, None, 1, stable=False,
                                                 descending=False)
    tl.store(out_ptr1 + (r0_index + R0_BLOCK * xindex), tmp5.to(tl.int64), xmask)
    tl.store(in_out_ptr0 + (r0_index + R0_BLOCK * xindex), tmp4 * 2.0, xmask)


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    # Inductor's combine for argmax: the larger value, the lower index on ties.
    bigger = (a_value > b_value) | ((a_value == b_value) & (a_index < b_index))
    return tl.where(bigger, a_value, b_value), tl.where(bigger, a_index, b_index)


@triton.jit
def inductor_reduction_kernel(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel,
                              XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    # As TorchInductor writes a looped reduction: three loop-carried
    # accumulators (a sum of squares, a max with its index), masked rows.
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    _tmp4_index = tl.full([XBLOCK, R0_BLOCK], 2147483647, tl.int32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        tmp0 = tl.load(in_ptr0 + (r0_index + r0_numel * xindex), r0_mask & xmask,
                       eviction_policy="evict_first", other=0.0)
        tmp1 = tmp0 * tmp0
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
        _tmp4_next, _tmp4_index_next = maximum_with_index(_tmp4, _tmp4_index, tmp0, r0_index)
        _tmp4 = tl.where(r0_mask & xmask, _tmp4_next, _tmp4)
        _tmp4_index = tl.where(r0_mask & xmask, _tmp4_index_next, _tmp4_index)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tmp4_value, tmp4_index = tl.reduce((_tmp4, _tmp4_index), 1, maximum_with_index)
    tl.store(out_ptr0 + xindex, tmp2, xmask)
    tl.store(out_ptr1 + xindex, tmp4_index[:, None], xmask)
    tl.store(out_ptr2 + xindex, tmp4_value[:, None], xmask)


@pytest.mark.parametrize("block", [1 << 15, 1 << 16, 1 << 20])
def test_vector_add_with_any_block(block: int) -> None:
    # Two programs, the second partly masked: n is not a multiple of BLOCK.
    n = block + block // 3 + 1
    x, y = torch.randn(n), torch.randn(n)
    out = torch.full((n,), float("nan"))
    with launches() as records:
        add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    assert torch.equal(out, x + y)
    assert records[0].cycles > 0


def test_an_elementwise_chain_runs_in_strips() -> None:
    block, n = 1 << 17, 200_000
    x = torch.randn(n, dtype=torch.float16)
    bias = torch.randn(7)
    out = torch.empty(n, dtype=torch.float16)
    gelu_kernel[(triton.cdiv(n, block),)](x, bias, out, n, BLOCK=block)
    pre = x.float() + bias[torch.arange(n) % 7]
    expected = torch.nn.functional.gelu(pre).half()
    # One f16 rounding of results computed in f32 (erf to a few ulp of f32).
    torch.testing.assert_close(out, expected, rtol=1e-3, atol=1e-3)


def test_stripped_kernel_keeps_the_tile_stage_in_strips() -> None:
    x, y = torch.randn(1 << 16), torch.randn(1 << 16)
    out = torch.empty(1 << 16)
    compiled = add_kernel[(1,)](x, y, out, 1 << 16, BLOCK=1 << 16)
    assert "scf.for" in compiled.asm["tile"] and "tensor<65536" not in compiled.asm["tile"]


def test_a_reduction_runs_in_strips() -> None:
    x = torch.randn(1 << 17)
    out = torch.empty(1)
    sum_kernel[(1,)](x, out, BLOCK=1 << 17)
    # Strips of partial sums: another order of f32 additions than torch's.
    torch.testing.assert_close(out[0], (x.double() ** 2).sum().float(), rtol=1e-5, atol=0)


@pytest.mark.parametrize("cols", [50_000, 65_536])
def test_softmax_and_layer_norm_with_block_65536(cols: int) -> None:
    rows = 3
    x = torch.randn(rows, cols)
    out = torch.empty(rows, cols)
    softmax_kernel[(rows,)](x, out, cols, BLOCK=65_536)
    torch.testing.assert_close(out, torch.softmax(x, 1), rtol=1e-5, atol=1e-9)
    w, b = torch.randn(cols), torch.randn(cols)
    y, mean, rstd = torch.empty(rows, cols), torch.empty(rows), torch.empty(rows)
    layer_norm_kernel[(rows,)](x, w, b, y, mean, rstd, cols, 1e-5, BLOCK=65_536)
    torch.testing.assert_close(mean, x.mean(1), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(rstd, torch.rsqrt(x.var(1, unbiased=False) + 1e-5), rtol=1e-5,
                               atol=0)
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5),
                               rtol=1e-4, atol=1e-5)


@triton.jit
def persistent_softmax_kernel(out_ptr, in_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    # The fused softmax of examples/fused_softmax.py: the range and its mask
    # before the loop over rows, the reductions and the store in it.
    columns = tl.arange(0, BLOCK)
    in_bounds = columns < n_cols
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        values = tl.load(in_ptr + row * n_cols + columns, mask=in_bounds, other=-float("inf"))
        numerator = tl.exp(values - tl.max(values, axis=0))
        tl.store(out_ptr + row * n_cols + columns, numerator / tl.sum(numerator, axis=0),
                 mask=in_bounds)


@pytest.mark.parametrize(("rows", "cols", "programs"), [(5, 20_000, 2), (3, 32_768, 3)])
def test_rows_of_a_persistent_kernel_run_in_strips(rows: int, cols: int, programs: int) -> None:
    # A row of 32768 f32 and what the softmax computes from it do not fit
    # together: the loop over rows computes each row in strips.
    x = torch.randn(rows, cols)
    out = torch.full_like(x, float("nan"))
    compiled = persistent_softmax_kernel[(programs,)](out, x, rows, cols,
                                                      BLOCK=triton.next_power_of_2(cols))
    torch.testing.assert_close(out, torch.softmax(x, 1), rtol=1e-5, atol=1e-9)
    assert "tensor<32768" not in compiled.asm["tile"]


def test_argmax_combines_the_strips_indices() -> None:
    n = 100_000
    x = torch.randn(n)
    x[77_777] = 10.0  # in a later strip than the first
    index, value = torch.empty(1, dtype=torch.int32), torch.empty(1)
    argmax_kernel[(1,)](x, index, value, n, BLOCK=1 << 17)
    assert index.item() == 77_777 and value.item() == 10.0


def test_a_two_dimensional_block_runs_in_strips_of_rows() -> None:
    x = torch.randn(512 * 512)
    out = torch.empty_like(x)
    compiled = add_2d_kernel[(1,)](x, out, ROWS=512, COLS=512)
    assert torch.equal(out, x + 1)
    assert "scf.for" in compiled.asm["tile"] and "512x512" not in compiled.asm["tile"]


# Triton's matmul tutorial's autotune configs (fp16 and fp8 lists), and the
# three largest a user may pick: 128 KiB and 256 KiB accumulators.
TUTORIAL_MATMUL_CONFIGS = [
    (128, 256, 64), (64, 256, 32), (128, 128, 32), (128, 64, 32), (64, 128, 32), (128, 32, 32),
    (64, 32, 32), (32, 64, 32), (128, 256, 128), (256, 128, 128), (256, 64, 128),
    (64, 256, 128), (128, 128, 128), (128, 64, 64), (64, 128, 64), (128, 32, 64),
    (256, 128, 64), (256, 256, 64),
]


@pytest.mark.parametrize("config", TUTORIAL_MATMUL_CONFIGS, ids=lambda c: "x".join(map(str, c)))
def test_tutorial_matmul_at_every_config(config: tuple[int, int, int]) -> None:
    block_m, block_n, block_k = config
    # K is not a multiple of BLOCK_K: the last step's loads are masked.
    m, n, k = 256, 256, 160
    torch.manual_seed(0)
    a, b = torch.randn(m, k, dtype=torch.float16), torch.randn(k, n, dtype=torch.float16)
    c = torch.empty(m, n, dtype=torch.float16)
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n),)
    matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BLOCK_M=block_m, BLOCK_N=block_n,
                        BLOCK_K=block_k, GROUP_M=8)
    # fp32 accumulation of fp16 products, one fp16 rounding at the end.
    torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-2, atol=1e-2)


def test_a_matmul_runs_in_tiles_of_rows_and_columns() -> None:
    size = 512
    torch.manual_seed(0)
    a, b = (torch.randn(size, size, dtype=torch.float16) for _ in range(2))
    c = torch.empty(size, size, dtype=torch.float16)
    compiled = row_major_matmul_kernel[(4,)](a, b, c, size, size, size, BLOCK_M=256,
                                             BLOCK_N=256, BLOCK_K=256)
    torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-2, atol=1e-2)
    # Neither the rows nor the columns alone fit (a strip of rows reads all
    # of B's 256 x 256 block, 128 KB, a strip of columns all of A's): the
    # dot runs on tiles smaller than the block in both dimensions.
    results = re.findall(r"tile\.matmul .* -> !tile\.tile<(\d+)x(\d+)xf32>", compiled.asm["tile"])
    assert results and all(int(m) < 256 and int(n) < 256 for m, n in results)


@pytest.mark.parametrize(("xblock", "r0_block"), [(1, 8192), (4, 4096), (8, 2048), (64, 8192)])
def test_inductor_reduction_with_loop_carried_accumulators(xblock: int, r0_block: int) -> None:
    xnumel, r0_numel = 70, 10_000
    torch.manual_seed(0)
    x = torch.randn(xnumel, r0_numel)
    x[3, 9_999] = x[5, 4_097] = 50.0  # maxima past the first strips
    x[6, 1] = x[6, 8_000] = 60.0  # a tie: the lower index wins
    sums, values = torch.empty(xnumel, 1), torch.empty(xnumel, 1)
    indices = torch.empty(xnumel, 1, dtype=torch.int32)
    inductor_reduction_kernel[(triton.cdiv(xnumel, xblock),)](
        x, sums, indices, values, xnumel, r0_numel, XBLOCK=xblock, R0_BLOCK=r0_block)
    # Sums in another order of f32 additions than torch's.
    torch.testing.assert_close(sums[:, 0], (x.double() ** 2).sum(1).float(), rtol=1e-5, atol=0)
    assert torch.equal(values[:, 0], x.max(1).values)
    assert torch.equal(indices[:, 0].long(), x.argmax(1))


@pytest.mark.parametrize("reverse", [False, True])
def test_a_scan_over_65536_elements_in_one_block(reverse: bool) -> None:
    n = 65_536
    x = torch.randint(-1000, 1000, (n,), dtype=torch.int32)
    out = torch.empty_like(x)
    compiled = cumsum_kernel[(1,)](x, out, BLOCK=n, REVERSE=reverse)
    expected = torch.cumsum(x.flip(0), 0).flip(0) if reverse else torch.cumsum(x, 0)
    assert torch.equal(out, expected.int())  # integers: exactly
    assert "scf.for" in compiled.asm["tile"]


def test_a_scan_with_its_own_combine_and_masked_tail() -> None:
    n = 65_536 - 5
    x = torch.randn(n)
    out = torch.empty(n)
    running_max_kernel[(1,)](x, out, n, BLOCK=65_536)
    assert torch.equal(out, torch.cummax(x, 0).values * 2)


def test_a_scan_along_rows_of_a_large_block() -> None:
    x = torch.randn(4, 32_768)
    out = torch.empty_like(x)
    row_cumsum_kernel[(1,)](x, out, ROWS=4, COLS=32_768)
    # Partial sums carried across strips: another order of f32 additions.
    torch.testing.assert_close(out, torch.cumsum(x.double(), 1).float(), rtol=1e-4, atol=1e-3)


def test_offsets_from_a_reshaped_range_run_in_strips() -> None:
    x = torch.randn(512, 512)
    out = torch.empty(512)
    compiled = transposed_row_sums_kernel[(1,)](x, out, ROWS=512, COLS=512)
    torch.testing.assert_close(out, (x.double() ** 2).sum(1).float(), rtol=1e-5, atol=0)
    assert "scf.for" in compiled.asm["tile"]


@triton.jit
def cross_entropy_kernel(x_ptr, x_stride, y_ptr, loss_ptr, n_cols, ignore_index,
                         BLOCK_SIZE: tl.constexpr):
    # Liger-Kernel's cross entropy: a row whose target is ignored gets zero
    # gradients and returns early; the others take an online maximum and sum
    # of exponentials over the row in blocks, then write the gradient over
    # the logits in a second loop over the same blocks.
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * x_stride
    y = tl.load(y_ptr + row)
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(x_ptr + offsets, 0.0, mask=offsets < n_cols)
        tl.store(loss_ptr + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(x_ptr + y).cast(tl.float32)
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        block = tl.load(x_ptr + offsets, mask=offsets < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(block))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(block - m_new))
        m = m_new
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        block = tl.load(x_ptr + offsets, mask=offsets < n_cols, other=float("-inf"))
        block = tl.exp(block - m) / d
        block = tl.where(offsets != y, block, block - 1.0)
        tl.store(x_ptr + offsets, block, mask=offsets < n_cols)
    tl.store(loss_ptr + row, m + tl.log(d) - x_y)


def test_two_loops_over_a_vocabulary_row_run_in_strips() -> None:
    # The blocks of 32768 logits of each loop are split in their own loop
    # (the first's reductions and the second's stores lie in different
    # loops), where the plan once needed 1.2 MB of local memory; so are
    # those of the loop of the early return, which once kept the kernel in
    # blocks of its own that the strip-miner did not split.
    vocabulary = 32000
    ignore_index = -100
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(4, vocabulary, generator=generator)
    y = torch.randint(0, vocabulary, (4,), generator=generator)
    y[2] = ignore_index
    logits = x.clone().requires_grad_()
    expected_loss = torch.nn.functional.cross_entropy(logits, y, reduction="none",
                                                      ignore_index=ignore_index)
    expected_loss.sum().backward()
    loss = torch.empty(4)
    cross_entropy_kernel[(4,)](x, x.stride(0), y, loss, vocabulary, ignore_index,
                               BLOCK_SIZE=triton.next_power_of_2(vocabulary))
    torch.testing.assert_close(loss, expected_loss.detach(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(x, logits.grad, rtol=1e-5, atol=1e-6)


def test_a_reshaped_block_runs_through_scratch_memory() -> None:
    # 1 MiB on each side of the reshape: stored to the program's scratch in
    # strips of rows, loaded back flat in strips of its own.
    x = torch.randn(512 * 512)
    out = torch.empty_like(x)
    with launches() as records:
        compiled = flatten_kernel[(1,)](x, out, ROWS=512, COLS=512)
    torch.testing.assert_close(out, x + 1, rtol=0, atol=0)
    assert "dma.scratch 1048576" in compiled.asm["tile"]
    assert "tt.reshape" not in compiled.asm["tile"]
    # A regression guard on the spill's cost (simulated cycles are
    # deterministic): 1 MiB through SRAM and back, in strips. The loads from
    # scratch wait once for the stores to it, not at each strip for the
    # stores to `out` (another region).
    assert records[0].cycles == pytest.approx(79_469, rel=0.03)


@triton.jit
def descriptor_scale_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BLOCK_M, BLOCK_N])
    out_desc = tl.make_tensor_descriptor(out_ptr, [M, N], [N, 1], [BLOCK_M, BLOCK_N])
    rows, cols = tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N
    out_desc.store([rows, cols], x_desc.load([rows, cols]) * 2)


def test_a_descriptor_block_of_1_mib_runs_in_strips() -> None:
    # 512 x 512 f32 blocks of a 1000 x 900 tensor: the edge blocks read
    # zeros past the tensor and write nothing there.
    x = torch.randn(1000, 900)
    out = torch.zeros_like(x)
    compiled = descriptor_scale_kernel[(2, 2)](x, out, 1000, 900, BLOCK_M=512, BLOCK_N=512)
    torch.testing.assert_close(out, x * 2, rtol=0, atol=0)
    assert "tt.descriptor_load" not in compiled.asm["tile"]
    assert "scf.for" in compiled.asm["tile"]


@triton.jit
def host_descriptor_scale_kernel(x_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, cols = tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N
    out_desc.store([rows, cols], x_desc.load([rows, cols]) * 2)


def test_a_block_of_1_mib_through_host_descriptors_runs_in_strips() -> None:
    x = torch.randn(1000, 900)
    out = torch.zeros_like(x)
    compiled = host_descriptor_scale_kernel[(2, 2)](
        TensorDescriptor.from_tensor(x, [512, 512]), TensorDescriptor.from_tensor(out, [512, 512]),
        BLOCK_M=512, BLOCK_N=512)
    torch.testing.assert_close(out, x * 2, rtol=0, atol=0)
    assert "dma.descriptor_base" in compiled.asm["tile"]


@triton.jit
def concatenate_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    both = tl.cat(tl.load(a_ptr + offsets), tl.load(b_ptr + offsets) * 2, can_reorder=False)
    tl.store(out_ptr + tl.arange(0, 2 * N), both)


@triton.jit
def interleave_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    pairs = tl.interleave(tl.load(a_ptr + offsets), tl.load(b_ptr + offsets))
    tl.store(out_ptr + tl.arange(0, 2 * N), pairs)


def test_a_concatenation_of_two_512_kib_blocks_runs_through_scratch_memory() -> None:
    a, b = torch.randn(131072), torch.randn(131072)
    out = torch.empty(262144)
    concatenate_kernel[(1,)](a, b, out, N=131072)
    torch.testing.assert_close(out, torch.cat([a, b * 2]), rtol=0, atol=0)


def test_an_interleave_of_two_512_kib_blocks_runs_in_strips() -> None:
    # A join keeps the elements of its operands in step with its pairs.
    a, b = torch.randn(131072), torch.randn(131072)
    out = torch.empty(262144)
    interleave_kernel[(1,)](a, b, out, N=131072)
    torch.testing.assert_close(out, torch.stack([a, b], 1).flatten(), rtol=0, atol=0)


def test_a_reshaped_block_in_a_loop_runs_through_scratch_memory() -> None:
    # Each iteration stores its block to the same scratch region and loads it
    # back: the next iteration's stores wait for this one's loads.
    x = torch.randn(3 * 512 * 512)
    out = torch.empty_like(x)
    with launches() as records:
        flatten_rows_in_loop_kernel[(1,)](x, out, 3, ROWS=512, COLS=512)
    torch.testing.assert_close(out, x + 1, rtol=0, atol=0)
    # Three times the single block's spill, and a little more.
    assert records[0].cycles == pytest.approx(234_924, rel=0.03)


def test_a_gather_from_a_1_mib_block_runs_through_scratch_memory() -> None:
    # The source is stored to scratch and the gather loads from there, in
    # strips of the indices, after the whole source is stored.
    n = 1 << 18
    x = torch.randn(n)
    indices = torch.randperm(n, generator=torch.Generator().manual_seed(0)).int()
    out = torch.empty_like(x)
    with launches() as records:
        permute_kernel[(1,)](x, indices, out, N=n)
    torch.testing.assert_close(out, (x * 2)[indices.long()], rtol=0, atol=0)
    assert records[0].cycles == pytest.approx(242_507, rel=0.03)


def test_a_gather_through_scratch_memory_checks_its_indices() -> None:
    # As a gather in local memory, one whose index lies outside the source
    # fails the launch, located at the gather.
    n = 1 << 18
    indices = torch.arange(n, dtype=torch.int32)
    indices[12345] = n
    with pytest.raises(SimulationError, match=r"an index of tl\.gather lies outside its source"
                       r".*test_large_blocks\.py:\d+"):
        permute_kernel[(1,)](torch.randn(n), indices, torch.empty(n), N=n)


def test_a_histogram_of_1_mib_of_bins_runs_in_strips_of_bins() -> None:
    # Each strip counts the values shifted to its first bin; values outside
    # the bins, negative ones included, count nowhere.
    bins = 1 << 18
    generator = torch.Generator().manual_seed(0)
    x = torch.randint(-5, bins + 5, (2048,), dtype=torch.int32, generator=generator)
    out = torch.empty(bins, dtype=torch.int32)
    with launches() as records:
        histogram_kernel[(1,)](x, out, N=2048, BINS=bins)
    kept = x[(x >= 0) & (x < bins)].long()
    assert torch.equal(out, torch.bincount(kept, minlength=bins).int())
    assert records[0].cycles == pytest.approx(41_829, rel=0.03)


def test_a_dot_with_8192_deep_blocks() -> None:
    # A BLOCK_K of 8192 multiplies in one DPE instruction per strip: the
    # program format bounds a dot's dimensions only by its operands' pages.
    torch.manual_seed(0)
    a = torch.randn(32, 8192, dtype=torch.float16)
    b = torch.randn(8192, 32, dtype=torch.float16)
    c = torch.empty(32, 32, dtype=torch.float16)
    row_major_matmul_kernel[(1,)](a, b, c, 32, 32, 8192, BLOCK_M=32, BLOCK_N=32, BLOCK_K=8192)
    torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize(("rows", "cols", "descending", "cycles"),
                         [(1, 65536, False, 16_676_570), (4, 16384, True, 11_609_510)])
def test_a_sort_of_a_block_larger_than_local_memory(rows: int, cols: int, descending: bool,
                                                    cycles: int) -> None:
    # Every step of the network runs in loops over strips, its blocks in
    # scratch memory between them.
    x = torch.randn(rows, cols, generator=torch.Generator().manual_seed(0))
    out = torch.empty_like(x)
    with launches() as records:
        sort_rows_kernel[(1,)](x, out, ROWS=rows, COLS=cols, DESCENDING=descending)
    assert torch.equal(out, x.sort(dim=1, descending=descending).values)
    assert records[0].cycles == pytest.approx(cycles, rel=0.03)


def test_a_top_k_and_a_flip_of_1_mib_blocks() -> None:
    n = 1 << 18
    x = torch.randn(n, generator=torch.Generator().manual_seed(0))
    top, flipped = torch.empty(16), torch.empty_like(x)
    with launches() as records:
        topk_kernel[(1,)](x, top, N=n, K=16)
        flip_kernel[(1,)](x, flipped, N=n)
    assert torch.equal(top, x.topk(16).values)
    assert torch.equal(flipped, x.flip(0))
    assert [record.cycles for record in records] == [
        pytest.approx(7_455_355, rel=0.03), pytest.approx(6_637_926, rel=0.03)]


def test_inductors_sort_with_indices_of_rows_larger_than_local_memory() -> None:
    # The indices the network carries beside the values start as a range:
    # its reductions compute them in their loops. Distinct values make the
    # order of the indices one.
    rows, cols = 4, 16384
    x = torch.randperm(rows * cols, generator=torch.Generator().manual_seed(0))
    x = (x.float() - rows * cols / 2).view(rows, cols)
    values, indices = torch.empty_like(x), torch.empty(rows, cols, dtype=torch.int64)
    with launches() as records:
        inductor_sort_kernel[(rows,)](values, x, indices, rows, XBLOCK=1, R0_BLOCK=cols)
    expected = x.sort(dim=1)
    assert torch.equal(values, expected.values * 2)
    assert torch.equal(indices, expected.indices)
    assert records[0].cycles == pytest.approx(16_203_791, rel=0.03)


def test_a_reduction_and_scans_along_axes_longer_than_a_strip_after_a_network() -> None:
    # After a network, a reduction or scan of a whole 1 MiB block takes its
    # axis in chunks, combining each chunk's result into those before it.
    n = 1 << 18
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(n, generator=generator)
    integers = torch.randint(-1000, 1000, (n,), generator=generator, dtype=torch.int32)
    sorted_x, weighted_sum = torch.empty_like(x), torch.empty(1)
    reversed_sums, integer_sums = torch.empty_like(x), torch.empty_like(integers)
    with launches() as records:
        sort_weighted_sum_kernel[(1,)](x[:1 << 16], sorted_x[:1 << 16], weighted_sum, N=1 << 16)
        flip_scans_kernel[(1,)](x, integers, reversed_sums, integer_sums, N=n)
    expected = x[:1 << 16].sort().values
    assert torch.equal(sorted_x[:1 << 16], expected)
    torch.testing.assert_close(weighted_sum[0], (expected.double() * torch.arange(1 << 16)).sum()
                               .float(), rtol=1e-5, atol=0)
    torch.testing.assert_close(reversed_sums, x.double().cumsum(0).flip(0).float(),
                               rtol=1e-4, atol=2e-3)
    assert torch.equal(integer_sums, integers.flip(0).cumsum(0).int())
    assert [record.cycles for record in records] == [
        pytest.approx(16_700_565, rel=0.03), pytest.approx(14_351_386, rel=0.03)]


@pytest.mark.parametrize("reverse", [False, True])
def test_a_scan_whose_combine_does_not_commute_in_chunks(reverse: bool) -> None:
    n = 1 << 18
    generator = torch.Generator().manual_seed(2)
    a = torch.rand(n, generator=generator) * 0.2 + 0.9
    b = torch.randn(n, generator=generator)
    out = torch.empty_like(b)
    with launches() as records:
        flip_recurrence_kernel[(1,)](a, b, out, N=n, REVERSE=reverse)
    factors, terms = a.flip(0).double().tolist(), b.double().tolist()
    expected, state = [0.0] * n, 0.0
    for j in reversed(range(n)) if reverse else range(n):
        state = factors[j] * state + terms[j]
        expected[j] = state
    # |h| reaches 35,000; a sequential f32 loop is 0.13 off the f64 one.
    torch.testing.assert_close(out, torch.tensor(expected, dtype=torch.float32),
                               rtol=1e-4, atol=1e-2)
    assert records[0].cycles == pytest.approx(9_027_866 if reverse else 9_033_137, rel=0.03)


def test_an_argmax_of_rows_longer_than_a_strip_after_a_network() -> None:
    rows, cols = 4, 1 << 17
    x = torch.randn(rows, cols, generator=torch.Generator().manual_seed(3))
    values, indices = torch.empty(rows), torch.empty(rows, dtype=torch.int32)
    with launches() as records:
        flip_rows_argmax_kernel[(1,)](x, values, indices, ROWS=rows, COLS=cols)
    assert torch.equal(values, x.max(1).values)
    assert torch.equal(indices, (cols - 1 - x.argmax(1)).int())
    assert records[0].cycles == pytest.approx(14_058_773, rel=0.03)


def test_a_sort_in_a_persistent_loop_over_rows_larger_than_local_memory() -> None:
    # The loop's body runs its work through scratch memory, in loops of its
    # own, each iteration of the loop over rows reusing the regions.
    rows, cols = 5, 1 << 14
    x = torch.randn(rows, cols, generator=torch.Generator().manual_seed(4))
    out = torch.empty_like(x)
    with launches() as records:
        persistent_sort_rows_kernel[(2,)](x, out, rows, COLS=cols)
    assert torch.equal(out, x.sort(dim=1, descending=True).values)
    assert records[0].cycles == pytest.approx(9_034_609, rel=0.03)



@pytest.mark.parametrize(("rows", "cols", "cycles"), [(1, 1 << 18, 7_001_497),
                                                    (4, 1 << 16, 6_803_316)])
def test_a_gather_from_a_block_after_a_network(rows: int, cols: int, cycles: int) -> None:
    # The gather reads its source, which the flip's loops leave in scratch
    # memory, at the positions its indices pick, in a loop of its own.
    generator = torch.Generator().manual_seed(5)
    x = torch.randn(rows, cols, generator=generator)
    indices = torch.randint(0, cols, (rows, cols), generator=generator, dtype=torch.int32)
    out = torch.empty_like(x)
    with launches() as records:
        flip_gather_kernel[(1,)](x, indices, out, ROWS=rows, COLS=cols)
    assert torch.equal(out, x.flip(1).gather(1, indices.long()))
    assert records[0].cycles == pytest.approx(cycles, rel=0.03)
    indices[-1, -1] = cols
    with pytest.raises(SimulationError, match=r"an index of tl\.gather lies outside its source"):
        flip_gather_kernel[(1,)](x, indices, out, ROWS=rows, COLS=cols)
