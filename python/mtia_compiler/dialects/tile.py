"""Python bindings of the `tile` dialect: op builders, the tile type and enums."""

from mtia_compiler._mtia import TileType
from mtia_compiler.dialects._tile_enum_gen import *  # noqa: F403
from mtia_compiler.dialects._tile_ops_gen import *  # noqa: F403

__all__ = ["TileType"]
