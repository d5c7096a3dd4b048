"""The program stage: the final IR of a kernel as a simulator program.

The final IR is what the data-movement stage produces: one public `tt.func`
whose scalar code (`arith`, `math`, `scf`, `cf`, scalar `tt` ops) runs on
the control core and whose tile code (`tile`, `cb`, `dma`) is issued to the
PE's units. `emit_program` writes it with the program builder the simulator
tests use (`mtia_compiler.program`); the modules of this package are its
parts (docs/program-stage.md describes the translation).
"""

from __future__ import annotations

from typing import Any

from mtia_compiler import ir
from mtia_compiler.codegen.emitter import KernelEmitter, kernel_function
from mtia_compiler.sim import load_target

__all__ = ["emit_program"]


def emit_program(module: ir.Module, target: Any | None = None) -> bytes:
    """Translates the final IR in `module` into program bytes for `target`
    (an `mtia_compiler.sim.Target`; mtia-2i by default), whose local memory
    and circular-buffer count the plan must fit.

    Raises `mtia_compiler.CompilationError`, located at the op's source, for
    anything the program format cannot express."""
    description = target if target is not None else load_target()
    with module.context:
        return KernelEmitter(kernel_function(module), description).emit()
