# ruff: noqa: ANN001, ANN201
# (@triton.jit kernels: annotating their parameters would change how Triton specialises them.)
"""Microbenchmarks of the timing model against the chip's public figures
(issue 36: a calibrated timing model).

    python benchmarks/calibration.py [--target mtia-2i] [--only NAME] [--quick]
                                     [--sensitivity] [--sensitivity-set NAMES]
                                     [--figures PATHS]

Every microbenchmark is a `@triton.jit` kernel launched on torch CPU tensors
through the project's Triton backend, as `benchmarks/suite.py` launches its
kernels; its result is checked against torch (a wrong result raises) and its
figure is computed from the simulated cycles of its launches
(`mtia_compiler.backend.launches()`) at the target's clock
(`mtia_compiler.sim.load_target`). The rate benchmarks (SIMD, SFU, SRAM)
launch the same kernel twice with a different number of loop iterations and
divide the difference of the work by the difference of the cycles, so the
fixed cost of loading and storing the block drops out.

The output is one table, one row per figure: the model's figure, the public
figure or the range it should fall in, the source of that range and whether
the model is inside it. The public figures are data, in `REFERENCES` below.

`--sensitivity` then writes, for each assumed figure of the target (the
dotted paths whose entry in the target's `sources` says "assumed"), copies of
the target JSON with that figure x0.5 and x2 (integers rounded, at least 1) to
a temporary directory and runs the benchmarks of `--sensitivity-set` against
each copy, then prints a table of the figure, the x0.5, x1 and x2 results of
each benchmark row that moves. A copy the target loader refuses (a figure out
of its valid range) is named instead.

The backend takes a target by name only (`MTIADriver(arch)` selects
`targets/mtia-<arch>.json` of the installed package; there is no option or
environment variable for a path). The passes (`passes/Analysis/
TargetDescription.cpp`) and `mtia_compiler.sim.load_target` both take a path
ending in `.json` as it is, so a copy is reached as the relative path
`mtia-cal/<name>.json`: the arch `cal/<name>.json` from a working directory
that holds the folder `mtia-cal/`. Each copy's name carries a digest of its
text, so Triton's cache never serves a program compiled for another copy.
Replays of identical launches (`docs/backend.md`) are keyed by the target too,
so a copy of a target never replays another's cycles.

`--quick` runs every benchmark at small sizes (for the tests; its figures are
not steady state).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import torch
import triton
import triton.language as tl

from mtia_compiler.backend import MTIADriver, launches
from mtia_compiler.sim import TARGETS_DIR, load_target

# The tutorial's matmul kernel and configs live in examples/, whose scripts
# import their shared helpers as the top-level module `common`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from matmul import CONFIGS as MATMUL_CONFIGS  # noqa: E402
from matmul import matmul_kernel  # noqa: E402

# -- the public figures ------------------------------------------------------

ISCA25 = "ISCA 2025 \"Meta's Second Generation AI Chip\""
HOTCHIPS24 = "Hot Chips 2024 (MTIA v2)"
LPDDR5 = ("typical of LPDDR5 controllers, JESD209-5-based systems, assumed range "
          "(real LPDDR5 systems sustain roughly 80-90% streaming)")


@dataclass(frozen=True)
class Reference:
    """A public figure, or the range a modelled figure should fall in:
    `low` to `high` in `unit` (None: unbounded on that side), and its source."""

    low: float | None
    high: float | None
    unit: str
    source: str

    def contains(self, value: float) -> bool:
        return ((self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def describe(self) -> str:
        if self.low is None and self.high is not None:
            return f"< {self.high:g} {self.unit}"
        if self.high is None and self.low is not None:
            return f">= {self.low:g} {self.unit}"
        return f"{self.low:g}-{self.high:g} {self.unit}"


#: Peaks (public), used to state the figures as fractions of them.
DRAM_PEAK_GBPS = 204.8          # ISCA 2025, Hot Chips 2024: 16-channel LPDDR5
DPE_PEAK_TFLOPS = 177.0         # ISCA 2025, Hot Chips 2024: dense f16/bf16, f32 accumulate
SIMD_PEAK_TOPS = 5.5            # ISCA 2025: SIMD engine, all PEs (INT8/FP16/BF16/FP32)
SRAM_PEAK_GBPS = 2700.0         # ISCA 2025, Hot Chips 2024: 256 MB on-chip SRAM at 2.7 TB/s

#: What each benchmark row is compared with. The fractions are of the peak
#: above; a range that the sources do not give is marked as assumed.
REFERENCES: dict[str, Reference] = {
    "dram_peak": Reference(DRAM_PEAK_GBPS, DRAM_PEAK_GBPS, "GB/s", f"{ISCA25}; {HOTCHIPS24}"),
    "stream_copy": Reference(75.0, 92.0, "% of DRAM peak", LPDDR5),
    # Reading alone pays no turnarounds: above the copy, below the peak.
    "stream_read": Reference(80.0, 95.0, "% of DRAM peak", LPDDR5),
    # Mixed reads and writes pay the bus turnarounds, as the copy does: below
    # reading alone.
    "mixed": Reference(None, None, "GB/s, < stream_read",
                       "LPDDR5 read/write turnaround (JESD209-5); must be below stream_read"),
    "strided": Reference(None, None, "useful GB/s, < stream_read",
                         "one 32-B sector per access (DMA accesses 32-B aligned: "
                         "TritorX, Dec 2025); must be below stream_read"),
    "gather": Reference(None, None, "useful GB/s, < stream_read",
                        "one 32-B sector per 4-B element; must be below stream_read"),
    "dpe_gemm": Reference(0.80 * DPE_PEAK_TFLOPS, DPE_PEAK_TFLOPS, "TFLOPS",
                          f"peak 177 TFLOPS: {ISCA25}; >80% of it for a large GEMM: "
                          "Triton-for-MTIA (arXiv 2608.00325, secondary summary)"),
    "simd_fma": Reference(0.70 * SIMD_PEAK_TOPS, SIMD_PEAK_TOPS, "TOPS (FMA = 2 ops)",
                          f"peak 5.5 TOPS: {ISCA25}; >=70% for a register-resident chain: "
                          "assumed"),
    # The SFU's rate is the SIMD rate times simd.sfu_fraction, itself an
    # assumption of the target (read from the target file at run time).
    "sfu": Reference(None, None, "G elem/s",
                     "5.5 T elem/s (ISCA 2025) x simd.sfu_fraction (assumed); "
                     ">=70% of it, assumed"),
    "sram": Reference(0.80 * SRAM_PEAK_GBPS, SRAM_PEAK_GBPS, "GB/s",
                      f"peak 2.7 TB/s: {ISCA25}; >=80% sustained: assumed"),
    "launch": Reference(0.0, 1000.0, "ns", f"job launch < 1 us: {HOTCHIPS24}"),
}

def assumed_figures(data: dict[str, Any]) -> list[str]:
    """The figures of a target description that are assumptions, not public
    or standard: the dotted paths whose `sources` entry says "assumed", each
    scaled x0.5 and x2 by `--sensitivity`."""
    return [path for path, source in data["sources"].items() if source.startswith("assumed")]


SENSITIVITY_FACTORS = (0.5, 2.0)

# -- the kernels ---------------------------------------------------------------


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def block_sum_kernel(x_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    # Reads its block and writes one sum: DRAM reads with (almost) no writes.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(sums_ptr + tl.program_id(0), tl.sum(x, axis=0))


@triton.jit
def axpy_kernel(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):
    # y = a * x + y, in place: two streams read, one written.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, a * x + y, mask=mask)


@triton.jit
def sector_sum_kernel(x_ptr, out_ptr, n_rows, row_stride, ROWS: tl.constexpr,
                      SECTOR: tl.constexpr):
    # The first 32-byte sector of every row of `row_stride` elements: every
    # k-th sector of the buffer, summed per row.
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, SECTOR)
    mask = rows[:, None] < n_rows
    x = tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(x, axis=1), mask=rows < n_rows)


@triton.jit
def column_sum_kernel(x_ptr, out_ptr, n_rows, stride, COLUMN_STEP: tl.constexpr,
                      BLOCK: tl.constexpr):
    # The sum of one column of a row-major matrix per program: one element of
    # every row, `stride` elements apart. Program p takes column
    # p * COLUMN_STEP, so that no two programs read the same 32-byte sector.
    col = tl.program_id(0) * COLUMN_STEP
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        rows = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + rows * stride + col, mask=rows < n_rows, other=0.0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(acc, axis=0))


@triton.jit
def gather_kernel(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    idx = tl.load(idx_ptr + offsets, mask=mask, other=0)
    tl.store(out_ptr + offsets, tl.load(x_ptr + idx, mask=mask), mask=mask)


@triton.jit
def fma_chain_kernel(x_ptr, out_ptr, a, b, iters, BLOCK: tl.constexpr):
    # `iters` multiply-adds on a block held in local memory, in the block's type.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    a_t = a.to(x.dtype)
    b_t = b.to(x.dtype)
    for _ in range(iters):
        x = x * a_t + b_t
    tl.store(out_ptr + offsets, x)


@triton.jit
def exp_log_chain_kernel(x_ptr, out_ptr, iters, BLOCK: tl.constexpr):
    # `iters` exponentials of logarithms: two special functions an iteration,
    # and nothing else, on values that stay where they are.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    for _ in range(iters):
        x = tl.exp(tl.log(x))
    tl.store(out_ptr + offsets, x)


@triton.jit
def reread_kernel(x_ptr, out_ptr, n_blocks, steps, BLOCK: tl.constexpr):
    # Each program reads the blocks of x in turn, starting at its own, for
    # `steps` blocks: after the first pass every block is in the SRAM cache.
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(steps):
        block = (pid + i) % n_blocks
        acc += tl.load(x_ptr + block * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


@triton.jit
def empty_kernel(x_ptr):
    pass


@triton.jit
def one_element_kernel(x_ptr, y_ptr):
    tl.store(y_ptr, tl.load(x_ptr) + 1.0)


#: Every JIT function this file launches: their per-device caches hold the
#: target they were first compiled for, so they are cleared when the
#: sensitivity run switches targets.
JIT_FUNCTIONS: list[Any] = [copy_kernel, axpy_kernel, sector_sum_kernel, column_sum_kernel,
                            gather_kernel, fma_chain_kernel, exp_log_chain_kernel,
                            reread_kernel, empty_kernel, one_element_kernel, matmul_kernel.fn]

# -- measuring -----------------------------------------------------------------


@dataclass
class Context:
    """The target a run measures and what the benchmarks share."""

    clock_ghz: float
    sfu_fraction: float
    control_cycles_per_instruction: int
    quick: bool
    #: Figures other benchmarks compare with (the streaming copy's GB/s).
    shared: dict[str, float] = field(default_factory=dict)

    def seconds(self, cycles: float) -> float:
        return cycles / (self.clock_ghz * 1e9)


@dataclass(frozen=True)
class Row:
    """One figure of one benchmark: `value` in `unit`, shown as `shown`, and
    whether it is inside its reference (None: no verdict)."""

    name: str
    value: float
    unit: str
    shown: str
    reference: str
    source: str
    inside: bool | None


def timed(launch: Callable[[], Any]) -> tuple[Any, int, list[Any]]:
    """Runs `launch`; returns its value, the simulated cycles of its kernel
    launches (summed) and their records."""
    with launches() as records:
        value = launch()
    if not records:
        raise RuntimeError("the benchmark launched no kernel")
    return value, sum(record.cycles for record in records), list(records)


def check(actual: torch.Tensor, expected: torch.Tensor, rtol: float = 0.0,
          atol: float = 0.0, what: str = "") -> None:
    """Raises unless `actual` matches torch's `expected`."""
    try:
        torch.testing.assert_close(actual.float(), expected.float(), rtol=rtol, atol=atol)
    except AssertionError as error:
        raise AssertionError(f"{what}: wrong result against torch: {error}") from None


def gbps(context: Context, nbytes: float, cycles: float) -> float:
    return nbytes / context.seconds(cycles) / 1e9


def relation_row(name: str, value: float, unit: str, shown: str, key: str,
                 context: Context) -> Row:
    """A row whose reference is "below the streaming read"."""
    reference = REFERENCES[key]
    read = context.shared["stream_read_gbps"]
    return Row(name, value, unit, shown, f"< stream_read ({read:.1f} GB/s)", reference.source,
               value < read)


def streaming_copy(quick: bool) -> tuple[int, int, int]:
    """Copies 64 MiB of f32 (4 MiB when `quick`) in large blocks on the
    active target; returns the bytes copied, the block and the cycles."""
    nbytes = (4 if quick else 64) << 20
    n = nbytes // 4
    block = 4096 if quick else 16384
    src = torch.randn(n, generator=torch.Generator().manual_seed(1))
    dst = torch.full_like(src, float("nan"))
    _, cycles, _ = timed(lambda: copy_kernel[(triton.cdiv(n, block),)](src, dst, n,
                                                                       BLOCK=block))
    check(dst, src, what="stream_copy")
    return nbytes, block, cycles


def bench_copy(context: Context) -> list[Row]:
    nbytes, block, cycles = streaming_copy(context.quick)
    rate = gbps(context, 2 * nbytes, cycles)
    context.shared["stream_copy_gbps"] = rate
    percent = 100 * rate / DRAM_PEAK_GBPS
    reference = REFERENCES["stream_copy"]
    return [Row(f"stream_copy ({nbytes >> 20} MiB f32, BLOCK={block})", percent,
                "% of DRAM peak",
                f"{rate:.1f} GB/s = {percent:.1f}% of {DRAM_PEAK_GBPS:g} (read+write, "
                f"{cycles:,} cycles)", reference.describe(), reference.source,
                reference.contains(percent))]


def bench_stream_read(context: Context) -> list[Row]:
    nbytes = (4 if context.quick else 64) << 20
    n = nbytes // 4
    block = 4096 if context.quick else 16384
    x = torch.randn(n, generator=torch.Generator().manual_seed(5))
    sums = torch.full((triton.cdiv(n, block),), float("nan"))
    _, cycles, _ = timed(lambda: block_sum_kernel[(triton.cdiv(n, block),)](x, sums, n,
                                                                          BLOCK=block))
    check(sums, x.view(-1, block).sum(dim=1), 1e-4, 1e-3, what="stream_read")
    rate = gbps(context, nbytes, cycles)
    context.shared["stream_read_gbps"] = rate
    percent = 100 * rate / DRAM_PEAK_GBPS
    reference = REFERENCES["stream_read"]
    return [Row(f"stream_read ({nbytes >> 20} MiB f32 summed per block, BLOCK={block})",
                percent, "% of DRAM peak",
                f"{rate:.1f} GB/s = {percent:.1f}% of {DRAM_PEAK_GBPS:g} ({cycles:,} cycles)",
                reference.describe(), reference.source, reference.contains(percent))]


def stream_read_rate(context: Context) -> None:
    """Measures the streaming read if no benchmark did yet (the relations need it)."""
    if "stream_read_gbps" not in context.shared:
        bench_stream_read(context)


def bench_mixed(context: Context) -> list[Row]:
    stream_read_rate(context)
    nbytes = (4 if context.quick else 64) << 20
    n = nbytes // 4
    block = 4096 if context.quick else 16384
    generator = torch.Generator().manual_seed(2)
    x, y = torch.randn(n, generator=generator), torch.randn(n, generator=generator)
    expected = 0.5 * x + y
    _, cycles, _ = timed(lambda: axpy_kernel[(triton.cdiv(n, block),)](x, y, 0.5, n,
                                                                       BLOCK=block))
    check(y, expected, 1e-6, 1e-6, what="mixed")
    rate = gbps(context, 3 * nbytes, cycles)
    percent = 100 * rate / DRAM_PEAK_GBPS
    row = relation_row(f"mixed_axpy (y = a*x + y in place, 2x{nbytes >> 20} MiB f32)", rate,
                       "GB/s", f"{rate:.1f} GB/s = {percent:.1f}% of peak (2 reads, 1 write; "
                       f"{cycles:,} cycles)", "mixed", context)
    return [row]


def bench_strided(context: Context) -> list[Row]:
    stream_read_rate(context)
    rows_out: list[Row] = []
    # Every 8th 32-byte sector: rows of 64 f32 (256 B), the first 8 of each read.
    nbytes = (4 if context.quick else 64) << 20
    stride = 64
    n_rows = nbytes // 4 // stride
    block_rows = 256 if context.quick else 1024
    x = torch.randn(n_rows, stride, generator=torch.Generator().manual_seed(3))
    out = torch.full((n_rows,), float("nan"))
    _, cycles, _ = timed(lambda: sector_sum_kernel[(triton.cdiv(n_rows, block_rows),)](
        x, out, n_rows, stride, ROWS=block_rows, SECTOR=8))
    check(out, x[:, :8].sum(dim=1), 1e-5, 1e-5, what="strided_sector")
    useful = n_rows * (32 + 4)
    rate = gbps(context, useful, cycles)
    rows_out.append(relation_row(
        f"strided_sector (every 8th 32-B sector of {nbytes >> 20} MiB)", rate, "GB/s",
        f"{rate:.1f} useful GB/s = {100 * rate / DRAM_PEAK_GBPS:.1f}% of peak "
        f"({cycles:,} cycles)", "strided", context))
    # Columns of a row-major f32 matrix, one 32-byte sector apart: 4 bytes of
    # every row, 4 of every 32 bytes a transaction moves.
    n = 1024 if context.quick else 4096
    columns, step = 64, 8
    matrix = torch.randn(n, n, generator=torch.Generator().manual_seed(4))
    sums = torch.full((columns,), float("nan"))
    _, cycles, _ = timed(lambda: column_sum_kernel[(columns,)](matrix, sums, n, n,
                                                               COLUMN_STEP=step, BLOCK=512))
    check(sums, matrix[:, ::step][:, :columns].sum(dim=0), 1e-4, 1e-3, what="strided_column")
    useful = columns * (n * 4 + 4)
    rate = gbps(context, useful, cycles)
    rows_out.append(relation_row(
        f"strided_column ({columns} columns, 32 B apart, of a {n}x{n} f32 matrix)", rate, "GB/s",
        f"{rate:.2f} useful GB/s = {100 * rate / DRAM_PEAK_GBPS:.2f}% of peak "
        f"({cycles:,} cycles)", "strided", context))
    return rows_out


def bench_gather(context: Context) -> list[Row]:
    stream_read_rate(context)
    table_bytes = (4 if context.quick else 64) << 20
    table = torch.randn(table_bytes // 4, generator=torch.Generator().manual_seed(5))
    n = (1 if context.quick else 4) << 20
    n //= 4
    idx = torch.randint(0, table.numel(), (n,), dtype=torch.int32,
                        generator=torch.Generator().manual_seed(6))
    out = torch.full((n,), float("nan"))
    block = 4096
    _, cycles, _ = timed(lambda: gather_kernel[(triton.cdiv(n, block),)](table, idx, out, n,
                                                                         BLOCK=block))
    check(out, table[idx.long()], what="gather")
    useful = n * (4 + 4 + 4)  # index, element, output
    rate = gbps(context, useful, cycles)
    return [relation_row(
        f"random_gather ({n:,} f32 of a {table_bytes >> 20} MiB table, i32 indices)", rate,
        "GB/s", f"{rate:.2f} useful GB/s = {100 * rate / DRAM_PEAK_GBPS:.2f}% of peak "
        f"({cycles:,} cycles)", "gather", context)]


def gemm_launch(a: torch.Tensor, b: torch.Tensor, blocks: dict[str, Any]) -> torch.Tensor:
    """C = A @ B with the tutorial's kernel (f32 accumulator) and `blocks`."""
    (m, k), n = a.shape, b.shape[1]
    c = torch.full((m, n), float("nan"), dtype=a.dtype)
    grid = (triton.cdiv(m, blocks["BLOCK_M"]) * triton.cdiv(n, blocks["BLOCK_N"]),)
    matmul_kernel.fn[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           c.stride(0), c.stride(1), ACTIVATION="", ACC_TYPE=tl.float32,
                           **blocks)
    return c


def bench_gemm(context: Context) -> list[Row]:
    size = 512 if context.quick else int(os.environ.get("CALIBRATION_GEMM_SIZE", "4096"))
    m = n = k = size
    rows_out: list[Row] = []
    reference = REFERENCES["dpe_gemm"]
    # The tutorial's config with the largest blocks (the suite's best at
    # 2048^3 and 4096^3); the others take longer to simulate and are slower.
    blocks = max((config.kwargs for config in MATMUL_CONFIGS),
                 key=lambda kwargs: kwargs["BLOCK_M"] * kwargs["BLOCK_N"] * kwargs["BLOCK_K"])
    label = "x".join(str(blocks[key]) for key in ("BLOCK_M", "BLOCK_N", "BLOCK_K"))
    for name, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16)):
        generator = torch.Generator().manual_seed(size)
        a = torch.randn(m, k, generator=generator).to(dtype)
        b = torch.randn(k, n, generator=generator).to(dtype)
        expected = (a.float() @ b.float()).to(dtype)
        c, cycles, _ = timed(functools.partial(gemm_launch, a, b, blocks))
        check(c, expected, 1e-2, 1e-2, what=f"gemm_{name}")
        tflops = 2 * m * n * k / context.seconds(cycles) / 1e12
        rows_out.append(Row(
            f"dpe_gemm_{name} ({size}^3, f32 acc, blocks {label})",
            tflops, "TFLOPS",
            f"{tflops:.1f} TFLOPS = {100 * tflops / DPE_PEAK_TFLOPS:.1f}% of "
            f"{DPE_PEAK_TFLOPS:g} ({cycles:,} cycles)",
            reference.describe(), reference.source, reference.contains(tflops)))
    return rows_out


@dataclass(frozen=True)
class Extra:
    """What the longer of two launches took beyond the shorter: cycles, and
    the SIMD engine's instructions and busy cycles (summed over the PEs)."""

    cycles: int
    simd_instructions: int
    simd_busy_cycles: int

    def per_iteration(self, programs: int, iterations: int) -> str:
        """The SIMD instructions and busy cycles of one iteration of one
        program, as the output shows them."""
        count = self.simd_instructions / (programs * iterations)
        busy = self.simd_busy_cycles / (programs * iterations)
        return f"{count:g} SIMD instr./iteration, {busy:.0f} busy cycles each"


def simd_counts(records: list[Any]) -> tuple[int, int]:
    simd = records[-1].result.units.get("simd", {})
    return int(simd.get("instructions", 0)), int(simd.get("busy_cycles", 0))


def differential(launch: Callable[[int], Any], iters: tuple[int, int]) -> Extra:
    """What `launch(iters[1])` takes beyond `launch(iters[0])`."""
    _, low, low_records = timed(lambda: launch(iters[0]))
    _, high, high_records = timed(lambda: launch(iters[1]))
    if high <= low:
        raise RuntimeError(f"{iters[1]} iterations took no longer than {iters[0]} "
                           f"({high:,} against {low:,} cycles)")
    (low_count, low_busy), (high_count, high_busy) = (simd_counts(low_records),
                                                      simd_counts(high_records))
    return Extra(high - low, high_count - low_count, high_busy - low_busy)


def bench_simd_fma(context: Context) -> list[Row]:
    programs = 64
    # Enough iterations that both launches are bound by the SIMD engine, not
    # by the DRAM traffic of loading and storing the blocks.
    block = 1024 if context.quick else 4096
    iters = (128, 256) if context.quick else (256, 1024)
    reference = REFERENCES["simd_fma"]
    rows_out: list[Row] = []
    for name, dtype, tolerance in (("f32", torch.float32, 1e-5), ("f16", torch.float16, 1e-2),
                                   ("bf16", torch.bfloat16, 2e-2)):
        x = torch.rand(programs * block, generator=torch.Generator().manual_seed(7)).to(dtype)
        outs: dict[int, torch.Tensor] = {}

        def launch(count: int, x: torch.Tensor = x, dtype: torch.dtype = dtype,
                   outs: dict[int, torch.Tensor] = outs) -> None:
            out = torch.full_like(x, float("nan"))
            fma_chain_kernel[(programs,)](x, out, 0.5, 0.25, count, BLOCK=block)
            outs[count] = out

        extra = differential(launch, iters)
        for count, out in outs.items():
            expected = x.clone()
            for _ in range(count):
                expected = expected * torch.tensor(0.5, dtype=dtype) + torch.tensor(0.25,
                                                                                   dtype=dtype)
            check(out, expected, tolerance, tolerance, what=f"simd_fma_{name}")
        ops = 2 * programs * block * (iters[1] - iters[0])
        tops = ops / context.seconds(extra.cycles) / 1e12
        rows_out.append(Row(
            f"simd_fma_{name} ({programs}x{block} elements, x*a+b chain)", tops,
            "TOPS", f"{tops:.2f} TOPS = {100 * tops / SIMD_PEAK_TOPS:.0f}% of "
            f"{SIMD_PEAK_TOPS:g} ({extra.cycles:,} cycles for {iters[1] - iters[0]} "
            f"iterations; {extra.per_iteration(programs, iters[1] - iters[0])})",
            reference.describe(), reference.source,
            reference.contains(tops)))
    return rows_out


def bench_sfu(context: Context) -> list[Row]:
    programs = 64
    block = 1024 if context.quick else 4096
    iters = (32, 64) if context.quick else (64, 192)
    x = torch.rand(programs * block, generator=torch.Generator().manual_seed(8)) + 0.5
    outs: dict[int, torch.Tensor] = {}

    def launch(count: int) -> None:
        out = torch.full_like(x, float("nan"))
        exp_log_chain_kernel[(programs,)](x, out, count, BLOCK=block)
        outs[count] = out

    extra = differential(launch, iters)
    for count, out in outs.items():
        # The reference chain runs in f64: torch's f32 exp and log on the CPU
        # differ by an ulp between its vectorised and scalar paths, and which
        # elements take which depends on how its threads split the tensor.
        expected = x.double()
        for _ in range(count):
            expected = torch.exp(torch.log(expected))
        # Each iteration's exp and log may each round an ulp or two apart
        # from the exact ones: the difference grows with the chain.
        check(out, expected.float(), count * 4e-7, 1e-6, what="sfu")
    elements = 2 * programs * block * (iters[1] - iters[0])
    rate = elements / context.seconds(extra.cycles) / 1e9
    public = SIMD_PEAK_TOPS * 1e3 * context.sfu_fraction
    reference = REFERENCES["sfu"]
    low = 0.70 * public
    return [Row(f"sfu_exp_log (f32, {programs}x{block}, exp(log(x)) chain)", rate, "G elem/s",
                f"{rate:.0f} G elem/s = {100 * rate / public:.0f}% of {public:.0f} "
                f"({extra.cycles:,} cycles for {iters[1] - iters[0]} iterations; "
                f"{extra.per_iteration(programs, iters[1] - iters[0])})",
                f"{low:.0f}-{public:.0f} G elem/s (sfu_fraction {context.sfu_fraction:g})",
                reference.source, low <= rate <= public)]


def bench_sram(context: Context) -> list[Row]:
    programs = 64
    block = 2048 if context.quick else 16384
    n_blocks = 64
    steps = (n_blocks, 2 * n_blocks) if context.quick else (n_blocks, 3 * n_blocks)
    x = torch.randn(n_blocks * block, generator=torch.Generator().manual_seed(9))
    outs: dict[int, torch.Tensor] = {}

    def launch(count: int) -> None:
        out = torch.full((programs * block,), float("nan"))
        reread_kernel[(programs,)](x, out, n_blocks, count, BLOCK=block)
        outs[count] = out

    _, low_cycles, low_records = timed(lambda: launch(steps[0]))
    _, high_cycles, high_records = timed(lambda: launch(steps[1]))
    for count, out in outs.items():
        blocks = x.view(n_blocks, block)
        expected = torch.stack([blocks[[(pid + i) % n_blocks for i in range(count)]].sum(dim=0)
                                for pid in range(programs)]).reshape(-1)
        check(out, expected, 1e-4, 1e-3, what="sram")
    extra = high_cycles - low_cycles
    read_bytes = programs * block * 4 * (steps[1] - steps[0])
    rate = gbps(context, read_bytes, extra)
    cached = (high_records[-1].result.bytes.get("cache_read", 0)
              - low_records[-1].result.bytes.get("cache_read", 0))
    reference = REFERENCES["sram"]
    return [Row(f"sram_cache_reread ({n_blocks * block * 4 >> 10} KiB read again by "
                f"{programs} programs)", rate, "GB/s",
                f"{rate:.0f} GB/s = {100 * rate / SRAM_PEAK_GBPS:.0f}% of {SRAM_PEAK_GBPS:g} "
                f"({extra:,} cycles; {100 * cached / read_bytes:.0f}% of the extra bytes "
                "from the cache)", reference.describe(), reference.source,
                reference.contains(rate))]


def bench_launch(context: Context) -> list[Row]:
    reference = REFERENCES["launch"]
    x = torch.ones(8)
    y = torch.zeros(8)
    _, empty, records = timed(lambda: empty_kernel[(1,)](x))
    _, one, _ = timed(lambda: one_element_kernel[(1,)](x, y))
    check(y[:1], torch.full((1,), 2.0), what="launch")
    # The empty kernel's time is the launch and its control core's few
    # instructions (control.cycles_per_instruction each); without those it is
    # the launch's own cost.
    per_instruction = context.control_cycles_per_instruction
    control = sum(record.result.units["ctl"]["instructions"] for record in records)
    launch = empty - control * per_instruction
    ns = context.seconds(launch) * 1e9
    one_ns = context.seconds(one) * 1e9
    return [
        Row("launch_empty (empty kernel less its control instructions)", ns, "ns",
            f"{ns:.0f} ns ({launch:,} cycles)", reference.describe(), reference.source,
            reference.contains(ns)),
        # A kernel's own work adds to the launch; no public figure bounds it.
        Row("launch_one_element (y[0] = x[0] + 1, 1 program)", one_ns, "ns",
            f"{one_ns:.0f} ns ({one:,} cycles)", "> launch_empty",
            "the launch plus a scalar load and store", None),
    ]


#: The benchmarks, in the order they run.
BENCHMARKS: dict[str, Callable[[Context], list[Row]]] = {
    "stream_copy": bench_copy,
    "stream_read": bench_stream_read,
    "mixed": bench_mixed,
    "strided": bench_strided,
    "gather": bench_gather,
    "dpe_gemm": bench_gemm,
    "simd_fma": bench_simd_fma,
    "sfu": bench_sfu,
    "sram": bench_sram,
    "launch": bench_launch,
}
#: The benchmarks `--sensitivity` runs by default: all but the GEMM and the
#: SIMD FMA chains, which take the longest to simulate.
DEFAULT_SENSITIVITY_SET = ("stream_copy", "stream_read", "mixed", "strided", "gather", "sfu",
                           "sram", "launch")

# -- targets -------------------------------------------------------------------


def target_path(target: str) -> Path:
    """The JSON file of the installed target description `target`."""
    return TARGETS_DIR / f"{target}.json"


def use_target(arch: str) -> None:
    """Makes `mtia-<arch>` the active driver's target, for every kernel here."""
    triton.runtime.driver.set_active(MTIADriver(arch))
    for function in JIT_FUNCTIONS:
        function.device_caches.clear()


def context_for(description: Path | str, quick: bool) -> Context:
    data = load_target(description).to_dict()
    return Context(clock_ghz=float(data["clock_ghz"]), sfu_fraction=float(data["sfu_fraction"]),
                   control_cycles_per_instruction=int(data["control_cycles_per_instruction"]),
                   quick=quick)


def run_benchmarks(names: Sequence[str], context: Context, echo: bool) -> list[Row]:
    rows: list[Row] = []
    for name in names:
        start = time.monotonic()
        new = BENCHMARKS[name](context)
        rows += new
        if echo:
            click.echo(f"  {name}: {len(new)} figure(s) in {time.monotonic() - start:.1f} s "
                       "of host time", err=True)
    return rows


def print_table(rows: Sequence[Row]) -> None:
    headers = ("benchmark", "model", "public figure / range", "inside", "source")
    cells = [(row.name, row.shown, row.reference,
              "n/a" if row.inside is None else ("yes" if row.inside else "NO"), row.source)
             for row in rows]
    widths = [max(len(header), *(len(cell[i]) for cell in cells)) if cells else len(header)
              for i, header in enumerate(headers)]
    # The source is the last column and is not padded.
    line = " | ".join(header.ljust(width) for header, width in zip(headers, widths, strict=True))
    click.echo(line.rstrip())
    click.echo("-+-".join("-" * width for width in widths))
    for cell in cells:
        click.echo(" | ".join(text.ljust(width) for text, width in
                              zip(cell, widths, strict=True)).rstrip())


def get_path(data: dict[str, Any], path: str) -> Any:
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise KeyError(path)
        node = node[key]
    return node


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[key]
    node[last] = value


def scaled(value: Any, factor: float) -> Any:
    """`value` x `factor`: integers rounded, at least 1."""
    if isinstance(value, bool):
        raise TypeError("a boolean figure cannot be scaled")
    if isinstance(value, int):
        return max(1, round(value * factor))
    return float(value) * factor


@contextmanager
def working_directory(path: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def sensitivity(target: str, names: Sequence[str], quick: bool,
                base_rows: dict[str, Row], only_figures: Sequence[str] | None) -> None:
    """Runs `names` on copies of `target` with each assumed figure (or those
    of `only_figures`) x0.5 and x2, and prints the table."""
    data = json.loads(target_path(target).read_text())
    results: dict[tuple[str, float], dict[str, float]] = {}
    row_names: list[str] = []
    units: dict[str, str] = {}
    refused: list[str] = []
    figures = assumed_figures(data)
    if only_figures is not None:
        unknown = sorted(set(only_figures) - set(figures))
        if unknown:
            raise click.BadParameter(f"not assumed figures of {target}: {', '.join(unknown)}",
                                     param_hint="--figures")
        figures = list(only_figures)
    with tempfile.TemporaryDirectory(prefix="mtia-calibration-") as folder:
        root = Path(folder)
        (root / "mtia-cal").mkdir()

        def run_variant(label: str, variant: dict[str, Any]) -> dict[str, float]:
            text = json.dumps(variant, indent=1)
            digest = hashlib.sha256(text.encode()).hexdigest()[:12]
            name = f"{label}-{digest}.json"
            (root / "mtia-cal" / name).write_text(text)
            with working_directory(root):
                use_target(f"cal/{name}")
                context = context_for(Path("mtia-cal") / name, quick)
                start = time.monotonic()
                rows = run_benchmarks(names, context, echo=False)
                click.echo(f"  {label}: {time.monotonic() - start:.0f} s of host time",
                           err=True)
            for row in rows:
                if row.name not in units:
                    row_names.append(row.name)
                    units[row.name] = row.unit
            return {row.name: row.value for row in rows}

        click.echo("sensitivity: x1 (an unchanged copy of the target, through the same route)",
                   err=True)
        unchanged = run_variant("unchanged", data)
        for row_name, value in unchanged.items():
            base = base_rows.get(row_name)
            if base is not None and abs(base.value - value) > 1e-9 * max(1.0, abs(value)):
                click.echo(f"note: {row_name}: {value:g} through the copy of the target, "
                           f"{base.value:g} through its name", err=True)
        for path in figures:
            original = get_path(data, path)
            for factor in SENSITIVITY_FACTORS:
                variant = json.loads(json.dumps(data))
                value = scaled(original, factor)
                set_path(variant, path, value)
                click.echo(f"sensitivity: {path} = {value} (x{factor:g} of {original})",
                           err=True)
                # A variant the target loader or a kernel's compilation
                # refuses (a figure out of its valid range) is named, not
                # measured.
                try:
                    results[(path, factor)] = run_variant(f"{path}-x{factor:g}", variant)
                except Exception as error:  # noqa: BLE001 (reported below)
                    refused.append(f"{path} = {value}: {type(error).__name__}: "
                                   f"{str(error).splitlines()[0]}")
        use_target(target.removeprefix("mtia-"))

    click.echo("")
    click.echo(f"Sensitivity to the assumed figures of {target} (each x0.5 and x2; the "
               "benchmark's figure in its unit; rows whose figure does not move are left "
               "out):")
    for refusal in refused:
        click.echo(f"note: not measured, {refusal}")
    headers = ("figure", "benchmark", "unit", "x0.5", "x1", "x2", "change x0.5..x2")
    table: list[tuple[str, ...]] = []
    still: list[str] = []
    for path in figures:
        original = get_path(data, path)
        moved = False
        for row_name in row_names:
            middle = unchanged.get(row_name)
            half = results.get((path, 0.5), {}).get(row_name)
            double = results.get((path, 2.0), {}).get(row_name)
            if middle is None or half is None or double is None or half == middle == double:
                continue
            moved = True
            change = (f"{100 * (double - half) / middle:+.1f}%" if middle else "n/a")
            table.append((f"{path} ({original:g})", row_name.split(" (")[0], units[row_name],
                          f"{half:.4g}", f"{middle:.4g}", f"{double:.4g}", change))
        if not moved and (path, 0.5) in results and (path, 2.0) in results:
            still.append(path)
    widths = [max(len(header), *(len(line[i]) for line in table)) if table else len(header)
              for i, header in enumerate(headers)]
    click.echo(" | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
    click.echo("-+-".join("-" * width for width in widths))
    for line in table:
        click.echo(" | ".join(t.ljust(w) for t, w in zip(line, widths, strict=True)).rstrip())
    if still:
        click.echo(f"No measured effect at x0.5 or x2: {', '.join(still)}")


def parse_names(text: str, option: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        raise click.BadParameter(f"unknown benchmark(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(BENCHMARKS)}", param_hint=option)
    return names


@click.command()
@click.option("--target", default="mtia-2i", show_default=True)
@click.option("--only", default="", help="Only the benchmarks whose name contains this.")
@click.option("--quick", is_flag=True, help="Small sizes (for the tests), not steady state.")
@click.option("--sensitivity", "with_sensitivity", is_flag=True,
              help="Also run the sensitivity set against the target with each assumed "
                   "figure x0.5 and x2.")
@click.option("--sensitivity-set", default=",".join(DEFAULT_SENSITIVITY_SET),
              show_default=True, help="The benchmarks the sensitivity runs (comma-separated).")
@click.option("--figures", default="",
              help="Comma-separated assumed figures to vary (default: all of them).")
def main(target: str, only: str, quick: bool, with_sensitivity: bool,
         sensitivity_set: str, figures: str) -> None:
    if not target.startswith("mtia-"):
        raise click.BadParameter("the target's name starts with mtia-", param_hint="--target")
    if not target_path(target).is_file():
        raise click.BadParameter(f"no target description {target_path(target)}",
                                 param_hint="--target")
    chosen = parse_names(sensitivity_set, "--sensitivity-set")
    use_target(target.removeprefix("mtia-"))
    context = context_for(target, quick)
    names = [name for name in BENCHMARKS if only in name]
    if not names:
        raise click.BadParameter(f"no benchmark name contains {only!r}", param_hint="--only")
    start = time.monotonic()
    rows = run_benchmarks(names, context, echo=True)
    click.echo(f"Calibration of {target} ({target_path(target)}; clock {context.clock_ghz:g} "
               f"GHz){', --quick sizes (not steady state)' if quick else ''}:")
    print_table(rows)
    if any(row.name.startswith("launch") for row in rows):
        click.echo("note: the launch figure is an upper bound; a model that charges a launch "
                   "nothing is inside it trivially (launch_one_element adds a scalar load and "
                   "store)")
    outside = [row.name.split(" (")[0] for row in rows if row.inside is False]
    click.echo(f"{len(rows)} figures, {len(outside)} outside their range"
               f"{': ' + ', '.join(outside) if outside else ''}; "
               f"{time.monotonic() - start:.0f} s of host time")
    if with_sensitivity:
        start = time.monotonic()
        sensitivity(target, chosen, quick, {row.name: row for row in rows},
                    [path.strip() for path in figures.split(",") if path.strip()] or None)
        click.echo(f"sensitivity: {time.monotonic() - start:.0f} s of host time")


if __name__ == "__main__":
    main()
