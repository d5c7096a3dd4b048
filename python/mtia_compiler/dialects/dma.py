"""Python bindings of the `dma` dialect: op builders, the token type and enums."""

from mtia_compiler._mtia import TokenType
from mtia_compiler.dialects import cb, tile  # noqa: F401 (operand types and enums)
from mtia_compiler.dialects._dma_enum_gen import *  # noqa: F403
from mtia_compiler.dialects._dma_ops_gen import *  # noqa: F403

__all__ = ["TokenType"]
