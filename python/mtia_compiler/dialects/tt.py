"""Python bindings of Triton's `tt` dialect: op builders, types and enums."""

from mtia_compiler._mtia import PointerType, TensorDescType
from mtia_compiler.dialects._tt_enum_gen import *  # noqa: F403
from mtia_compiler.dialects._tt_ops_gen import *  # noqa: F403

__all__ = ["PointerType", "TensorDescType"]
