"""Helpers the generated op bindings import relative to their own package."""

from mlir.dialects._ods_common import *  # noqa: F403
from mlir.dialects._ods_common import _cext  # noqa: F401
