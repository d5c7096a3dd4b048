"""The driver half of the Triton backend: launching compiled kernels on the simulator.

Triton uses this module's one `DriverBase` subclass when no GPU backend is
active (or when `triton.runtime.driver.set_active(MTIADriver())` selects it).
Kernels take torch CPU tensors: each pointer argument is bound zero-copy, as
a pointer into the tensor's whole storage, so strided and offset views, and
several arguments viewing one storage, behave as on a GPU. Every launch is
simulated to the end before `kernel[grid](...)` returns; its simulated time
and unit statistics are recorded (`mtia_compiler.backend.launches`).

The launcher binds arguments as Triton's own launchers do: in signature
order, with or without the constexpr arguments (a `CompiledKernel` may be
relaunched with its runtime arguments only), tuples flattened, host tensor
descriptors expanded, and any object with `data_ptr()` that holds the tensor
it points into (Triton's `TensorWrapper`, a library's strided buffer) taken
as a pointer. A simulation is deterministic: a launch of the same program on
the same grid, arguments and memory contents as one made before is replayed
(its writes and its record) instead of simulated again. While an MTIA
driver is active, `triton.testing.do_bench` measures one call, whatever its
`warmup` and `rep`.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase

from mtia_compiler.backend.compiler import BACKEND_NAME, WARP_SIZE, target_description
from mtia_compiler.sim import Pointer

#: What `load_binary` reports as the threads a program may use: a program runs
#: on one PE whatever its `num_warps`.
MAX_THREADS = 1 << 20

#: The environment variables that set the budget of every launch whose
#: kernel was compiled without a budget of its own (the options `max_cycles`
#: and `max_seconds`): simulated cycles and host seconds, 0 for no limit.
MAX_CYCLES_VARIABLE = "MTIA_MAX_CYCLES"
MAX_SECONDS_VARIABLE = "MTIA_MAX_SECONDS"

#: A launch whose buffers hold more bytes than this is always simulated:
#: comparing its memory with an earlier launch's would cost more than it saves.
REPLAY_MAX_BUFFER_BYTES = 16 << 20
#: The most bytes of launches' writes kept for replays, over all kernels.
REPLAY_MAX_KEPT_BYTES = 256 << 20


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


class _ThreadLaunches(threading.local):
    """The launches of the calling thread: the recorders open in it, innermost
    last, its last launch and the simulated clock its benchmark events read.
    Each thread has its own, so that threads launching at once neither see
    nor disturb each other's records."""

    def __init__(self) -> None:
        self.recorders: list[list[LaunchRecord]] = []
        #: For each open exclusive `kernel_launches()` block (a benchmark),
        #: how many recorders were open before it: those do not see its
        #: launches.
        self.exclusive_from: list[int] = []
        self.last: LaunchRecord | None = None
        self.simulated_seconds = 0.0

    def add(self, record: LaunchRecord) -> None:
        self.last = record
        self.simulated_seconds += record.seconds
        first = self.exclusive_from[-1] if self.exclusive_from else 0
        for recorder in self.recorders[first:]:
            recorder.append(record)


_log = _ThreadLaunches()


@contextmanager
def launches() -> Iterator[list[LaunchRecord]]:
    """Collects the launches the calling thread makes inside the `with`
    block, in order (blocks may nest: each collects every launch made while
    it is open)::

        with mtia_compiler.backend.launches() as records:
            add_kernel[grid](x, y, out, n, BLOCK=1024)
        records[0].cycles, records[0].result.units["dpe"]["busy_cycles"]
    """
    records: list[LaunchRecord] = []
    recorders = _log.recorders
    recorders.append(records)
    try:
        yield records
    finally:
        # By identity: an outer recorder may hold equal records (or none).
        del recorders[max(i for i, open_one in enumerate(recorders) if open_one is records)]


def last_launch() -> LaunchRecord | None:
    """The most recent launch of the calling thread, if any."""
    return _log.last


@dataclass(frozen=True)
class TensorArgument:
    """A tensor a launch was passed: its parameter name, shape, element type
    and size in bytes."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    nbytes: int


@dataclass(frozen=True)
class KernelLaunch:
    """One launch of a kernel as a report describes it: simulated on MTIA
    (`record` holds the simulator's result) or run on the host (`fallback`
    holds the located reason it does not compile for MTIA; see
    `mtia_compiler.torch.host_target`)."""

    name: str
    #: The file of the kernel's Python source (Inductor's kernel module).
    path: str
    grid: tuple[int, int, int]
    tensors: tuple[TensorArgument, ...]
    record: LaunchRecord | None
    fallback: str | None


class _KernelRecorders(threading.local):
    """The `kernel_launches()` blocks open in the calling thread, innermost
    last, each with whether it is exclusive. Each thread has its own: a
    model called from several threads at once records each call's launches
    in that call's blocks."""

    def __init__(self) -> None:
        self.open: list[tuple[list[KernelLaunch], bool]] = []

    def add(self, launch: KernelLaunch) -> bool:
        """Adds `launch` to the blocks; whether an exclusive one took it."""
        for records, exclusive in reversed(self.open):
            records.append(launch)
            if exclusive:
                return True
        return False


_kernel_recorders = _KernelRecorders()
#: The `kernel_launches(every_thread=True)` blocks open in the process.
_process_recorders: list[list[KernelLaunch]] = []
_process_recorders_lock = threading.Lock()


def recording_kernel_launches() -> bool:
    """Whether a `kernel_launches()` block would record a launch of the
    calling thread."""
    return bool(_kernel_recorders.open or _process_recorders)


def record_kernel_launch(launch: KernelLaunch) -> None:
    """Adds `launch` to the `kernel_launches()` blocks open in the thread,
    and, unless an exclusive one took it, to those open for every thread."""
    if _kernel_recorders.add(launch):
        return
    with _process_recorders_lock:
        for records in _process_recorders:
            records.append(launch)


@contextmanager
def kernel_launches(exclusive: bool = False,
                    every_thread: bool = False) -> Iterator[list[KernelLaunch]]:
    """Collects the launches the calling thread makes inside the `with`
    block, in order, with what a report needs beyond the simulator's
    statistics (the kernel's source file, the tensors it was passed). The
    launches of an `exclusive` block (a benchmark) are hidden from the
    blocks it is nested in, and from the `launches()` blocks opened before
    it. A block for `every_thread` collects the
    launches of all threads while it is open (PyTorch runs the backward of
    device tensors on a thread of its own)."""
    records: list[KernelLaunch] = []
    if every_thread:
        with _process_recorders_lock:
            _process_recorders.append(records)
        try:
            yield records
        finally:
            with _process_recorders_lock:
                del _process_recorders[max(i for i, open_records in
                                           enumerate(_process_recorders)
                                           if open_records is records)]
        return
    opened = _kernel_recorders.open
    opened.append((records, exclusive))
    if exclusive:
        _log.exclusive_from.append(len(_log.recorders))
    try:
        yield records
    finally:
        if exclusive:
            _log.exclusive_from.pop()
        # By identity: an outer block may hold equal records (or none).
        del opened[max(i for i, (open_records, _) in enumerate(opened)
                       if open_records is records)]


def tensor_arguments(names: list[str], args: tuple[Any, ...]) -> tuple[TensorArgument, ...]:
    """The tensors among a launch's arguments `args` (of parameters `names`)."""
    import torch

    return tuple(TensorArgument(name, tuple(value.shape), str(value.dtype).removeprefix("torch."),
                                value.numel() * value.element_size())
                 for name, value in zip(names, args, strict=True)
                 if isinstance(value, torch.Tensor))


# -- binding arguments -------------------------------------------------------


def _storage_pointer(tensor: Any, name: str, address: int) -> Pointer:
    """A pointer to `address` in the storage of a torch tensor on the host or
    on `mtia` (whose memory is host memory the simulator reads in place),
    which is bound whole, zero-copy."""
    import torch

    storage = tensor.untyped_storage()
    if tensor.device.type == "cpu":
        memory = torch.empty(0, dtype=torch.uint8).set_(storage).numpy()
    elif tensor.device.type == "mtia":
        memory = np.ctypeslib.as_array(
            (ctypes.c_uint8 * storage.nbytes()).from_address(storage.data_ptr())) \
            if storage.nbytes() else np.empty(0, dtype=np.uint8)
    else:
        raise TypeError(f"argument '{name}' is on {tensor.device}: the simulated MTIA "
                        f"reads torch tensors on mtia or the CPU")
    return Pointer(memory, address - storage.data_ptr())


def _pointer(value: Any, name: str) -> Pointer:
    """The memory a pointer argument addresses, zero-copy, as a pointer into
    the whole storage of a torch tensor, so that a kernel reaches what it
    would on a GPU, before a view's first element too: the tensor's own, or,
    for any other object with `data_ptr()` (Triton's `TensorWrapper`, a
    library's strided buffer, whose strides may be negative), one that the
    object holds."""
    import torch

    if isinstance(value, torch.Tensor):
        return _storage_pointer(value, name, value.data_ptr())
    data_ptr = getattr(value, "data_ptr", None)
    if not callable(data_ptr):
        raise TypeError(f"argument '{name}' is a pointer: it takes a torch tensor or an "
                        f"object with data_ptr(), got {type(value).__name__}")
    address = int(data_ptr())
    held = [item for item in vars(value).values() if isinstance(item, torch.Tensor)] \
        if hasattr(value, "__dict__") else []
    for tensor in held:
        start = tensor.untyped_storage().data_ptr()
        if start <= address <= start + tensor.untyped_storage().nbytes():
            return _storage_pointer(tensor, name, address)
    raise TypeError(f"argument '{name}' ({type(value).__name__}) points to {address:#x}, "
                    f"which lies in no torch tensor it holds: the simulated MTIA binds a "
                    f"pointer to the tensor whose memory it addresses")


def _chip_of(kernel: str, args: tuple[Any, ...]) -> int | None:
    """The `mtia` device whose tensors a launch reads and writes (whose
    simulated clock its time advances), if any: one program runs on one chip,
    so tensors on two are an error."""
    import torch

    chips = {value.device.index for value in args
             if isinstance(value, torch.Tensor) and value.device.type == "mtia"}
    if len(chips) > 1:
        raise ValueError(f"kernel '{kernel}' has tensors on "
                         f"{', '.join(f'mtia:{chip}' for chip in sorted(chips))}: a launch "
                         f"runs on one chip (move them to one device)")
    return chips.pop() if chips else None


def _flatten(signature: Any, value: Any, name: str, out: list[tuple[str, Any]]) -> None:
    """Appends the kernel parameters `value` of Triton type `signature`
    stands for: nothing for a constexpr, the leaves of a tuple, the base
    tensor, shape and strides of a host tensor descriptor."""
    if signature == "constexpr":
        return
    if isinstance(signature, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(signature):
            raise TypeError(f"argument '{name}' is a tuple of {len(signature)} elements, "
                            f"got {value!r}")
        for index, (inner, item) in enumerate(zip(signature, value, strict=True)):
            _flatten(inner, item, f"{name}[{index}]", out)
        return
    if isinstance(signature, str) and signature.startswith("tensordesc"):
        out.append((name, _pointer(value.base, name)))
        out.extend((f"{name}.shape[{i}]", int(d)) for i, d in enumerate(value.shape))
        out.extend((f"{name}.strides[{i}]", int(s)) for i, s in enumerate(value.strides))
        return
    if isinstance(signature, str) and signature.startswith("*"):
        out.append((name, _pointer(value, name)))
        return
    out.append((name, value))


def _same_constant(value: Any, constant: Any) -> bool:
    """Whether an argument is the constant Triton specialised its parameter
    into (an int equal to 1, or None)."""
    if constant is None or isinstance(value, (bool, np.bool_)):
        return value is constant
    return isinstance(value, (int, np.integer)) and int(value) == constant


def _budget(metadata: Any, option: str, variable: str, kind: type) -> Any:
    """A launch's budget of `kind` (int cycles, float seconds): the kernel's
    compile option when set, else the environment variable, else 0 (none)."""
    value = getattr(metadata, option, 0)
    if value:
        return kind(value)
    text = os.environ.get(variable, "").strip()
    if not text:
        return kind(0)
    try:
        parsed = kind(text)
    except ValueError:
        parsed = -1
    if not parsed >= 0:
        raise ValueError(f"{variable}={text!r}: the budget of a launch must be a number >= 0 "
                         f"({'simulated cycles' if kind is int else 'host seconds'})")
    return parsed


# -- replaying launches ------------------------------------------------------


@dataclass(frozen=True)
class _Replay:
    """A launch kept to be replayed: the bytes of every buffer before it,
    the bytes of each buffer it changed after it, and its result."""

    before: tuple[bytes, ...]
    written: tuple[tuple[int, bytes], ...]
    result: Any

    @property
    def kept_bytes(self) -> int:
        return sum(map(len, self.before)) + sum(len(data) for _, data in self.written)

    def matches(self, buffers: list[np.ndarray]) -> bool:
        """Whether `buffers` hold what this launch's buffers held before it."""
        return all(buffer.tobytes() == data
                   for buffer, data in zip(buffers, self.before, strict=True))


class _Replays:
    """The last launch of each program on each grid, scalar arguments,
    budget and buffers, least recently used first, within
    REPLAY_MAX_KEPT_BYTES."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: OrderedDict[tuple[Any, ...], _Replay] = OrderedDict()
        self.kept_bytes = 0

    def find(self, key: tuple[Any, ...]) -> _Replay | None:
        with self.lock:
            replay = self.entries.get(key)
            if replay is not None:
                self.entries.move_to_end(key)
            return replay

    def keep(self, key: tuple[Any, ...], replay: _Replay) -> None:
        with self.lock:
            previous = self.entries.pop(key, None)
            if previous is not None:
                self.kept_bytes -= previous.kept_bytes
            if replay.kept_bytes > REPLAY_MAX_KEPT_BYTES:
                return
            self.entries[key] = replay
            self.kept_bytes += replay.kept_bytes
            while self.kept_bytes > REPLAY_MAX_KEPT_BYTES:
                _, evicted = self.entries.popitem(last=False)
                self.kept_bytes -= evicted.kept_bytes


_replays = _Replays()


class MTIALauncher:
    """Launches one compiled kernel: binds Triton's arguments (in signature
    order, with or without the constexprs) to the program's parameters and
    simulates, or replays an identical launch."""

    def __init__(self, src: Any, metadata: Any) -> None:
        names = list(src.fn.arg_names) if hasattr(src, "fn") else list(src.signature)
        signature = dict(src.signature)
        self.signature = [signature.get(name, "constexpr") for name in names]
        self.names = names
        # The parameters the kernel does not declare `tl.constexpr`: a
        # relaunch with its runtime arguments only passes these, ints that
        # Triton specialised into constants (equal to 1) included.
        declared = [p.is_constexpr for p in src.fn.params] if hasattr(src, "fn") else \
            [kind == "constexpr" for kind in self.signature]
        self.runtime_positions = [i for i, constexpr in enumerate(declared) if not constexpr]
        #: The values of the arguments Triton specialised into constants,
        #: by position: a relaunch must pass the same.
        self.specialised = {key[0]: value for key, value in getattr(src, "constants", {}).items()
                            if len(key) == 1 and not declared[key[0]]}
        self.kernel_name: str = metadata.name
        self.target = target_description(metadata.target)
        self.parameters = metadata.mtia_parameters
        self.metadata = metadata
        self.kernel: Any = None
        #: The file of the kernel's Python source, if it has one (a kernel
        #: Inductor loaded from its cache holds no function).
        code = getattr(getattr(getattr(src, "fn", None), "fn", None), "__code__", None)
        self.path = str(code.co_filename) if code is not None else ""

    def _bind(self, args: tuple[Any, ...]) -> list[tuple[str, Any]]:
        """The program's arguments: Triton's, given for every parameter or
        for the parameters not declared `tl.constexpr`, flattened."""
        if len(args) == len(self.signature):
            positions = list(range(len(args)))
        elif len(args) == len(self.runtime_positions):
            positions = self.runtime_positions
        else:
            raise TypeError(
                f"kernel '{self.kernel_name}' takes {len(self.signature)} arguments "
                f"({', '.join(self.names)}) or the {len(self.runtime_positions)} that are not "
                f"constexprs, got {len(args)}")
        flat: list[tuple[str, Any]] = []
        for position, value in zip(positions, args, strict=True):
            if position in self.specialised and \
                    not _same_constant(value, self.specialised[position]):
                raise ValueError(
                    f"kernel '{self.kernel_name}': argument '{self.names[position]}' was "
                    f"{self.specialised[position]!r} when the kernel compiled, which Triton "
                    f"made a constant of it; got {value!r} (launch the JIT function instead "
                    f"of the compiled kernel to compile it for this value)")
            _flatten(self.signature[position], value, self.names[position], flat)
        return flat

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any,
                 packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any,
                 *args: Any) -> None:
        from mtia_compiler.sim import grid_dims

        try:
            grid = grid_dims((grid_x, grid_y, grid_z))
        except (TypeError, ValueError) as error:
            raise type(error)(f"kernel '{self.kernel_name}': {error}") from None
        flat = self._bind(args)
        chip = _chip_of(self.kernel_name, args)
        max_cycles = _budget(self.metadata, "max_cycles", MAX_CYCLES_VARIABLE, int)
        max_seconds = _budget(self.metadata, "max_seconds", MAX_SECONDS_VARIABLE, float)
        if enter_hook is not None:
            enter_hook(launch_metadata)
        if math.prod(grid) > 0:
            started = _log.simulated_seconds
            self._launch(function, grid, [value for _, value in flat], max_cycles, max_seconds)
            if chip is not None:
                from mtia.host_runtime.torch_mtia import _runtime

                _runtime.advance_clock(chip, _log.simulated_seconds - started)
            if recording_kernel_launches():
                record_kernel_launch(KernelLaunch(
                    self.kernel_name, self.path, grid, tensor_arguments(self.names, args),
                    _log.last, None))
        if exit_hook is not None:
            exit_hook(launch_metadata)

    def _launch(self, program: bytes, grid: tuple[int, int, int], values: list[Any],
                max_cycles: int, max_seconds: float) -> None:
        """Simulates the launch, or replays an identical one made before."""
        if self.kernel is None:
            from mtia_compiler.compiler import CompiledKernel, Parameter

            parameters = [Parameter.from_json(p) for p in self.parameters]
            self.kernel = CompiledKernel(self.kernel_name, self.target, {"bin": program},
                                         parameters)
        buffers = [value.buffer if isinstance(value, Pointer) else value for value in values
                   if isinstance(value, (np.ndarray, Pointer))]
        if sum(buffer.nbytes for buffer in buffers) > REPLAY_MAX_BUFFER_BYTES:
            self._simulate(grid, values, max_cycles, max_seconds)
            return
        # Everything but the buffers' contents, which the replay compares.
        # The buffers' addresses are part of it: a replay writes where the
        # simulated launch wrote, into memory the launch found writable. So is
        # the target: one program may run on several, in different cycles.
        key = (self.target, program, grid, max_cycles, max_seconds,
               repr([value.offset if isinstance(value, Pointer) else value for value in values
                     if not isinstance(value, np.ndarray)]),
               tuple((buffer.ctypes.data, buffer.nbytes) for buffer in buffers))
        replay = _replays.find(key)
        if replay is not None and replay.matches(buffers):
            for index, data in replay.written:
                buffers[index][:] = np.frombuffer(data, dtype=np.uint8)
            if replay.result.output:
                sys.stdout.write(replay.result.output)
            _log.add(LaunchRecord(self.kernel_name, grid, replay.result))
            return
        before = tuple(buffer.tobytes() for buffer in buffers)
        result = self._simulate(grid, values, max_cycles, max_seconds)
        after = [buffer.tobytes() for buffer in buffers]
        written = tuple((index, data) for index, data in enumerate(after)
                        if data != before[index])
        _replays.keep(key, _Replay(before, written, result))

    def _simulate(self, grid: tuple[int, int, int], values: list[Any], max_cycles: int,
                  max_seconds: float) -> Any:
        result = self.kernel.run(*values, grid=grid, echo=True, max_cycles=max_cycles,
                                 max_seconds=max_seconds)
        _log.add(LaunchRecord(self.kernel_name, grid, result))
        return result


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
        while its module is None.) A program that is damaged (its digest
        does not match, it is truncated) is refused, naming the file of
        Triton's cache that holds it."""
        from mtia_compiler.program import decode
        from mtia_compiler.sim import SimulationError

        try:
            body = decode(kernel)
        except ValueError as error:
            raise SimulationError(
                "invalid_program",
                f"the program of kernel '{name}' cannot be loaded: {error}"
                f"{_cached_file_note(name, kernel)}") from None
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


def _cached_file_note(name: str, program: bytes) -> str:
    """Where Triton's cache holds `program`, the program of kernel `name`,
    as a sentence to append to an error ("" when no file of the cache holds
    it: it came from elsewhere)."""
    from triton import knobs

    cache = Path(knobs.cache.dir)
    for path in sorted(cache.glob(f"*/{name}.bin")):
        try:
            if path.read_bytes() == program:
                return (f"; it was read from Triton's cache, {path}: delete that file's "
                        f"directory to compile the kernel again")
        except OSError:
            continue
    return ""


class SimulatedEvent:
    """A timing event on the simulated clock: the simulated time of every
    launch the recording thread made before `record()`, so that a benchmark
    loop timed with events measures simulated time (its repeated launches of
    one configuration are replayed, not simulated again)."""

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
    milliseconds = _simulated_milliseconds(kernel_call)
    if quantiles is None:
        return milliseconds
    return [milliseconds] * len(quantiles)


def _simulated_milliseconds(kernel_call: Callable[[], Any]) -> float:
    from mtia_compiler.errors import CompilationError

    with launches() as records:
        try:
            kernel_call()
        except CompilationError as error:
            warnings.warn(f"MTIA: a config was pruned because it does not compile: {error}",
                          stacklevel=3)
            return math.inf
    return sum(record.seconds for record in records) * 1e3


def _benchmark_on_the_active_driver(triton_do_bench: Callable[..., Any]) -> Callable[..., Any]:
    """`triton.testing.do_bench` as it measures while a driver of this
    backend is the active one: `do_bench` above, the simulated time of one
    call, whatever `warmup` and `rep` say (a deterministic simulation
    measures the same time at every repetition; Triton would repeat a call
    for `rep` milliseconds of simulated time, hundreds of thousands of calls
    of a small kernel), in the form its `quantiles` and `return_mode` ask
    for. With any other active driver it is Triton's own."""

    def benchmark(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
                  grad_to_none: Sequence[Any] | None = None,
                  quantiles: Sequence[float] | None = None, return_mode: str = "mean") -> Any:
        from triton.runtime import driver

        if not isinstance(driver.active, MTIADriver):
            return triton_do_bench(fn, warmup, rep, grad_to_none, quantiles, return_mode)
        for tensor in grad_to_none or ():
            tensor.grad = None
        milliseconds = _simulated_milliseconds(fn)
        if quantiles is not None:
            return [milliseconds] * len(quantiles)
        return [milliseconds] if return_mode == "all" else milliseconds

    benchmark.__doc__ = triton_do_bench.__doc__
    benchmark.triton_do_bench = triton_do_bench  # type: ignore[attr-defined]
    return benchmark


class MTIADriver(DriverBase):
    """Runs kernels on the simulated MTIA chip `mtia-<arch>` (default 2i).
    While it is the active driver, `triton.testing.do_bench` measures the
    simulated time of one call (`_benchmark_on_the_active_driver`)."""

    def __init__(self, arch: str = "2i") -> None:
        import triton.testing

        super().__init__()
        self.target = GPUTarget(BACKEND_NAME, arch, WARP_SIZE)
        self.utils = MTIAUtils(target_description(self.target))
        self.launcher_cls = MTIALauncher
        if not hasattr(triton.testing.do_bench, "triton_do_bench"):
            triton.testing.do_bench = _benchmark_on_the_active_driver(triton.testing.do_bench)

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


__all__ = ["KernelLaunch", "LaunchRecord", "MTIADriver", "TensorArgument", "do_bench",
           "kernel_launches", "last_launch", "launches"]
