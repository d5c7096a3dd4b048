"""Helpers the program stage shares: source locations, errors and the
translation of MLIR element types to the program format's dtypes."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Protocol, TypeVar

from mtia_compiler import ir
from mtia_compiler.dialects.tile import TileType
from mtia_compiler.errors import CompilationError
from mtia_compiler.program import DTYPE_BYTES, merge_copy_dims

FLOAT_DTYPES = {"F16Type": "f16", "BF16Type": "bf16", "F32Type": "f32", "F64Type": "f64",
                "Float8E4M3FNType": "f8e4m3", "Float8E5M2Type": "f8e5m2",
                "Float8E4M3FNUZType": "f8e4m3fnuz", "Float8E5M2FNUZType": "f8e5m2fnuz"}


def file_location(location: ir.Location) -> str | None:
    """Returns `file:line:col` of the first file location inside `location`
    (looking through names, call sites and fusions), or None."""
    if location.is_a_file():
        return f"{location.filename}:{location.start_line}:{location.start_col}"
    if location.is_a_name():
        return file_location(location.child_loc)
    if location.is_a_callsite():
        return file_location(location.callee) or file_location(location.caller)
    if location.is_a_fused():
        for part in location.locations:
            found = file_location(part)
            if found is not None:
                return found
    return None


def located_error(where: ir.Operation | ir.OpView | ir.Location, message: str,
                  error: type[CompilationError] = CompilationError) -> CompilationError:
    """Returns a CompilationError (or the subclass `error`) whose message
    starts with the source location of `where` (an operation or a location)
    in the `file:line:col: error:` form. An operation that a pass made
    without a location of the source is located at the first of its users
    that has one, else at the nearest enclosing operation that has one."""
    if isinstance(where, ir.Location):
        prefix = file_location(where)
    else:
        prefix = _nearest_file_location(where.operation)
    return error(f"{prefix or '<unknown>'}: error: {message}")


def _nearest_file_location(op: ir.Operation) -> str | None:
    found = file_location(op.location)
    if found is not None:
        return found
    for result in op.results:
        for use in result.uses:
            found = file_location(use.owner.location)
            if found is not None:
                return found
    parent = op.parent
    while parent is not None:
        found = file_location(parent.location)
        if found is not None:
            return found
        parent = parent.parent
    return None


def op_name(op: ir.Operation | ir.OpView) -> str:
    """Returns the registered name of an operation, such as `arith.addi`."""
    return op.operation.name


View = TypeVar("View", bound=ir.OpView)


class OpClass(Protocol):
    """A generated op class, which names its operation."""

    OPERATION_NAME: ClassVar[str]


def op_names(*op_classes: type[OpClass]) -> frozenset[str]:
    """The names of the operations of generated op classes: `op.name in
    op_names(A, B)` tells whether `op` is an `A` or a `B` without building
    its `opview`, which costs several times more."""
    return frozenset(op_class.OPERATION_NAME for op_class in op_classes)


def view_as(op: ir.Operation, op_class: type[View]) -> View:
    """Returns `op` as an instance of its generated op class `op_class`
    (whose named accessors read its operands and attributes); a located
    error if `op` is another operation."""
    view = op.opview
    if not isinstance(view, op_class):
        raise located_error(op, f"expected a {op_class.__name__}, got '{op_name(op)}'")
    return view


#: The program format's names of the unordered float comparisons whose IR
#: names (arith and tile alike) differ.
_UNORDERED_PREDICATES = {"ult": "fult", "ule": "fule", "ugt": "fugt", "uge": "fuge"}


def float_predicate(name: str) -> str:
    """The program-format predicate of a float comparison named `name` in
    the IR (`oeq`, ..., `ugt`, ..., `uno`)."""
    return _UNORDERED_PREDICATES.get(name, name)


def element_dtype(element: ir.Type, where: ir.Operation | ir.OpView) -> str:
    """Returns the program-format dtype of an integer or float MLIR type."""
    dtype = _program_dtype(element)
    if dtype is None:
        raise located_error(where, _no_counterpart(element))
    return dtype


def _program_dtype(element: ir.Type) -> str | None:
    """The program-format dtype of an integer or float MLIR type, if any."""
    if isinstance(element, ir.IntegerType):
        width = ir.IntegerType(element).width
        return f"i{width}" if width in (1, 8, 16, 32, 64) else None
    if isinstance(element, ir.IndexType):
        return "i64"
    return FLOAT_DTYPES.get(type(element.maybe_downcast()).__name__)


def _no_counterpart(element: ir.Type) -> str:
    return f"element type {element} has no counterpart in the program format"


def integer_dtype_of_width(element_bytes: int) -> str:
    """Returns the integer dtype of the given element size (i1 elements copy as i8)."""
    return {1: "i8", 2: "i16", 4: "i32", 8: "i64"}[element_bytes]


def dense_strides(shape: tuple[int, ...] | list[int]) -> list[int]:
    """Returns the element strides of a row-major array of `shape`."""
    strides = [1] * len(shape)
    for dim in range(len(shape) - 2, -1, -1):
        strides[dim] = strides[dim + 1] * shape[dim + 1]
    return strides


@dataclass(frozen=True)
class TileInfo:
    """The shape, dtype and layout of a tile type, in program-format terms."""

    shape: tuple[int, ...]
    dtype: str
    order: tuple[int, ...]
    size_bytes: int

    @staticmethod
    def of(tile_type: ir.Type, where: ir.Operation | ir.OpView) -> TileInfo:
        info = _tile_info(tile_type)
        if info is None:
            raise located_error(where, _no_counterpart(TileType(tile_type).element_type))
        return info

    @cached_property
    def count(self) -> int:
        """The number of elements."""
        total = 1
        for extent in self.shape:
            total *= extent
        return total

    @property
    def element_bytes(self) -> int:
        return DTYPE_BYTES[self.dtype]

    @property
    def row_major(self) -> bool:
        return self.order == tuple(range(len(self.shape) - 1, -1, -1))

    @cached_property
    def strides(self) -> list[int]:
        """The element stride of every logical dimension under the layout."""
        strides = [0] * len(self.shape)
        step = 1
        for dim in self.order:
            strides[dim] = step
            step *= self.shape[dim]
        return strides

    def offset_of(self, indices: Sequence[int]) -> int:
        """The element offset of the element at `indices` under the layout
        (a block's first element: its start in the tile)."""
        return sum(index * stride for index, stride in zip(indices, self.strides, strict=True))

    @property
    def storage_dims(self) -> list[int]:
        """The logical dimensions from the slowest to the fastest varying in memory."""
        return list(reversed(self.order))


@functools.lru_cache(maxsize=4096)
def _tile_info(tile_type: ir.Type) -> TileInfo | None:
    """The TileInfo of a tile type (None if its element type has no dtype),
    made once per type: a kernel has few tile types, which its operations
    ask about many times over. Types are uniqued in their context, which
    the cached type keeps alive."""
    tile = TileType(tile_type)
    dtype = _program_dtype(tile.element_type)
    if dtype is None:
        return None
    return TileInfo(tuple(tile.shape), dtype, tuple(tile.order), int(tile.size_in_bytes))


def is_tile(value_type: ir.Type) -> bool:
    return TileType.isinstance(value_type)


def round_up(value: int, step: int) -> int:
    """`value` rounded up to a multiple of `step`."""
    return -(-value // step) * step


def broadcast_view(op: ir.Operation) -> tuple[list[int], list[int]]:
    """How the SIMD engine reads the source of a `tile.broadcast`: the
    result's elements in memory order, as a shape, and the source's element
    stride along each of its dimensions (0 where the source is replicated),
    with the dimensions merged where that keeps the walk the same."""
    source = TileInfo.of(op.operands[0].type, op)
    result = TileInfo.of(op.results[0].type, op)
    # The result dimension of each source dimension (`dimensions`, when the
    # source has a lower rank); the others replicate the source.
    dimensions = (list(ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
                  if "dimensions" in op.attributes else list(range(len(source.shape))))
    strides = [0] * len(result.shape)
    for extent, dim, stride in zip(source.shape, dimensions, source.strides, strict=True):
        if extent != 1 or result.shape[dim] == 1:
            strides[dim] = stride
    dims = result.storage_dims
    shape = [result.shape[dim] for dim in dims]
    shape, strides, _ = merge_copy_dims(shape, [strides[dim] for dim in dims],
                                        dense_strides(shape))
    return (shape, strides) if shape else ([1], [0])
