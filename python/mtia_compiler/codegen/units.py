"""Which unit of the PE executes each operation and holds each tile.

The unit of an operation is the one its `UnitOpInterface` names
(dialects/Tile/TileInterfaces.td), read through the C API. The DMA engine of
the dialects is two units in
the simulator: `dma.in` issues loads and gathers, `dma.out` stores, scatters
and atomics; a circular buffer's endpoint names the one it serves (`dma_in`,
`dma_out`). The control core (`core` in the dialects) consumes the buffers
whose tiles `tile.extract` reads into registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtia_compiler import _mtia, ir
from mtia_compiler.dialects import cb
from mtia_compiler.program import Unit

from .common import is_tile, located_error, view_as

_ENDPOINT_UNITS: dict[int, Unit] = {
    cb.Endpoint.DPE: Unit.DPE, cb.Endpoint.SIMD: Unit.SIMD, cb.Endpoint.Reduce: Unit.RE,
    cb.Endpoint.MLU: Unit.MLU, cb.Endpoint.DMAIn: Unit.DMA_IN, cb.Endpoint.DMAOut: Unit.DMA_OUT,
    cb.Endpoint.Core: Unit.CTL}
"""The simulator unit of every endpoint of a circular buffer: the dialects'
names of the units the program format names. The endpoints are an IntEnum,
so the C API's integers look them up as they are."""


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


def resolve_buffer_roles(ops: list[ir.Operation]) -> BufferRoles:
    """Maps every `cb.alloc` of a kernel (`ops`, its operations in pre-order)
    to its simulator producer and consumer units: its endpoints, which name
    the DMA queue (`dma_in`, `dma_out`) a buffer of the DMA engine serves."""
    roles = BufferRoles({}, {})
    for op in ops:
        if op.name != cb.AllocOp.OPERATION_NAME:
            continue
        alloc = view_as(op, cb.AllocOp)
        producer = cb.Endpoint(ir.IntegerAttr(alloc.producer).value)
        if producer == cb.Endpoint.Core:
            raise located_error(op, f"circular buffer {alloc.name} has the control "
                                "core as its producer, but the control core never "
                                "writes local memory")
        consumer = cb.Endpoint(ir.IntegerAttr(alloc.consumer).value)
        roles.producer[alloc.result] = _ENDPOINT_UNITS[producer]
        roles.consumer[alloc.result] = _ENDPOINT_UNITS[consumer]
    return roles


def op_unit(op: ir.Operation) -> Unit | None:
    """The unit that executes a tile or DMA operation (the dialect says which:
    its `UnitOpInterface`, and for a transfer the DMA queue it is issued on),
    or None for others. `tile.extract` runs on the control core."""
    endpoint = _mtia.op_endpoint(op)
    return None if endpoint is None else _ENDPOINT_UNITS[endpoint]


def tile_op_unit(op: ir.Operation) -> Unit | None:
    """The agent that executes a tile operation: a unit, or for tile.extract
    (which reads an element into a register) the control core; None for
    every other operation, DMA transfers included."""
    unit = op_unit(op)
    return None if unit in (Unit.DMA_IN, Unit.DMA_OUT) else unit


def tile_holder(value: ir.Value) -> Unit | None:
    """The unit that holds `value`, a tile, as the data-movement stage's
    `UnitAssignment` analysis decided it; None if it names none."""
    endpoint = _mtia.tile_value_holder(value)
    return None if endpoint < 0 else _ENDPOINT_UNITS[endpoint]


def tile_operands(op: ir.Operation) -> list[ir.Value]:
    return [value for value in op.operands if is_tile(value.type)]
