"""MTIA-aware code generation choices for TorchInductor.

Inductor's block sizes assume a GPU: thousands of threads per SM, registers
and shared memory, and for the CPU device it reads the host's two cores as
"SMs". `MTIAChoices` (an `InductorChoices`, the interface Inductor offers for
out-of-tree heuristics) gives Inductor the target's facts instead (`Machine`:
PEs, local memory, the DPE's tile) and decides:

* the blocks of pointwise and reduction kernels, fixed at code generation
  (`FixedTritonConfig`, so no runtime autotuning): enough programs to give
  every PE work, blocks large enough to amortise a program's start (a DMA
  round trip to DRAM), and data that fits a quarter of local memory;
* persistent reductions (a whole row in one block) whenever a row fits that
  budget, instead of Inductor's 1024-element limit;
* split reductions by the number of PEs rather than the host's cores;
* the configs Inductor's matmul templates (mm, addmm, bmm, baddbmm) are
  autotuned over: tiles that are multiples of the DPE's where the shape
  allows, whose operands fit local memory, from "one program per PE" to
  "whole K in one step" (`gemm_configs`); the autotuning measures simulated
  time (`compiled.simulated_milliseconds`).

`enabled=False` keeps Inductor's own choices (the baseline the heuristics are
measured against); matmuls go to the templates either way.
"""

from __future__ import annotations

import contextvars
import hashlib
import math
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import torch
from torch._inductor.choices import InductorChoices
from torch._inductor.codegen.triton import FixedTritonConfig
from torch._inductor.template_heuristics.triton import (
    BaseConfig,
    BaseConfigHeuristic,
    CPUAddmmTemplateConfigHeuristic,
    CPUMMTemplateConfigHeuristic,
    GemmConfig,
)
from torch._inductor.virtualized import V

#: The version of these heuristics and of the route's code generation
#: (`compiled._masked_prologues`), part of Inductor's cache key: bump it when
#: a decision changes.
HEURISTICS_VERSION = 4

#: The share of a PE's local memory the data of one block may take (counting
#: each buffer double buffered and a temporary per operation); the rest is
#: for each unit's scratch. The compiler runs a block that does not fit in
#: strips, so the estimate need not be exact.
BLOCK_BUDGET_FRACTION = 2

#: The fewest elements a pointwise block takes, and the most: beyond it a
#: block only lengthens the programs that start last (measured on mtia-2i:
#: 1M-element GELU runs within 1% of its DRAM roofline from 256 to 8192).
MIN_POINTWISE_BLOCK = 16
MAX_POINTWISE_BLOCK = 4096

#: The longest loop step of a reduction that does not fit in one block.
MAX_REDUCTION_BLOCK = 4096

#: The elements of the rows a program of an inner reduction takes (see
#: `reduction_blocks`).
ROWS_ELEMENTS = 1024

#: A reduction of fewer elements is never split in two kernels.
MIN_SPLIT_REDUCTION = 8192

#: Matmul tiles: a matmul template may take half of local memory; blocks of
#: rows and columns from 16 (Inductor's template needs that much) to 128,
#: K steps up to 512.
GEMM_BUDGET_FRACTION = 2
MIN_GEMM_BLOCK = 16
MAX_GEMM_BLOCK = 128
MAX_GEMM_K_BLOCK = 512

#: Bytes each fused operation adds per element (a temporary tile of f32).
TEMPORARY_BYTES = 4
MAX_TEMPORARIES = 8


@dataclass(frozen=True)
class Machine:
    """The facts of an MTIA target that the heuristics read."""

    name: str
    num_pes: int
    local_memory_bytes: int
    dpe_tile: tuple[int, int, int]
    #: A transfer whose rows start at multiples of this moves in bursts.
    dma_alignment_bytes: int

    @classmethod
    def of(cls, target: str) -> Machine:
        from mtia_compiler.sim import load_target

        description = load_target(target).to_dict()
        m, n, k = description["dpe_tile"]
        return cls(str(description["name"]), int(description["num_pes"]),
                   int(description["local_memory_bytes"]), (int(m), int(n), int(k)),
                   int(description["dma_alignment_bytes"]))

    @property
    def block_budget(self) -> int:
        return self.local_memory_bytes // BLOCK_BUDGET_FRACTION


def next_power_of_2(n: int) -> int:
    return 1 << max(int(n) - 1, 0).bit_length()


def previous_power_of_2(n: int) -> int:
    return 1 << (max(int(n), 1).bit_length() - 1)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def pointwise_block(numel: int, bytes_per_element: int, machine: Machine) -> int:
    """XBLOCK of a 1-D pointwise kernel: a block per PE (rounded up to a power
    of two) within the pointwise limits and the budget."""
    fits = previous_power_of_2(machine.block_budget // max(bytes_per_element, 1))
    per_pe = next_power_of_2(math.ceil(numel / machine.num_pes))
    return _clamp(per_pe, MIN_POINTWISE_BLOCK, max(MIN_POINTWISE_BLOCK,
                                                   min(MAX_POINTWISE_BLOCK, fits)))


def tile_blocks(ynumel: int, xnumel: int, bytes_per_element: int,
                machine: Machine) -> tuple[int, int]:
    """(YBLOCK, XBLOCK) of a 2-D pointwise kernel (a transposing copy): the
    elements of a 1-D block, as square as the shape allows, X (the
    contiguous axis of the output) first."""
    total = pointwise_block(ynumel * xnumel, bytes_per_element, machine)
    x_block = min(next_power_of_2(xnumel), max(MIN_POINTWISE_BLOCK,
                                                previous_power_of_2(math.isqrt(total))))
    y_block = min(next_power_of_2(ynumel), max(1, total // x_block))
    return y_block, x_block


def persistent_fits(rnumel: int, bytes_per_element: int, machine: Machine) -> bool:
    """Whether a row of `rnumel` elements fits one block."""
    return next_power_of_2(rnumel) * bytes_per_element <= machine.block_budget


def reduction_blocks(xnumel: int, rnumel: int, bytes_per_element: int, element_size: int,
                     persistent: bool, outer: bool, machine: Machine) -> tuple[int, int]:
    """(XBLOCK, R0_BLOCK) of a reduction kernel. A persistent one holds whole
    rows; a looped one steps through rows in blocks within the budget.

    Rows per program, from measurements on mtia-2i (softmax, layer norm, row
    and column sums, at 256 to 16384 rows): a program has a fixed cost (a
    DMA round trip to DRAM) that short rows must amortise, yet two programs
    per PE beat one, as the second one's transfers overlap the first one's
    work. So a program of an inner reduction takes half of a PE's share of
    the elements, and at least ROWS_ELEMENTS, in whole rows; but only one
    row when rows are that long already (256 softmax rows of 1024: 14365
    cycles one per program, 15795 two per program) or when a row's bytes
    are not a multiple of the DMA alignment (a block
    of several such rows is moved element by element: 256 softmax rows of
    100 take 4519 cycles one per program, 6709 two per program). A
    reduction over an outer dimension, whose outputs are contiguous, spreads
    them over the PEs. No block takes so many rows that some PEs would get
    no program."""
    r_block = next_power_of_2(rnumel) if persistent else _clamp(
        next_power_of_2(rnumel), 1,
        min(MAX_REDUCTION_BLOCK, previous_power_of_2(machine.block_budget // bytes_per_element)))
    fits = max(1, previous_power_of_2(machine.block_budget // (r_block * bytes_per_element)))
    if outer:
        wanted = xnumel
    elif (rnumel * element_size) % machine.dma_alignment_bytes:
        wanted = 1
    elif r_block >= ROWS_ELEMENTS:
        wanted = 1
    else:
        share = math.ceil(xnumel * r_block / machine.num_pes)
        wanted = max(ROWS_ELEMENTS, share // 2) // r_block
    spread = max(1, xnumel // machine.num_pes)
    return _clamp(previous_power_of_2(max(min(wanted, spread), 1)), 1, fits), r_block


def split_factor(numel: int, reduction_numel: int, machine: Machine) -> int:
    """How many kernels' worth of parts to split a reduction with few outputs
    into: enough parts that every PE has one."""
    if numel >= machine.num_pes // 2 or reduction_numel < MIN_SPLIT_REDUCTION:
        return 1
    return _clamp(machine.num_pes // max(numel, 1), 2, reduction_numel // 2048)


def gemm_configs(m: int, n: int, k: int, dtype_size: int, machine: Machine) -> list[GemmConfig]:
    """The matmul template configs to autotune for an (m x k) @ (k x n)
    product. Each tile takes the longest K step whose operands, double
    buffered, and f32 accumulator and output fit half of local memory (a
    matmul runs no other work on the PE) and that leaves at least two steps
    where K allows. The candidates: the two largest tiles that still give
    every PE a program (or as many programs as the product allows), and the
    DPE's own tile."""
    tile_m, tile_n, tile_k = machine.dpe_tile
    budget = machine.local_memory_bytes // GEMM_BUDGET_FRACTION

    def sizes(extent: int, largest: int) -> list[int]:
        # Inductor's template takes blocks of at least 16 (its warps hold
        # 16x16 tiles).
        top = max(MIN_GEMM_BLOCK, min(next_power_of_2(extent), largest))
        return [size for size in (MIN_GEMM_BLOCK << i for i in range(8)) if size <= top]

    def footprint(bm: int, bn: int, bk: int) -> int:
        return 2 * (bm * bk + bk * bn) * dtype_size + 2 * bm * bn * 4

    def programs(tile: tuple[int, int, int]) -> int:
        return math.ceil(m / tile[0]) * math.ceil(n / tile[1])

    tiles: list[tuple[int, int, int]] = []
    for bm in sizes(m, MAX_GEMM_BLOCK):
        for bn in sizes(n, MAX_GEMM_BLOCK):
            steps = [bk for bk in sizes(k, MAX_GEMM_K_BLOCK) if footprint(bm, bn, bk) <= budget]
            # Two K steps at least, where K allows: the next step's loads and
            # conversions then overlap this step's products on the DPE.
            steps = [bk for bk in steps if 2 * bk <= next_power_of_2(k)] or steps
            if steps:
                tiles.append((bm, bn, steps[-1]))
    if not tiles:
        return [GemmConfig(MIN_GEMM_BLOCK, MIN_GEMM_BLOCK, MIN_GEMM_BLOCK, 1, 1)]
    wanted = min(machine.num_pes, max(programs(tile) for tile in tiles))

    def larger_first(tile: tuple[int, int, int]) -> tuple[int, int, int]:
        # The larger tile, the squarer one, the longer K step.
        squareness = abs(tile[0].bit_length() - tile[1].bit_length())
        return -tile[0] * tile[1], squareness, -tile[2]

    spread = sorted((tile for tile in tiles if programs(tile) >= wanted), key=larger_first)
    dpe_tile = (min(tile_m, max(sizes(m, MAX_GEMM_BLOCK))),
                min(tile_n, max(sizes(n, MAX_GEMM_BLOCK))))
    dpe = [tile for tile in tiles if tile[:2] == dpe_tile]
    chosen = list(dict.fromkeys([*spread[:2], *dpe]))
    return [GemmConfig(bm, bn, bk, 2, 4) for bm, bn, bk in chosen]


#: The machine of the MTIAChoices that is selecting matmul configs (the
#: template heuristics are singletons, so they cannot hold it).
_machine: contextvars.ContextVar[Machine] = contextvars.ContextVar("mtia_machine")


class _MTIAGemmMixin:
    """Replaces a CPU matmul template heuristic's configs by `gemm_configs`."""

    def _get_config_generator(self) -> partial[Generator[Any, None, None]]:
        return partial(self.preprocess_mm_configs, configs=[])

    def preprocess_mm_configs(self, m: Any, n: Any, k: Any, configs: list[Any],
                              has_int8_tensor: bool = False, scale: float = 1.0,
                              exclude: Any = None, dtype_size: int = 0, op_name: str = "mm",
                              **kwargs: Any) -> Generator[Any, None, None]:
        def hint(size: Any) -> int:
            return int(V.graph.sizevars.optimization_hint(size, fallback=64))

        chosen: list[BaseConfig] = list(gemm_configs(hint(m), hint(n), hint(k), dtype_size or 4,
                                                     _machine.get()))
        heuristic: Any = self
        return BaseConfigHeuristic._finalize_mm_configs(heuristic, chosen)


class MTIAMMTemplateConfigHeuristic(_MTIAGemmMixin, CPUMMTemplateConfigHeuristic):
    """mm and bmm templates on MTIA."""


class MTIAAddmmTemplateConfigHeuristic(_MTIAGemmMixin, CPUAddmmTemplateConfigHeuristic):
    """addmm and baddbmm templates on MTIA."""


def _static(expression: Any) -> int | None:
    """The value of a size that is known at compile time (an int or a sympy
    integer), else None."""
    if isinstance(expression, int) or getattr(expression, "is_Integer", False):
        return int(expression)
    return None


class MTIAChoices(InductorChoices):
    """Inductor's choices for the MTIA target `target`; `enabled=False` keeps
    Inductor's own (except that matmuls go to templates)."""

    def __init__(self, target: str, enabled: bool = True) -> None:
        super().__init__()
        self.target = target
        self.enabled = enabled
        self.machine = Machine.of(target)

    def uuid(self) -> str:
        """What distinguishes these choices in Inductor's cache key."""
        path = Path(self.target)
        target = path.read_text() if path.suffix == ".json" else self.target
        key = f"mtia-{HEURISTICS_VERSION}-{self.enabled}-{target}"
        return hashlib.sha256(key.encode()).hexdigest()

    def inductor_config(self) -> dict[str, Any]:
        """The Inductor configuration of a compilation for MTIA."""
        return {
            # Triton code for the CPU device; our backend runs it on MTIA.
            "cpu_backend": "triton",
            # Kernels compile in this process, where the backend is installed.
            "compile_threads": 1,
            # The choices, for the cache key (the handler is set around each
            # compilation: Inductor reads this factory once per thread).
            "inductor_choices_class": lambda: self,
            # Matmuls go to Triton templates, autotuned in simulated time;
            # ATen (on the host) remains for when no template compiles.
            "max_autotune_gemm": True,
            "max_autotune_gemm_backends": "TRITON,ATEN",
            # Convolutions are decomposed into the device runtime's operators
            # (decompositions.py); those that are not (transposed ones) stay
            # on ATen: Inductor's convolution templates do not benchmark on
            # the CPU device.
            "max_autotune_conv_backends": "ATEN",
            # Benchmarking a template with its epilogue writes a module that
            # does not import on the CPU device (torch 2.13); epilogues are
            # fused without it.
            "benchmark_epilogue_fusion": False,
            # A scatter with a sum (an index_add, a max pool's gradient) is a
            # kernel of atomic adds, as on GPUs, not a call on the host (the
            # CPU device's default).
            "cpp.fallback_scatter_reduce_sum": False,
            # top-k, median and mode are sorts in kernels, not host calls.
            "triton.decompose_sort_ops": True,
            # Autotuning writes no tables or statistics to the user's stderr.
            "autotune_num_choices_displayed": 0,
            "max_autotune_report_choices_stats": False,
        }

    # -- matmul templates --------------------------------------------------

    def get_ktc(self, kernel_inputs: Any, template: Any, op_name: str,
                kwarg_overrides: dict[str, Any] | None = None) -> Any:
        from torch._inductor.kernel.bmm import bmm_template
        from torch._inductor.kernel.mm import mm_template
        from torch._inductor.kernel_template_choice import make_ktc_generator

        if not self.enabled or template.uid not in (mm_template.uid, bmm_template.uid):
            return super().get_ktc(kernel_inputs, template, op_name, kwarg_overrides)
        heuristic: Any = (MTIAAddmmTemplateConfigHeuristic()
                          if op_name in ("addmm", "baddbmm") else MTIAMMTemplateConfigHeuristic())
        token = _machine.set(self.machine)
        try:
            configs = list(heuristic.get_template_configs(kernel_inputs, op_name))
        finally:
            _machine.reset(token)
        return make_ktc_generator(
            template=template, cs=(config for config in configs),
            extra_kwargs=heuristic.get_extra_kwargs(kernel_inputs, op_name),
            overrides=kwarg_overrides or {}, layout=kernel_inputs.output_layout(),
            inputs=heuristic.adjust_kernel_inputs(kernel_inputs, op_name))

    # -- reductions ----------------------------------------------------------

    def should_use_persistent_reduction(self, features: Any,  # type: ignore[override]
                                        cooperative_reduction: bool) -> bool:
        if not self.enabled:
            return bool(InductorChoices.should_use_persistent_reduction(
                features, cooperative_reduction))
        rnumel = _static(V.graph.sizevars.simplify(features.reduction_numel))
        return rnumel is not None and persistent_fits(rnumel, self._bytes_per_element(features),
                                                      self.machine)

    def reduction_split_factor(self, device: torch.device,  # type: ignore[override]
                               reduction_numel_hint: int, numel_hint: int,
                               inner_reduction: bool) -> int:
        if not self.enabled:
            return int(InductorChoices.reduction_split_factor(
                device, reduction_numel_hint, numel_hint, inner_reduction))
        return split_factor(numel_hint, reduction_numel_hint, self.machine)

    # -- block sizes ---------------------------------------------------------

    @staticmethod
    def _itemsizes(features: Any) -> list[int]:
        """The element sizes of the buffers the kernel reads or writes."""
        sizes = []
        for name in features.buf_accesses():
            try:
                sizes.append(V.graph.get_dtype(name).itemsize)
            except (KeyError, AttributeError):
                sizes.append(4)
        return sizes or [4]

    def _bytes_per_element(self, features: Any) -> int:
        """The local memory one element of a block takes: each buffer the
        kernel reads or writes, double buffered, and a temporary per fused
        operation (at most MAX_TEMPORARIES)."""
        operations = sum(features.op_counts().values())
        return (2 * sum(self._itemsizes(features))
                + TEMPORARY_BYTES * min(operations, MAX_TEMPORARIES))

    def triton_kernel_kwargs(self, kernel_cls: Any, features: Any, groups: Any,
                             kernel_kwargs: dict[str, Any]) -> dict[str, Any]:
        # Scans and sorts keep Inductor's blocks (a scan's block holds its
        # whole row), and so do mixed-order reductions, whose split Inductor
        # sizes itself.
        if (not self.enabled or features.contains_op("scan") or features.contains_op("sort")
                or kernel_kwargs.get("mix_order_reduction") or not groups
                or not isinstance(groups[0], dict)):
            return kernel_kwargs
        # A pointwise kernel's tiling has a reduction dimension of 1.
        tiling = {prefix: numel for prefix, numel in groups[0].items()
                  if not (prefix.startswith("r") and not features.is_reduction())}

        def hint(prefix: str) -> int:
            return int(V.graph.sizevars.optimization_hint(tiling[prefix], fallback=8192))

        size = self._bytes_per_element(features)
        config: dict[str, int]
        if set(tiling) == {"x"}:
            config = {"XBLOCK": pointwise_block(hint("x"), size, self.machine)}
        elif set(tiling) == {"y", "x"}:
            y_block, x_block = tile_blocks(hint("y"), hint("x"), size, self.machine)
            config = {"YBLOCK": y_block, "XBLOCK": x_block}
        elif set(tiling) == {"x", "r0_"}:
            persistent = kernel_kwargs.get("override_persistent_reduction")
            if persistent is None:
                persistent = self.should_use_persistent_reduction(features, False)
            outer = "OUTER" in str(features.get_reduction_hint())
            x_block, r_block = reduction_blocks(hint("x"), hint("r0_"), size,
                                                min(self._itemsizes(features)), persistent,
                                                outer, self.machine)
            # A persistent reduction's R0_BLOCK is the row, which Inductor
            # writes into the kernel; a looped one takes it as a parameter.
            if persistent and x_block == 1:
                # A fixed persistent block of one row makes Inductor drop the
                # x dimension, and its reductions then yield scalars, which go
                # through MTIA's control core (a log-softmax of 256 rows of
                # 100: 3163 cycles against 2256 with a [1, 128] block). Such
                # a kernel keeps Inductor's configs, autotuned in simulated
                # time.
                return {**kernel_kwargs, "override_persistent_reduction": True}
            config = {"XBLOCK": x_block} if persistent else {"XBLOCK": x_block, "R0_BLOCK": r_block}
            kernel_kwargs = {**kernel_kwargs, "override_persistent_reduction": persistent}
        else:
            return kernel_kwargs
        return {**kernel_kwargs, "fixed_config": FixedTritonConfig(
            {**config, "num_warps": 4, "num_stages": 1})}


def describe(choices: Iterable[GemmConfig]) -> list[str]:
    """The tiles of matmul configs, as `BMxBNxBK` (for logs and tests)."""
    return [f"{c.block_m}x{c.block_n}x{c.block_k}" for c in choices]
