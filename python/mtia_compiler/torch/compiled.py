"""`mtia_compiler.torch.compile`: a model through TorchInductor's Triton code
generation onto the simulated MTIA, with a report of each call.

The route: `torch.compile` with a backend of ours that runs Inductor's
`compile_fx` with configuration patches (Triton code for the CPU device,
MTIA-aware heuristics, matmul templates) that Inductor applies to this
compilation only, forward and backward. Everything else that must hold while
Inductor compiles or a compiled graph runs is entered around those two
moments and undone after them (`_Session`): the Triton backend for Inductor's
CPU target (`host_target.installed`), the heuristics (`V.set_choices_handler`)
and a benchmarker that measures simulated time for Inductor's autotuning.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtia_compiler.backend.driver import KernelLaunch, kernel_launches
from mtia_compiler.torch.decompositions import decompositions
from mtia_compiler.torch.heuristics import MTIAChoices
from mtia_compiler.torch.host_target import installed
from mtia_compiler.torch.report import (
    GraphSource,
    OperatorRecord,
    Report,
    graph_operators,
    make_record,
)


class MTIAFallbackWarning(UserWarning):
    """A kernel of a compiled model does not compile for MTIA and runs on the
    host; the message names the kernel and the located reason."""


def simulated_milliseconds(call: Callable[[], Any]) -> float:
    """The simulated time of `call`'s kernel launches, in milliseconds: what
    Inductor's autotuning ranks kernels and matmul choices by. A call with a
    launch on the host (a kernel that does not compile for MTIA) or with no
    launch at all (an ATen operation, which runs on the host) is infinitely
    slow; Inductor takes its ATen choice when nothing else runs on MTIA."""
    with kernel_launches(exclusive=True) as launches:
        call()
    if not launches or any(launch.record is None for launch in launches):
        return math.inf
    return sum(launch.record.seconds for launch in launches if launch.record) * 1e3


@contextmanager
def _simulated_benchmarks() -> Iterator[None]:
    """Makes Inductor's benchmarker measure calls on the CPU and on the `mtia`
    device in simulated time while the block runs, hiding their launches
    from the report. Inductor's CPU benchmarks (of autotune configs, of
    matmul templates and ATen choices) all go through
    `benchmarker.benchmark_cpu`, which has no hook; it is replaced on the
    benchmarker object and restored afterwards. Device benchmarks go through
    Inductor's registry of benchmarkers by device type, where the one for
    `mtia` is registered and then removed (Inductor's default for it, events
    around repeated calls, would measure the same simulated time with
    repetitions and cache flushes that the report would see)."""
    from torch._inductor.runtime import benchmarking
    from torch._inductor.runtime.benchmarking import benchmarker, register_benchmarker

    def benchmark_cpu(_callable: Callable[[], Any], warmup: int = 0, rep: int = 0,
                      **kwargs: Any) -> float:
        return simulated_milliseconds(_callable)

    def benchmark_mtia(_benchmarker: Any, _callable: Callable[[], Any], **kwargs: Any) -> float:
        return simulated_milliseconds(_callable)

    previous = vars(benchmarker).get("benchmark_cpu")
    previous_mtia = benchmarking._BENCHMARK_DISPATCH.get("mtia")
    benchmarker.benchmark_cpu = benchmark_cpu  # type: ignore[method-assign]
    register_benchmarker("mtia", benchmark_mtia, override=True)
    try:
        yield
    finally:
        if previous is None:
            del benchmarker.benchmark_cpu
        else:
            benchmarker.benchmark_cpu = previous  # type: ignore[method-assign]
        if previous_mtia is None:
            del benchmarking._BENCHMARK_DISPATCH["mtia"]
        else:
            register_benchmarker("mtia", previous_mtia, override=True)


def prologue_keeps_zeros(prologue: Any) -> bool:
    """Whether the value a prologue (a pointwise node Inductor fuses into a
    matmul template, `SchedulerNode`) stores is 0 wherever the loads it
    makes are masked off and give 0, for sure. Inductor's own analysis
    (`prologue_preserves_zero_mask`) evaluates the prologue symbolically with
    every load 0, and an operation it cannot evaluate (a division, an exp)
    as an unknown that a product with 0 makes 0, though the unknown may be
    NaN or infinite: (0 / 0) * 0, a softmax over one token times v, is NaN.
    Here a prologue keeps its zeros only when every operation was evaluated."""
    from torch._inductor.analyze_preserves_zero_mask import PreservesZeros
    from torch._inductor.codegen.common import OpDecompositions
    from torch._inductor.virtualized import V

    class Evaluated(PreservesZeros):
        unknown = False

        def _default(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            self.unknown = self.unknown or not hasattr(OpDecompositions, name)
            return super()._default(name, args, kwargs)

    analysis = Evaluated()
    with V.set_ops_handler(analysis):
        prologue._body(*prologue.get_ranges())
    return bool(analysis.store_preserves_zeros) and not analysis.unknown


@contextmanager
def _masked_prologues() -> Iterator[None]:
    """Makes Inductor reapply the mask of a matmul template's K to the value
    of each prologue fused into it unless `prologue_keeps_zeros`, while the
    block runs. Inductor's analysis has no hook; the name the template code
    generation calls is replaced and restored."""
    from torch._inductor.codegen import simd

    previous = simd.prologue_preserves_zero_mask
    simd.prologue_preserves_zero_mask = prologue_keeps_zeros
    try:
        yield
    finally:
        simd.prologue_preserves_zero_mask = previous


@contextmanager
def _attention_lowerings() -> Iterator[None]:
    """Makes Inductor lower the CPU's flash attention and its backward to the
    device runtime's attention operators while the block runs. The
    compilation decomposes those operations (`decompositions.py`), but
    Inductor's pattern matcher rebuilds them afterwards from attention
    written as matmuls and a softmax (MobileViT's), and Inductor would call
    them on the host. The lowerings have no hook; the table's entries are
    replaced and restored. Attention the operators do not take (dropout,
    types the kernels do not take) keeps Inductor's lowering."""
    import torch
    from torch._inductor.lowering import fallback_handler, lowerings

    from mtia.host_runtime.torch_mtia.attention import attention_runs_as_kernel

    forward_op = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default
    backward_op = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default
    attention = fallback_handler(torch.ops.mtia_compiler.attention.default,
                                 add_to_fallback_set=False)
    attention_backward = fallback_handler(torch.ops.mtia_compiler.attention_backward.default,
                                          add_to_fallback_set=False)
    previous = {op: lowerings[op] for op in (forward_op, backward_op)}

    def taken(query: Any, key: Any, value: Any, dropout_p: float, attn_mask: Any) -> bool:
        return attention_runs_as_kernel(
            [query.get_dtype(), key.get_dtype(), value.get_dtype()],
            None if attn_mask is None else attn_mask.get_dtype(), dropout_p)

    def forward(query: Any, key: Any, value: Any, dropout_p: float = 0.0,
                is_causal: bool = False, *, attn_mask: Any = None,
                scale: float | None = None) -> Any:
        if not taken(query, key, value, dropout_p, attn_mask):
            return previous[forward_op](query, key, value, dropout_p, is_causal,
                                        attn_mask=attn_mask, scale=scale)
        return attention(query, key, value, attn_mask, is_causal, scale)

    def backward(grad: Any, query: Any, key: Any, value: Any, out: Any, logsumexp: Any,
                 dropout_p: float, is_causal: bool, *, attn_mask: Any = None,
                 scale: float | None = None) -> Any:
        if not taken(query, key, value, dropout_p, attn_mask):
            return previous[backward_op](grad, query, key, value, out, logsumexp, dropout_p,
                                         is_causal, attn_mask=attn_mask, scale=scale)
        grads = attention_backward(grad, query, key, value, attn_mask, out, logsumexp,
                                   is_causal, scale, False)
        return grads[:3]

    lowerings[forward_op] = forward
    lowerings[backward_op] = backward
    try:
        yield
    finally:
        for op, lowering in previous.items():
            lowerings[op] = lowering


@dataclass
class _Graph:
    """A graph Inductor compiled for the model: its kind and what its
    module's source says about its kernels."""

    kind: str
    source: GraphSource
    #: Whether its tensors are on the `mtia` device (else on the CPU).
    on_device: bool
    #: Its operator instances, with their FLOPs and whether they compute
    #: from constants alone (`graph_operators`).
    operators: tuple[tuple[str, int, bool], ...]


class CompiledModel:
    """A model or function compiled for the simulated MTIA
    (`mtia_compiler.torch.compile`). Calling it runs the model; `report()`
    describes the kernels of the last call."""

    def __init__(self, model: Any, target: str | Path, heuristics: bool, dynamic: bool | None,
                 fullgraph: bool, options: dict[str, Any] | None) -> None:
        import torch

        from mtia_compiler.sim import load_target

        self.target = str(target)
        self._description = load_target(self.target).to_dict()
        self._choices = MTIAChoices(self.target, heuristics)
        self._patches = {**self._choices.inductor_config(), **(options or {})}
        self._graphs: list[_Graph] = []
        self._launches: list[tuple[int, KernelLaunch]] = []
        #: The graphs that ran in the last call, by index, each time they ran.
        self._runs: list[int] = []
        self._host_operations: dict[str, int] = {}
        #: Why Inductor could not compile the graphs that ran on the host in
        #: the last call, each once.
        self._host_graphs: dict[str, None] = {}
        self._warned: set[tuple[int, str]] = set()
        self._compiled = torch.compile(model, backend=self._compile_graph, dynamic=dynamic,
                                       fullgraph=fullgraph)

    @contextmanager
    def _session(self) -> Iterator[None]:
        """What must hold while a graph compiles or runs: the MTIA backend
        behind Inductor's CPU target (CPU tensors' kernels, also those of a
        graph on `mtia` that keeps some on the CPU, an optimizer's step
        counts say) and benchmarks in simulated time on either device."""
        with ExitStack() as stack:
            stack.enter_context(installed(self.target))
            stack.enter_context(_simulated_benchmarks())
            yield

    def _check_device_target(self) -> None:
        """Inductor compiles `mtia` tensors' kernels for the target the
        device simulates, which must be the one this model compiles for."""
        from mtia.host_runtime.torch_mtia.acc_flags import TARGET_VARIABLE, target_name

        if Path(self.target).stem != target_name():
            raise ValueError(
                f"the mtia device simulates {target_name()}, and this model compiles for "
                f"{self.target}: pass CPU tensors to compile for {self.target}, or set "
                f"{TARGET_VARIABLE}={Path(self.target).stem} before importing torch")

    def _compile_graph(self, graph_module: Any, example_inputs: Any) -> Any:
        """The `torch.compile` backend: Inductor's `compile_fx` with our
        configuration and our inner compilation step."""
        from torch._functorch import config as functorch_config
        from torch._inductor.compile_fx import compile_fx
        from torch._inductor.exc import InductorError

        patches = self._patches
        if _on_mtia(example_inputs):
            self._check_device_target()
            # Inductor refuses its matmul templates on a device of fewer than
            # 68 SMs (the chip has 64 PEs); its extern matmul calls run as the
            # device runtime's matmul kernel, with the same heuristics' tiles.
            # What a graph on `mtia` keeps on the CPU (an optimizer's step
            # counts) is host code, as beside any accelerator: Inductor's
            # wrapper for the device cannot launch Triton kernels on the CPU.
            patches = {**patches, "max_autotune_gemm": False}
            del patches["cpu_backend"]
        # AOTAutograd's cache would hand back compiled graphs without calling
        # the inner compilation step, which wraps each graph in a session.
        try:
            with functorch_config.patch(enable_autograd_cache=False):
                return compile_fx(graph_module, example_inputs, config_patches=patches,
                                  inner_compile=self._compile_inner,
                                  decompositions=decompositions())
        except InductorError as error:
            return self._run_on_host(graph_module, error.inner_exception)

    def _run_on_host(self, graph_module: Any, cause: BaseException) -> Any:
        """The graph as PyTorch runs it eagerly, for a graph whose code
        generation fails inside Inductor (an internal error of its Triton
        code for the CPU device, which its C++ backend does not share): the
        call gives eager PyTorch's results, with one `MTIAFallbackWarning`
        naming the error, and the report names the graph."""
        reason = (f"Inductor cannot generate this graph's code ({type(cause).__name__}: "
                  f"{str(cause).splitlines()[0] if str(cause) else ''})")
        warnings.warn(MTIAFallbackWarning(f"MTIA: a graph runs on the host: {reason}"),
                      stacklevel=2)

        def run_on_host(*inputs: Any) -> Any:
            self._host_graphs[reason] = None
            return graph_module(*inputs)

        return run_on_host

    def _compile_inner(self, graph_module: Any, example_inputs: Any, **kwargs: Any) -> Any:
        """Inductor's inner compilation of one graph (forward, backward or
        inference) in a session; the compiled graph's calls run in one too
        and record their launches."""
        from torch._inductor.compile_fx import compile_fx_inner
        from torch._inductor.virtualized import V

        on_device = _on_mtia(example_inputs)
        # Inductor's passes rewrite the graph in place as it compiles it.
        operators = graph_operators(graph_module, kwargs.get("static_input_idxs", ()))
        with self._session(), V.set_choices_handler(self._choices), _masked_prologues(), \
                _attention_lowerings():
            compiled = compile_fx_inner(graph_module, example_inputs, **kwargs)
        if not hasattr(compiled, "current_callable"):
            # A graph without operations to generate code for is a plain
            # function of its inputs: it launches nothing.
            return compiled
        kind = ("backward" if kwargs.get("is_backward") else
                "inference" if kwargs.get("is_inference") else "forward")
        index = len(self._graphs)
        self._graphs.append(_Graph(kind, GraphSource.parse(getattr(compiled, "source_code", "")),
                                   on_device, operators))
        run = compiled.current_callable

        def run_in_session(inputs: Any) -> Any:
            with self._session(), host_operations_counted() as host_operations, \
                    kernel_launches() as launches:
                outputs = run(inputs)
            self._launches.extend((index, launch) for launch in launches)
            self._runs.append(index)
            for name, count in host_operations.items():
                self._host_operations[name] = self._host_operations.get(name, 0) + count
            self._warn_fallbacks(index, launches)
            return outputs

        compiled.current_callable = run_in_session
        return compiled

    def _warn_fallbacks(self, graph: int, launches: list[KernelLaunch]) -> None:
        for launch in launches:
            if launch.fallback is not None and (graph, launch.name) not in self._warned:
                self._warned.add((graph, launch.name))
                warnings.warn(MTIAFallbackWarning(
                    f"MTIA: kernel '{launch.name}' ({self._graphs[graph].kind}) does not compile "
                    f"for {self.target} and runs on the host: {launch.fallback}"), stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._launches = []
        self._runs = []
        self._host_operations = {}
        self._host_graphs = {}
        return self._compiled(*args, **kwargs)

    def report(self) -> Report:
        """The kernels of the last call, and of the backward of its outputs
        when that ran."""
        records = [make_record(launch, self._graphs[graph].kind,
                               self._graphs[graph].source.ops(launch), self._description)
                   for graph, launch in self._launches]
        # On the CPU, the ATen calls of a graph's wrapper run on the host; on
        # the device, the runtime runs some as kernels and counts the others.
        graphs = dict.fromkeys(graph for graph, _ in self._launches)
        host_ops = tuple(dict.fromkeys(op for graph in graphs if not self._graphs[graph].on_device
                                       for op in self._graphs[graph].source.host_ops))
        return Report(self.target, float(self._description["clock_ghz"]), records, host_ops,
                      dict(self._host_operations), tuple(self._operator_records()),
                      tuple(self._host_graphs))

    def _operator_records(self) -> Iterator[OperatorRecord]:
        """The operator instances of the graphs that ran in the last call,
        on the host when their kernel fell back to it, when the wrapper of a
        graph of CPU tensors called them as they are, or when the device
        runtime ran them on the host for `mtia` tensors; on the MTIA
        otherwise. What a wrapper called on the host that is no operator of
        its graph counts as an operator instance on the host too, and so
        does each run of the device runtime on the host that no operator of
        a device graph accounts for (an operation inside another, or outside
        the graphs)."""
        runtime_reason = ("the device runtime has no kernel for it: PyTorch's CPU fallback "
                          "runs it on the host")
        # The device runtime's runs on the host, by operator: each accounts
        # for one instance of a device graph's operator of that name.
        unaccounted: dict[str, int] = {}
        for name, count in self._host_operations.items():
            unaccounted[_operator_name(name)] = unaccounted.get(_operator_name(name), 0) + count
        for index in self._runs:
            graph = self._graphs[index]
            fallbacks = {op: launch.fallback for number, launch in self._launches
                         if number == index and launch.fallback is not None
                         for op in graph.source.ops(launch)}
            for name, flops, constant in graph.operators:
                reason = None
                if name in fallbacks:
                    reason = ("its kernel does not compile for MTIA: "
                              f"{(fallbacks[name] or '').splitlines()[0]}")
                elif graph.on_device and unaccounted.get(name, 0) > 0:
                    unaccounted[name] -= 1
                    reason = runtime_reason
                elif not graph.on_device and name in graph.source.host_ops:
                    reason = "Inductor calls it as it is, and it runs on the host"
                # Training updates the parameters between calls: only an
                # inference graph repeats work on constants.
                yield OperatorRecord(name, graph.kind, flops, reason is None, reason,
                                     constant and graph.kind == "inference")
            if graph.on_device:
                continue
            # What the wrapper calls on the host that is no operator of the
            # graph comes from Inductor's lowering of one (a fallback of it).
            computed = {name for name, _, _ in graph.operators}
            for name in graph.source.host_ops:
                if name not in computed:
                    yield OperatorRecord(name, graph.kind, 0, False,
                                         "Inductor's lowering of the graph calls it on the host")
        for name, count in unaccounted.items():
            for _ in range(count):
                yield OperatorRecord(name, "runtime", 0, False, runtime_reason)


def _operator_name(name: str) -> str:
    """The device runtime's name of an operator it ran ("aten::mm.out") as
    the report names operators ("aten.mm")."""
    namespace, _, rest = name.partition("::")
    return f"{namespace}.{rest.split('.', 1)[0]}"


def _on_mtia(example_inputs: Any) -> bool:
    """Whether a graph's example inputs are on the `mtia` device."""
    import torch

    return any(isinstance(value, torch.Tensor) and value.device.type == "mtia"
               for value in example_inputs)


@contextmanager
def host_operations_counted() -> Iterator[dict[str, int]]:
    """Fills the dictionary it gives, when the block ends, with the ATen
    operations that ran on the host for `mtia` tensors in the block (the
    runtime's count), by name."""
    counted: dict[str, int] = {}
    if not _mtia_runtime_loaded():
        yield counted
        return
    from mtia.host_runtime.torch_mtia.dynamic_library import host_operations

    before = host_operations()
    try:
        yield counted
    finally:
        for name, count in host_operations().items():
            if count > before.get(name, 0):
                counted[name] = count - before.get(name, 0)


def _mtia_runtime_loaded() -> bool:
    import sys

    return "mtia.host_runtime.torch_mtia.dynamic_library" in sys.modules


def compile(model_or_fn: Any, target: str | Path = "mtia-2i", *,  # noqa: A001 (torch's name)
            heuristics: bool = True, dynamic: bool | None = None, fullgraph: bool = False,
            options: dict[str, Any] | None = None) -> CompiledModel:
    """Compiles a torch model or function for the simulated MTIA `target` (a
    name from `targets/` or a path to a description), like `torch.compile`:
    TorchInductor generates Triton kernels for its graphs, and each kernel is
    compiled by this project's Triton backend and launched on the simulator.
    Inputs and outputs are torch CPU tensors.

    Inputs on the `mtia` device compile through Inductor's MTIA path and
    the `mtia` backend (for the target the device simulates) with the same
    heuristics; the report then counts the ATen operations that ran on the
    host. With CPU inputs, a kernel that does not compile for MTIA runs on the
    host, with one `MTIAFallbackWarning` naming it and the located reason. `heuristics=False`
    leaves Inductor's own block sizes and keeps matmuls on ATen (the
    baseline the heuristics are measured against); `options` are further
    Inductor configuration patches."""
    return CompiledModel(model_or_fn, target, heuristics, dynamic, fullgraph, options)
