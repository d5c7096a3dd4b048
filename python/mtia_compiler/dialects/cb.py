"""Python bindings of the `cb` dialect: op builders and the circular-buffer type.

The producer and consumer of a buffer are `cb.Endpoint` values: a unit, the
control core, or a queue of the DMA engine (`Endpoint.DMAIn`, `Endpoint.DMAOut`).
"""

from mtia_compiler import ir
from mtia_compiler._mtia import CircularBufferType
from mtia_compiler.dialects._cb_enum_gen import *  # noqa: F403
from mtia_compiler.dialects._cb_enum_gen import Endpoint
from mtia_compiler.dialects._cb_ops_gen import *  # noqa: F403
from mtia_compiler.dialects._cb_ops_gen import AllocOp, ReadFrontOp

__all__ = ["AllocOp", "CircularBufferType", "Endpoint", "read_front"]


# This replaces the generated builder of the same name, which takes the
# result type first.
def read_front(  # type: ignore[no-redef]
        buffer: ir.Value, page: int, *, view: ir.Type | None = None,
        loc: ir.Location | None = None, ip: ir.InsertionPoint | None = None) -> ir.Value:
    """The tile in an available page: of the page type, or `view` for a tile
    of another type in the page's first bytes."""
    tile_type = view if view is not None else CircularBufferType(buffer.type).page_type
    return ReadFrontOp(tile_type, buffer, page, loc=loc, ip=ip).result
