"""The program stage's driver: the kernel's signature, local-memory plan,
control flow and scalar code (tile, CB and DMA operations are in
tile_ops.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from mlir.dialects import arith, cf, math, scf

from mtia_compiler import ir
from mtia_compiler.dialects import dma, tile, tt, ttg
from mtia_compiler.dialects.cb import AllocOp, CircularBufferType, PopFrontOp
from mtia_compiler.dialects.tile import TileType
from mtia_compiler.dialects.tt import PointerType, TensorDescType
from mtia_compiler.errors import LocalMemoryError, PlanLimitError
from mtia_compiler.program import DTYPE_BYTES, FReg, Label, ProgramBuilder, Reg, Unit

from .buffers import BufferDeclaration, fit_buffers
from .common import (
    element_dtype,
    file_location,
    float_predicate,
    is_tile,
    located_error,
    op_name,
    round_up,
    view_as,
)
from .scalars import (
    CASTS,
    FLOAT_BINARY,
    FLOAT_UNARY,
    INT_BINARY,
    ScalarEmitter,
    float_dtype,
    integer_width,
    pointee_dtype,
)
from .storage import (
    PAGE_READ_SIDES,
    CopySite,
    StoragePlan,
    StoragePlanner,
    branch_targets,
    check_units,
    describe_range,
    folded_splats,
    peak_live_ranges,
    tile_homes,
)
from .tile_ops import (
    ATOMICS,
    PE_GROUP_AXES,
    FixedBuffers,
    TileOpEmitter,
    dpe_copy_matrix,
    dpe_zero_matrix,
)
from .units import BufferRoles, resolve_buffer_roles, walk
from .values import Buffer, FloatScalar, IntScalar, PointerScalar, Scalar, Value, ValueTable


def kernel_function(module: ir.Module) -> ir.Operation:
    """The module's one public `tt.func`."""
    kernels = [op.operation for op in module.body.operations
               if isinstance(op, tt.FuncOp) and _visibility(op) != "private"]
    if len(kernels) != 1:
        where = kernels[1] if len(kernels) > 1 else module.operation
        raise located_error(where, f"expected one public tt.func, found {len(kernels)}")
    return kernels[0]


def _visibility(function: tt.FuncOp) -> str:
    if function.sym_visibility is None:
        return "public"
    return ir.StringAttr(function.sym_visibility).value


def _memory_semantic(attribute: ir.Attribute) -> str:
    """The program-format name of a `tt.MemSemantic` (its IR spelling)."""
    return str(tt.MemSemantic(ir.IntegerAttr(attribute).value))


class KernelEmitter:
    """Translates one kernel into a ProgramBuilder: the signature, the
    local-memory plan, control flow and scalar code here, the tile, cb and
    dma operations through its TileOpEmitter."""

    def __init__(self, kernel: ir.Operation, target: Any) -> None:
        name = ir.StringAttr(view_as(kernel, tt.FuncOp).sym_name).value
        self.b = ProgramBuilder(name)
        if "mtia.program_order" in kernel.attributes:
            self.b.program_order = ir.StringAttr(kernel.attributes["mtia.program_order"]).value
        if "mtia.program_order_axis" in kernel.attributes:
            self.b.program_order_axis = ir.IntegerAttr(
                kernel.attributes["mtia.program_order_axis"]).value
        self.kernel = kernel
        self.target = target
        description = target.to_dict()
        # Buffers start at the CB alignment, and pages are whole DMA
        # alignment units, so that every page is a DMA-aligned address.
        self.cb_alignment: int = description["cb_alignment_bytes"]
        self.page_alignment: int = description["dma_alignment_bytes"]
        self.scalars = ScalarEmitter(self.b)
        self.values = ValueTable()
        self.ops = walk(kernel)
        self.roles: BufferRoles = resolve_buffer_roles(self.ops)
        self.folded_splats = folded_splats(self.ops)
        self.homes = {value: unit for value, unit in tile_homes(self.ops).items()
                      if value not in self.folded_splats}
        check_units(self.ops, self.roles, self.homes)
        self.plan: StoragePlan = StoragePlanner(kernel, self.ops, self.roles, self.homes,
                                                 self.folded_splats).plan()
        self.fixed = FixedBuffers()
        self.tiles = TileOpEmitter(self.b, self.values, self.plan, self.homes, self.folded_splats,
                                   self.fixed)
        self.block_labels: dict[ir.Block, Label] = {}
        # The next program on the PE reuses the scratch: the program's
        # transfers end before it does.
        self.uses_scratch = any(isinstance(op.opview, dma.ScratchOp) for op in self.ops)

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
            if op.name != AllocOp.OPERATION_NAME:
                continue
            alloc = view_as(op, AllocOp)
            buffer_type = CircularBufferType(op.results[0].type)
            page_bytes = round_up(max(TileType(buffer_type.page_type).size_in_bytes, 1),
                                   self.page_alignment)
            declared.append(BufferDeclaration([op.results[0]],
                                              ir.StringAttr(alloc.name).value,
                                              page_bytes, int(buffer_type.num_pages),
                                              ir.IntegerAttr(alloc.run_ahead_pages).value,
                                              self.cb_alignment))
        scratch = [(unit, round_up(size, self.page_alignment)) for unit, size in
                   sorted(self.plan.scratch_bytes.items(), key=lambda item: item[0].value)]
        dpe_zeros_bytes = self._plan_dpe_zeros()
        fixed_bytes = sum(round_up(size, self.cb_alignment) for _, size in scratch)
        fixed_bytes += round_up(dpe_zeros_bytes, self.cb_alignment)
        capacity = self.target.to_dict()["local_memory_bytes"]
        for buffer in fit_buffers(self.kernel, self.ops, self.roles, declared, fixed_bytes,
                                  capacity):
            cb = self.b.cb(buffer.name, buffer.page_bytes, buffer.pages)
            for result in buffer.results:
                self.values[result] = Buffer(cb, self.roles.producer[result],
                                             self.roles.consumer[result])
        for unit, size in scratch:
            self.fixed.scratch[unit] = self.b.cb(f"scratch.{unit.value}", size, pages=1)
        if dpe_zeros_bytes:
            self.fixed.dpe_zeros = self.b.cb("dpe.zeros", dpe_zeros_bytes, pages=1)

    def _plan_dpe_zeros(self) -> int:
        """The bytes of the page of zeros the DPE copies and clears tiles with
        (0: none)."""
        dpe_copies = [site for site in self.plan.copy_sites
                      if self.plan.needs_copy(site) and self.homes[site.source] == Unit.DPE]
        cleared = [op.results[0] for op in self.ops if op.name == tile.ZerosOp.OPERATION_NAME
                   and op.results[0] not in self.folded_splats]
        if not dpe_copies and not cleared:
            return 0
        shapes = [dpe_copy_matrix(site.source) for site in dpe_copies]
        shapes += [dpe_zero_matrix(value) for value in cleared]
        # +0.0 rows (read as bf16 zeros, or i8 zeros for integer copies),
        # then bf16 -0.0 columns.
        self.fixed.dpe_positive_zeros = max(max(shape) for shape in shapes)
        self.fixed.dpe_negative_zeros = max(columns for _, columns in shapes)
        self.fixed.dpe_negative_zeros_offset = round_up(4 * self.fixed.dpe_positive_zeros, 8)
        page_bytes = self.fixed.dpe_negative_zeros_offset + 2 * self.fixed.dpe_negative_zeros
        return round_up(page_bytes, self.page_alignment)

    def _check_local_memory(self) -> None:
        description = self.target.to_dict()
        cbs = self.b.to_json()["cbs"]
        sizes = [(cb["name"], round_up(cb["pages"] * cb["page_bytes"], self.cb_alignment))
                 for cb in cbs]
        total = sum(size for _, size in sizes)
        capacity = description["local_memory_bytes"]
        listing = ", ".join(f"'{name}' {size} B" for name, size in sizes)
        if total > capacity:
            peaks = []
            for unit in sorted(self.plan.scratch_bytes, key=lambda unit: unit.value):
                live = ", ".join(describe_range(r) for r in peak_live_ranges(self.plan, unit))
                peaks.append(f"at its peak, the {unit.value} scratch holds {live}")
            raise located_error(self.kernel, f"the local-memory plan needs {total} bytes but a "
                                f"PE of {description['name']} has {capacity}: "
                                + "; ".join([listing, *peaks]), LocalMemoryError)
        if len(cbs) > description["circular_buffers"]:
            raise located_error(self.kernel, f"the kernel needs {len(cbs)} circular buffers but "
                                f"the command processor tracks {description['circular_buffers']}"
                                f": {listing}", PlanLimitError)

    def _prologue(self) -> None:
        """Reserves every unit's scratch page and, when DPE tiles are copied,
        fills the DPE's zero operands (+0.0 rows, then -0.0 columns, so that
        `acc + 0 × -0` is exactly `acc`)."""
        for unit, cb in self.fixed.scratch.items():
            self.b.reserve(unit, cb)
        if self.fixed.dpe_zeros is not None:
            zeros = self.fixed.dpe_zeros
            self.b.reserve(Unit.SIMD, zeros)
            self.b.simd_fill("f32", zeros.back(), self.fixed.dpe_positive_zeros, 0.0)
            self.b.simd_fill("bf16", zeros.back(offset=self.fixed.dpe_negative_zeros_offset),
                             self.fixed.dpe_negative_zeros, -0.0)
            self.b.push(Unit.SIMD, zeros)
            self.b.wait(Unit.DPE, zeros)

    def _epilogue(self) -> None:
        if self.fixed.dpe_zeros is not None:
            self.b.pop(Unit.DPE, self.fixed.dpe_zeros)
        if self.uses_scratch:
            self.b.fence()

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
            self._emit_child(child)

    def _emit_child(self, child: ir.OpView) -> None:
        """Emits an operation of a block, as its view (which iterating the
        block makes), attributed to its source location."""
        op = child.operation
        with self.b.location(file_location(op.location)):
            self._emit_op(op, type(child))

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
            source_value = self.values.scalar(source, where)
            target_value = self.values.scalar(target, where)
            if source_value.reg != target_value.reg:
                moves.append((source_value.reg, target_value.reg))
        destinations = {target_reg for _, target_reg in moves}
        if any(source_reg in destinations for source_reg, _ in moves):
            moves = [(self._copy_register(source_reg), target_reg)
                     for source_reg, target_reg in moves]
        for source_reg, target_reg in moves:
            if isinstance(source_reg, FReg) and isinstance(target_reg, FReg):
                self.b.fmov(source_reg, dst=target_reg)
            elif isinstance(source_reg, Reg) and isinstance(target_reg, Reg):
                self.b.mov(source_reg, dst=target_reg)
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
            self.tiles.copy_tile(source, self.plan.storage[target], where)

    def _emit_for(self, op: ir.Operation) -> None:
        loop = view_as(op, scf.ForOp)
        lower, upper, step = (self.values.int_scalar(value, op)
                              for value in (loop.lowerBound, loop.upperBound, loop.step))
        inits = list(loop.initArgs)
        body = loop.body
        induction = IntScalar(self.b.mov(lower.reg), lower.width)
        self.values[body.arguments[0]] = induction
        carried = list(body.arguments)[1:]
        for argument in carried:
            self._bind_fresh(argument, op)
        self._move_values(op, inits, carried)
        top, done = self.b.label(), self.b.label()
        self.b.bind(top)
        predicate = "ult" if loop.unsignedCmp else "slt"
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
        handles (scf.yield and scf.condition move values). The pops that
        free a page a tile the region yields may live in (those right before
        an scf.yield, and those of a buffer whose page a yielded tile was
        read from, when nothing after them uses that buffer) run after the
        yield's values are moved."""
        children = list(block.operations)
        terminator = children[-1].operation
        body = children[:-1]
        deferred = (self._pops_after_yield(body, terminator)
                    if isinstance(children[-1], scf.YieldOp) else [])
        after_yield = set(deferred)
        for index, child in enumerate(body):
            if index not in after_yield:
                self._emit_child(child)
        with self.b.location(file_location(terminator.location)):
            if isinstance(children[-1], scf.YieldOp):
                parent = block.region.owner.operation
                self._move_values(terminator, list(terminator.operands),
                                  self._yield_targets(parent, block))
            elif not isinstance(children[-1], scf.ConditionOp):
                raise located_error(terminator, f"unexpected terminator '{op_name(terminator)}'")
        for index in deferred:
            self._emit_child(body[index])

    @staticmethod
    def _pops_after_yield(body: list[ir.OpView], terminator: ir.Operation) -> list[int]:
        """The positions in `body` of the pops that run after `terminator`
        (an scf.yield) has moved its values: the trailing ones, and those of
        a buffer a yielded tile was read from that nothing after them uses."""
        yielded_pages = {value.owner.operation.operands[0] for value in terminator.operands
                         if not isinstance(value, ir.BlockArgument)
                         and value.owner.operation.name in PAGE_READ_SIDES}
        deferred = []
        used_later: set[ir.Value] = set()
        trailing = True
        for index in range(len(body) - 1, -1, -1):
            op = body[index].operation
            is_pop = isinstance(body[index], PopFrontOp)
            trailing = trailing and is_pop
            if is_pop and (trailing or (op.operands[0] in yielded_pages and
                                        op.operands[0] not in used_later)):
                deferred.append(index)
            used_later.update(op.operands)
        return deferred[::-1]

    @staticmethod
    def _yield_targets(parent: ir.Operation, block: ir.Block) -> list[ir.Value]:
        loop = parent.opview
        if isinstance(loop, scf.ForOp):
            return list(loop.inner_iter_args)
        if isinstance(loop, scf.WhileOp):
            return list(loop.before.blocks[0].arguments)
        return list(parent.results)

    def _emit_if(self, op: ir.Operation) -> None:
        condition = self.values.int_scalar(op.operands[0], op)
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
            condition = self.values.int_scalar(condition_op.operands[0], condition_op)
            self._move_values(condition_op, list(condition_op.operands)[1:], list(op.results))
            self.b.branch_if_zero(condition.reg, done)
        self._emit_body(after)
        self.b.jump(top)
        self.b.bind(done)

    def _emit_branch(self, op: ir.Operation) -> None:
        targets = branch_targets(op)
        if isinstance(op.opview, cf.BranchOp):
            block, operands = targets[0]
            self._move_values(op, operands, list(block.arguments))
            self.b.jump(self.block_labels[block])
            return
        condition = self.values.int_scalar(op.operands[0], op)
        otherwise = self.b.label()
        self.b.branch_if_zero(condition.reg, otherwise)
        for index, (block, operands) in enumerate(targets):
            if index == 1:
                self.b.bind(otherwise)
            self._move_values(op, operands, list(block.arguments))
            self.b.jump(self.block_labels[block])

    # -- operations ---------------------------------------------------------------

    def _emit_op(self, op: ir.Operation, op_class: type) -> None:
        """Emits `op`, whose generated op class is `op_class`."""
        handler = self._handlers.get(op_class) or self.tiles.handler(op_class)
        if handler is not None:
            handler(op)
        elif op_class in INT_BINARY or op_class in FLOAT_BINARY:
            self._emit_binary(op, op_class)
        elif op_class in FLOAT_UNARY:
            self._bind(op, FloatScalar(self.scalars.float_unary(
                FLOAT_UNARY[op_class], self.values.float_scalar(op.operands[0], op), op),
                self.values.float_scalar(op.operands[0], op).dtype))
        elif op_class in CASTS:
            self._bind(op, self.scalars.cast(op, self.values.scalar(op.operands[0], op)))
        else:
            raise located_error(op, f"operation '{op_name(op)}' is not supported by the "
                                "program stage")

    @functools.cached_property
    def _handlers(self) -> dict[type, Callable[[ir.Operation], None]]:
        """The handler of every control-core operation, by its generated op
        class."""
        return {
            arith.ConstantOp: lambda op: self._bind(op, self.scalars.constant(op)),
            arith.CmpIOp: self._emit_cmpi,
            arith.CmpFOp: self._emit_cmpf,
            arith.SelectOp: self._emit_select,
            math.FmaOp: self._emit_fma,
            math.AbsIOp: lambda op: self._bind(op, IntScalar(
                self.scalars.abs_int(self.values.int_scalar(op.operands[0], op)),
                self.values.int_scalar(op.operands[0], op).width)),
            tt.GetProgramIdOp: lambda op: self._bind(op, IntScalar(
                self.b.program_id(_axis(view_as(op, tt.GetProgramIdOp))), 32)),
            tt.GetNumProgramsOp: lambda op: self._bind(op, IntScalar(
                self.b.num_programs(_axis(view_as(op, tt.GetNumProgramsOp))), 32)),
            tt.AddPtrOp: self._emit_addptr,
            tt.LoadOp: self._emit_load,
            tt.StoreOp: self._emit_store,
            tt.AtomicCASOp: self._emit_atomic_cas,
            tt.AtomicRMWOp: self._emit_atomic_rmw,
            tt.PrintOp: self._emit_print,
            tt.AssertOp: self._emit_assert,
            tt.ReturnOp: self._emit_return,
            ttg.BarrierOp: self._emit_barrier,
            tile.BarrierOp: self._emit_group_barrier,
            tile.PEInfoOp: self._emit_pe_info,
            dma.ScratchOp: self._emit_scratch,
            scf.ForOp: self._emit_for,
            scf.IfOp: self._emit_if,
            scf.WhileOp: self._emit_while,
            cf.BranchOp: self._emit_branch,
            cf.CondBranchOp: self._emit_branch,
        }

    def _emit_barrier(self, op: ir.Operation) -> None:
        """`tl.debug_barrier()`: the accesses of the program before it are
        complete before any after it starts. The program is one PE's, whose
        DMA engine already orders a read after an earlier write to the same
        argument; the `fence` also orders accesses through different
        arguments to the same memory, which a GPU's threads order by the
        barrier. A barrier of no address space (`none`) orders no memory."""
        if ir.IntegerAttr(op.attributes["addrSpace"]).value != 0:
            self.b.fence()

    def _emit_group_barrier(self, op: ir.Operation) -> None:
        """`mtia_compiler.language.barrier`: the control core waits for its
        units, then for every program of the group (docs/language.md)."""
        group = str(tile.PEGroup(ir.IntegerAttr(op.attributes["group"]).value))
        self.b.barrier(PE_GROUP_AXES[group])

    def _emit_pe_info(self, op: ir.Operation) -> None:
        """The executing PE's position in the grid, read by the control core."""
        query = str(tile.PEQuery(ir.IntegerAttr(op.attributes["query"]).value))
        self._bind(op, IntScalar(self.b.pe(PE_QUERIES[query]), 32))

    def _emit_scratch(self, op: ir.Operation) -> None:
        """A region of the program's scratch: the regions follow one another
        at the DMA alignment."""
        offset = self.b.scratch_bytes
        size = ir.IntegerAttr(op.attributes["bytes"]).value
        self.b.scratch_bytes += -(-size // self.page_alignment) * self.page_alignment
        address = self.b.iop("add", self.b.scratch(), self.b.const(offset), width=64)
        self._bind(op, PointerScalar(address, pointee_dtype(op.results[0].type, op)))

    def _bind(self, op: ir.Operation, value: Value) -> None:
        self.values[op.results[0]] = value

    def _emit_fma(self, op: ir.Operation) -> None:
        a, b, c = (self.values.float_scalar(value, op) for value in op.operands)
        self._bind(op, FloatScalar(self.scalars.float_fma(a, b, c, op), a.dtype))

    def _emit_binary(self, op: ir.Operation, op_class: type) -> None:
        lhs, rhs = (self.values.scalar(value, op) for value in op.operands)
        if op_class in INT_BINARY and isinstance(lhs, IntScalar) and isinstance(rhs, IntScalar):
            reg = self.scalars.integer_binary(INT_BINARY[op_class], lhs, rhs, op)
            self._bind(op, IntScalar(reg, lhs.width))
        elif op_class in FLOAT_BINARY and isinstance(lhs, FloatScalar) and \
                isinstance(rhs, FloatScalar):
            self._bind(op, FloatScalar(self.scalars.float_binary(FLOAT_BINARY[op_class], lhs,
                                                                 rhs, op), lhs.dtype))
        else:
            raise located_error(op, f"'{op_name(op)}' on these operand types is not supported")

    def _emit_cmpi(self, op: ir.Operation) -> None:
        predicate = str(arith.CmpIPredicate(
            ir.IntegerAttr(view_as(op, arith.CmpIOp).predicate).value))
        lhs, rhs = (self.values.scalar(value, op) for value in op.operands)
        if isinstance(lhs, FloatScalar) or isinstance(rhs, FloatScalar):
            raise located_error(op, "arith.cmpi needs integer operands")
        self._bind(op, IntScalar(self.scalars.compare(predicate, IntScalar(lhs.reg, _width(lhs)),
                                                      IntScalar(rhs.reg, _width(rhs))), 1))

    def _emit_cmpf(self, op: ir.Operation) -> None:
        predicate = arith.CmpFPredicate(ir.IntegerAttr(view_as(op, arith.CmpFOp).predicate).value)
        lhs, rhs = (self.values.float_scalar(value, op) for value in op.operands)
        if predicate in (arith.CmpFPredicate.AlwaysFalse, arith.CmpFPredicate.AlwaysTrue):
            always = int(predicate == arith.CmpFPredicate.AlwaysTrue)
            self._bind(op, IntScalar(self.b.const(always), 1))
            return
        dtype = "f64" if lhs.dtype == "f64" else "f32"
        self._bind(op, IntScalar(self.b.fcmp(float_predicate(str(predicate)), lhs.reg, rhs.reg,
                                             dtype), 1))

    def _emit_select(self, op: ir.Operation) -> None:
        if is_tile(op.results[0].type):
            raise located_error(op, "arith.select on tiles must be tile.select")
        condition = self.values.int_scalar(op.operands[0], op)
        first, second = (self.values.scalar(value, op) for value in list(op.operands)[1:])
        if isinstance(first, FloatScalar) and isinstance(second, FloatScalar):
            self._bind(op, FloatScalar(self.b.fselect(condition.reg, first.reg, second.reg),
                                       first.dtype))
        elif isinstance(first.reg, Reg) and isinstance(second.reg, Reg):
            reg = self.b.select(condition.reg, first.reg, second.reg)
            self._bind(op, PointerScalar(reg, first.dtype) if isinstance(first, PointerScalar)
                       else IntScalar(reg, _width(first)))

    def _emit_addptr(self, op: ir.Operation) -> None:
        addptr = view_as(op, tt.AddPtrOp)
        base = self.values.pointer(addptr.ptr, op)
        offset = self.values.int_scalar(addptr.offset, op)
        scaled = self.b.mul(offset.reg, DTYPE_BYTES[base.dtype])
        self._bind(op, PointerScalar(self.b.add(base.reg, scaled), base.dtype))

    def _emit_load(self, op: ir.Operation) -> None:
        load = view_as(op, tt.LoadOp)
        address = self.values.pointer(load.ptr, op)
        result_type = op.results[0].type
        if is_tile(result_type):
            raise located_error(op, "tt.load of a tile must be lowered to DMA before the "
                                "program stage")
        mask, other = load.mask, load.other
        if mask is None:
            loaded = self.b.load_scalar(address.reg, address.dtype)
        else:
            loaded = self._masked_load(op, address, mask, other)
        self._bind(op, _scalar_of(loaded, result_type, op))

    def _masked_load(self, op: ir.Operation, address: PointerScalar, mask: ir.Value,
                     other: ir.Value | None) -> Reg | FReg:
        floating = address.dtype.startswith(("f", "bf"))
        if other is not None:
            result = self._copy_register(self.values.scalar(other, op).reg)
        else:
            result = self.b.fconst(0.0) if floating else self.b.const(0)
        skip = self.b.label()
        self.b.branch_if_zero(self.values.int_scalar(mask, op).reg, skip)
        loaded = self.b.load_scalar(address.reg, address.dtype)
        if isinstance(loaded, FReg) and isinstance(result, FReg):
            self.b.fmov(loaded, dst=result)
        elif isinstance(loaded, Reg) and isinstance(result, Reg):
            self.b.mov(loaded, dst=result)
        self.b.bind(skip)
        return result

    def _emit_store(self, op: ir.Operation) -> None:
        store = view_as(op, tt.StoreOp)
        if is_tile(store.value.type):
            raise located_error(op, "tt.store of a tile must be lowered to DMA before the "
                                "program stage")
        address = self.values.pointer(store.ptr, op)
        value = self.values.scalar(store.value, op)
        skip = self.b.label()
        if store.mask is not None:
            self.b.branch_if_zero(self.values.int_scalar(store.mask, op).reg, skip)
        self.b.store_scalar(address.reg, value.reg, address.dtype)
        self.b.bind(skip)

    def _emit_atomic_cas(self, op: ir.Operation) -> None:
        """A scalar compare-and-swap runs on the control core (``amo``)."""
        if is_tile(op.results[0].type):
            raise located_error(op, "tt.atomic_cas of a tile must be lowered to DMA before the "
                                "program stage")
        cas = view_as(op, tt.AtomicCASOp)
        address = self.values.pointer(cas.ptr, op)
        compare = self.values.scalar(cas.cmp, op)
        value = self.values.scalar(cas.val, op)
        sem = _memory_semantic(cas.sem)
        old = self.b.atomic_scalar("cas", address.reg, value.reg, address.dtype, sem,
                                   cmp=compare.reg)
        self._bind(op, _scalar_of(old, op.results[0].type, op))

    def _emit_atomic_rmw(self, op: ir.Operation) -> None:
        """A scalar read-modify-write whose old value is used runs on the
        control core (``amo``), under its mask."""
        if is_tile(op.results[0].type):
            raise located_error(op, "tt.atomic_rmw of a tile must be lowered to DMA before the "
                                "program stage")
        rmw = view_as(op, tt.AtomicRMWOp)
        address = self.values.pointer(rmw.ptr, op)
        value = self.values.scalar(rmw.val, op)
        mask = self.values.int_scalar(rmw.mask, op).reg if rmw.mask is not None else None
        kind = str(tt.RMWOp(ir.IntegerAttr(rmw.atomic_rmw_op).value))
        sem = _memory_semantic(rmw.sem)
        old = self.b.atomic_scalar(ATOMICS[kind], address.reg, value.reg, address.dtype, sem,
                                   mask=mask)
        self._bind(op, _scalar_of(old, op.results[0].type, op))

    def _emit_print(self, op: ir.Operation) -> None:
        print_op = view_as(op, tt.PrintOp)
        prefix = ir.StringAttr(print_op.prefix).value
        hexadecimal = ir.BoolAttr(print_op.hex).value
        signed = list(ir.DenseI32ArrayAttr(print_op.isSigned))
        operands = list(print_op.args)
        if hexadecimal:
            raise located_error(op, "hexadecimal printing of scalars is not supported")
        if len(operands) > 4:
            raise located_error(op, "the control core prints at most 4 scalars at once")
        arguments: list[Reg | FReg] = []
        for index, value in enumerate(operands):
            scalar = self.values.scalar(value, op)
            if isinstance(scalar, IntScalar) and index < len(signed) and not signed[index]:
                arguments.append(self.scalars.zero_extended(scalar.reg, scalar.width))
            else:
                arguments.append(scalar.reg)
        self.b.print(prefix, *arguments)

    def _emit_assert(self, op: ir.Operation) -> None:
        assertion = view_as(op, tt.AssertOp)
        message = ir.StringAttr(assertion.message).value
        self.b.assert_(self.values.int_scalar(assertion.condition, op).reg, message)

    def _emit_return(self, op: ir.Operation) -> None:
        if list(op.operands):
            raise located_error(op, "a kernel cannot return values")
        self._epilogue()
        self.b.end()


def _width(value: Scalar) -> int:
    return value.width if isinstance(value, IntScalar) else 64


#: The program format's name (`pe`'s `q`) of each `tile.pe_info` query.
PE_QUERIES = {"row": "row", "column": "col", "rows": "rows", "columns": "cols", "index": "index"}


def _axis(op: tt.GetProgramIdOp | tt.GetNumProgramsOp) -> int:
    """The grid axis of a `tt.get_program_id` or `tt.get_num_programs`."""
    return ir.IntegerAttr(op.axis).value


def _scalar_of(reg: Reg | FReg, value_type: ir.Type, where: ir.Operation) -> Scalar:
    if isinstance(reg, FReg):
        return FloatScalar(reg, float_dtype(value_type, where))
    if PointerType.isinstance(value_type):
        return PointerScalar(reg, pointee_dtype(value_type, where))
    width = integer_width(value_type)
    if width is None:
        raise located_error(where, f"cannot load a scalar of type {value_type}")
    return IntScalar(reg, width)

