"""The MTIA simulator: run program files on a simulated PE grid.

    from mtia_compiler.sim import run
    result = run(program_bytes, [x, y, out, n], grid=(64, 1, 1))
    result.cycles, result.units["dma.in"]["busy_cycles"], result.bytes

Host buffers (numpy arrays of any dtype, C-contiguous and writeable, or
bytearrays) are bound to pointer parameters and written in place; Python ints
and floats are bound to scalar parameters. Every failure of a launch raises
:class:`SimulationError`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import mtia_compiler._sim as _sim
from mtia_compiler._sim import Target
from mtia_compiler.program import ProgramBuilder

__all__ = [
    "Result",
    "SimulationError",
    "Simulator",
    "Target",
    "load_target",
    "parse_program",
    "run",
]

DEFAULT_TARGET = "mtia-2i"
TARGETS_DIR = Path(__file__).parent.parent / "targets"

HostArg = np.ndarray | bytearray | memoryview | int | float


class SimulationError(RuntimeError):
    """A launch was aborted: out-of-bounds access, misaligned DMA, CB misuse,
    deadlock, local-memory overflow, failed assert, invalid program, invalid
    launch, mismatched cross-PE reduction or timeout (``kind`` says which)."""

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
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous or not value.flags.writeable:
            raise SimulationError(
                "invalid_launch",
                f"buffer for parameter '{name}' must be a C-contiguous, writeable array")
        return value.reshape(-1).view(np.uint8)
    if isinstance(value, (bytearray, memoryview)):
        return np.frombuffer(value, dtype=np.uint8)
    if isinstance(value, (bool, int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    raise SimulationError("invalid_launch",
                          f"parameter '{name}' got an unsupported {type(value).__name__}")


def parse_program(program: bytes | ProgramBuilder) -> Any:
    """Parses and validates program bytes (or a builder) into a native Program."""
    data = program.build() if isinstance(program, ProgramBuilder) else bytes(program)
    try:
        return _sim.Program.parse(data)
    except ValueError as error:
        raise SimulationError("invalid_program", str(error)) from None


class Simulator:
    """A target plus the launch entry point."""

    def __init__(self, target: str | Path | Any = DEFAULT_TARGET) -> None:
        self.target = target if isinstance(target, _sim.Target) else load_target(target)

    def run(self, program: bytes | ProgramBuilder,
            args: Sequence[HostArg] | Mapping[str, HostArg],
            grid: Sequence[int] = (1, 1, 1), *, trace: bool = False,
            echo: bool = False) -> Result:
        """Simulates one launch of ``program`` over ``grid`` (1 to 3 dims).

        ``args`` binds the kernel parameters in order, or by name. With
        ``echo`` the text of print instructions goes to stdout as well as
        into ``Result.output``."""
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
        dims = [int(g) for g in grid] + [1] * (3 - len(grid))
        if len(dims) != 3:
            raise SimulationError("invalid_launch", "grid has at most 3 dimensions")
        raw: dict[str, Any] = _sim.run(self.target, parsed, native,
                                       (dims[0], dims[1], dims[2]), trace)
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


def run(program: bytes | ProgramBuilder, args: Sequence[HostArg] | Mapping[str, HostArg],
        grid: Sequence[int] = (1, 1, 1), *, target: str | Path | Any = DEFAULT_TARGET,
        trace: bool = False, echo: bool = False) -> Result:
    """Simulates one launch on ``target`` (see :meth:`Simulator.run`)."""
    return Simulator(target).run(program, args, grid, trace=trace, echo=echo)
