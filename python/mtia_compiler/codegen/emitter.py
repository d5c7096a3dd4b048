"""The program stage's driver: the kernel's signature, local-memory plan,
control flow and scalar code (tile, CB and DMA operations are in
tile_ops.py)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from mtia_compiler import ir
from mtia_compiler.dialects.cb import CircularBufferType
from mtia_compiler.dialects.tt import PointerType, TensorDescType
from mtia_compiler.program import CB, DTYPE_BYTES, FReg, Label, ProgramBuilder, Reg, Unit

from .buffers import CB_ALIGNMENT, BufferDeclaration, fit_buffers
from .common import element_dtype, file_location, is_tile, located_error, op_name, round_up
from .scalars import (
    CASTS,
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    FLOAT_BINARY,
    FLOAT_UNARY,
    INT_BINARY,
    ScalarEmitter,
    float_dtype,
    integer_width,
    pointee_dtype,
)
from .storage import (
    CopySite,
    StoragePlan,
    StoragePlanner,
    branch_targets,
    check_units,
    folded_splats,
    tile_homes,
)
from .tile_ops import ATOMICS, TileOpEmitter
from .units import BufferRoles, resolve_buffer_roles, segments, walk
from .values import Buffer, FloatScalar, IntScalar, PointerScalar, Scalar, Value

PAGE_ALIGNMENT = 32


def kernel_function(module: ir.Module) -> ir.Operation:
    """The module's one public `tt.func`."""
    kernels = [op.operation for op in module.body.operations
               if op_name(op) == "tt.func" and _visibility(op.operation) != "private"]
    if len(kernels) != 1:
        where = kernels[1] if len(kernels) > 1 else module.operation
        raise located_error(where, f"expected one public tt.func, found {len(kernels)}")
    return kernels[0]


def _visibility(op: ir.Operation) -> str:
    if "sym_visibility" in op.attributes:
        return ir.StringAttr(op.attributes["sym_visibility"]).value
    return "public"


#: tt.MemSemantic values (dialects/TT/TTAttrs.td) by their program-format names.
MEMORY_SEMANTICS = {1: "relaxed", 2: "acquire", 3: "release", 4: "acq_rel"}
#: tt.RMWOp values (dialects/TT/TTAttrs.td) by their names.
RMW_KINDS = {1: "and", 2: "or", 3: "xor", 4: "add", 5: "fadd", 6: "max", 7: "min", 8: "umax",
             9: "umin", 10: "exch"}


class KernelEmitter(TileOpEmitter):
    """Translates one kernel into a ProgramBuilder."""

    def __init__(self, kernel: ir.Operation, target: Any) -> None:
        name = ir.StringAttr(kernel.attributes["sym_name"]).value
        super().__init__(ProgramBuilder(name))
        self.kernel = kernel
        self.target = target
        self.scalars = ScalarEmitter(self.b)
        self.values: dict[ir.Value, Value] = {}
        self.ops = walk(kernel)
        self.roles: BufferRoles = resolve_buffer_roles(self.ops)
        self.folded_splats = folded_splats(self.ops)
        self.homes = {value: unit for value, unit in tile_homes(self.ops, self.roles).items()
                      if value not in self.folded_splats}
        check_units(self.ops, self.roles, self.homes)
        self.plan: StoragePlan = StoragePlanner(kernel, self.ops, self.roles, self.homes,
                                                 self.folded_splats).plan()
        self.scratch: dict[Unit, CB] = {}
        self.dpe_zeros: CB | None = None
        self.block_labels: dict[ir.Block, Label] = {}

    # -- setup ------------------------------------------------------------------

    def emit(self) -> bytes:
        entry = self.kernel.regions[0].blocks[0]
        with self.b.location(file_location(self.kernel.location)):
            self._declare_parameters(entry)
            self._declare_buffers()
            self._check_local_memory()
            self._prologue()
        self._emit_region(self.kernel.regions[0])
        return self.b.build()

    def _declare_parameters(self, entry: ir.Block) -> None:
        for index, argument in enumerate(entry.arguments):
            location = argument.location
            name = location.name_str if location.is_a_name() else f"arg{index}"
            value_type = argument.type
            where = self.kernel
            if PointerType.isinstance(value_type):
                dtype = pointee_dtype(value_type, where)
                self.values[argument] = PointerScalar(self.b.param(self.b.param_ptr(name, dtype)),
                                                      dtype)
            elif TensorDescType.isinstance(value_type):
                block = ir.RankedTensorType(TensorDescType(value_type).block_type)
                dtype = element_dtype(block.element_type, where)
                self.values[argument] = PointerScalar(self.b.param(self.b.param_ptr(name, dtype)),
                                                      dtype)
            elif (width := integer_width(value_type)) is not None:
                self.values[argument] = IntScalar(self.b.param(self.b.param_int(name)), width)
            elif isinstance(value_type, ir.FloatType):
                dtype = float_dtype(value_type, where)
                reg = self.b.fparam(self.b.param_float(name))
                if dtype in ("f16", "bf16", "f32"):
                    # The host passes a double: the kernel sees it rounded to its type.
                    reg = self.scalars.round_to(reg, dtype, where)
                self.values[argument] = FloatScalar(reg, dtype)
            else:
                raise located_error(location, f"kernel argument '{name}' of type {value_type} "
                                    "is not supported")

    def _declare_buffers(self) -> None:
        declared = []
        for op in self.ops:
            if op_name(op) != "cb.alloc":
                continue
            buffer_type = CircularBufferType(op.results[0].type)
            page_bytes = round_up(max(int(buffer_type.page_type.size_in_bytes), 1),
                                   PAGE_ALIGNMENT)
            declared.append(BufferDeclaration([op.results[0]],
                                              ir.StringAttr(op.attributes["name"]).value,
                                              page_bytes, int(buffer_type.num_pages)))
        scratch = [(unit, round_up(size, PAGE_ALIGNMENT)) for unit, size in
                   sorted(self.plan.scratch_bytes.items(), key=lambda item: item[0].value)]
        dpe_zeros_bytes = self._plan_dpe_zeros()
        fixed_bytes = sum(round_up(size, CB_ALIGNMENT) for _, size in scratch)
        fixed_bytes += round_up(dpe_zeros_bytes, CB_ALIGNMENT)
        capacity = self.target.to_dict()["local_memory_bytes"]
        for buffer in fit_buffers(self.kernel, self.ops, self.roles, declared, fixed_bytes,
                                  capacity):
            cb = self.b.cb(buffer.name, buffer.page_bytes, buffer.pages)
            for result in buffer.results:
                self.values[result] = Buffer(cb, self.roles.producer[result],
                                             self.roles.consumer[result])
        for unit, size in scratch:
            self.scratch[unit] = self.b.cb(f"scratch.{unit.value}", size, pages=1)
        if dpe_zeros_bytes:
            self.dpe_zeros = self.b.cb("dpe.zeros", dpe_zeros_bytes, pages=1)

    def _plan_dpe_zeros(self) -> int:
        """The bytes of the page of zeros the DPE copies and clears tiles with
        (0: none)."""
        dpe_copies = [site for site in self.plan.copy_sites
                      if self.plan.needs_copy(site) and self.homes[site.source] == Unit.DPE]
        cleared = [op.results[0] for op in self.ops if op_name(op) == "tile.zeros"
                   and op.results[0] not in self.folded_splats]
        if not dpe_copies and not cleared:
            return 0
        shapes = [self.copy_matrix(site.source) for site in dpe_copies]
        shapes += [self.zero_matrix(value) for value in cleared]
        # +0.0 rows (read as bf16 zeros, or i8 zeros for integer copies),
        # then bf16 -0.0 columns.
        self.dpe_positive_zeros = max(max(shape) for shape in shapes)
        self.dpe_negative_zeros = max(columns for _, columns in shapes)
        self.dpe_negative_zeros_offset = round_up(4 * self.dpe_positive_zeros, 8)
        page_bytes = self.dpe_negative_zeros_offset + 2 * self.dpe_negative_zeros
        return round_up(page_bytes, PAGE_ALIGNMENT)

    def _check_local_memory(self) -> None:
        description = self.target.to_dict()
        cbs = self.b.to_json()["cbs"]
        sizes = [(cb["name"], round_up(cb["pages"] * cb["page_bytes"], CB_ALIGNMENT))
                 for cb in cbs]
        total = sum(size for _, size in sizes)
        capacity = description["local_memory_bytes"]
        listing = ", ".join(f"'{name}' {size} B" for name, size in sizes)
        if total > capacity:
            raise located_error(self.kernel, f"the local-memory plan needs {total} bytes but a "
                                f"PE of {description['name']} has {capacity}: {listing}")
        if len(cbs) > description["circular_buffers"]:
            raise located_error(self.kernel, f"the kernel needs {len(cbs)} circular buffers but "
                                f"the command processor tracks {description['circular_buffers']}"
                                f": {listing}")

    def _prologue(self) -> None:
        """Reserves every unit's scratch page and, when DPE tiles are copied,
        fills the DPE's zero operands (+0.0 rows, then -0.0 columns, so that
        `acc + 0 × -0` is exactly `acc`)."""
        for unit, cb in self.scratch.items():
            self.b.reserve(unit, cb)
        if self.dpe_zeros is not None:
            zeros = self.dpe_zeros
            self.b.reserve(Unit.SIMD, zeros)
            self.b.simd_fill("f32", zeros.back(), self.dpe_positive_zeros, 0.0)
            self.b.simd_fill("bf16", zeros.back(offset=self.dpe_negative_zeros_offset),
                             self.dpe_negative_zeros, -0.0)
            self.b.push(Unit.SIMD, zeros)
            self.b.wait(Unit.DPE, zeros)

    def _epilogue(self) -> None:
        if self.dpe_zeros is not None:
            self.b.pop(Unit.DPE, self.dpe_zeros)

    # -- regions and control flow ---------------------------------------------------

    def _emit_region(self, region: ir.Region) -> None:
        """Emits a region's blocks in order; multi-block regions get labels."""
        blocks = list(region.blocks)
        if len(blocks) > 1:
            for block in blocks:
                self.block_labels[block] = self.b.label()
                for argument in block.arguments:
                    if block != blocks[0] or region != self.kernel.regions[0]:
                        self._bind_fresh(argument, region.owner.operation)
        for block in blocks:
            if len(blocks) > 1:
                self.b.bind(self.block_labels[block])
            self._emit_block(block)

    def _emit_block(self, block: ir.Block) -> None:
        for child in block.operations:
            op = child.operation
            with self.b.location(file_location(op.location)):
                self._emit_op(op)

    def _bind_fresh(self, value: ir.Value, where: ir.Operation) -> None:
        """Gives a carried scalar value its own register (tiles have storage)."""
        if is_tile(value.type):
            return
        value_type = value.type
        if PointerType.isinstance(value_type):
            self.values[value] = PointerScalar(self.b.ireg(), pointee_dtype(value_type, where))
        elif (width := integer_width(value_type)) is not None:
            self.values[value] = IntScalar(self.b.ireg(), width)
        elif isinstance(value_type, ir.FloatType):
            self.values[value] = FloatScalar(self.b.freg(), float_dtype(value_type, where))
        else:
            raise located_error(where, f"a carried value of type {value_type} is not supported")

    def _share(self, target: ir.Value, source: ir.Value) -> None:
        """Makes `target` name the registers of `source` (results of loops)."""
        if not is_tile(source.type):
            self.values[target] = self.values[source]

    def _move_values(self, where: ir.Operation, sources: Sequence[ir.Value],
                     targets: Sequence[ir.Value]) -> None:
        """Parallel copy of scalars and tiles into the storage of `targets`."""
        moves: list[tuple[Reg | FReg, Reg | FReg]] = []
        tile_moves: list[tuple[ir.Value, ir.Value]] = []
        for source, target in zip(sources, targets, strict=True):
            if is_tile(source.type):
                tile_moves.append((source, target))
                continue
            source_value = self.scalar(source, where)
            target_value = self.scalar(target, where)
            if source_value.reg != target_value.reg:
                moves.append((source_value.reg, target_value.reg))
        destinations = {target for _, target in moves}
        if any(source in destinations for source, _ in moves):
            moves = [(self._copy_register(source), target) for source, target in moves]
        for source, target in moves:
            if isinstance(source, FReg) and isinstance(target, FReg):
                self.b.fmov(source, dst=target)
            elif isinstance(source, Reg) and isinstance(target, Reg):
                self.b.mov(source, dst=target)
        self._move_tiles(where, tile_moves)

    def _copy_register(self, reg: Reg | FReg) -> Reg | FReg:
        return self.b.fmov(reg) if isinstance(reg, FReg) else self.b.mov(reg)

    def _move_tiles(self, where: ir.Operation, moves: list[tuple[ir.Value, ir.Value]]) -> None:
        pending = [(source, target) for source, target in moves
                   if self.plan.needs_copy(CopySite(where, source, target))]
        targets = {id(self.plan.storage[target]) for _, target in pending}
        for source, _ in pending:
            if id(self.plan.storage[source]) in targets:
                raise located_error(where, "loop-carried tiles that exchange their storage "
                                    "are not supported")
        for source, target in pending:
            self.copy_tile(source, self.plan.storage[target], where)

    def _emit_for(self, op: ir.Operation) -> None:
        lower, upper, step = (self.int_scalar(value, op) for value in list(op.operands)[:3])
        inits = list(op.operands)[3:]
        body = op.regions[0].blocks[0]
        induction = IntScalar(self.b.mov(lower.reg), lower.width)
        self.values[body.arguments[0]] = induction
        carried = list(body.arguments)[1:]
        for argument in carried:
            self._bind_fresh(argument, op)
        self._move_values(op, inits, carried)
        top, done = self.b.label(), self.b.label()
        self.b.bind(top)
        predicate = "ult" if "unsignedCmp" in op.attributes else "slt"
        self.b.branch_if_zero(self.scalars.compare(predicate, induction, upper), done)
        self._emit_body(body)
        with self.b.location(file_location(op.location)):
            next_value = self.scalars.integer_binary("add", induction, step, op)
            self.b.mov(next_value, dst=induction.reg)
            self.b.jump(top)
            self.b.bind(done)
        for result, argument in zip(op.results, carried, strict=True):
            self._share(result, argument)

    def _emit_body(self, block: ir.Block) -> None:
        """Emits a single-block region up to its terminator, which the caller
        handles (scf.yield and scf.condition move values)."""
        operations = [child.operation for child in block.operations]
        for op in operations[:-1]:
            with self.b.location(file_location(op.location)):
                self._emit_op(op)
        terminator = operations[-1]
        with self.b.location(file_location(terminator.location)):
            if op_name(terminator) == "scf.yield":
                parent = block.region.owner.operation
                self._move_values(terminator, list(terminator.operands),
                                  self._yield_targets(parent, block))
            elif op_name(terminator) != "scf.condition":
                raise located_error(terminator, f"unexpected terminator '{op_name(terminator)}'")

    @staticmethod
    def _yield_targets(parent: ir.Operation, block: ir.Block) -> list[ir.Value]:
        name = op_name(parent)
        if name == "scf.for":
            return list(block.arguments)[1:]
        if name == "scf.while":
            return list(parent.regions[0].blocks[0].arguments)
        return list(parent.results)

    def _emit_if(self, op: ir.Operation) -> None:
        condition = self.int_scalar(op.operands[0], op)
        for result in op.results:
            self._bind_fresh(result, op)
        otherwise, done = self.b.label(), self.b.label()
        self.b.branch_if_zero(condition.reg, otherwise)
        self._emit_body(op.regions[0].blocks[0])
        self.b.jump(done)
        self.b.bind(otherwise)
        if list(op.regions[1].blocks):
            self._emit_body(op.regions[1].blocks[0])
        self.b.bind(done)

    def _emit_while(self, op: ir.Operation) -> None:
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        for argument in before.arguments:
            self._bind_fresh(argument, op)
        for result, argument in zip(op.results, after.arguments, strict=True):
            self._bind_fresh(result, op)
            self._share(argument, result)
        self._move_values(op, list(op.operands), list(before.arguments))
        top, done = self.b.label(), self.b.label()
        self.b.bind(top)
        self._emit_body(before)
        condition_op = list(before.operations)[-1].operation
        with self.b.location(file_location(condition_op.location)):
            condition = self.int_scalar(condition_op.operands[0], condition_op)
            self._move_values(condition_op, list(condition_op.operands)[1:], list(op.results))
            self.b.branch_if_zero(condition.reg, done)
        self._emit_body(after)
        self.b.jump(top)
        self.b.bind(done)

    def _emit_branch(self, op: ir.Operation) -> None:
        targets = branch_targets(op)
        if op_name(op) == "cf.br":
            block, operands = targets[0]
            self._move_values(op, operands, list(block.arguments))
            self.b.jump(self.block_labels[block])
            return
        condition = self.int_scalar(op.operands[0], op)
        otherwise = self.b.label()
        self.b.branch_if_zero(condition.reg, otherwise)
        for index, (block, operands) in enumerate(targets):
            if index == 1:
                self.b.bind(otherwise)
            self._move_values(op, operands, list(block.arguments))
            self.b.jump(self.block_labels[block])

    # -- operations ---------------------------------------------------------------

    def _emit_op(self, op: ir.Operation) -> None:
        name = op_name(op)
        handler = self._handlers.get(name)
        if handler is not None:
            handler(op)
        elif name in INT_BINARY or name in FLOAT_BINARY:
            self._emit_binary(op)
        elif name in FLOAT_UNARY:
            self._bind(op, FloatScalar(self.scalars.float_unary(
                FLOAT_UNARY[name], self.float_scalar(op.operands[0], op), op),
                self.float_scalar(op.operands[0], op).dtype))
        elif name in CASTS:
            self._bind(op, self.scalars.cast(op, self.scalar(op.operands[0], op)))
        elif self.handles_tile_op(name):
            self.emit_tile_op(op)
        else:
            raise located_error(op, f"operation '{name}' is not supported by the program stage")

    @functools.cached_property
    def _handlers(self) -> dict[str, Any]:
        return {
            "arith.constant": lambda op: self._bind(op, self.scalars.constant(op)),
            "arith.cmpi": self._emit_cmpi,
            "arith.cmpf": self._emit_cmpf,
            "arith.select": self._emit_select,
            "math.fma": self._emit_fma,
            "math.absi": lambda op: self._bind(op, IntScalar(
                self.scalars.abs_int(self.int_scalar(op.operands[0], op)),
                self.int_scalar(op.operands[0], op).width)),
            "tt.get_program_id": lambda op: self._bind(op, IntScalar(
                self.b.program_id(_axis(op)), 32)),
            "tt.get_num_programs": lambda op: self._bind(op, IntScalar(
                self.b.num_programs(_axis(op)), 32)),
            "tt.addptr": self._emit_addptr,
            "tt.load": self._emit_load,
            "tt.store": self._emit_store,
            "tt.atomic_cas": self._emit_atomic_cas,
            "tt.atomic_rmw": self._emit_atomic_rmw,
            "tt.print": self._emit_print,
            "tt.assert": self._emit_assert,
            "tt.return": self._emit_return,
            "scf.for": self._emit_for,
            "scf.if": self._emit_if,
            "scf.while": self._emit_while,
            "cf.br": self._emit_branch,
            "cf.cond_br": self._emit_branch,
        }

    def _bind(self, op: ir.Operation, value: Value) -> None:
        self.values[op.results[0]] = value

    def _emit_fma(self, op: ir.Operation) -> None:
        a, b, c = (self.float_scalar(value, op) for value in op.operands)
        self._bind(op, FloatScalar(self.scalars.float_fma(a, b, c, op), a.dtype))

    def _emit_binary(self, op: ir.Operation) -> None:
        name = op_name(op)
        lhs, rhs = (self.scalar(value, op) for value in op.operands)
        if name in INT_BINARY and isinstance(lhs, IntScalar) and isinstance(rhs, IntScalar):
            reg = self.scalars.integer_binary(INT_BINARY[name], lhs, rhs, op)
            self._bind(op, IntScalar(reg, lhs.width))
        elif name in FLOAT_BINARY and isinstance(lhs, FloatScalar) and \
                isinstance(rhs, FloatScalar):
            self._bind(op, FloatScalar(self.scalars.float_binary(FLOAT_BINARY[name], lhs, rhs,
                                                                 op), lhs.dtype))
        else:
            raise located_error(op, f"'{name}' on these operand types is not supported")

    def _emit_cmpi(self, op: ir.Operation) -> None:
        predicate = CMPI_PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
        lhs, rhs = (self.scalar(value, op) for value in op.operands)
        if isinstance(lhs, FloatScalar) or isinstance(rhs, FloatScalar):
            raise located_error(op, "arith.cmpi needs integer operands")
        self._bind(op, IntScalar(self.scalars.compare(predicate, IntScalar(lhs.reg, _width(lhs)),
                                                      IntScalar(rhs.reg, _width(rhs))), 1))

    def _emit_cmpf(self, op: ir.Operation) -> None:
        code = ir.IntegerAttr(op.attributes["predicate"]).value
        lhs, rhs = (self.float_scalar(value, op) for value in op.operands)
        if code in (0, 15):
            self._bind(op, IntScalar(self.b.const(int(code == 15)), 1))
            return
        dtype = "f64" if lhs.dtype == "f64" else "f32"
        self._bind(op, IntScalar(self.b.fcmp(CMPF_PREDICATES[code], lhs.reg, rhs.reg, dtype), 1))

    def _emit_select(self, op: ir.Operation) -> None:
        if is_tile(op.results[0].type):
            raise located_error(op, "arith.select on tiles must be tile.select")
        condition = self.int_scalar(op.operands[0], op)
        first, second = (self.scalar(value, op) for value in list(op.operands)[1:])
        if isinstance(first, FloatScalar) and isinstance(second, FloatScalar):
            self._bind(op, FloatScalar(self.b.fselect(condition.reg, first.reg, second.reg),
                                       first.dtype))
        elif isinstance(first.reg, Reg) and isinstance(second.reg, Reg):
            reg = self.b.select(condition.reg, first.reg, second.reg)
            self._bind(op, PointerScalar(reg, first.dtype) if isinstance(first, PointerScalar)
                       else IntScalar(reg, _width(first)))

    def _emit_addptr(self, op: ir.Operation) -> None:
        base = self.pointer(op.operands[0], op)
        offset = self.int_scalar(op.operands[1], op)
        scaled = self.b.mul(offset.reg, DTYPE_BYTES[base.dtype])
        self._bind(op, PointerScalar(self.b.add(base.reg, scaled), base.dtype))

    def _emit_load(self, op: ir.Operation) -> None:
        operands = segments(op)
        address = self.pointer(operands[0][0], op)
        result_type = op.results[0].type
        if is_tile(result_type):
            raise located_error(op, "tt.load of a tile must be lowered to DMA before the "
                                "program stage")
        mask = operands[1][0] if len(operands) > 1 and operands[1] else None
        other = operands[2][0] if len(operands) > 2 and operands[2] else None
        if mask is None:
            loaded = self.b.load_scalar(address.reg, address.dtype)
        else:
            loaded = self._masked_load(op, address, mask, other)
        self._bind(op, _scalar_of(loaded, result_type, op))

    def _masked_load(self, op: ir.Operation, address: PointerScalar, mask: ir.Value,
                     other: ir.Value | None) -> Reg | FReg:
        floating = address.dtype.startswith(("f", "bf"))
        if other is not None:
            result = self._copy_register(self.scalar(other, op).reg)
        else:
            result = self.b.fconst(0.0) if floating else self.b.const(0)
        skip = self.b.label()
        self.b.branch_if_zero(self.int_scalar(mask, op).reg, skip)
        loaded = self.b.load_scalar(address.reg, address.dtype)
        if isinstance(loaded, FReg) and isinstance(result, FReg):
            self.b.fmov(loaded, dst=result)
        elif isinstance(loaded, Reg) and isinstance(result, Reg):
            self.b.mov(loaded, dst=result)
        self.b.bind(skip)
        return result

    def _emit_store(self, op: ir.Operation) -> None:
        operands = list(op.operands)
        if is_tile(operands[1].type):
            raise located_error(op, "tt.store of a tile must be lowered to DMA before the "
                                "program stage")
        address = self.pointer(operands[0], op)
        value = self.scalar(operands[1], op)
        skip = self.b.label()
        if len(operands) > 2:
            self.b.branch_if_zero(self.int_scalar(operands[2], op).reg, skip)
        self.b.store_scalar(address.reg, value.reg, address.dtype)
        self.b.bind(skip)

    def _emit_atomic_cas(self, op: ir.Operation) -> None:
        """A scalar compare-and-swap runs on the control core (``amo``)."""
        if is_tile(op.results[0].type):
            raise located_error(op, "tt.atomic_cas of a tile must be lowered to DMA before the "
                                "program stage")
        address = self.pointer(op.operands[0], op)
        compare = self.scalar(op.operands[1], op)
        value = self.scalar(op.operands[2], op)
        sem = MEMORY_SEMANTICS[ir.IntegerAttr(op.attributes["sem"]).value]
        old = self.b.atomic_scalar("cas", address.reg, value.reg, address.dtype, sem,
                                   cmp=compare.reg)
        self._bind(op, _scalar_of(old, op.results[0].type, op))

    def _emit_atomic_rmw(self, op: ir.Operation) -> None:
        """A scalar read-modify-write whose old value is used runs on the
        control core (``amo``), under its mask."""
        if is_tile(op.results[0].type):
            raise located_error(op, "tt.atomic_rmw of a tile must be lowered to DMA before the "
                                "program stage")
        operands = list(op.operands)
        address = self.pointer(operands[0], op)
        value = self.scalar(operands[1], op)
        mask = self.int_scalar(operands[2], op).reg if len(operands) > 2 else None
        kind = RMW_KINDS[ir.IntegerAttr(op.attributes["atomic_rmw_op"]).value]
        sem = MEMORY_SEMANTICS[ir.IntegerAttr(op.attributes["sem"]).value]
        old = self.b.atomic_scalar(ATOMICS[kind], address.reg, value.reg, address.dtype, sem,
                                   mask=mask)
        self._bind(op, _scalar_of(old, op.results[0].type, op))

    def _emit_print(self, op: ir.Operation) -> None:
        prefix = ir.StringAttr(op.attributes["prefix"]).value
        hexadecimal = ir.BoolAttr(op.attributes["hex"]).value
        signed = list(ir.DenseI32ArrayAttr(op.attributes["isSigned"]))
        operands = list(op.operands)
        if hexadecimal:
            raise located_error(op, "hexadecimal printing of scalars is not supported")
        if len(operands) > 4:
            raise located_error(op, "the control core prints at most 4 scalars at once")
        arguments: list[Reg | FReg] = []
        for index, value in enumerate(operands):
            scalar = self.scalar(value, op)
            if isinstance(scalar, IntScalar) and index < len(signed) and not signed[index]:
                arguments.append(self.scalars.zero_extended(scalar.reg, scalar.width))
            else:
                arguments.append(scalar.reg)
        self.b.print(prefix, *arguments)

    def _emit_assert(self, op: ir.Operation) -> None:
        message = ir.StringAttr(op.attributes["message"]).value
        self.b.assert_(self.int_scalar(op.operands[0], op).reg, message)

    def _emit_return(self, op: ir.Operation) -> None:
        if list(op.operands):
            raise located_error(op, "a kernel cannot return values")
        self._epilogue()
        self.b.end()


def _width(value: Scalar) -> int:
    return value.width if isinstance(value, IntScalar) else 64


def _axis(op: ir.Operation) -> int:
    return ir.IntegerAttr(op.attributes["axis"]).value


def _scalar_of(reg: Reg | FReg, value_type: ir.Type, where: ir.Operation) -> Scalar:
    if isinstance(reg, FReg):
        return FloatScalar(reg, float_dtype(value_type, where))
    if PointerType.isinstance(value_type):
        return PointerScalar(reg, pointee_dtype(value_type, where))
    width = integer_width(value_type)
    if width is None:
        raise located_error(where, f"cannot load a scalar of type {value_type}")
    return IntScalar(reg, width)

