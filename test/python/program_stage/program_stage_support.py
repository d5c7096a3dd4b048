"""Helpers of the program-stage tests: final-IR modules written as MLIR text
are parsed, emitted and run on the simulator."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtia_compiler.codegen import emit_program
from mtia_compiler.sim import HostArg, Result, Simulator, load_target
from mtia_compiler.source import new_context, parse_module

TARGET = load_target("mtia-2i")


def emit(text: str, name: str = "kernel.mlir") -> bytes:
    """The program of a final-IR module given as text."""
    context = new_context()
    module = parse_module(context, text.encode(), name)
    return emit_program(module, TARGET)


def run(text: str, args: Sequence[HostArg], grid: Sequence[int] = (1,)) -> Result:
    """Emits the module and simulates one launch."""
    return Simulator(TARGET).run(emit(text), args, grid)


def rng() -> np.random.Generator:
    """A generator with a fixed seed, so that failures reproduce."""
    return np.random.default_rng(1234)
