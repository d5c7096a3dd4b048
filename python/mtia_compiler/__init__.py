"""mtia-compiler: compile Triton IR for a simulated MTIA-2i-class accelerator.

Importing the package registers its dialects with every `mlir.ir.Context`
created afterwards and its C++ passes with MLIR's pass registry.
"""

from mlir._mlir_libs import _mlir as _mlir_bindings
from mlir._mlir_libs import get_dialect_registry as _get_dialect_registry

from mtia_compiler import _mtia
from mtia_compiler.errors import CompilationError, LocalMemoryError, PlanLimitError
from mtia_compiler.sim import SimulationError

_mtia.register_dialects(_get_dialect_registry())
_mtia.register_passes()
# The op classes of our dialects live in mtia_compiler.dialects; without this
# prefix, the bindings would try (and fail) to import `mlir.dialects.<name>`
# each time they wrap one of our operations.
_mlir_bindings.globals.append_dialect_search_prefix("mtia_compiler.dialects")

from mtia_compiler.compiler import CompiledKernel, compile  # noqa: E402

__all__ = ["CompilationError", "CompiledKernel", "LocalMemoryError", "PlanLimitError",
           "SimulationError", "compile"]
