"""MLIR's Python IR API, as seen from the mtia_compiler package.

The generated enum bindings of our dialects import `register_attribute_builder`
from `..ir`; this module makes that name (and the rest of `mlir.ir`) available
inside the package.
"""

from mlir.ir import *  # noqa: F403
from mlir.ir import register_attribute_builder  # noqa: F401
