"""The report of a call of a compiled model: one record per kernel launch
(the kernel, the ATen operations Inductor fused into it, simulated cycles,
bytes moved, % of roofline), totals per model, a table and a Chrome trace."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtia_compiler.backend.driver import KernelLaunch, TensorArgument

#: The bytes a launch moved between a PE and the memory outside it: DRAM,
#: the SRAM scratch, and the SRAM cache's hits (the simulator's `bytes`).
MOVED_BYTES = ("dram_read", "dram_write", "sram_read", "sram_write", "cache_read")

#: The DPE's rate key in the target description for each torch element type
#: of a matmul's operands; other types run at the f32 rate.
DPE_RATES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "int8": "i8"}

#: Inductor's names for the matrix operands of its matmul templates (the
#: mtia runtime's matmul kernel takes the same).
MATMUL_OPERANDS = ("arg_A", "arg_B")


@dataclass(frozen=True)
class KernelRecord:
    """One launch of an Inductor kernel in a call of a compiled model."""

    #: Inductor's kernel name (`triton_poi_fused_add_gelu_0`); kernels of
    #: different graphs (forward and backward) may share a name.
    name: str
    #: The graph the kernel belongs to: "inference", "forward" or "backward".
    graph: str
    #: The ATen operations Inductor fused into the kernel ("aten.gelu", ...).
    ops: tuple[str, ...]
    #: True when the kernel ran on the simulated MTIA; False when it did not
    #: compile for MTIA and ran on the host.
    on_mtia: bool
    #: Why the kernel runs on the host: the located compilation error.
    fallback_reason: str | None
    grid: tuple[int, int, int]
    #: Simulated cycles and seconds (0 for a kernel on the host).
    cycles: int
    seconds: float
    #: The bytes the launch moved between the PEs and DRAM or SRAM
    #: (`MOVED_BYTES`), and those of them that went to or from DRAM.
    bytes_moved: int
    dram_bytes: int
    #: The DRAM traffic the kernel cannot avoid: each tensor argument once
    #: (twice if Inductor names it `in_out_ptr`, which is read and written),
    #: at most the bytes it really moved to or from DRAM (a kernel may touch
    #: only part of an argument: one third of a fused QKV projection).
    compulsory_bytes: int
    #: Multiply-accumulates of a matmul template (0 for other kernels).
    macs: int
    #: The roofline: the larger of the compulsory bytes at the DRAM bandwidth
    #: and the MACs at the DPE rate of all PEs, in cycles.
    roofline_cycles: float
    #: The busy cycles of each unit, summed over the PEs.
    unit_busy_cycles: dict[str, int] = field(default_factory=dict)

    @property
    def roofline_fraction(self) -> float | None:
        """The roofline's share of the simulated cycles (1.0 is at roofline);
        None for a kernel on the host."""
        if not self.on_mtia or self.cycles == 0:
            return None
        return self.roofline_cycles / self.cycles


def _compulsory_bytes(tensors: Sequence[TensorArgument]) -> int:
    total = 0
    for tensor in tensors:
        total += tensor.nbytes * (2 if tensor.name.startswith("in_out") else 1)
    return total


def _macs(tensors: Sequence[TensorArgument]) -> tuple[int, str]:
    """The multiply-accumulates of a matmul template launch and its operand
    type, from the shapes of its operands `arg_A` (..., M, K) and `arg_B`
    (..., K, N); (0, "") for other kernels."""
    operands = {tensor.name: tensor for tensor in tensors if tensor.name in MATMUL_OPERANDS}
    if len(operands) != 2:
        return 0, ""
    a, b = operands["arg_A"], operands["arg_B"]
    if len(a.shape) < 2 or len(b.shape) < 2:
        return 0, ""
    return math.prod(a.shape) * b.shape[-1], a.dtype


def make_record(launch: KernelLaunch, graph: str, ops: tuple[str, ...],
                target: dict[str, Any]) -> KernelRecord:
    """The report's record of `launch`, with its roofline on `target` (the
    description's `to_dict()`)."""
    macs, operand_type = _macs(launch.tensors)
    if launch.record is None:
        return KernelRecord(launch.name, graph, ops, False, launch.fallback, launch.grid, 0, 0.0,
                            0, 0, _compulsory_bytes(launch.tensors), macs, 0.0)
    result = launch.record.result
    moved = sum(int(result.bytes.get(key, 0)) for key in MOVED_BYTES)
    dram = int(result.bytes.get("dram_read", 0)) + int(result.bytes.get("dram_write", 0))
    compulsory = min(_compulsory_bytes(launch.tensors), dram)
    rates = target["dpe_macs_per_cycle_per_pe"]
    dpe_rate = rates[DPE_RATES.get(operand_type, "f32")] * target["num_pes"]
    roofline = max(compulsory / target["dram_bytes_per_cycle"], macs / dpe_rate)
    busy = {unit: int(stats.get("busy_cycles", 0)) for unit, stats in result.units.items()}
    return KernelRecord(launch.name, graph, ops, True, None, launch.grid, launch.record.cycles,
                        launch.record.seconds, moved, dram, compulsory, macs, roofline, busy)


def _bytes(count: float) -> str:
    for unit in ("B", "KiB", "MiB"):
        if count < 1024:
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} GiB"


@dataclass(frozen=True)
class OperatorRecord:
    """One operator instance of a graph that ran in a call: an ATen or
    library operator that computes (views are left out), its FLOPs at the
    shapes the graph was compiled for (by PyTorch's flop counter's formulas:
    matmuls, convolutions, attention; 0 for the others), and whether it ran
    on the MTIA or, and why, on the host."""

    name: str
    #: The graph's kind ("inference", "forward", "backward"), or "runtime"
    #: for a run of the device runtime on the host that no operator of a
    #: graph accounts for (inside one of its own operators, or outside the
    #: graphs).
    graph: str
    flops: int
    on_mtia: bool
    host_reason: str | None = None
    #: Whether it computes from the model's parameters and buffers alone in
    #: an inference graph (work on constants, which each call repeats
    #: although its result does not change).
    constant: bool = False


def graph_operators(graph_module: Any, static_inputs: Sequence[int] = ()
                    ) -> tuple[tuple[str, int, bool], ...]:
    """The operator instances of an FX graph that Inductor compiles, as
    (name, FLOPs, constant): every call of an operator that is not a view,
    by its name without the overload ("aten.mm", "mtia_compiler.attention"),
    and whether it computes from the inputs at `static_inputs` (the
    parameters and buffers AOTAutograd passes) alone."""
    import torch
    from torch.fx.experimental.symbolic_shapes import optimization_hint
    from torch.utils.flop_counter import flop_registry

    placeholders = [node for node in graph_module.graph.nodes if node.op == "placeholder"]
    constant_nodes = {placeholders[index] for index in static_inputs
                      if index < len(placeholders)}
    operators = []
    for node in graph_module.graph.nodes:
        inputs = node.all_input_nodes
        if node.op == "call_function" and inputs and all(n in constant_nodes for n in inputs):
            constant_nodes.add(node)
        target = node.target
        if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) \
                or target.is_view:
            continue
        formula = flop_registry.get(target.overloadpacket)
        flops = 0
        if formula is not None:
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs),
                                                 lambda arg: arg.meta.get("val"))
            flops = optimization_hint(formula(*args, **kwargs, out_val=node.meta.get("val")),
                                      fallback=0)
        operators.append((f"{target.namespace}.{target._opname}", int(flops),
                          node in constant_nodes))
    return tuple(operators)


#: The classes of kernels whose share of a call's simulated time the report gives.
KERNEL_CLASSES = ("GEMM", "attention", "convolution", "elementwise", "reduction", "other")
#: The operations that make a kernel a reduction (a kernel Inductor names
#: by its category says so in its name: `triton_red_`, `triton_per_`).
REDUCTION_OPS = frozenset((
    "sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "var", "var_mean",
    "std", "logsumexp", "cumsum", "cumprod", "any", "all", "norm", "linalg_vector_norm",
    "_softmax", "_log_softmax", "_softmax_backward_data", "_log_softmax_backward_data",
    "native_layer_norm", "native_layer_norm_backward", "native_group_norm",
    "native_group_norm_backward", "_native_batch_norm_legit", "_native_batch_norm_legit_functional",
    "native_batch_norm_backward", "nll_loss_forward", "nll_loss_backward", "topk", "sort"))


#: Words in the names of the device runtime's kernels (which have no fused
#: operations) that say their class.
RUNTIME_GEMMS = ("matmul", "grouped")
RUNTIME_REDUCTIONS = ("norm", "histogram")


def kernel_class(kernel: KernelRecord) -> str:
    """The class of a kernel (`KERNEL_CLASSES`) by the operations it computes
    and its name: the device runtime's attention and convolution kernels and
    the kernels fused from those operations, matmuls (templates, and kernels
    whose multiply-adds the report counts), reductions, elementwise kernels;
    "other" for kernels of neither kind (a user's Triton kernel)."""
    ops = {op.rsplit(".", 1)[-1] for op in kernel.ops}
    if "attention" in kernel.name or any("attention" in op for op in ops):
        return "attention"
    if "convolution" in kernel.name or any(op.startswith("convolution") for op in ops):
        return "convolution"
    if kernel.macs or ops & set(MATMULS) or kernel.name.startswith("triton_tem_") \
            or any(word in kernel.name for word in RUNTIME_GEMMS):
        return "GEMM"
    if kernel.name.startswith(("triton_red_", "triton_per_")) or ops & REDUCTION_OPS \
            or any(word in kernel.name for word in RUNTIME_REDUCTIONS):
        return "reduction"
    if kernel.name.startswith("triton_poi_") or ops:
        return "elementwise"
    return "other"


@dataclass(frozen=True)
class Coverage:
    """Distinct kernels of a call: generated by Inductor, run on MTIA, run on
    the host."""

    generated: int
    on_mtia: int
    fallback: int

    @property
    def fraction(self) -> float:
        """The share of the kernels that ran on MTIA (1.0 when there are none)."""
        return self.on_mtia / self.generated if self.generated else 1.0


@dataclass(frozen=True)
class Report:
    """The kernels of a call of a compiled model (and of the backward of its
    outputs, when that ran), in launch order, on the MTIA target `target`."""

    target: str
    clock_ghz: float
    kernels: list[KernelRecord]
    #: The operators Inductor called on the host in the graphs that ran
    #: ("aten.topk", a library's "transformers.grouped_mm_fallback"): they are
    #: not Triton kernels and take no simulated time.
    host_ops: tuple[str, ...] = ()
    #: For `mtia` tensors, the ATen operations the device runtime ran on the
    #: host, with how often (they take no simulated time).
    host_operation_counts: dict[str, int] = field(default_factory=dict)
    #: The operator instances of the graphs that ran (each time they ran).
    operators: tuple[OperatorRecord, ...] = ()
    #: Why the graphs that ran on the host as PyTorch runs them eagerly did
    #: not compile (an error inside Inductor's code generation).
    host_graphs: tuple[str, ...] = ()

    @property
    def operator_share(self) -> float:
        """The share of the operator instances that ran on the MTIA (1.0
        when there are none)."""
        if not self.operators:
            return 1.0
        return sum(op.on_mtia for op in self.operators) / len(self.operators)

    @property
    def flops(self) -> int:
        return sum(op.flops for op in self.operators)

    @property
    def flop_share(self) -> float:
        """The share of the FLOPs that ran on the MTIA (1.0 when there are none)."""
        total = self.flops
        return sum(op.flops for op in self.operators if op.on_mtia) / total if total else 1.0

    @property
    def constant_operators(self) -> int:
        """The operator instances that compute from parameters and buffers
        alone (each call repeats them)."""
        return sum(op.constant for op in self.operators)

    @property
    def host_operators(self) -> dict[str, str]:
        """The operators that ran on the host, with why."""
        return {op.name: op.host_reason or "" for op in self.operators if not op.on_mtia}

    def time_shares(self) -> dict[str, float]:
        """The share of the simulated cycles spent in each class of kernels
        (`KERNEL_CLASSES`)."""
        total = self.total_cycles
        shares = dict.fromkeys(KERNEL_CLASSES, 0.0)
        for kernel in self.kernels:
            if total:
                shares[kernel_class(kernel)] += kernel.cycles / total
        return shares

    @property
    def total_cycles(self) -> int:
        return sum(kernel.cycles for kernel in self.kernels)

    @property
    def total_seconds(self) -> float:
        return sum(kernel.seconds for kernel in self.kernels)

    @property
    def coverage(self) -> Coverage:
        kernels = {(kernel.graph, kernel.name): kernel.on_mtia for kernel in self.kernels}
        on_mtia = sum(1 for value in kernels.values() if value)
        return Coverage(len(kernels), on_mtia, len(kernels) - on_mtia)

    @property
    def fallbacks(self) -> dict[str, str]:
        """The kernels that ran on the host, with the located reason."""
        return {kernel.name: kernel.fallback_reason or "" for kernel in self.kernels
                if not kernel.on_mtia}

    def share(self, kernel: KernelRecord) -> float:
        """The kernel's share of the call's simulated cycles."""
        total = self.total_cycles
        return kernel.cycles / total if total else 0.0

    def cycles_below(self, fraction: float) -> int:
        """The simulated cycles spent in kernels below `fraction` of their roofline."""
        return sum(kernel.cycles for kernel in self.kernels
                   if (kernel.roofline_fraction or 0.0) < fraction)

    def __str__(self) -> str:
        coverage = self.coverage
        header = (f"MTIA report ({self.target}): {len(self.kernels)} launches of "
                  f"{coverage.generated} kernels, {coverage.on_mtia} on MTIA, "
                  f"{coverage.fallback} on the host; {self.total_cycles} cycles "
                  f"({self.total_seconds * 1e6:.2f} us simulated)")
        columns = ("kernel", "graph", "fused ops", "grid", "cycles", "share", "bytes moved",
                   "roofline")
        rows = []
        for kernel in self.kernels:
            ops = ", ".join(op.removeprefix("aten.") for op in kernel.ops) or "-"
            fraction = kernel.roofline_fraction
            name = kernel.name if len(kernel.name) <= 60 else kernel.name[:57] + "..."
            rows.append((
                name, kernel.graph, ops if len(ops) <= 40 else ops[:37] + "...",
                "x".join(str(n) for n in kernel.grid),
                str(kernel.cycles) if kernel.on_mtia else "host",
                f"{self.share(kernel):.1%}", _bytes(kernel.bytes_moved),
                f"{fraction:.1%}" if fraction is not None else "-"))
        widths = [max(len(row[i]) for row in (columns, *rows)) for i in range(len(columns))]
        numeric = {3, 4, 5, 6, 7}

        def line(row: Sequence[str]) -> str:
            return "  ".join(cell.rjust(width) if i in numeric else cell.ljust(width)
                             for i, (cell, width) in enumerate(zip(row, widths, strict=True)))

        lines = [header, line(columns), line(["-" * width for width in widths]),
                 *(line(row) for row in rows)]
        lines.append(f"operators: {len(self.operators)} instances, {self.operator_share:.1%} on "
                     f"MTIA, {self.constant_operators} on constants alone; "
                     f"{self.flops / 1e9:.3f} GFLOP, {self.flop_share:.1%} on MTIA"
                     + (" (those of the graphs on the host not counted)" if self.host_graphs
                        else ""))
        lines.append("time by kernel class: " + ", ".join(
            f"{name} {share:.1%}" for name, share in self.time_shares().items() if share))
        for name, reason in self.host_operators.items():
            lines.append(f"operator on the host: {name}: {reason}")
        for name, reason in self.fallbacks.items():
            lines.append(f"on the host: {name}: {reason.splitlines()[0] if reason else ''}")
        for reason in self.host_graphs:
            lines.append(f"graph on the host: {reason}")
        if self.host_ops:
            lines.append(f"operators called on the host: {', '.join(self.host_ops)}")
        if self.host_operation_counts:
            counts = ", ".join(f"{name} x{count}"
                               for name, count in sorted(self.host_operation_counts.items()))
            lines.append(f"ATen operations on the host for mtia tensors: {counts}")
        return "\n".join(lines)

    def chrome_trace(self, path: str | Path) -> Path:
        """Writes the call's kernels as a Chrome/Perfetto trace (JSON, one
        slice per launch on the simulated clock, one after the other; kernels
        that ran on the host are instants on a track of their own) and
        returns its path."""
        events: list[dict[str, Any]] = [
            {"ph": "M", "pid": 0, "name": "process_name", "args": {"name": f"MTIA {self.target}"}},
            {"ph": "M", "pid": 0, "tid": 0, "name": "thread_name", "args": {"name": "kernels"}},
            {"ph": "M", "pid": 0, "tid": 1, "name": "thread_name",
             "args": {"name": "host fallbacks"}},
        ]
        now = 0.0
        for kernel in self.kernels:
            args = {"graph": kernel.graph, "ops": list(kernel.ops), "grid": list(kernel.grid),
                    "cycles": kernel.cycles, "bytes_moved": kernel.bytes_moved,
                    "roofline_fraction": kernel.roofline_fraction}
            if kernel.on_mtia:
                duration = kernel.seconds * 1e6
                events.append({"ph": "X", "pid": 0, "tid": 0, "name": kernel.name, "ts": now,
                               "dur": duration, "args": args})
                now += duration
            else:
                args["reason"] = kernel.fallback_reason
                events.append({"ph": "i", "s": "t", "pid": 0, "tid": 1, "name": kernel.name,
                               "ts": now, "args": args})
        target = Path(path)
        target.write_text(json.dumps({"traceEvents": events, "displayTimeUnit": "ns"}))
        return target


_KERNEL_DEFINITION = re.compile(r"^(\w+) = async_compile\.triton\('(\w+)'", re.MULTILINE)
_ORIGINAL_ATEN = re.compile(r"Original ATen: \[([^\]]*)\]")
_KERNEL_PATH = re.compile(r"^# kernel path: (.+)$", re.MULTILINE)
_NODE_MAPPING = re.compile(r"^#\s+\w+ => (.+)$", re.MULTILINE)
#: The matmuls a template kernel computes: Inductor's "Original ATen" list
#: names the operations of the source (an `add` of a bias, say), and the
#: mapping to post-grad nodes names the matmul (`addmm_default`).
MATMULS = ("mm", "addmm", "bmm", "baddbmm")
#: A call of an operator in a graph's wrapper code, which runs on the host:
#: Inductor's extern kernels and `aten` calls (ATen operators), and any
#: other library's operator (`torch.ops.<namespace>.<name>`).
_HOST_CALL = re.compile(
    r"\b(?:extern_kernels\.(?P<extern>\w+)|torch\.ops\.(?P<namespace>\w+)\.(?P<op>\w+)"
    r"|aten\.(?P<aten>\w+))(?:\.\w+)?\(")
#: The namespaces of operators a wrapper calls that do not compute on the
#: host: the device runtime's, which launch their Triton kernels on the
#: simulator, and Inductor's memory management.
_DEVICE_NAMESPACES = ("mtia_compiler", "inductor")


def _host_call_name(match: re.Match[str]) -> str | None:
    """The operator ("aten.topk", "transformers.grouped_mm_fallback") of a
    `_HOST_CALL` match, None for one that does not run on the host."""
    if match.group("namespace"):
        if match.group("namespace") in _DEVICE_NAMESPACES:
            return None
        return f"{match.group('namespace')}.{match.group('op')}"
    return f"aten.{match.group('extern') or match.group('aten')}"


@dataclass(frozen=True)
class GraphSource:
    """What the report reads from the Python module Inductor wrote for a
    graph: the ATen operations of each kernel, by kernel name and by the
    path of the kernel's module, and the ATen calls left to the host."""

    ops_by_name: dict[str, tuple[str, ...]]
    ops_by_path: dict[str, tuple[str, ...]]
    host_ops: tuple[str, ...]

    @classmethod
    def parse(cls, source: str) -> GraphSource:
        by_name: dict[str, tuple[str, ...]] = {}
        by_path: dict[str, tuple[str, ...]] = {}
        start = 0
        for match in _KERNEL_DEFINITION.finditer(source):
            preamble = source[start:match.start()]
            aten = _ORIGINAL_ATEN.findall(preamble)
            ops = tuple(op.strip() for op in aten[-1].split(",") if op.strip()) if aten else ()
            nodes = {re.sub(r"(_default)?(_\d+)?$", "", node.strip())
                     for mapping in _NODE_MAPPING.findall(preamble) for node in mapping.split(",")}
            ops += tuple(f"aten.{name}" for name in MATMULS
                         if name in nodes and f"aten.{name}" not in ops)
            by_name[match.group(2)] = ops
            paths = _KERNEL_PATH.findall(preamble)
            if paths:
                by_path[paths[-1].strip()] = ops
            # The kernel's source ends at the closing quotes of its string.
            end = source.find("''')", match.end())
            start = end if end >= 0 else match.end()
        call = source.find("def call(")
        code = "\n".join(line for line in source[max(call, 0):].splitlines()
                         if not line.lstrip().startswith("#"))
        names = (_host_call_name(match) for match in _HOST_CALL.finditer(code))
        host = () if call < 0 else tuple(dict.fromkeys(name for name in names if name))
        return cls(by_name, by_path, host)

    def ops(self, launch: KernelLaunch) -> tuple[str, ...]:
        return self.ops_by_path.get(launch.path, self.ops_by_name.get(launch.name, ()))
