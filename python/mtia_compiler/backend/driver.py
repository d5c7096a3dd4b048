"""The driver half of the Triton backend: launching compiled kernels on the simulator.

Triton uses this module's one `DriverBase` subclass when no GPU backend is
active (or when `triton.runtime.driver.set_active(MTIADriver())` selects it).
Kernels take torch CPU tensors: each pointer argument is bound zero-copy, as
the bytes from the tensor's first element to the end of its storage, so
strided and offset views, and several arguments viewing one storage, behave
as on a GPU. Every launch is simulated to the end before `kernel[grid](...)`
returns; its simulated time and unit statistics are recorded
(`mtia_compiler.backend.launches`).
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase

from mtia_compiler.backend.compiler import BACKEND_NAME, WARP_SIZE, target_description

#: What `load_binary` reports as the threads a program may use: a program runs
#: on one PE whatever its `num_warps`.
MAX_THREADS = 1 << 20


@dataclass(frozen=True)
class LaunchRecord:
    """One simulated launch: the kernel, its grid and what the simulator
    measured (`mtia_compiler.sim.Result`: cycles, seconds, unit statistics,
    bytes moved, printed text)."""

    kernel: str
    grid: tuple[int, int, int]
    result: Any

    @property
    def cycles(self) -> int:
        return int(self.result.cycles)

    @property
    def seconds(self) -> float:
        return float(self.result.seconds)


class _LaunchLog:
    """The launches of this process, for the recorders that are open and for
    the simulated clock the benchmark events read."""

    def __init__(self) -> None:
        self.recorders: list[list[LaunchRecord]] = []
        self.last: LaunchRecord | None = None
        self.simulated_seconds = 0.0

    def add(self, record: LaunchRecord) -> None:
        self.last = record
        self.simulated_seconds += record.seconds
        for recorder in self.recorders:
            recorder.append(record)


_log = _LaunchLog()


@contextmanager
def launches() -> Iterator[list[LaunchRecord]]:
    """Collects the launches made inside the `with` block, in order::

        with mtia_compiler.backend.launches() as records:
            add_kernel[grid](x, y, out, n, BLOCK=1024)
        records[0].cycles, records[0].result.units["dpe"]["busy_cycles"]
    """
    records: list[LaunchRecord] = []
    _log.recorders.append(records)
    try:
        yield records
    finally:
        _log.recorders.remove(records)


def last_launch() -> LaunchRecord | None:
    """The most recent launch of this process, if any."""
    return _log.last


# -- binding arguments -------------------------------------------------------


def _tensor_bytes(tensor: Any, name: str) -> np.ndarray:
    """The bytes of `tensor`'s storage from its first element on, zero-copy
    (for a `triton.reinterpret` view, those of the tensor it views)."""
    import torch
    from triton.runtime.jit import TensorWrapper

    if isinstance(tensor, TensorWrapper):
        tensor = tensor.base
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"argument '{name}' is a pointer: it takes a torch tensor, "
                        f"got {type(tensor).__name__}")
    if tensor.device.type != "cpu":
        raise TypeError(f"argument '{name}' is on {tensor.device}: the simulated MTIA "
                        f"reads torch CPU tensors")
    storage = tensor.untyped_storage()
    offset = tensor.storage_offset() * tensor.element_size()
    whole = torch.empty(0, dtype=torch.uint8).set_(storage)
    return whole.numpy()[offset:]


def _flatten(signature: Any, value: Any, name: str, out: list[tuple[str, Any]]) -> None:
    """Appends the kernel parameters `value` of Triton type `signature`
    stands for: nothing for a constexpr, the leaves of a tuple, the base
    tensor, shape and strides of a host tensor descriptor."""
    if signature == "constexpr":
        return
    if isinstance(signature, tuple):
        for index, (inner, item) in enumerate(zip(signature, value, strict=True)):
            _flatten(inner, item, f"{name}[{index}]", out)
        return
    if isinstance(signature, str) and signature.startswith("tensordesc"):
        out.append((name, _tensor_bytes(value.base, name)))
        out.extend((f"{name}.shape[{i}]", int(d)) for i, d in enumerate(value.shape))
        out.extend((f"{name}.strides[{i}]", int(s)) for i, s in enumerate(value.strides))
        return
    if isinstance(signature, str) and signature.startswith("*"):
        out.append((name, _tensor_bytes(value, name)))
        return
    out.append((name, value))


class MTIALauncher:
    """Launches one compiled kernel: binds Triton's arguments (in signature
    order, constexprs included) to the program's parameters and simulates."""

    def __init__(self, src: Any, metadata: Any) -> None:
        names = list(src.fn.arg_names) if hasattr(src, "fn") else list(src.signature)
        signature = dict(src.signature)
        self.signature = [signature.get(name, "constexpr") for name in names]
        self.names = names
        self.kernel_name: str = metadata.name
        self.target = target_description(metadata.target)
        self.parameters = metadata.mtia_parameters
        self.kernel: Any = None

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any,
                 packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any,
                 *args: Any) -> None:
        grid = (int(grid_x), int(grid_y), int(grid_z))
        if min(grid) < 0:
            raise ValueError(f"grid {grid} of kernel '{self.kernel_name}' has a negative size")
        flat: list[tuple[str, Any]] = []
        for signature, value, name in zip(self.signature, args, self.names, strict=True):
            _flatten(signature, value, name, flat)
        if enter_hook is not None:
            enter_hook(launch_metadata)
        if math.prod(grid) > 0:
            if self.kernel is None:
                from mtia_compiler.compiler import CompiledKernel, Parameter

                parameters = [Parameter.from_json(p) for p in self.parameters]
                self.kernel = CompiledKernel(self.kernel_name, self.target, {"bin": function},
                                             parameters)
            result = self.kernel.run(*(value for _, value in flat), grid=grid, echo=True)
            _log.add(LaunchRecord(self.kernel_name, grid, result))
        if exit_hook is not None:
            exit_hook(launch_metadata)


class MTIAUtils:
    """Device queries and "loading" of programs (the launcher's `function` is
    the compiled kernel itself)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def load_binary(self, name: str, kernel: bytes, shared: int,
                    device: int) -> tuple[bytes, bytes, int, int, int]:
        """Returns (module, function, registers, spills, threads): the program
        bytes are both the module and the `function` the launcher receives.
        (Triton loads a kernel again, with a new launcher, at every launch
        while its module is None.)"""
        from mtia_compiler.program import decode

        body = decode(kernel)
        registers = int(body.get("iregs", 0)) + int(body.get("fregs", 0))
        return kernel, kernel, registers, 0, MAX_THREADS

    def get_device_properties(self, device: int) -> dict[str, Any]:
        from mtia_compiler.sim import load_target

        target = load_target(self.target)
        return {
            "max_shared_mem": target.to_dict()["local_memory_bytes"],
            "multiprocessor_count": target.num_pes,
            "max_num_regs": 1 << 16,
            "warpSize": WARP_SIZE,
            "sm_clock_rate": int(target.clock_ghz * 1e6),
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }

    def unload_module(self, module: Any) -> None:
        return None


class SimulatedEvent:
    """A timing event on the simulated clock: the simulated time of every
    launch this process made before `record()`. `triton.testing.do_bench`
    therefore measures simulated time; pass it `warmup=0, rep=0` to keep the
    number of simulated launches small."""

    def __init__(self, enable_timing: bool = True) -> None:
        self.seconds = 0.0

    def record(self, stream: Any = None) -> None:
        self.seconds = _log.simulated_seconds

    def elapsed_time(self, end: SimulatedEvent) -> float:
        return (end.seconds - self.seconds) * 1e3

    def synchronize(self) -> None:
        return None


class SimulatedDevice:
    """The device interface `triton.testing` uses: launches are synchronous,
    and events read the simulated clock."""

    Event = SimulatedEvent

    @staticmethod
    def synchronize(device: Any = None) -> None:
        return None

    @staticmethod
    def current_device() -> int:
        return 0


def do_bench(kernel_call: Callable[[], Any], quantiles: Sequence[float] | None = None,
             **kwargs: Any) -> float | list[float]:
    """The simulated time of `kernel_call`, in milliseconds: the autotuner's
    benchmarker. A simulation is deterministic, so one call is measured; a
    config that does not compile is pruned (reported as infinitely slow)
    with a warning, as Triton's GPU backends treat configs that run out of
    resources."""
    from mtia_compiler.errors import CompilationError

    with launches() as records:
        try:
            kernel_call()
        except CompilationError as error:
            warnings.warn(f"MTIA: a config was pruned because it does not compile: {error}",
                          stacklevel=2)
            milliseconds = math.inf
        else:
            milliseconds = sum(record.seconds for record in records) * 1e3
    if quantiles is None:
        return milliseconds
    return [milliseconds] * len(quantiles)


class MTIADriver(DriverBase):
    """Runs kernels on the simulated MTIA chip `mtia-<arch>` (default 2i)."""

    def __init__(self, arch: str = "2i") -> None:
        super().__init__()
        self.target = GPUTarget(BACKEND_NAME, arch, WARP_SIZE)
        self.utils = MTIAUtils(target_description(self.target))
        self.launcher_cls = MTIALauncher

    @staticmethod
    def is_active() -> bool:
        # Active when selected by name, or else unless a GPU backend is:
        # Triton takes the one active driver.
        from triton.backends import backends

        if os.environ.get("TRITON_DEFAULT_BACKEND") == BACKEND_NAME:
            return True
        return not any(backend.driver.is_active() for name, backend in backends.items()
                       if name != BACKEND_NAME)

    def map_python_to_cpp_type(self, ty: str) -> str:
        if ty.startswith("*") or ty.startswith("tensordesc"):
            return "void*"
        return {"i1": "bool", "u1": "bool", "fp16": "double", "bf16": "double",
                "fp32": "double", "fp64": "double"}.get(ty, "int64_t")

    def get_current_target(self) -> GPUTarget:
        return self.target

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        return None

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_device_interface(self) -> type[SimulatedDevice]:
        return SimulatedDevice

    def get_benchmarker(self) -> Callable[..., Any]:
        return do_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        # Every launch starts with a cold SRAM cache: nothing to flush.
        import torch

        return torch.empty(0)

    def clear_cache(self, cache: Any) -> None:
        return None


__all__ = ["LaunchRecord", "MTIADriver", "do_bench", "last_launch", "launches"]
