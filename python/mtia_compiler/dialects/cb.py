"""Python bindings of the `cb` dialect: op builders and the circular-buffer type.

The producer and consumer of a buffer are `tile.Unit` values; importing this
module also imports the tile bindings that register their attribute builder.
"""

from mtia_compiler._mtia import CircularBufferType
from mtia_compiler.dialects import tile  # noqa: F401 (registers the Unit enum)
from mtia_compiler.dialects._cb_ops_gen import *  # noqa: F403
from mtia_compiler.dialects.tile import Unit

__all__ = ["CircularBufferType", "Unit"]
