"""MLIR's Python IR API, as seen from the mtia_compiler package.

The generated enum bindings of our dialects import `register_attribute_builder`
from `..ir`; this module makes that name (and the rest of `mlir.ir`) available
inside the package. `MLIRError`, the error the bindings raise for the
diagnostics they capture, is named explicitly because MLIR's stubs of
`mlir.ir` leave it out.
"""

import mlir.ir
from mlir.ir import *  # noqa: F403
from mlir.ir import register_attribute_builder  # noqa: F401

MLIRError: type[Exception] = mlir.ir.MLIRError  # type: ignore[attr-defined]
