"""Simulated efficiency of the kernels models spend their time in, against the
chip's roofline.

    python benchmarks/suite.py [--only NAME] [--quick] [--target mtia-2i]

Every kernel is written as a Triton user writes it (`@triton.jit`, launched as
`kernel[grid](...)` on torch CPU tensors through the project's Triton
backend); the tutorials' kernels are imported from `examples/`, the others
are defined here. Each size of
each kernel runs every config of its small config list, as an autotuner
would, checks each result against torch and keeps the config with the fewest
simulated cycles. A config that does not compile or gives wrong numbers is
left out with a printed note that holds the error.

The roofline of a measurement is the largest of the bounds that apply to it:
the compulsory DRAM traffic (every input read and every output written once;
the SRAM cache starts empty at every launch, so no data is SRAM-resident) at
the target's DRAM bandwidth; the multiply-adds at the DPE peak of all PEs;
and, for kernels that exponentiate every element, the exponentials at the
SFU's rate on all PEs. Each detail line names the bound that decides. fp8
multiply-adds count at the target's fp8 DPE rate if it gives one, and
otherwise at its f16 rate (mtia-2i gives none: `tl.dot` widens fp8 to f16).

The roofline is the physical peak. What DRAM streaming sustains on the target
is lower (refresh, turnarounds, row misses; `docs/calibration.md`), so the
suite also measures the calibration's streaming copy (`benchmarks/
calibration.py`) and prints each DRAM-bound kernel against it:
`<kernel>[<size>]: <percent>% of the streaming copy`, the time the copy needs
for the kernel's compulsory bytes over the kernel's time.

`--only NAME` keeps the kernels whose name contains NAME; `--quick` measures
only the smallest size of each kernel. The output ends with one line per
kernel and size, `<kernel>[<size>]: <percent>% of roofline`, and then one line
per kernel at its largest measured size (the one with the largest roofline),
`<kernel>: <percent>% of roofline`. A size where no config compiles and
checks is named in a `left out` line before them.
"""

from __future__ import annotations

import functools
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import torch
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError as FrontendError

from mtia_compiler import CompilationError
from mtia_compiler.backend import MTIADriver, launches
from mtia_compiler.sim import SimulationError, load_target

# The tutorials' kernels live in examples/, whose scripts import their shared
# helpers as the top-level module `common`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from fused_attention import attention_fwd_kernel
from fused_softmax import softmax_kernel
from layer_norm import column_sum_kernel, layer_norm_fwd_kernel
from matmul import CONFIGS as MATMUL_CONFIGS
from matmul import matmul_kernel

# The calibration's streaming copy, the practical bound of memory-bound
# kernels, is a benchmark beside this one.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibration import streaming_copy

#: A problem size: the dimensions a kernel family is measured at.
Size = tuple[int, ...]


@triton.jit
def layer_norm_loop_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr,
                           stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    # Triton's layer-norm tutorial (forward): one row per program, in three
    # passes over the row in blocks of BLOCK_SIZE (mean, variance, output).
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    sums = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        sums += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(sums, axis=0) / n_cols
    squares = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        centred = tl.where(cols < n_cols, x - mean, 0.0)
        squares += centred * centred
    rstd = 1 / tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, stride, n_rows, n_cols, eps,
                    BLOCK_SIZE: tl.constexpr):
    # RMSNorm as LLaMA-style models use it (f32 statistics, output in the
    # input's type); each program strides over rows, as the fused softmax does.
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
        y = x * rstd * w
        tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cross_entropy_kernel(logits_ptr, targets_ptr, loss_ptr, stride, n_cols,
                         BLOCK_SIZE: tl.constexpr):
    # The loss of one row of logits per program, in one pass over the row with
    # an online log-sum-exp (as Liger's and Unsloth's kernels compute it).
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride
    running_max = float("-inf")
    running_sum = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(running_max, tl.max(x, axis=0))
        running_sum = (running_sum * tl.exp(running_max - new_max)
                       + tl.sum(tl.exp(x - new_max), axis=0))
        running_max = new_max
    target = tl.load(targets_ptr + row)
    target_logit = tl.load(row_ptr + target).to(tl.float32)
    tl.store(loss_ptr + row, running_max + tl.log(running_sum) - target_logit)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # The sums of BLOCK_M rows per program, over the columns in blocks.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    total = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        total += tl.sum(x, axis=1)
    tl.store(out_ptr + rows, total, mask=rows < n_rows)


@triton.jit
def embedding_kernel(ids_ptr, weight_ptr, out_ptr, n_tokens, dim,
                     BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # The rows of the embedding table that BLOCK_T tokens name, BLOCK_D
    # columns of them per program.
    tokens = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    dims = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    ids = tl.load(ids_ptr + tokens, mask=tokens < n_tokens, other=0)
    mask = (tokens[:, None] < n_tokens) & (dims[None, :] < dim)
    rows = tl.load(weight_ptr + ids[:, None] * dim + dims[None, :], mask=mask)
    tl.store(out_ptr + tokens[:, None] * dim + dims[None, :], rows, mask=mask)


@dataclass(frozen=True)
class Bounds:
    """What a kernel cannot avoid: its compulsory DRAM bytes, its
    multiply-adds (on the DPE, at the rate of `mac_type`) and its
    exponentials (on the SFU, at the SIMD engine's f32 rate)."""

    dram_bytes: int
    macs: int = 0
    mac_type: str = "f16"
    exps: int = 0

    def roofline(self, target: dict[str, Any]) -> tuple[float, str]:
        """The roofline cycles and a description of every bound, the one
        that decides first."""
        dram_rate = target["dram_bytes_per_cycle"]
        bounds = {"DRAM": (self.dram_bytes / dram_rate,
                           f"{self.dram_bytes:,} B at {dram_rate:.1f} B/cycle")}
        if self.macs:
            rates = target["dpe_macs_per_cycle_per_pe"]
            rate_type, note = self.mac_type, ""
            if self.mac_type == "f8" and "f8" not in rates:
                # The target gives no fp8 rate; tl.dot widens fp8 to f16 for the DPE.
                rate_type, note = "f16", ", fp8 at the f16 rate (the target has no fp8 rate)"
            rate = rates[rate_type] * target["num_pes"]
            bounds["DPE"] = (self.macs / rate,
                             f"{self.macs:,} MACs at {rate:.0f} {rate_type} MACs/cycle{note}")
        if self.exps:
            rate = (target["simd_ops_per_cycle_per_pe"]["f32"] * target["sfu_fraction"]
                    * target["num_pes"])
            bounds["SFU"] = (self.exps / rate, f"{self.exps:,} exp at {rate:.0f}/cycle")
        order = sorted(bounds, key=lambda name: -bounds[name][0])
        detail = "; ".join(f"{name} {bounds[name][0]:,.0f} cycles ({bounds[name][1]})"
                           for name in order)
        return bounds[order[0]][0], f"{order[0]}-bound: {detail}"


@dataclass(frozen=True)
class Check:
    """The torch result a kernel's output must match: within `rtol` and
    `atol` for floats, exactly for integers (both 0)."""

    expected: torch.Tensor
    rtol: float = 0.0
    atol: float = 0.0

    def __call__(self, actual: torch.Tensor) -> None:
        if self.rtol == 0 and self.atol == 0:
            if not torch.equal(actual, self.expected):
                wrong = (actual != self.expected).sum().item()
                raise AssertionError(f"{wrong} of {actual.numel()} elements differ")
        else:
            torch.testing.assert_close(actual.float(), self.expected.float(), rtol=self.rtol,
                                       atol=self.atol)

    def describe(self) -> str:
        """The tolerance, as the output shows it."""
        if self.rtol == 0 and self.atol == 0:
            return "exact"
        return f"rtol {self.rtol:g}, atol {self.atol:g}"


@dataclass(frozen=True)
class Config:
    """One launch of a kernel: `run` launches it on fresh outputs and returns
    the output the check compares."""

    label: str
    run: Callable[[], torch.Tensor]


@dataclass(frozen=True)
class Case:
    """One kernel at one size: its configs, its check and its bounds."""

    configs: Sequence[Config]
    check: Check
    bounds: Bounds


@dataclass(frozen=True)
class Family:
    """A kernel and the sizes it is measured at, in increasing order of their
    roofline; `make` builds the inputs, configs and check of one size."""

    kernel: str
    sizes: Sequence[Size]
    make: Callable[[Size], Case]


@dataclass(frozen=True)
class Measurement:
    """The best config of one kernel at one size, its cycles, its roofline
    and whether DRAM decides the roofline."""

    kernel: str
    size: str
    config: str
    cycles: int
    roofline_cycles: float
    dram_bytes: int
    memory_bound: bool

    @property
    def percent(self) -> float:
        return 100 * self.roofline_cycles / self.cycles

    def percent_of_copy(self, copy_bytes_per_cycle: float) -> float:
        """The share of the time a streaming copy needs for its DRAM bytes."""
        return 100 * self.dram_bytes / copy_bytes_per_cycle / self.cycles


def poisoned(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    """An output buffer filled with values a kernel never computes here (NaN,
    or the smallest integer), so that elements it fails to write are seen."""
    if dtype.is_floating_point:
        return torch.full(tuple(shape), math.nan, dtype=dtype)
    return torch.full(tuple(shape), torch.iinfo(dtype).min, dtype=dtype)


def size_label(size: Size) -> str:
    """`size` as the output shows it: `1024x1024x1024`."""
    return "x".join(str(dim) for dim in size)


def block_label(**blocks: Any) -> str:
    """A config as the output shows it: `BLOCK_M=64 BLOCK_N=64`."""
    return " ".join(f"{name}={value}" for name, value in blocks.items())


# GEMM: C = A @ B (row-major), the tutorial's kernel and configs.

GEMM_SIZES: list[Size] = [(1024, 1024, 1024), (2048, 2048, 2048), (8192, 8192, 256),
                          (4096, 4096, 4096)]
#: The input type, the accumulator's, the output's, the DPE rate used and the
#: tolerance of each GEMM.
GEMM_TYPES: dict[str, tuple[torch.dtype, Any, torch.dtype, str, float]] = {
    "fp16": (torch.float16, tl.float32, torch.float16, "f16", 1e-2),
    "bf16": (torch.bfloat16, tl.float32, torch.bfloat16, "bf16", 1e-2),
    "int8": (torch.int8, tl.int32, torch.int32, "i8", 0.0),
    "fp8": (torch.float8_e4m3fn, tl.float32, torch.bfloat16, "f8", 1e-2),
}


def gemm_inputs(m: int, n: int, k: int, dtype: torch.dtype) -> tuple[torch.Tensor, ...]:
    """A and B of an m x n x k GEMM in `dtype`, and their exact product (f32
    for floats)."""
    generator = torch.Generator().manual_seed(m + n + k)
    if dtype == torch.int8:
        a = torch.randint(-128, 128, (m, k), dtype=torch.int8, generator=generator)
        b = torch.randint(-128, 128, (k, n), dtype=torch.int8, generator=generator)
        # Products of int8 summed over k stay far below 2^53: f64 is exact.
        return a, b, (a.double() @ b.double()).to(torch.int32)
    a = torch.randn(m, k, generator=generator).to(dtype)
    b = torch.randn(k, n, generator=generator).to(dtype)
    return a, b, a.float() @ b.float()


def gemm_case(type_name: str, size: Size) -> Case:
    """The GEMM of GEMM_TYPES[type_name] at `size` (m, n, k)."""
    m, n, k = size
    dtype, acc_type, out_type, rate_type, tolerance = GEMM_TYPES[type_name]
    a, b, expected = gemm_inputs(m, n, k, dtype)

    def run(config: triton.Config) -> torch.Tensor:
        blocks = config.kwargs
        c = poisoned((m, n), out_type)
        grid = (triton.cdiv(m, blocks["BLOCK_M"]) * triton.cdiv(n, blocks["BLOCK_N"]),)
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        # The example's kernel, with the type's accumulator; it stores in C's type.
        matmul_kernel.fn[grid](a, b, c, m, n, k, *strides, ACTIVATION="", ACC_TYPE=acc_type,
                               **blocks)
        return c

    configs = [Config(block_label(**config.kwargs), functools.partial(run, config))
               for config in MATMUL_CONFIGS]
    element = a.element_size()
    traffic = (m * k + k * n) * element + m * n * torch.empty((), dtype=out_type).element_size()
    return Case(configs, Check(expected.to(out_type), tolerance, tolerance),
                Bounds(traffic, macs=m * n * k, mac_type=rate_type))


# Fused attention forward (examples/fused_attention.py), fp16, batch 1.

ATTENTION_HEADS = 8
ATTENTION_BLOCKS = [(64, 64), (128, 64), (64, 128), (128, 128)]


def attention_case(head_dim: int, causal: bool, size: Size) -> Case:
    """The fused attention of ATTENTION_HEADS heads of `head_dim` at `size`
    (the sequence length)."""
    (seq_len,) = size
    generator = torch.Generator().manual_seed(seq_len + head_dim)
    q, k, v = (torch.randn(1, ATTENTION_HEADS, seq_len, head_dim, generator=generator)
               .half() for _ in range(3))
    expected = torch.nn.functional.scaled_dot_product_attention(
        q.float(), k.float(), v.float(), is_causal=causal).half()

    def run(block_m: int, block_n: int, stages: int) -> torch.Tensor:
        out = poisoned(q.shape, torch.float16)
        grid = (triton.cdiv(seq_len, block_m), ATTENTION_HEADS)
        attention_fwd_kernel[grid](q, k, v, out, 1 / math.sqrt(head_dim), seq_len, q.stride(1),
                                   q.stride(2), HEAD_DIM=head_dim, BLOCK_M=block_m,
                                   BLOCK_N=block_n, CAUSAL=causal, num_stages=stages)
        return out

    # Each block size in two and three stages (Triton's `num_stages`: Q·K^T
    # up to one or two iterations ahead, as far as the loop's estimated
    # schedule needs), as Triton's attention configs list them.
    configs = [Config(block_label(BLOCK_M=bm, BLOCK_N=bn, num_stages=stages),
                      functools.partial(run, bm, bn, stages))
               for bm, bn in ATTENTION_BLOCKS for stages in (2, 3)]
    # Every query meets every key, or (causal) the keys up to its own.
    pairs = seq_len * (seq_len + 1) // 2 if causal else seq_len * seq_len
    pairs *= ATTENTION_HEADS
    traffic = 4 * q.numel() * q.element_size()
    return Case(configs, Check(expected, 2e-2, 2e-2),
                Bounds(traffic, macs=2 * pairs * head_dim, mac_type="f16", exps=pairs))


# Row-wise kernels: 16 MiB of f32 in rows of 1024, 8192 and 32768 elements.

ROW_SIZES: list[Size] = [(4096, 1024), (512, 8192), (128, 32768)]
PROGRAM_COUNTS = (64, 128, 256)


def row_input(rows: int, cols: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """A rows x cols matrix of normally distributed values in `dtype`."""
    generator = torch.Generator().manual_seed(rows + cols)
    return torch.randn(rows, cols, generator=generator).to(dtype)


def softmax_case(size: Size) -> Case:
    """The fused softmax of examples/fused_softmax.py, at `size`."""
    rows, cols = size
    x = row_input(rows, cols)

    def run(programs: int) -> torch.Tensor:
        out = poisoned(x.shape, x.dtype)
        softmax_kernel[(programs,)](out, x, x.stride(0), out.stride(0), rows, cols,
                                    BLOCK_SIZE=triton.next_power_of_2(cols))
        return out

    counts = sorted({min(rows, count) for count in PROGRAM_COUNTS})
    configs = [Config(f"programs={count}", functools.partial(run, count)) for count in counts]
    return Case(configs, Check(torch.softmax(x, dim=1), 1e-5, 1e-6),
                Bounds(2 * x.numel() * 4, exps=x.numel()))


def layer_norm_case(size: Size) -> Case:
    """The layer norm forward of examples/layer_norm.py and of Triton's tutorial, at `size`."""
    rows, cols = size
    x = row_input(rows, cols)
    generator = torch.Generator().manual_seed(cols)
    w, b = torch.rand(cols, generator=generator), torch.rand(cols, generator=generator)
    eps = 1e-5

    def run(block: int | None) -> torch.Tensor:
        y = poisoned(x.shape, x.dtype)
        mean, rstd = torch.empty(rows), torch.empty(rows)
        if block is None:
            # The example's kernel: the whole row in one block.
            layer_norm_fwd_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, eps,
                                           BLOCK_SIZE=triton.next_power_of_2(cols))
        else:
            layer_norm_loop_kernel[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, eps,
                                            BLOCK_SIZE=block)
        return y

    configs = [Config("examples/layer_norm.py, one block per row", functools.partial(run, None))]
    configs += [Config(f"tutorial loop BLOCK_SIZE={block}", functools.partial(run, block))
                for block in (1024, 4096, 16384) if block <= cols]
    expected = torch.nn.functional.layer_norm(x, (cols,), w, b, eps)
    traffic = 4 * (2 * x.numel() + 2 * cols + 2 * rows)
    return Case(configs, Check(expected, 1e-4, 1e-4), Bounds(traffic))


def rms_norm_case(size: Size) -> Case:
    """RMSNorm in bf16, at `size`."""
    rows, cols = size
    x = row_input(rows, cols, torch.bfloat16)
    w = torch.rand(cols, generator=torch.Generator().manual_seed(cols)).to(torch.bfloat16)
    eps = 1e-6

    def run(programs: int) -> torch.Tensor:
        y = poisoned(x.shape, x.dtype)
        rms_norm_kernel[(programs,)](x, w, y, x.stride(0), rows, cols, eps,
                                     BLOCK_SIZE=triton.next_power_of_2(cols))
        return y

    counts = sorted({min(rows, count) for count in PROGRAM_COUNTS + (rows,)})
    configs = [Config(f"programs={count}", functools.partial(run, count)) for count in counts]
    expected = torch.nn.functional.rms_norm(x.float(), (cols,), w.float(), eps)
    traffic = 2 * (2 * x.numel() + cols)
    # bf16 outputs: one unit in the last place is 2^-8 of the value.
    return Case(configs, Check(expected.to(torch.bfloat16), 1e-2, 1e-2), Bounds(traffic))


VOCABULARY = 32000


def cross_entropy_case(size: Size) -> Case:
    """The cross-entropy loss of each row of f32 logits, at `size`."""
    rows, cols = size
    logits = row_input(rows, cols)
    targets = torch.randint(0, cols, (rows,), generator=torch.Generator().manual_seed(rows))

    def run(block: int) -> torch.Tensor:
        loss = poisoned((rows,), torch.float32)
        cross_entropy_kernel[(rows,)](logits, targets, loss, logits.stride(0), cols,
                                      BLOCK_SIZE=block)
        return loss

    configs = [Config(f"BLOCK_SIZE={block}", functools.partial(run, block))
               for block in (2048, 8192, 32768)]
    expected = torch.nn.functional.cross_entropy(logits, targets, reduction="none")
    traffic = logits.numel() * 4 + rows * (targets.element_size() + 4)
    return Case(configs, Check(expected, 1e-4, 1e-4), Bounds(traffic, exps=logits.numel()))


SUM_SIZES: list[Size] = [(1024, 1024), (4096, 4096)]


def row_sum_case(size: Size) -> Case:
    """The sum of each row of an f32 matrix, at `size`."""
    rows, cols = size
    x = row_input(rows, cols)

    def run(block_m: int, block_n: int) -> torch.Tensor:
        out = poisoned((rows,), torch.float32)
        row_sum_kernel[(triton.cdiv(rows, block_m),)](x, out, rows, cols, x.stride(0),
                                                      BLOCK_M=block_m, BLOCK_N=block_n)
        return out

    configs = [Config(block_label(BLOCK_M=bm, BLOCK_N=bn), functools.partial(run, bm, bn))
               for bm, bn in ((4, 1024), (16, 512), (64, 128))]
    return Case(configs, Check(x.sum(dim=1), 1e-4, 1e-3),
                Bounds(4 * (x.numel() + rows)))


def column_sum_case(size: Size) -> Case:
    """The sum of each column of an f32 matrix, with the column-sum kernel of
    examples/layer_norm.py, at `size`."""
    rows, cols = size
    x = row_input(rows, cols)

    def run(block_parts: int, block_cols: int) -> torch.Tensor:
        out = poisoned((cols,), torch.float32)
        column_sum_kernel[(triton.cdiv(cols, block_cols),)](x, out, rows, cols,
                                                           BLOCK_PARTS=block_parts,
                                                           BLOCK_COLS=block_cols)
        return out

    configs = [Config(block_label(BLOCK_PARTS=bp, BLOCK_COLS=bc),
                      functools.partial(run, bp, bc))
               for bp, bc in ((32, 128), (64, 64), (256, 16))]
    return Case(configs, Check(x.sum(dim=0), 1e-4, 1e-3),
                Bounds(4 * (x.numel() + cols)))


EMBEDDING_DIM = 2048


def embedding_case(size: Size) -> Case:
    """The gather of the rows (fp16, `dim` wide) of a table of VOCABULARY rows
    that `tokens` random ids name, at `size` (tokens, dim)."""
    tokens, dim = size
    generator = torch.Generator().manual_seed(tokens)
    weight = torch.randn(VOCABULARY, dim, generator=generator).half()
    ids = torch.randint(0, VOCABULARY, (tokens,), generator=generator)

    def run(block_t: int, block_d: int) -> torch.Tensor:
        out = poisoned((tokens, dim), torch.float16)
        grid = (triton.cdiv(tokens, block_t), triton.cdiv(dim, block_d))
        embedding_kernel[grid](ids, weight, out, tokens, dim, BLOCK_T=block_t, BLOCK_D=block_d)
        return out

    configs = [Config(block_label(BLOCK_T=bt, BLOCK_D=bd), functools.partial(run, bt, bd))
               for bt, bd in ((16, 2048), (32, 1024), (64, 512))]
    # Each row of the table that some token names is read once.
    rows_read = ids.unique().numel()
    traffic = ids.numel() * ids.element_size() + (rows_read + tokens) * dim * 2
    return Case(configs, Check(torch.nn.functional.embedding(ids, weight)), Bounds(traffic))


def families() -> list[Family]:
    gemms = [Family(f"gemm_{name}", GEMM_SIZES,
                    functools.partial(gemm_case, name))
             for name in ("fp16", "bf16")]
    # The cubic sizes only for the 8-bit types.
    gemms += [Family(f"gemm_{name}", GEMM_SIZES[:2] + GEMM_SIZES[3:],
                     functools.partial(gemm_case, name))
              for name in ("int8", "fp8")]
    attention = [Family(f"attention_d{dim}{'_causal' if causal else ''}",
                        [(512,), (1024,), (2048,), (4096,)],
                        functools.partial(attention_case, dim, causal))
                 for dim in (64, 128) for causal in (False, True)]
    return gemms + attention + [
        Family("softmax", ROW_SIZES, softmax_case),
        Family("layernorm", ROW_SIZES, layer_norm_case),
        Family("rmsnorm", [(2048, 4096), (1024, 8192)], rms_norm_case),
        Family("cross_entropy", [(128, VOCABULARY), (1024, VOCABULARY)], cross_entropy_case),
        Family("row_sum", SUM_SIZES, row_sum_case),
        Family("column_sum", SUM_SIZES, column_sum_case),
        Family("embedding", [(1024, EMBEDDING_DIM), (8192, EMBEDDING_DIM)], embedding_case),
    ]


@dataclass(frozen=True)
class LeftOut:
    """A kernel at a size where no config compiles and checks, and why: the
    label of each config and its error in one line."""

    kernel: str
    size: str
    errors: Sequence[tuple[str, str]]

    @property
    def reason(self) -> str:
        """Why the size is left out, in one line: the error once when every
        config failed with the same one, else each config's error."""
        messages = {error for _, error in self.errors}
        if len(messages) == 1:
            return f"every config: {messages.pop()}"
        return "; ".join(f"{config}: {error}" for config, error in self.errors)


def gist(error: BaseException) -> str:
    """An error's message in one line: a frontend error's own message (not
    the source excerpt it starts with), a failed check's lines, or else the
    first line of the message."""
    if isinstance(error, FrontendError):
        message = error.error_message or repr(error.__cause__)
    elif isinstance(error, AssertionError):
        return " ".join(line.strip() for line in str(error).splitlines() if line.strip())
    else:
        message = str(error)
    return message.strip().split("\n", 1)[0]


def measure(kernel: str, size: Size, case: Case,
            target: dict[str, Any]) -> Measurement | LeftOut:
    """Runs every config of `case`, prints each one's cycles (or why it is
    left out) and the best one's line, and returns the best measurement, or
    why the size is left out when no config compiles and checks."""
    label = f"{kernel}[{size_label(size)}]"
    start = time.monotonic()
    cycles: dict[str, int] = {}
    errors: list[tuple[str, str]] = []
    for config in case.configs:
        config_start = time.monotonic()
        try:
            with launches() as records:
                output = config.run()
        except (CompilationError, FrontendError, SimulationError) as error:
            click.echo(f"note: {label} {config.label}: left out, {type(error).__name__}: {error}")
            errors.append((config.label, f"{type(error).__name__}: {gist(error)}"))
            continue
        try:
            case.check(output)
        except AssertionError as error:
            click.echo(f"note: {label} {config.label}: left out, wrong numbers: {error}")
            errors.append((config.label, f"wrong numbers: {gist(error)}"))
            continue
        cycles[config.label] = sum(record.cycles for record in records)
        click.echo(f"  {label} {config.label}: {cycles[config.label]:,} cycles "
                   f"({time.monotonic() - config_start:.1f} s of host time)")
    if not cycles:
        click.echo(f"note: {label}: left out of the suite, no config compiles and checks")
        return LeftOut(kernel, size_label(size), errors)
    best = min(cycles, key=lambda name: cycles[name])
    roofline, detail = case.bounds.roofline(target)
    measurement = Measurement(kernel, size_label(size), best, cycles[best], roofline,
                              case.bounds.dram_bytes, detail.startswith("DRAM-bound"))
    click.echo(f"{label}: config {best} (best of {len(cycles)}), {cycles[best]:,} cycles, "
               f"checked against torch ({case.check.describe()}), roofline {roofline:,.0f} "
               f"cycles, {measurement.percent:.1f}% ({detail}); {len(case.configs)} config(s) in "
               f"{time.monotonic() - start:.0f} s of host time")
    return measurement


@dataclass(frozen=True)
class Results:
    """The best measurement of each kernel at each size that checks, by
    kernel in the order measured, and the sizes left out."""

    measurements: dict[str, list[Measurement]]
    left_out: list[LeftOut]


def activate(target: str) -> dict[str, Any]:
    """Makes `target` (`mtia-<arch>`) Triton's active device and returns its
    description."""
    if not target.startswith("mtia-"):
        raise click.BadParameter("the target's name starts with mtia-", param_hint="--target")
    triton.runtime.driver.set_active(MTIADriver(target.removeprefix("mtia-")))
    return load_target(target).to_dict()


def measure_families(measured: Sequence[Family], only: str, quick: bool,
                     target: dict[str, Any]) -> Results:
    """Measures every family whose kernel's name contains `only`, at its
    smallest size when `quick` and else at all of them, printing the details."""
    results = Results({}, [])
    for family in measured:
        if only not in family.kernel:
            continue
        start = time.monotonic()
        sizes = family.sizes[:1] if quick else family.sizes
        for size in sizes:
            measurement = measure(family.kernel, size, family.make(size), target)
            if isinstance(measurement, LeftOut):
                results.left_out.append(measurement)
            else:
                results.measurements.setdefault(family.kernel, []).append(measurement)
        click.echo(f"{family.kernel}: {len(sizes)} size(s) in {time.monotonic() - start:.0f} s "
                   "of host time")
    return results


def report_sizes(results: Results, quick: bool, target: dict[str, Any]) -> None:
    """Prints the sizes left out, the streaming copy (measured on the active
    target, small when `quick`), each memory-bound measurement against it and
    every measurement against its roofline."""
    if results.left_out:
        names = ", ".join(f"{left.kernel}[{left.size}]" for left in results.left_out)
        click.echo(f"left out (see the notes above): {names}")
    # The roofline is the physical peak; what DRAM streaming reaches on the
    # target is the practical bound of the memory-bound kernels.
    copy_bytes, _, copy_cycles = streaming_copy(quick)
    copy_rate = 2 * copy_bytes / copy_cycles
    click.echo(f"streaming copy: {copy_rate:.1f} B/cycle, "
               f"{100 * copy_rate / target['dram_bytes_per_cycle']:.1f}% of the DRAM peak")
    for measurements in results.measurements.values():
        for m in measurements:
            if m.memory_bound:
                click.echo(f"{m.kernel}[{m.size}]: {m.percent_of_copy(copy_rate):.1f}% of the "
                           "streaming copy")
    for measurements in results.measurements.values():
        for m in measurements:
            click.echo(f"{m.kernel}[{m.size}]: {m.percent:.1f}% of roofline")


def largest(measurements: Sequence[Measurement]) -> Measurement:
    """The measurement of the largest size: the one with the largest roofline."""
    return max(measurements, key=lambda m: m.roofline_cycles)


@click.command()
@click.option("--only", default="", help="Only the kernels whose name contains this.")
@click.option("--quick", is_flag=True, help="Only the smallest size of each kernel.")
@click.option("--target", default="mtia-2i", show_default=True)
def main(only: str, quick: bool, target: str) -> None:
    description = activate(target)
    results = measure_families(families(), only, quick, description)
    report_sizes(results, quick, description)
    for kernel, measurements in results.measurements.items():
        click.echo(f"{kernel}: {largest(measurements).percent:.1f}% of roofline")


if __name__ == "__main__":
    main()
