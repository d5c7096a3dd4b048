"""Tile, circular-buffer and DMA operations as unit instructions."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from mlir.dialects import arith

from mtia_compiler import ir
from mtia_compiler.dialects import cb, dma, tile
from mtia_compiler.dialects.cb import CircularBufferType
from mtia_compiler.program import (
    CB,
    DTYPE_BYTES,
    MAX_DIMS,
    SLOT_ALIGNMENT,
    Broadcast,
    FReg,
    ProgramBuilder,
    Reg,
    Slot,
    Splat,
    TileArg,
    Unit,
)
from mtia_compiler.program import Scalar as ProgramScalar

from .common import (
    TileInfo,
    broadcast_view,
    float_predicate,
    integer_dtype_of_width,
    located_error,
    op_name,
    view_as,
)
from .scalars import integer_width
from .storage import (
    CopySite,
    PageStorage,
    Storage,
    StoragePlan,
    ViewStorage,
    is_splat_constant,
)
from .values import FloatScalar, IntScalar, Token, ValueTable

SIMD_BINARY = {
    "addf": "add", "subf": "sub", "mulf": "mul", "divf": "div", "remf": "rem",
    "maximumf": "max", "minimumf": "min", "maxnumf": "maxnum", "minnumf": "minnum",
    "powf": "pow", "atan2f": "atan2", "copysignf": "copysign", "addi": "add", "subi": "sub",
    "muli": "mul", "divsi": "div",
    "divui": "divu", "remsi": "rem", "remui": "remu", "maxsi": "max", "minsi": "min",
    "maxui": "maxu", "minui": "minu", "andi": "and", "ori": "or", "xori": "xor",
    "shli": "shl", "shrsi": "shrs", "shrui": "shru", "mulhiui": "mulhiu",
}
SIMD_UNARY = {"negf": "neg", "absf": "abs", "floor": "floor", "ceil": "ceil",
              "roundeven": "rint", "round": "round", "trunc": "trunc", "absi": "abs",
              "ctpop": "popcount"}
COMBINERS = {
    "addf": "sum", "addi": "sum", "mulf": "prod", "muli": "prod", "maximumf": "max",
    "minimumf": "min", "maxnumf": "maxnum", "minnumf": "minnum", "maxsi": "max",
    "minsi": "min", "maxui": "maxu", "minui": "minu", "andi": "and", "ori": "or",
    "xori": "xor",
}
ATOMICS = {"add": "add", "fadd": "add", "and": "and", "or": "or", "xor": "xor", "max": "max",
           "min": "min", "umax": "maxu", "umin": "minu", "exch": "xchg"}
PE_GROUP_AXES = {"row": [0], "column": [1], "grid": [0, 1, 2]}
#: The grid axis and the step along it of each `tile.cross_pe_shift` direction.
PE_DIRECTIONS = {"east": (0, 1), "west": (0, -1), "south": (1, 1), "north": (1, -1)}
SIGNED_CASTS = {"fptosi", "sitofp", "extsi"}
INEXACT_CASTS = {"truncf", "sitofp", "uitofp"}
MANTISSA_BITS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53, "f8e4m3": 4, "f8e5m2": 3,
                 "f8e4m3fnuz": 4, "f8e5m2fnuz": 3}
MAX_CONSTANT_PATCHES = 4096


@dataclass
class FixedBuffers:
    """The buffers the program stage adds to the kernel's: a scratch page for
    each unit that needs one, and the DPE's page of zeros, which holds
    `dpe_positive_zeros` +0.0 values and, from byte
    `dpe_negative_zeros_offset` on, `dpe_negative_zeros` bf16 -0.0 values.
    The kernel emitter fills it in when it declares them."""

    scratch: dict[Unit, CB] = field(default_factory=dict)
    dpe_zeros: CB | None = None
    dpe_positive_zeros: int = 0
    dpe_negative_zeros: int = 0
    dpe_negative_zeros_offset: int = 0


def dpe_zero_matrix(value: ir.Value) -> tuple[int, int]:
    """The rows and columns a DPE clear (or copy) of the tile multiplies
    over: the last dimension against all the others."""
    info = TileInfo.of(value.type, _where(value))
    columns = info.shape[-1] if info.shape else 1
    return info.count // columns, columns


def dpe_copy_matrix(value: ir.Value) -> tuple[int, int]:
    """The rows and columns a DPE copy of the tile multiplies over."""
    info = TileInfo.of(value.type, _where(value))
    if info.element_bytes != 4:
        raise located_error(_where(value), f"the DPE cannot copy a {info.dtype} tile")
    return dpe_zero_matrix(value)


class TileOpEmitter:
    """The tile-level half of the kernel emitter: local-memory slots of tile
    values and the instructions of tile, cb and dma operations. It shares
    the kernel emitter's builder and value table, and reads the storage plan
    and the program stage's buffers (`fixed`, filled in once they are
    declared)."""

    def __init__(self, builder: ProgramBuilder, values: ValueTable, plan: StoragePlan,
                 homes: dict[ir.Value, Unit], folded_splats: set[ir.Value],
                 fixed: FixedBuffers) -> None:
        self.b = builder
        self.values = values
        self.plan = plan
        self.homes = homes
        self.folded_splats = folded_splats
        self.fixed = fixed

    # -- values and storage -------------------------------------------------------

    def slot(self, value: ir.Value) -> Slot:
        """The local-memory slot of a tile value."""
        return self.storage_slot(self.plan.storage[value])

    def argument(self, value: ir.Value, where: ir.Operation) -> TileArg:
        """An input of an elementwise SIMD instruction: the scalar a tile is
        splat from (an immediate or a register), else the tile's slot."""
        if isinstance(value, ir.BlockArgument):
            return self.slot(value)
        producer = value.owner.operation
        name = producer.name
        if name == tile.SplatOp.OPERATION_NAME:
            return self.values.scalar(view_as(producer, tile.SplatOp).scalar, where).reg
        if name == tile.SplatElementOp.OPERATION_NAME:
            return Splat(self.slot(view_as(producer, tile.SplatElementOp).source))
        if name == tile.BroadcastOp.OPERATION_NAME and value in self.folded_splats:
            return self._broadcast_input(producer)
        if is_splat_constant(producer):
            attribute = ir.DenseElementsAttr(producer.attributes["value"])
            return _attribute_number(attribute.get_splat_value())
        return self.slot(value)

    def _arguments(self, op: ir.Operation) -> list[TileArg]:
        return [self.argument(value, op) for value in op.operands]

    def storage_slot(self, storage: Storage) -> Slot:
        if isinstance(storage, ViewStorage):
            return _offset(self.slot(storage.source), storage.offset)
        if isinstance(storage, PageStorage):
            return Slot(self.values.buffer(storage.buffer).cb.index, storage.side, storage.page, 0)
        return self.fixed.scratch[storage.unit].back(offset=storage.offset)

    # -- copies -------------------------------------------------------------------

    def copy_tile(self, source: ir.Value, destination: Storage, where: ir.Operation) -> None:
        """Copies a tile into other storage on the unit that holds it, bit for
        bit: SIMD and RE move it as integers of the element's width, the MLU
        copies it, and the DPE adds `+0 × -0` products to it (which keep
        every value, -0 included)."""
        info = TileInfo.of(source.type, where)
        unit = self.homes[source]
        src, dst = self.slot(source), self.storage_slot(destination)
        bits = integer_dtype_of_width(info.element_bytes)
        if unit == Unit.SIMD:
            self.b.simd_binary("or", bits, dst, src, 0, info.count)
        elif unit == Unit.RE:
            self._reduce_engine_copy(src, dst, info)
        elif unit == Unit.MLU:
            self.b.mlu_copy(dst, src, info.element_bytes, [info.count], [1], [1])
        elif unit == Unit.DPE and self.fixed.dpe_zeros is not None:
            rows, columns = dpe_copy_matrix(source)
            zeros = self.fixed.dpe_zeros
            if info.dtype == "f32":
                # bf16 zeros: the DPE's full rate, and products just as exact.
                self.b.mma(zeros.front(), zeros.front(offset=self.fixed.dpe_negative_zeros_offset),
                           dst, rows, columns, 1, "bf16", "f32", acc=src)
            else:
                self.b.mma(zeros.front(), zeros.front(), dst, rows, columns, 1, "i8", "i32",
                           acc=src)
        else:
            raise located_error(where, f"a tile held by {unit.value} cannot be copied")

    def _reduce_engine_copy(self, src: Slot, dst: Slot, info: TileInfo) -> None:
        """The reduction engine copies a tile bit for bit: an `or` of each
        element alone, the elements as integers of their width."""
        self.b.reduce("or", integer_dtype_of_width(info.element_bytes), src, [info.count, 1], 1,
                      d=dst)

    # -- dispatch -----------------------------------------------------------------

    def handler(self, op_class: type) -> Callable[[ir.Operation], None] | None:
        """The handler of the tile, cb or dma operations of the generated op
        class `op_class`; None for other operations."""
        return self._tile_handlers.get(op_class)

    @functools.cached_property
    def _tile_handlers(self) -> dict[type, Callable[[ir.Operation], None]]:
        """The handler of every tile, cb and dma operation, by its generated
        op class."""
        return {
            cb.AllocOp: lambda op: None,
            cb.ReadFrontOp: lambda op: None,
            cb.ReadPushedOp: lambda op: None,
            cb.ReserveBackOp: lambda op: self.b.reserve(
                self.values.buffer(op.operands[0]).producer, self.values.buffer(op.operands[0]).cb,
                _int_attr(op, "pages")),
            cb.PushBackOp: lambda op: self.b.push(
                self.values.buffer(op.operands[0]).producer, self.values.buffer(op.operands[0]).cb,
                _int_attr(op, "pages")),
            cb.WaitFrontOp: lambda op: self.b.wait(
                self.values.buffer(op.operands[0]).consumer, self.values.buffer(op.operands[0]).cb,
                _int_attr(op, "pages")),
            cb.PopFrontOp: lambda op: self.b.pop(
                self.values.buffer(op.operands[0]).consumer, self.values.buffer(op.operands[0]).cb,
                _int_attr(op, "pages")),
            cb.WriteBackOp: self._write_back,
            tile.BinaryOp: self._binary,
            tile.UnaryOp: self._unary,
            tile.FmaOp: self._fma,
            tile.SFUOp: self._sfu,
            tile.CmpIOp: self._compare,
            tile.CmpFOp: self._compare,
            tile.SelectOp: self._select,
            tile.CastOp: self._cast,
            tile.SplatOp: self._splat,
            tile.SplatElementOp: self._splat_element,
            tile.IotaOp: lambda op: self.b.simd_iota(
                self._info(op).dtype, self._result(op), self._info(op).count,
                _int_attr(op, "start")),
            tile.ConstantOp: self._constant,
            tile.ExtractOp: self._extract,
            tile.MatmulOp: self._matmul,
            tile.SimdMatmulOp: self._matmul,
            tile.ZerosOp: self._zeros,
            tile.ReduceOp: self._reduce,
            tile.ReduceCopyOp: lambda op: self._reduce_engine_copy(
                self._inputs(op)[0], self._result(op), self._info(op)),
            tile.ArgReduceOp: self._arg_reduce,
            tile.ScanOp: self._scan,
            tile.CrossPEReduceOp: self._cross_pe_reduce,
            tile.CrossPEBroadcastOp: self._cross_pe_broadcast,
            tile.CrossPEArgReduceOp: self._cross_pe_arg_reduce,
            tile.CrossPEShiftOp: self._cross_pe_shift,
            tile.TransposeOp: self._transpose,
            tile.ConvertLayoutOp: self._convert_layout,
            tile.ReshapeOp: self._reshape,
            tile.CopyOp: self._reshape,
            tile.BroadcastOp: self._broadcast,
            tile.SliceOp: self._slice,
            # A subview reads its source in place (`ViewStorage`).
            tile.SubviewOp: lambda op: None,
            tile.ConcatOp: self._concat,
            tile.GatherOp: self._gather,
            tile.PrintOp: self._print,
            tile.AssertOp: self._assert,
            tile.HistogramOp: self._histogram,
            dma.LoadOp: self._dma_load,
            dma.StoreOp: self._dma_store,
            dma.GatherOp: self._dma_gather,
            dma.ScatterOp: self._dma_scatter,
            dma.AtomicRMWOp: self._dma_atomic_rmw,
            dma.AtomicCASOp: self._dma_atomic_cas,
            dma.WaitOp: lambda op: self.b.fence(),
        }

    # -- helpers --------------------------------------------------------------------

    @staticmethod
    def _info(op: ir.Operation, index: int = 0) -> TileInfo:
        return TileInfo.of(op.results[index].type, op)

    def _result(self, op: ir.Operation, index: int = 0) -> Slot:
        return self.slot(op.results[index])

    def _inputs(self, op: ir.Operation) -> list[Slot]:
        return [self.slot(value) for value in op.operands]

    @staticmethod
    def _enum(op: ir.Operation, key: str, enum: type) -> str:
        return str(enum(ir.IntegerAttr(op.attributes[key]).value))

    # -- cb -------------------------------------------------------------------------

    def _write_back(self, op: ir.Operation) -> None:
        destination = PageStorage(op.operands[1], "back", _int_attr(op, "page"))
        if self.plan.needs_copy(CopySite(op, op.operands[0], destination)):
            self.copy_tile(op.operands[0], destination, op)

    # -- SIMD -----------------------------------------------------------------------

    def _binary(self, op: ir.Operation) -> None:
        kind = self._enum(op, "kind", tile.BinaryKind)
        info = self._info(op)
        lhs, rhs = self._arguments(op)
        self.b.simd_binary(SIMD_BINARY[kind], info.dtype, self._result(op), lhs, rhs,
                           info.count)

    def _fma(self, op: ir.Operation) -> None:
        info = self._info(op)
        a, b, c = self._arguments(op)
        self.b.simd_fma(info.dtype, self._result(op), a, b, c, info.count)

    def _select(self, op: ir.Operation) -> None:
        info = self._info(op)
        condition, true_value, false_value = self._arguments(op)
        self.b.simd_select(info.dtype, self._result(op), condition, true_value, false_value,
                           info.count)

    def _unary(self, op: ir.Operation) -> None:
        kind = self._enum(op, "kind", tile.UnaryKind)
        info = self._info(op)
        self.b.simd_unary(SIMD_UNARY[kind], info.dtype, self._result(op), self._inputs(op)[0],
                          info.count)

    def _sfu(self, op: ir.Operation) -> None:
        function = self._enum(op, "function", tile.SpecialFunction)
        info = self._info(op)
        (source,) = self._inputs(op)
        if function == "recip":
            self.b.simd_binary("div", info.dtype, self._result(op), 1.0, source, info.count)
        else:
            self.b.simd_unary(function, info.dtype, self._result(op), source, info.count)

    def _compare(self, op: ir.Operation) -> None:
        if isinstance(op.opview, tile.CmpIOp):
            predicate = self._enum(op, "predicate", tile.CmpIPredicate)
        else:
            predicate = self._enum(op, "predicate", tile.CmpFPredicate)
            predicate = float_predicate(predicate)
        source = TileInfo.of(op.operands[0].type, op)
        lhs, rhs = self._arguments(op)
        self.b.simd_cmp(predicate, source.dtype, self._result(op), lhs, rhs, source.count)

    def _cast(self, op: ir.Operation) -> None:
        kind = self._enum(op, "kind", tile.CastKind)
        source, result = TileInfo.of(op.operands[0].type, op), self._info(op)
        if "rounding" in op.attributes and kind in INEXACT_CASTS:
            rounding = self._enum(op, "rounding", tile.RoundingMode)
            exact = kind != "truncf" and int(source.dtype[1:]) <= MANTISSA_BITS[result.dtype]
            if rounding == "rtz" and not exact:
                raise located_error(op, f"{kind} with rounding toward zero is not supported: "
                                    "the SIMD engine rounds to nearest even")
        signed = kind in SIGNED_CASTS
        self.b.simd_cast(self._result(op), self._inputs(op)[0], source.count, source.dtype,
                         result.dtype, signed=signed, bitcast=kind == "bitcast")

    def _splat(self, op: ir.Operation) -> None:
        if op.results[0] in self.folded_splats:
            return
        info = self._info(op)
        self.b.simd_fill(info.dtype, self._result(op), info.count,
                         self.values.scalar(op.operands[0], op).reg)

    def _splat_element(self, op: ir.Operation) -> None:
        """Spreads the element as integers of its width (bit for bit)."""
        if op.results[0] in self.folded_splats:
            return
        info = self._info(op)
        self.b.simd_binary("or", integer_dtype_of_width(info.element_bytes), self._result(op),
                           Splat(self.slot(op.operands[0])), 0, info.count)

    def _constant(self, op: ir.Operation) -> None:
        if op.results[0] in self.folded_splats:
            return
        info = self._info(op)
        attribute = ir.DenseElementsAttr(op.attributes["value"])
        destination = self._result(op)
        if attribute.is_splat:
            self.b.simd_fill(info.dtype, destination, info.count,
                             _attribute_number(attribute.get_splat_value()))
            return
        elements = _dense_values(attribute)
        counts: dict[int | float, int] = {}
        for element in elements:
            counts[element] = counts.get(element, 0) + 1
        background = max(counts, key=lambda key: counts[key])
        patches = [(index, element) for index, element in enumerate(elements)
                   if element != background]
        if len(patches) > MAX_CONSTANT_PATCHES:
            raise located_error(op, f"a constant tile with {len(patches)} elements off its most "
                                f"common value is too large to build (the limit is "
                                f"{MAX_CONSTANT_PATCHES})")
        # Elements are written one at a time by selecting on `iota == index`.
        positions, mask = (self.storage_slot(t) for t in self.plan.temporaries[op])
        self.b.simd_fill(info.dtype, destination, info.count, background)
        self.b.simd_iota("i32", positions, info.count, 0)
        for index, element in patches:
            self.b.simd_cmp("eq", "i32", mask, positions, index, info.count)
            self.b.simd_select(info.dtype, destination, mask, element, destination, info.count)

    def _extract(self, op: ir.Operation) -> None:
        """The control core reads the element from the page it waited for
        (`ldl`), at a constant element index when every index is constant."""
        source = TileInfo.of(op.operands[0].type, op)
        offset = 0
        dynamic: Reg | None = None
        for index, stride in zip(list(op.operands)[1:], source.strides, strict=True):
            constant = _constant_int(index)
            if constant is not None:
                offset += constant * stride
                continue
            term = self.b.mul(self.values.int_scalar(index, op).reg, stride)
            dynamic = term if dynamic is None else self.b.add(dynamic, term)
        position: Reg | int = offset
        if dynamic is not None:
            position = self.b.add(dynamic, offset) if offset else dynamic
        loaded = self.b.load_local(self.slot(op.operands[0]), source.dtype, position)
        result = op.results[0]
        if isinstance(loaded, FReg):
            self.values[result] = FloatScalar(loaded, source.dtype)
        else:
            width = integer_width(result.type)
            assert width is not None, "tile.extract yields an integer or a float"
            self.values[result] = IntScalar(loaded, width)

    # -- DPE ------------------------------------------------------------------------

    def _matmul(self, op: ir.Operation) -> None:
        """`tile.matmul` on the DPE and `tile.simd_matmul` (f64) on the SIMD
        engine, batch by batch."""
        name = op_name(op)
        lhs, rhs, acc = (TileInfo.of(value.type, op) for value in op.operands)
        if not (lhs.row_major and rhs.row_major and acc.row_major):
            raise located_error(op, f"{name} needs row-major operands")
        a, b = self.slot(op.operands[0]), self.slot(op.operands[1])
        # A folded zero accumulator is no accumulator at all.
        c = None if op.operands[2] in self.folded_splats else self.slot(op.operands[2])
        result = self._result(op)
        m, k, n = lhs.shape[-2], lhs.shape[-1], rhs.shape[-1]
        batches = lhs.count // (m * k)
        strides = (m * k * lhs.element_bytes, k * n * rhs.element_bytes,
                   m * n * acc.element_bytes)
        if batches > 1 and any(stride % 8 for stride in strides):
            raise located_error(op, f"batched {name} needs 8-byte aligned batch strides")
        for batch in range(batches):
            a_off, b_off, c_off = (batch * stride for stride in strides)
            batch_acc = None if c is None else _offset(c, c_off)
            if isinstance(op.opview, tile.SimdMatmulOp):
                self.b.simd_mma(_offset(a, a_off), _offset(b, b_off), _offset(result, c_off),
                                m, n, k, acc=batch_acc)
            else:
                self.b.mma(_offset(a, a_off), _offset(b, b_off), _offset(result, c_off), m, n,
                           k, lhs.dtype, acc.dtype, acc=batch_acc)

    def _zeros(self, op: ir.Operation) -> None:
        """Clears the tile as `(+0 rows) × (+0 columns)` with `k = 1`, reading
        the zero operands from the `dpe.zeros` page."""
        if op.results[0] in self.folded_splats:
            return
        rows, columns = dpe_zero_matrix(op.results[0])
        zeros = self.fixed.dpe_zeros
        if zeros is None:
            raise located_error(op, "internal error: tile.zeros without the dpe.zeros page")
        info = self._info(op)
        operands = "bf16" if info.dtype == "f32" else "i8"
        self.b.mma(zeros.front(), zeros.front(), self._result(op), rows, columns, 1, operands,
                   info.dtype)

    # -- reduction engine -----------------------------------------------------------

    def _require_row_major(self, op: ir.Operation) -> None:
        for value in [*op.operands, *op.results]:
            if not TileInfo.of(value.type, op).row_major:
                raise located_error(op, f"'{op_name(op)}' needs row-major tiles")

    def _reduce(self, op: ir.Operation) -> None:
        self._require_row_major(op)
        source = TileInfo.of(op.operands[0].type, op)
        fn = COMBINERS[self._enum(op, "kind", tile.CombineKind)]
        self.b.reduce(fn, source.dtype, self._inputs(op)[0], list(source.shape),
                      _int_attr(op, "axis"), d=self._result(op))

    def _arg_reduce(self, op: ir.Operation) -> None:
        self._require_row_major(op)
        source = TileInfo.of(op.operands[0].type, op)
        if self._info(op).dtype != "i32":
            raise located_error(op, "tile.arg_reduce produces i32 indices on the reduction "
                                "engine")
        self.b.reduce(self._enum(op, "kind", tile.ArgReduceKind), source.dtype,
                      self._inputs(op)[0], list(source.shape), _int_attr(op, "axis"),
                      idx=self._result(op))

    def _scan(self, op: ir.Operation) -> None:
        self._require_row_major(op)
        if "kind" not in op.attributes:
            raise located_error(op, "a 'tile.scan' without a combine kind is not run by the "
                                "reduction engine (mtia-expand-combine-regions expands it)")
        fn = COMBINERS[self._enum(op, "kind", tile.CombineKind)]
        source = TileInfo.of(op.operands[0].type, op)
        self.b.scan(fn, source.dtype, self._inputs(op)[0], self._result(op), list(source.shape),
                    _int_attr(op, "axis"), reverse="reverse" in op.attributes)

    def _cross_pe_reduce(self, op: ir.Operation) -> None:
        info = self._info(op)
        fn = COMBINERS[self._enum(op, "kind", tile.CombineKind)]
        group = self._enum(op, "group", tile.PEGroup)
        self.b.cross_reduce(fn, info.dtype, self._inputs(op)[0], info.count,
                            PE_GROUP_AXES[group], d=self._result(op))

    def _cross_pe_broadcast(self, op: ir.Operation) -> None:
        info = self._info(op)
        group = self._enum(op, "group", tile.PEGroup)
        self.b.cross_broadcast(info.dtype, self._inputs(op)[0], info.count, PE_GROUP_AXES[group],
                               _int_attr(op, "root"), d=self._result(op))

    def _cross_pe_arg_reduce(self, op: ir.Operation) -> None:
        values = TileInfo.of(op.operands[0].type, op)
        group = self._enum(op, "group", tile.PEGroup)
        values_slot, indices_slot = self._inputs(op)
        self.b.cross_reduce(self._enum(op, "kind", tile.ArgReduceKind), values.dtype, values_slot,
                            values.count, PE_GROUP_AXES[group], src_idx=indices_slot,
                            idx=self._result(op))

    def _cross_pe_shift(self, op: ir.Operation) -> None:
        info = self._info(op)
        axis, direction = PE_DIRECTIONS[self._enum(op, "direction", tile.PEDirection)]
        self.b.cross_shift(info.dtype, self._inputs(op)[0], info.count, axis, direction,
                           d=self._result(op))

    # -- MLU ------------------------------------------------------------------------

    def _transpose(self, op: ir.Operation) -> None:
        source, result = TileInfo.of(op.operands[0].type, op), self._info(op)
        permutation = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
        self.b.mlu_copy(self._result(op), self._inputs(op)[0], source.element_bytes,
                        list(result.shape), [source.strides[dim] for dim in permutation],
                        result.strides)

    def _print(self, op: ir.Operation) -> None:
        self._require_row_major(op)
        source = TileInfo.of(op.operands[0].type, op)
        self.b.simd_print(self._inputs(op)[0], source.dtype, list(source.shape),
                          text=ir.StringAttr(op.attributes["prefix"]).value,
                          hex="hex" in op.attributes, signed="isSigned" in op.attributes)

    def _assert(self, op: ir.Operation) -> None:
        condition = TileInfo.of(op.operands[0].type, op)
        self.b.simd_assert(self._inputs(op)[0], condition.count,
                           ir.StringAttr(op.attributes["message"]).value)

    def _gather(self, op: ir.Operation) -> None:
        self._require_row_major(op)
        source = TileInfo.of(op.operands[0].type, op)
        indices = TileInfo.of(op.operands[1].type, op)
        source_slot, indices_slot = self._inputs(op)
        self.b.mlu_gather(self._result(op), source_slot, indices_slot, source.element_bytes,
                          list(indices.shape), list(source.shape), _int_attr(op, "axis"),
                          index_dtype=indices.dtype)

    def _histogram(self, op: ir.Operation) -> None:
        source = TileInfo.of(op.operands[0].type, op)
        inputs = self._inputs(op)
        self.b.histogram(source.dtype, inputs[0], source.count, self._info(op).count,
                         self._result(op), mask=inputs[1] if len(inputs) > 1 else None)

    def _convert_layout(self, op: ir.Operation) -> None:
        source, result = TileInfo.of(op.operands[0].type, op), self._info(op)
        self.b.mlu_copy(self._result(op), self._inputs(op)[0], source.element_bytes,
                        list(source.shape), source.strides, result.strides)

    def _reshape(self, op: ir.Operation) -> None:
        """`tile.reshape` and `tile.copy`: the MLU copies the elements in
        row-major order."""
        self._require_row_major(op)
        result = self._info(op)
        self.b.mlu_copy(self._result(op), self._inputs(op)[0], result.element_bytes,
                        [result.count], [1], [1])

    def _broadcast_input(self, op: ir.Operation) -> Broadcast:
        """The source of a folded `tile.broadcast` as a SIMD input spread
        over the result's elements."""
        shape, strides = broadcast_view(op)
        return Broadcast(self.slot(op.operands[0]), tuple(shape), tuple(strides))

    def _broadcast(self, op: ir.Operation) -> None:
        """A broadcast that a use needs whole: the SIMD engine writes it, bit
        for bit, as integers of the element's width; a walk of more
        dimensions than a SIMD input takes is split over the outer ones."""
        if op.results[0] in self.folded_splats:
            return
        result = self._info(op)
        dtype = integer_dtype_of_width(result.element_bytes)
        shape, strides = broadcast_view(op)
        outer = max(len(shape) - MAX_DIMS, 0)
        inner = shape[outer:]
        chunk = math.prod(inner)
        source, destination = self.slot(op.operands[0]), self._result(op)
        for number, index in enumerate(itertools.product(*(range(n) for n in shape[:outer]))):
            source_offset = sum(i * stride for i, stride in zip(index, strides, strict=False))
            offsets = (source_offset * result.element_bytes, number * chunk * result.element_bytes)
            if any(offset % SLOT_ALIGNMENT for offset in offsets):
                raise located_error(op, f"a broadcast of {len(shape)} dimensions whose parts "
                                    f"start off the {SLOT_ALIGNMENT}-byte alignment of the SIMD "
                                    "engine's inputs is not supported")
            self.b.simd_binary(
                "or", dtype, replace(destination, offset=destination.offset + offsets[1]),
                Broadcast(replace(source, offset=source.offset + offsets[0]),
                          tuple(inner), tuple(strides[outer:])), 0, chunk)

    def _slice(self, op: ir.Operation) -> None:
        source, result = TileInfo.of(op.operands[0].type, op), self._info(op)
        start = source.offset_of(list(ir.DenseI64ArrayAttr(op.attributes["offsets"])))
        self.b.mlu_copy(self._result(op), self._inputs(op)[0], source.element_bytes,
                        list(result.shape), source.strides, result.strides, src_offset=start)

    def _concat(self, op: ir.Operation) -> None:
        result = self._info(op)
        axis = _int_attr(op, "axis")
        position = 0
        for value, slot in zip(op.operands, self._inputs(op), strict=True):
            source = TileInfo.of(value.type, op)
            self.b.mlu_copy(self._result(op), slot, source.element_bytes, list(source.shape),
                            source.strides, result.strides,
                            dst_offset=position * result.strides[axis])
            position += source.shape[axis]

    # -- DMA ------------------------------------------------------------------------

    def _address(self, base: ir.Value, offset: ir.Value, op: ir.Operation) -> Reg:
        pointer = self.values.pointer(base, op)
        scaled = self.b.mul(self.values.int_scalar(offset, op).reg, DTYPE_BYTES[pointer.dtype])
        return self.b.add(pointer.reg, scaled)

    def _windows(self, op: ir.Operation, page: TileInfo, address: Reg,
                 strides: list[ir.Value], bounds: list[ir.Value],
                 mask: TileInfo | None) -> list[_Window]:
        """The DMA instructions of a strided transfer of ``page``, whose first
        element is at byte ``address``, with its dimensions listed in the
        page's storage order (slowest first). A transfer of more dimensions
        than an instruction takes drops the bounds that constants show to
        hold, and merges each dimension into the next faster one where both
        are unbounded and both global memory (constant strides) and the page
        step over the faster one contiguously; what remains beyond
        ``MAX_DIMS`` is split into one instruction per index of the outer
        dimensions, each out of bounds as a whole (a zero upper bound) where
        an outer index is outside its bound."""
        storage = page.storage_dims
        if len(storage) <= MAX_DIMS:
            return [_Window(address, 0, 0, [page.shape[dim] for dim in storage],
                            [self.values.int_scalar(strides[dim], op).reg for dim in storage],
                            [0] * len(storage) if bounds else None,
                            [self.values.int_scalar(bounds[dim], op).reg for dim in storage]
                            if bounds else None)]
        dims = _merge_contiguous([
            _Dim(page.shape[dim], self._integer(strides[dim], op), page.strides[dim],
                 mask.strides[dim] if mask else 0,
                 self._bound(bounds[dim], page.shape[dim], op) if bounds else None)
            for dim in storage])
        outer, inner = dims[:-MAX_DIMS], dims[-MAX_DIMS:]
        count = 1
        for dim in outer:
            count *= dim.size
        if count > MAX_SPLIT_TRANSFERS:
            raise located_error(op, f"a transfer of {len(dims)} dimensions that are not "
                                f"contiguous would take {count} DMA instructions of at most "
                                f"{MAX_DIMS} dimensions (at most {MAX_SPLIT_TRANSFERS})")
        bounded = any(dim.bound is not None for dim in dims)
        windows = []
        element_bytes = page.element_bytes
        for index in itertools.product(*(range(dim.size) for dim in outer)):
            start, page_offset, mask_offset = address, 0, 0
            inside: Reg | int = 1
            for i, dim in zip(index, outer, strict=True):
                if i != 0:
                    step = (i * dim.stride * element_bytes if isinstance(dim.stride, int)
                            else self.b.mul(dim.stride, i * element_bytes))
                    start = self.b.add(start, step)
                    page_offset += i * dim.page_stride
                    mask_offset += i * dim.mask_stride
                if isinstance(dim.bound, int):
                    inside = inside if i < dim.bound else 0
                elif dim.bound is not None:
                    below = self.b.icmp("sgt", dim.bound, i)
                    inside = below if isinstance(inside, int) else self.b.mul(inside, below)
            hi: list[Reg | int] | None = None
            if bounded:
                hi = [dim.size if dim.bound is None else dim.bound for dim in inner]
                if inside == 0:
                    hi[0] = 0
                elif not isinstance(inside, int):
                    hi[0] = self.b.mul(inside, hi[0])
            windows.append(_Window(start, page_offset * element_bytes,
                                   mask_offset * (mask.element_bytes if mask else 0),
                                   [dim.size for dim in inner], [dim.stride for dim in inner],
                                   [0] * len(inner) if bounded else None, hi))
        if any(w.page_offset % SLOT_ALIGNMENT or w.mask_offset % SLOT_ALIGNMENT
               for w in windows):
            raise located_error(op, f"a transfer of {len(dims)} dimensions is split into "
                                f"DMA instructions of at most {MAX_DIMS}, whose parts of the "
                                f"page must start at multiples of {SLOT_ALIGNMENT} bytes")
        return windows

    def _integer(self, value: ir.Value, op: ir.Operation) -> Reg | int:
        """An integer operand of a transfer: its value when it is a constant,
        else its register."""
        constant = _constant(value)
        return constant if constant is not None else self.values.int_scalar(value, op).reg

    def _bound(self, value: ir.Value, size: int, op: ir.Operation) -> Reg | int | None:
        """The upper bound of a dimension of ``size`` elements: None when a
        constant shows that every index is below it."""
        bound = self._integer(value, op)
        return None if isinstance(bound, int) and bound >= size else bound

    def _optional_slot(self, value: ir.Value | None) -> Slot | None:
        return self.slot(value) if value is not None else None

    def _padding(self, value: ir.Value | None, op: ir.Operation) -> ProgramScalar:
        return self.values.scalar(value, op).reg if value is not None else 0

    def _dma_load(self, op: ir.Operation) -> None:
        load = view_as(op, dma.LoadOp)
        buffer = self.values.buffer(load.cb)
        page = TileInfo.of(_page_type(load.cb), op)
        mask = self._optional_slot(load.mask)
        mask_info = TileInfo.of(load.mask.type, op) if load.mask is not None else None
        other = self._padding(load.padding, op)
        for window in self._windows(op, page, self._address(load.base, load.offset, op),
                                    list(load.strides), list(load.bounds), mask_info):
            self.b.dma_load(buffer.cb.back(_int_attr(op, "page"), window.page_offset),
                            window.address, page.dtype, window.shape, window.strides,
                            lo=window.lo, hi=window.hi, other=other,
                            mask=_shifted(mask, window.mask_offset),
                            elementwise=load.elementwise)
        self.values[op.results[0]] = Token()

    def _dma_store(self, op: ir.Operation) -> None:
        store = view_as(op, dma.StoreOp)
        buffer = self.values.buffer(store.cb)
        page = TileInfo.of(_page_type(store.cb), op)
        mask = self._optional_slot(store.mask)
        mask_info = TileInfo.of(store.mask.type, op) if store.mask is not None else None
        for window in self._windows(op, page, self._address(store.base, store.offset, op),
                                    list(store.strides), list(store.bounds), mask_info):
            self.b.dma_store(buffer.cb.front(_int_attr(op, "page"), window.page_offset),
                             window.address, page.dtype, window.shape, window.strides,
                             lo=window.lo, hi=window.hi,
                             mask=_shifted(mask, window.mask_offset),
                             elementwise=store.elementwise)
        self.values[op.results[0]] = Token()

    def _dma_gather(self, op: ir.Operation) -> None:
        gather = view_as(op, dma.GatherOp)
        page = TileInfo.of(_page_type(gather.cb), op)
        index = TileInfo.of(gather.indices.type, op)
        destination = self.values.buffer(gather.cb).cb.back(_int_attr(op, "page"),
                                                            _first_row_bytes(op, page))
        self.b.dma_gather(destination, self.values.pointer(gather.base, op).reg, page.dtype,
                          index.count, self.slot(gather.indices), index.dtype,
                          mask=self._optional_slot(gather.mask),
                          other=self._padding(gather.padding, op))
        self.values[op.results[0]] = Token()

    def _dma_scatter(self, op: ir.Operation) -> None:
        scatter = view_as(op, dma.ScatterOp)
        page = TileInfo.of(_page_type(scatter.cb), op)
        index = TileInfo.of(scatter.indices.type, op)
        source = self.values.buffer(scatter.cb).cb.front(_int_attr(op, "page"),
                                                         _first_row_bytes(op, page))
        self.b.dma_scatter(source, self.values.pointer(scatter.base, op).reg, page.dtype,
                           index.count,
                           self.slot(scatter.indices), index.dtype,
                           mask=self._optional_slot(scatter.mask))
        self.values[op.results[0]] = Token()

    def _old_values(self, op: ir.Operation, buffer: ir.Value | None) -> Slot | None:
        """The page an atomic returns the old values into, if any."""
        if buffer is None:
            return None
        return self.values.buffer(buffer).cb.back(_int_attr(op, "page"))

    def _dma_atomic_rmw(self, op: ir.Operation) -> None:
        rmw = view_as(op, dma.AtomicRMWOp)
        kind = str(dma.AtomicKind(ir.IntegerAttr(rmw.kind).value))
        info = TileInfo.of(rmw.values.type, op)
        index = TileInfo.of(rmw.indices.type, op)
        self.b.dma_atomic(ATOMICS[kind], self.values.pointer(rmw.base, op).reg, info.dtype,
                          info.count, self.slot(rmw.values), index=self.slot(rmw.indices),
                          index_dtype=index.dtype, mask=self._optional_slot(rmw.mask),
                          old=self._old_values(op, rmw.cb))
        self.values[op.results[0]] = Token()

    def _dma_atomic_cas(self, op: ir.Operation) -> None:
        cas = view_as(op, dma.AtomicCASOp)
        info = TileInfo.of(cas.value.type, op)
        index = TileInfo.of(cas.indices.type, op)
        self.b.dma_atomic("cas", self.values.pointer(cas.base, op).reg, info.dtype, info.count,
                          self.slot(cas.value), index=self.slot(cas.indices),
                          index_dtype=index.dtype, old=self._old_values(op, cas.cb),
                          cmp=self.slot(cas.compare))
        self.values[op.results[0]] = Token()


def _offset(slot: Slot, delta: int) -> Slot:
    return replace(slot, offset=slot.offset + delta)


def _constant_int(value: ir.Value) -> int | None:
    """The value of an integer or index `arith.constant`, else None."""
    if isinstance(value, ir.BlockArgument):
        return None
    constant = value.owner.operation.opview
    if not isinstance(constant, arith.ConstantOp):
        return None
    return ir.IntegerAttr(constant.value).value


def _int_attr(op: ir.Operation, key: str) -> int:
    return ir.IntegerAttr(op.attributes[key]).value


def _first_row_bytes(op: ir.Operation, page: TileInfo) -> int:
    """The byte offset in `page` of the first row an indexed transfer's
    indices cover: they cover the page, or a block of the rows of a
    row-major page from `row` on."""
    row = _int_attr(op, "row")
    if not row:
        return 0
    return page.offset_of((row, *[0] * (len(page.shape) - 1))) * page.element_bytes


def _page_type(buffer: ir.Value) -> ir.Type:
    return CircularBufferType(buffer.type).page_type


def _attribute_number(attribute: ir.Attribute) -> int | float:
    if isinstance(attribute, ir.BoolAttr):
        return int(ir.BoolAttr(attribute).value)
    if isinstance(attribute, ir.IntegerAttr):
        return ir.IntegerAttr(attribute).value
    return ir.FloatAttr(attribute).value


def _dense_values(attribute: ir.DenseElementsAttr) -> list[int | float]:
    element_type = ir.ShapedType(attribute.type).element_type
    elements: ir.DenseIntElementsAttr | ir.DenseFPElementsAttr
    if isinstance(element_type, ir.IntegerType):
        elements = ir.DenseIntElementsAttr(attribute)
    else:
        elements = ir.DenseFPElementsAttr(attribute)
    return [elements[index] for index in range(len(elements))]


def _where(value: ir.Value) -> ir.Operation:
    if isinstance(value, ir.BlockArgument):
        return value.owner.region.owner.operation
    return value.owner.operation


#: The most DMA instructions one transfer of more than ``MAX_DIMS``
#: dimensions is split into.
MAX_SPLIT_TRANSFERS = 4096


@dataclass
class _Dim:
    """A dimension of a strided transfer: its size, its stride in global
    memory (elements; an int when constant), its strides in the page and the
    mask tile (elements), and its upper bound (a register) if bounded."""

    size: int
    stride: Reg | int
    page_stride: int
    mask_stride: int
    bound: Reg | int | None


@dataclass(frozen=True)
class _Window:
    """One DMA instruction of a strided transfer: the byte address of its
    first element, the byte offsets of its part of the page and of the mask,
    and its shape, strides and bounds in storage order."""

    address: Reg
    page_offset: int
    mask_offset: int
    shape: list[int]
    strides: list[Reg | int]
    lo: list[Reg | int] | None
    hi: list[Reg | int] | None


def _constant(value: ir.Value) -> int | None:
    """The value of an integer defined by ``arith.constant``, if it is one."""
    owner = value.owner
    if not isinstance(owner, ir.Operation | ir.OpView) or owner.name != "arith.constant":
        return None
    attribute = owner.attributes["value"]
    return ir.IntegerAttr(attribute).value if isinstance(attribute, ir.IntegerAttr) else None


def _merge_contiguous(dims: list[_Dim]) -> list[_Dim]:
    """``dims`` (slowest first) without unbounded size-1 dimensions and with
    each unbounded dimension merged into the next faster unbounded one where
    global memory and the page (and the mask) both step over the faster one
    contiguously."""
    kept = [dim for dim in dims if dim.size != 1 or dim.bound is not None] or dims[-1:]
    merged: list[_Dim] = []
    for dim in reversed(kept):
        if merged:
            inner = merged[-1]
            if (dim.bound is None and inner.bound is None
                    and isinstance(dim.stride, int) and isinstance(inner.stride, int)
                    and dim.stride == inner.stride * inner.size
                    and dim.page_stride == inner.page_stride * inner.size
                    and dim.mask_stride == inner.mask_stride * inner.size):
                merged[-1] = _Dim(dim.size * inner.size, inner.stride, inner.page_stride,
                                  inner.mask_stride, None)
                continue
        merged.append(replace(dim))
    return list(reversed(merged))


def _shifted(slot: Slot | None, offset: int) -> Slot | None:
    """``slot`` moved ``offset`` bytes into its page."""
    return None if slot is None else replace(slot, offset=slot.offset + offset)
