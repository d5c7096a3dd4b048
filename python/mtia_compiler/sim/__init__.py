"""The MTIA simulator: run program files on a simulated PE grid.

    from mtia_compiler.sim import run
    result = run(program_bytes, [x, y, out, n], grid=(64, 1, 1))
    result.cycles, result.units["dma.in"]["busy_cycles"], result.bytes

Host buffers (C-contiguous numpy arrays of any dtype, or bytearrays) are
bound to pointer parameters and written in place; a read-only array may be
bound to a buffer the kernel only reads (a write to it is a ``read_only``
error). Python ints and floats are bound to scalar parameters. Every failure
of a launch raises :class:`SimulationError`; a launch stops at its budget
(``max_steps``, ``max_cycles``, ``max_seconds``: a ``timeout`` at the
instruction a control core is at) and on Ctrl-C, whose KeyboardInterrupt
propagates.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import mtia_compiler
import mtia_compiler._sim as _sim
from mtia_compiler._sim import Target
from mtia_compiler.program import ProgramBuilder

__all__ = [
    "Pointer",
    "Result",
    "SimulationError",
    "Simulator",
    "Target",
    "load_target",
    "parse_program",
    "run",
]

DEFAULT_TARGET = "mtia-2i"


def _targets_dir() -> Path:
    """The directory of the target descriptions the package ships: the build
    installs it beside the native modules, which an editable install keeps
    apart from the sources (the package's path then has both)."""
    candidates = [Path(entry) / "targets" for entry in mtia_compiler.__path__]
    return next((path for path in candidates if path.is_dir()), candidates[0])


TARGETS_DIR = _targets_dir()



@dataclass(frozen=True)
class Pointer:
    """A pointer argument that points `offset` bytes into `buffer` (a
    C-contiguous array): the kernel may reach all of `buffer`, before the
    pointer too, as a pointer into the middle of an allocation does."""

    buffer: np.ndarray
    offset: int


HostArg = np.ndarray | Pointer | bytearray | memoryview | int | float

#: The default budget of control steps of a launch (summed over the PEs).
DEFAULT_MAX_STEPS = 1 << 34


class SimulationError(RuntimeError):
    """A launch was aborted: out-of-bounds access, misaligned DMA, CB misuse,
    deadlock, local-memory overflow, failed assert, invalid program, invalid
    launch, mismatched cross-PE reduction, write to a read-only buffer or
    timeout (``kind`` says which)."""

    def __init__(self, kind: str, message: str, pe: int = -1,
                 program_id: tuple[int, int, int] = (-1, -1, -1),
                 instruction: int = -1, location: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.pe = pe
        self.program_id = program_id
        self.instruction = instruction
        self.location = location


@dataclass(frozen=True)
class Result:
    """What one launch did."""

    cycles: int
    seconds: float
    units: dict[str, dict[str, int]]
    pe_busy_cycles: list[dict[str, int]]
    bytes: dict[str, int]
    cache: dict[str, int]
    output: str
    trace: str | None = field(default=None, repr=False)


def load_target(target: str | Path = DEFAULT_TARGET) -> Any:
    """A target description by name (``targets/<name>.json`` shipped with the
    package) or by path to a JSON file."""
    path = Path(target)
    if path.suffix != ".json":
        path = TARGETS_DIR / f"{target}.json"
    return _sim.Target.from_file(str(path))


def _host_arg(value: HostArg, name: str) -> Any:
    if isinstance(value, Pointer):
        if not 0 <= value.offset <= value.buffer.nbytes:
            raise SimulationError(
                "invalid_launch", f"the pointer of parameter '{name}' points {value.offset} "
                                  f"bytes into a buffer of {value.buffer.nbytes} bytes")
        return (_host_arg(value.buffer, name), value.offset)
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise SimulationError(
                "invalid_launch", f"buffer for parameter '{name}' must be a C-contiguous array")
        return value.reshape(-1).view(np.uint8)
    if isinstance(value, (bytearray, memoryview)):
        return np.frombuffer(value, dtype=np.uint8)
    if isinstance(value, (bool, int, np.integer)):
        # Registers hold 64 bits: unsigned values of 2**63 and more as their
        # two's-complement pattern.
        integer = int(value)
        if not -(1 << 63) <= integer < 1 << 64:
            raise SimulationError("invalid_launch",
                                  f"parameter '{name}': {integer} does not fit 64 bits")
        return integer - (1 << 64) if integer >= 1 << 63 else integer
    if isinstance(value, (float, np.floating)):
        return float(value)
    raise SimulationError("invalid_launch",
                          f"parameter '{name}' got an unsupported {type(value).__name__}")


def parse_program(program: bytes | ProgramBuilder | _sim.Program) -> _sim.Program:
    """Parses and validates program bytes (or a builder) into a native
    Program; returns a native Program as it is."""
    if isinstance(program, _sim.Program):
        return program
    data = program.build() if isinstance(program, ProgramBuilder) else bytes(program)
    try:
        return _sim.Program.parse(data)
    except ValueError as error:
        raise SimulationError("invalid_program", str(error)) from None


class Simulator:
    """A target plus the launch entry point."""

    def __init__(self, target: str | Path | Any = DEFAULT_TARGET) -> None:
        self.target = target if isinstance(target, _sim.Target) else load_target(target)

    def run(self, program: bytes | ProgramBuilder | _sim.Program,
            args: Sequence[HostArg] | Mapping[str, HostArg],
            grid: int | Sequence[int] = (1, 1, 1), *, trace: bool = False,
            echo: bool = False, max_steps: int = DEFAULT_MAX_STEPS,
            max_cycles: int = 0, max_seconds: float = 0.0,
            kernel_thread: bool = True) -> Result:
        """Simulates one launch of ``program`` over ``grid`` (1 to 3 dims).

        ``args`` binds the kernel parameters in order, or by name. With
        ``echo`` the text of print instructions goes to stdout as well as
        into ``Result.output``. The launch aborts with a ``timeout`` after
        ``max_steps`` control steps (summed over the PEs), ``max_cycles``
        simulated cycles or ``max_seconds`` of host time (0: no limit).
        With ``kernel_thread`` the numeric kernels of the DPE and of the
        SIMD engine's element-wise operations, the copies of contiguous DMA
        stores and the zeroing of local memory run on a second host thread
        when the host has more than one hardware thread; the results and
        their timing are the same either way."""
        parsed = parse_program(program)
        names: list[str] = parsed.param_names
        if isinstance(args, Mapping):
            missing = [n for n in names if n not in args]
            if missing:
                raise SimulationError("invalid_launch", f"missing arguments: {missing}")
            ordered = [args[n] for n in names]
        else:
            ordered = list(args)
        if len(ordered) != len(names):
            raise SimulationError(
                "invalid_launch",
                f"kernel '{parsed.kernel}' takes {len(names)} arguments, got {len(ordered)}")
        native = [_host_arg(value, name) for value, name in zip(ordered, names, strict=True)]
        dims = grid_dims(grid)
        budget = {"max_steps": max_steps, "max_cycles": max_cycles}
        for key, limit in budget.items():
            if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or \
                    not 0 <= limit < 1 << 64:
                raise ValueError(f"{key} must be an int in [0, 2**64), got {limit!r}")
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) or \
                not max_seconds >= 0:
            raise ValueError(f"max_seconds must be a number >= 0, got {max_seconds!r}")
        raw: dict[str, Any] = _sim.run(self.target, parsed, native, dims, trace,
                                       int(max_steps), int(max_cycles), float(max_seconds),
                                       bool(kernel_thread))
        if echo and raw["output"]:
            sys.stdout.write(raw["output"])
        if not raw["ok"]:
            error = raw["error"]
            raise SimulationError(error["kind"], error["message"], error["pe"],
                                  tuple(error["program_id"]), error["instruction"],
                                  error["location"])
        return Result(
            cycles=raw["cycles"],
            seconds=raw["cycles"] / (self.target.clock_ghz * 1e9),
            units=raw["units"],
            pe_busy_cycles=raw["pe_busy_cycles"],
            bytes=raw["bytes"],
            cache=raw["cache"],
            output=raw["output"],
            trace=raw["trace"],
        )


def grid_dims(grid: int | Sequence[int]) -> tuple[int, int, int]:
    """``grid`` (an int or a sequence of 1 to 3 ints) as three dimensions;
    raises TypeError or ValueError, naming the grid, for anything else (a
    string is not a sequence of ints here)."""
    def is_int(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))

    values: list[Any] = list(grid) if isinstance(grid, Iterable) else [grid]
    if isinstance(grid, (str, bytes)) or not all(is_int(value) for value in values):
        raise TypeError(f"grid must be an int or a tuple of 1 to 3 ints, "
                        f"got {type(grid).__name__} {grid!r}")
    if not 1 <= len(values) <= 3:
        raise ValueError(f"grid must have 1 to 3 dimensions, got {len(values)}")
    dims = [int(value) for value in values] + [1] * (3 - len(values))
    # The simulator takes int64 dimensions (and refuses those outside
    # [1, 2**31] itself, with an invalid_launch error).
    if not all(0 <= dim < 1 << 63 for dim in dims):
        raise ValueError(f"the dimensions of grid {grid!r} must be in [0, 2**63)")
    return dims[0], dims[1], dims[2]


def run(program: bytes | ProgramBuilder | _sim.Program,
        args: Sequence[HostArg] | Mapping[str, HostArg],
        grid: Sequence[int] = (1, 1, 1), *, target: str | Path | Any = DEFAULT_TARGET,
        trace: bool = False, echo: bool = False, max_steps: int = DEFAULT_MAX_STEPS,
        max_cycles: int = 0, max_seconds: float = 0.0, kernel_thread: bool = True) -> Result:
    """Simulates one launch on ``target`` (see :meth:`Simulator.run`)."""
    return Simulator(target).run(program, args, grid, trace=trace, echo=echo,
                                 max_steps=max_steps, max_cycles=max_cycles,
                                 max_seconds=max_seconds, kernel_thread=kernel_thread)
