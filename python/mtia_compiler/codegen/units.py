"""Which unit of the PE executes each operation and holds each tile.

The unit of an operation is the one its `UnitOpInterface` names
(dialects/Tile/TileInterfaces.td), read through the C API. The DMA engine of
the dialects is two units in
the simulator: `dma.in` issues loads and gathers, `dma.out` stores, scatters
and atomics; the side a circular buffer's `dma` endpoint stands for follows
from the transfers that use it. The control core (`core` in the dialects)
consumes the buffers whose tiles `tile.extract` reads into registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtia_compiler import _mtia, ir
from mtia_compiler.dialects import tile
from mtia_compiler.program import Unit

from .common import is_tile, located_error, op_name

INBOUND_DMA_OPS = ("dma.load", "dma.gather")
OUTBOUND_DMA_OPS = ("dma.store", "dma.scatter", "dma.atomic_rmw", "dma.atomic_cas")

_DIALECT_UNITS = {"dpe": Unit.DPE, "simd": Unit.SIMD, "reduce": Unit.RE, "mlu": Unit.MLU,
                  "core": Unit.CTL}


def segments(op: ir.Operation) -> list[list[ir.Value]]:
    """Splits the operands of an op with `operandSegmentSizes` into its groups."""
    sizes = ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])
    groups: list[list[ir.Value]] = []
    start = 0
    operands = list(op.operands)
    for size in sizes:
        groups.append(operands[start:start + size])
        start += size
    return groups


def dma_unit(op: ir.Operation) -> Unit:
    """The simulator unit that issues a DMA transfer."""
    return Unit.DMA_IN if op_name(op) in INBOUND_DMA_OPS else Unit.DMA_OUT


def walk(region_holder: ir.Operation) -> list[ir.Operation]:
    """The operations nested in `region_holder`, in pre-order."""
    ops: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    region_holder.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return ops[1:]


@dataclass
class BufferRoles:
    """The producer and consumer unit of every circular buffer (keyed by the
    `cb.alloc` result)."""

    producer: dict[ir.Value, Unit]
    consumer: dict[ir.Value, Unit]


def _dma_side_of_users(value: ir.Value) -> set[Unit]:
    """The DMA units that consume a tile read from a buffer page."""
    sides: set[Unit] = set()
    for use in value.uses:
        owner = use.owner.operation
        if op_name(owner).startswith("dma."):
            sides.add(dma_unit(owner))
    return sides


def resolve_buffer_roles(ops: list[ir.Operation]) -> BufferRoles:
    """Maps every `cb.alloc` of a kernel (`ops`, its operations in pre-order)
    to its simulator producer and
    consumer units, resolving `dma` endpoints by the transfers that fill
    (loads and gathers: dma.in; atomics returning old values: dma.out) or
    drain (stores, scatters and the tiles read by atomics: dma.out; masks
    and indices of loads and gathers: dma.in) the buffer."""
    roles = BufferRoles({}, {})
    allocs = [op for op in ops if op_name(op) == "cb.alloc"]
    writers: dict[ir.Value, set[Unit]] = {op.results[0]: set() for op in allocs}
    readers: dict[ir.Value, set[Unit]] = {op.results[0]: set() for op in allocs}
    for op in ops:
        name = op_name(op)
        if name in ("dma.load", "dma.gather", "dma.atomic_rmw", "dma.atomic_cas"):
            buffer = _filled_buffer(op)
            if buffer is not None and buffer in writers:
                writers[buffer].add(dma_unit(op))
        elif name in ("dma.store", "dma.scatter"):
            buffer = op.operands[0]
            if buffer in readers:
                readers[buffer].add(Unit.DMA_OUT)
        elif name == "cb.read_front" and op.operands[0] in readers:
            readers[op.operands[0]] |= _dma_side_of_users(op.results[0])
    for alloc in allocs:
        buffer = alloc.results[0]
        for key, table, sides in (("producer", roles.producer, writers[buffer]),
                                  ("consumer", roles.consumer, readers[buffer])):
            declared = str(tile.Unit(ir.IntegerAttr(alloc.attributes[key]).value))
            if declared == "core" and key == "producer":
                raise located_error(alloc, f"circular buffer {_name(alloc)} has the control "
                                    "core as its producer, but the control core never "
                                    "writes local memory")
            if declared != "dma":
                table[buffer] = _DIALECT_UNITS[declared]
                continue
            if len(sides) > 1:
                raise located_error(alloc, f"circular buffer {_name(alloc)} is used by both "
                                    "DMA queues (dma.in and dma.out) as its " + key)
            default = Unit.DMA_IN if key == "producer" else Unit.DMA_OUT
            table[buffer] = next(iter(sides)) if sides else default
    return roles


def _filled_buffer(op: ir.Operation) -> ir.Value | None:
    """The circular buffer a load, gather or atomic writes into, if any."""
    name = op_name(op)
    if name in ("dma.load", "dma.gather"):
        return segments(op)[-1][0]
    if name == "dma.atomic_rmw":
        groups = segments(op)
        return groups[-1][0] if groups[-1] else None
    operands = list(op.operands)
    return operands[4] if len(operands) > 4 else None


def _name(alloc: ir.Operation) -> str:
    return str(alloc.attributes["name"])


def _declared_unit(op: ir.Operation) -> str | None:
    """The name of the dialect's unit (`tile.Unit`) that executes `op`, or
    None if `op` has no unit."""
    unit = _mtia.tile_op_unit(op)
    return None if unit is None else str(tile.Unit(unit))


def tile_op_unit(op: ir.Operation) -> Unit | None:
    """The agent that executes a tile operation: a unit, or for tile.extract
    (which reads an element into a register) the control core; None for
    every other operation, DMA transfers included."""
    unit = _declared_unit(op)
    if unit is None or unit == "dma":
        return None
    return _DIALECT_UNITS[unit]


def op_unit(op: ir.Operation) -> Unit | None:
    """The unit that executes a tile or DMA operation, or None for others."""
    if _declared_unit(op) == "dma":
        return dma_unit(op)
    return tile_op_unit(op)


def tile_operands(op: ir.Operation) -> list[ir.Value]:
    return [value for value in op.operands if is_tile(value.type)]
