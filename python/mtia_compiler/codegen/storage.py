"""Where every tile of a kernel lives in local memory.

A tile read with `cb.read_front` lives in that buffer's front page, and one
read with `cb.read_pushed` in the page its producer pushed; a tile whose only
use is a `cb.write_back` is produced directly into the back page when the
page is already reserved where the tile is computed. Every other
tile takes a range of the scratch buffer of the unit that holds it. Ranges
are assigned by liveness over the kernel's operations in program order:

* a value is live from its definition to its last use; a use inside a loop
  (`scf.for`, `scf.while`) that does not contain the definition keeps the
  value live to the end of that loop, and a use in another block of a
  multi-block region keeps it live to the end of the region;
* the values a loop carries (iteration arguments, the yielded values they
  are coalesced with, and the loop's results) form one group that keeps its
  range for the whole loop; `scf.if` results and the arguments of blocks
  reached by `cf` branches form groups likewise;
* groups are placed first-fit, in order of their first point, at 8-byte
  aligned offsets that no overlapping group occupies.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field

from mlir.dialects import cf, scf

from mtia_compiler import ir
from mtia_compiler.dialects import cb, tile, tt
from mtia_compiler.program import MAX_DIMS, SLOT_ALIGNMENT, Unit

from .common import (
    TileInfo,
    broadcast_view,
    file_location,
    is_tile,
    located_error,
    op_name,
    op_names,
    view_as,
)
from .units import BufferRoles, op_unit, tile_holder, tile_op_unit

#: The units that hold tiles in scratch storage of their own (the control
#: core reads tiles only in the pages of the buffers it consumes).
SCRATCH_UNITS = (Unit.DPE, Unit.SIMD, Unit.RE, Unit.MLU)
#: The most buffers the program stage adds to the kernel's: a scratch page
#: for each unit of SCRATCH_UNITS and the DPE's page of zeros
#: (`tile_ops.FixedBuffers`). The data-movement stage leaves that many of the
#: target's free.
PROGRAM_STAGE_BUFFERS = len(SCRATCH_UNITS) + 1
LOOP_OPS = op_names(scf.ForOp, scf.WhileOp)
ELEMENTWISE_SIMD_OPS = op_names(tile.BinaryOp, tile.UnaryOp, tile.FmaOp, tile.SFUOp,
                                tile.SelectOp)
#: The SIMD operations whose inputs may be scalars broadcast to every element.
SCALAR_OPERAND_OPS = op_names(tile.BinaryOp, tile.FmaOp, tile.SelectOp, tile.CmpIOp,
                              tile.CmpFOp)
#: The operations that yield tiles without being tile operations.
_TILE_FORWARDING_OPS = op_names(cb.ReadFrontOp, cb.ReadPushedOp, scf.ForOp, scf.WhileOp,
                                scf.IfOp, tile.SubviewOp)
_SUBVIEW = tile.SubviewOp.OPERATION_NAME
#: The side of the page that each page read's tile lives in.
PAGE_READ_SIDES = {cb.ReadFrontOp.OPERATION_NAME: "front",
                    cb.ReadPushedOp.OPERATION_NAME: "pushed"}
_FUNC = tt.FuncOp.OPERATION_NAME
#: The operations that need no storage when folded into their users, which
#: then read their source's storage where they read them.
FOLDABLE_READS = op_names(tile.SplatElementOp, tile.BroadcastOp)
_FOLDABLE = op_names(tile.SplatOp, tile.SplatElementOp, tile.BroadcastOp)
_RESERVE_OR_PUSH = op_names(cb.ReserveBackOp, cb.PushBackOp)
_MATMULS = op_names(tile.MatmulOp, tile.SimdMatmulOp)
_BRANCHES = op_names(cf.BranchOp, cf.CondBranchOp)
#: The operations that `_writes_in_place` may allow to write over an operand.
_IN_PLACE_WRITERS = ELEMENTWISE_SIMD_OPS | _MATMULS | {tile.CastOp.OPERATION_NAME}


@dataclass(frozen=True)
class PageStorage:
    """A page of a circular buffer: `front` pages are waited for by the
    buffer's consumer, `back` pages reserved by its producer, and `pushed`
    pages pushed by it (counted back from the last)."""

    buffer: ir.Value
    side: str
    page: int


@dataclass(eq=False)
class ScratchStorage:
    """A range of a unit's scratch buffer shared by a group of tile values
    (compared by identity)."""

    unit: Unit
    size: int
    start: int
    end: int
    offset: int = -1
    members: list[ir.Value] = field(default_factory=list)


@dataclass(frozen=True)
class ViewStorage:
    """The storage of a `tile.subview`: its source's, `offset` bytes in."""

    source: ir.Value
    offset: int


Storage = PageStorage | ScratchStorage | ViewStorage


@dataclass(frozen=True)
class CopySite:
    """A point where a tile must be in the storage of `destination` (a value)
    or of a write_back page: loop entries and back edges, branch yields,
    `cf` branches and write_backs of tiles not produced in place."""

    op: ir.Operation
    source: ir.Value
    destination: ir.Value | PageStorage


@dataclass
class StoragePlan:
    """Every tile's storage, the scratch bytes per unit and the temporaries
    of the operations that need them."""

    storage: dict[ir.Value, Storage]
    scratch_bytes: dict[Unit, int]
    temporaries: dict[ir.Operation, list[ScratchStorage]]
    copy_sites: list[CopySite]

    def needs_copy(self, site: CopySite) -> bool:
        destination = site.destination
        target = destination if isinstance(destination, PageStorage) else self.storage[destination]
        source = self.storage[site.source]
        if isinstance(source, PageStorage):
            return source != target
        return source is not target


class _Numbering:
    """Program-order positions of operations (`index`), the position of the
    last operation nested in each operation with regions (`last`) and the
    extents of regions, from `ops`, the kernel's operations in pre-order.

    The extents of a region are recorded for each of its blocks: the
    bindings hash an `ir.Region` by its Python wrapper, and every access
    (`block.region`, `op.regions[i]`) makes a new wrapper, so regions cannot
    be dictionary keys (blocks and operations hash by what they wrap)."""

    def __init__(self, kernel: ir.Operation, ops: list[ir.Operation]) -> None:
        self.index = {op: position for position, op in enumerate(ops)}
        self.last: dict[ir.Operation, int] = {}
        self.region_last: dict[ir.Block, int] = {}
        self.region_first: dict[ir.Block, int] = {}
        # Inner operations first, so that the last operation of a block has
        # its extent when the operation holding the block needs it.
        for op in reversed([op for op in ops if _has_regions(op)]):
            self.last[op] = self._number_regions(op, self.index[op])
        self._number_regions(kernel, -1)

    def _number_regions(self, op: ir.Operation, position: int) -> int:
        """Records the extents of the regions of `op`, which is at
        `position`; returns the position of the last operation nested in
        it."""
        end = position
        for region in op.regions:
            first = end + 1
            blocks = list(region.blocks)
            for block in blocks:
                operations = block.operations
                if len(operations) > 0:
                    final = operations[len(operations) - 1].operation
                    end = self.last.get(final, self.index[final])
            for block in blocks:
                self.region_first[block] = first
                self.region_last[block] = end
        return end


class _BlockOps:
    """The operations of blocks in order, with their positions, listed once
    per block."""

    def __init__(self) -> None:
        self._blocks: dict[ir.Block, tuple[list[ir.Operation], dict[ir.Operation, int]]] = {}

    def of(self, block: ir.Block) -> tuple[list[ir.Operation], dict[ir.Operation, int]]:
        if block not in self._blocks:
            ops = [child.operation for child in block.operations]
            self._blocks[block] = ops, {op: index for index, op in enumerate(ops)}
        return self._blocks[block]


def _has_regions(op: ir.Operation) -> bool:
    """Whether `op` has regions. Most operations have none, and iterating
    `op.regions` ends in an exception raised through the bindings, which
    costs more than counting them first."""
    return len(op.regions) > 0


def _parent_op(block: ir.Block) -> ir.Operation:
    return block.region.owner.operation


def _block_inside(block: ir.Block, op: ir.Operation) -> bool:
    """Whether `block` is nested (at any depth) in the regions of `op`."""
    current = block
    while True:
        parent = _parent_op(current)
        if parent == op:
            return True
        if parent.name == _FUNC:
            return False
        current = parent.block


def _def_block(value: ir.Value) -> ir.Block:
    if isinstance(value, ir.BlockArgument):
        return value.owner
    return value.owner.operation.block


class StoragePlanner:
    """Builds the StoragePlan of one kernel (see the module docstring)."""

    def __init__(self, kernel: ir.Operation, ops: list[ir.Operation], roles: BufferRoles,
                 homes: dict[ir.Value, Unit], folded: set[ir.Value]) -> None:
        self.kernel = kernel
        self.ops = ops
        self.roles = roles
        self.homes = homes
        self.folded = folded
        self.numbering = _Numbering(kernel, ops)
        self.storage: dict[ir.Value, Storage] = {}
        self.group_of: dict[ir.Value, ir.Value] = {}
        self._ends: dict[ir.Value, int] = {}

    # -- groups (union-find over values) --------------------------------------

    def _find(self, value: ir.Value) -> ir.Value:
        root = value
        while self.group_of.get(root, root) != root:
            root = self.group_of[root]
        return root

    def _union(self, first: ir.Value, second: ir.Value) -> None:
        a, b = self._find(first), self._find(second)
        if a != b:
            self.group_of[b] = a

    # -- liveness --------------------------------------------------------------

    def _start(self, value: ir.Value) -> int:
        if isinstance(value, ir.BlockArgument):
            block = value.owner
            parent = _parent_op(block)
            if parent.name == _FUNC or len(block.region.blocks) > 1:
                return self.numbering.region_first[block]
            return self.numbering.index[parent]
        return self.numbering.index[value.owner.operation]

    def _end(self, value: ir.Value) -> int:
        """The last position where `value` is live, computed once per value
        (it depends only on the numbering and the folded splats)."""
        end = self._ends.get(value)
        if end is None:
            end = self._ends[value] = self._compute_end(value)
        return end

    def _compute_end(self, value: ir.Value) -> int:
        end = self._start(value)
        def_block = _def_block(value)
        if isinstance(value, ir.BlockArgument) and len(list(def_block.region.blocks)) > 1:
            end = self.numbering.region_last[def_block]
        for reader in self._readers(value):
            end = max(end, self._lifted_position(reader, def_block))
        return end

    def _readers(self, value: ir.Value) -> Iterator[ir.Operation]:
        """The operations that read `value`'s storage: its users, the
        users of a folded `tile.splat_element` or `tile.broadcast` of it,
        which read its elements, and the readers of its subviews."""
        for use in value.uses:
            user = use.owner.operation
            yield user
            if user.name == _SUBVIEW:
                yield from self._readers(user.results[0])
            if user.name in FOLDABLE_READS and user.results[0] in self.folded:
                yield from (inner.owner.operation for inner in user.results[0].uses)

    def _lifted_position(self, user: ir.Operation, def_block: ir.Block) -> int:
        position = self.numbering.index[user]
        current = user
        while current.block != def_block:
            region = current.block.region
            if len(list(region.blocks)) > 1:
                position = max(position, self.numbering.region_last[current.block])
            parent = region.owner.operation
            if parent.name == _FUNC:
                break
            if parent.name in LOOP_OPS and not _block_inside(def_block, parent):
                position = max(position, self.numbering.last[parent])
            current = parent
        return position

    # -- placement -------------------------------------------------------------

    def plan(self) -> StoragePlan:
        ops = self.ops
        for op in ops:
            side = PAGE_READ_SIDES.get(op.name)
            if side is not None:
                self.storage[op.results[0]] = PageStorage(op.operands[0], side, _page(op))
            elif op.name == _SUBVIEW:
                source = TileInfo.of(op.operands[0].type, op)
                start = source.offset_of(list(ir.DenseI64ArrayAttr(op.attributes["offsets"])))
                self.storage[op.results[0]] = ViewStorage(op.operands[0],
                                                          start * source.element_bytes)
        self._place_write_backs(ops)
        self._form_groups(ops)
        self._compute_in_place(ops)
        scratch_values = [value for value in self.homes
                          if value not in self.storage]
        groups: dict[ir.Value, ScratchStorage] = {}
        for value in scratch_values:
            if self.homes[value] not in SCRATCH_UNITS:
                raise located_error(_where(value), "the control core holds tiles only in the "
                                    "pages of the circular buffers it consumes, not in "
                                    "storage of their own (a loop-carried tile or a branch "
                                    "result)")
            root = self._find(value)
            info = TileInfo.of(value.type, _where(value))
            size = _aligned(info.size_bytes)
            start, end = self._start(value), self._end(value)
            if root not in groups:
                groups[root] = ScratchStorage(self.homes[value], size, start, end)
            group = groups[root]
            if group.unit != self.homes[value]:
                raise located_error(_where(value), "a loop-carried tile changes units "
                                    f"({group.unit.value} and {self.homes[value].value}) "
                                    "without a circular buffer")
            group.size = max(group.size, size)
            group.start, group.end = min(group.start, start), max(group.end, end)
            group.members.append(value)
            self.storage[value] = group
        for root, group in groups.items():
            for holder in self._carrying_ops(root, groups):
                group.start = min(group.start, self.numbering.index[holder])
                group.end = max(group.end, self.numbering.last[holder])
        temporaries = self._temporaries(ops)
        every_range = list(groups.values()) + [t for ts in temporaries.values() for t in ts]
        scratch_bytes = _assign_offsets(every_range)
        return StoragePlan(self.storage, scratch_bytes, temporaries, list(copy_sites(ops)))

    def _carrying_ops(self, root: ir.Value,
                      groups: dict[ir.Value, ScratchStorage]) -> Iterator[ir.Operation]:
        """The loops whose iteration arguments belong to the group of `root`."""
        for member in groups[root].members:
            if isinstance(member, ir.BlockArgument):
                parent = _parent_op(member.owner)
                if parent.name in LOOP_OPS:
                    yield parent
            elif member.owner.operation.name in LOOP_OPS:
                yield member.owner.operation

    def _place_write_backs(self, ops: list[ir.Operation]) -> None:
        """Places a tile whose only use is a write_back into the back page,
        when its defining op is in the write_back's block, after a reserve of
        that page and with no push or reserve of the buffer in between."""
        block_ops = _BlockOps()
        for op in ops:
            if op.name != cb.WriteBackOp.OPERATION_NAME:
                continue
            value, buffer, page = op.operands[0], op.operands[1], _page(op)
            if isinstance(value, ir.BlockArgument) or len(list(value.uses)) != 1:
                continue
            producer = value.owner.operation
            if tile_op_unit(producer) is None or producer.block != op.block:
                continue
            if self._page_reserved_at(producer, op, buffer, page, block_ops):
                self.storage[value] = PageStorage(buffer, "back", page)

    @staticmethod
    def _page_reserved_at(producer: ir.Operation, write_back: ir.Operation,
                          buffer: ir.Value, page: int, block_ops: _BlockOps) -> bool:
        ops, position = block_ops.of(producer.block)
        start, stop = position[producer], position[write_back]
        for between in ops[start + 1:stop]:
            if between.name in _RESERVE_OR_PUSH and between.operands[0] == buffer:
                return False
        # Backwards by index: the scan mostly stops early, and a reversed copy
        # of the block before the producer would cost its whole length.
        for index in range(start - 1, -1, -1):
            before = ops[index]
            name = before.name
            if name == cb.PushBackOp.OPERATION_NAME and before.operands[0] == buffer:
                return False
            if name == cb.ReserveBackOp.OPERATION_NAME and before.operands[0] == buffer:
                return cb_pages(before) > page
        return False

    def _form_groups(self, ops: list[ir.Operation]) -> None:
        """Groups loop-carried values, branch results and block arguments with
        the values that flow into them when no copy is needed."""
        for op in ops:
            name = op.name
            if name == scf.ForOp.OPERATION_NAME:
                view = view_as(op, scf.ForOp)
                body = view.body
                yielded = list(_terminator(body).operands)
                inits = list(view.initArgs)
                for index, result in enumerate(op.results):
                    if not is_tile(result.type):
                        continue
                    argument = body.arguments[index + 1]
                    self._union(result, argument)
                    self._coalesce_carried(argument, yielded[index], body)
                    self._coalesce_initial(argument, inits[index], op)
            elif name == scf.WhileOp.OPERATION_NAME:
                loop = view_as(op, scf.WhileOp)
                before, after = loop.before.blocks[0], loop.after.blocks[0]
                yielded = list(_terminator(after).operands)
                condition_args = list(_terminator(before).operands)[1:]
                for index, argument in enumerate(before.arguments):
                    if is_tile(argument.type):
                        self._coalesce_carried(argument, yielded[index], after)
                for index, result in enumerate(op.results):
                    if is_tile(result.type):
                        self._union(result, after.arguments[index])
                        self._coalesce_defined(result, condition_args[index], before)
            elif name == scf.IfOp.OPERATION_NAME:
                for region in op.regions:
                    if not list(region.blocks):
                        continue
                    block = region.blocks[0]
                    for index, value in enumerate(_terminator(block).operands):
                        if is_tile(value.type):
                            self._coalesce_defined(op.results[index], value, block)

    def _compute_in_place(self, ops: list[ir.Operation]) -> None:
        """Shares storage between the result of an op that may write in place
        (`_writes_in_place`) and an operand of the same unit and size whose
        group is read for the last time by that op: a chain of elementwise
        ops runs in one range. Only groups of plain op results take part
        (loop-carried values and branch results keep their own rules)."""
        group_end: dict[ir.Value, int] = {}
        for op in ops:
            # An op that never writes in place, or none of whose results is
            # held (a scalar op, for one), takes no part; this costs less
            # than reading the types of its values.
            if op.name not in _IN_PLACE_WRITERS or \
                    not any(value in self.homes for value in op.results):
                continue
            results = [value for value in op.results if is_tile(value.type)]
            if len(results) != 1:
                continue
            result = results[0]
            if not self._may_share(result) or self._find(result) != result:
                continue
            position = self.numbering.index[op]
            for operand in op.operands:
                if operand == result or self.homes.get(operand) != self.homes[result] or \
                        not _writes_in_place(op, operand) or not self._may_share(operand) or \
                        _size(operand) != _size(result):
                    continue
                root = self._find(operand)
                if root not in group_end:
                    if root != operand:
                        continue
                    group_end[root] = self._end(operand)
                if group_end[root] != position:
                    continue
                self._union(root, result)
                group_end[root] = self._end(result)
                break

    def _may_share(self, value: ir.Value) -> bool:
        """Whether `value` is a plain op result held in scratch."""
        return (not isinstance(value, ir.BlockArgument) and value in self.homes
                and value not in self.storage
                and tile_op_unit(value.owner.operation) is not None)

    def _coalesce_initial(self, argument: ir.Value, initial: ir.Value,
                          loop: ir.Operation) -> None:
        """Shares storage between a loop's iteration argument and its initial
        value when the loop is that value's only use: the value is computed
        where the loop will carry it, with no copy at the loop's entry."""
        if not self._may_share(initial) or self._find(initial) != initial or \
                len(list(initial.uses)) != 1 or initial.owner.operation.block != loop.block or \
                self.homes.get(argument) != self.homes[initial] or \
                _size(initial) != _size(argument):
            return
        self._union(argument, initial)

    def _coalesce_defined(self, group_value: ir.Value, value: ir.Value, block: ir.Block) -> None:
        """Shares storage between `value` and the group of `group_value` when
        `value` is computed in `block` (so its whole life is inside the span
        where the group's storage holds nothing else)."""
        if self._computed_in(value, block) and self._find(value) == value:
            self._union(group_value, value)

    def _coalesce_carried(self, argument: ir.Value, value: ir.Value, body: ir.Block) -> None:
        """Shares storage between a yielded value and its iteration argument
        when the argument is dead once the value is computed (or read for the
        last time by the op computing it, if that op may write in place)."""
        if not self._computed_in(value, body) or self._find(value) != value:
            return
        producer = value.owner.operation
        argument_block = _def_block(argument)
        argument_end = max((self._lifted_position(reader, argument_block)
                            for reader in self._readers(argument)), default=-1)
        produced_at = self.numbering.index[producer]
        if argument_end < produced_at or (argument_end == produced_at and
                                          _writes_in_place(producer, argument)):
            self._union(argument, value)

    def _computed_in(self, value: ir.Value, block: ir.Block) -> bool:
        return (not isinstance(value, ir.BlockArgument) and value not in self.storage
                and value.owner.operation.block == block
                and tile_op_unit(value.owner.operation) is not None)

    def _temporaries(self, ops: list[ir.Operation]) -> dict[ir.Operation, list[ScratchStorage]]:
        """Scratch for ops that need it while they run: a non-splat constant
        is built from an i32 index tile and an i1 mask."""
        temporaries: dict[ir.Operation, list[ScratchStorage]] = {}
        for op in ops:
            if op.name == tile.ConstantOp.OPERATION_NAME and not is_splat_constant(op):
                count = TileInfo.of(op.results[0].type, op).count
                position = self.numbering.index[op]
                temporaries[op] = [ScratchStorage(Unit.SIMD, _aligned(count * 4), position,
                                                  position),
                                   ScratchStorage(Unit.SIMD, _aligned(count), position,
                                                  position)]
        return temporaries


def _size(value: ir.Value) -> int:
    return TileInfo.of(value.type, _where(value)).size_bytes


def _writes_in_place(producer: ir.Operation, operand: ir.Value) -> bool:
    """Whether `producer` may write its result over `operand`: elementwise
    SIMD ops read each element before writing it, and the DPE (and the SIMD
    engine's f64 matmul) copies its accumulator into the result before
    reading the other operands."""
    name = producer.name
    if name in ELEMENTWISE_SIMD_OPS:
        return True
    if name == tile.CastOp.OPERATION_NAME:
        source = TileInfo.of(producer.operands[0].type, producer)
        result = TileInfo.of(producer.results[0].type, producer)
        return source.element_bytes == result.element_bytes
    if name in _MATMULS:
        return [index for index, value in enumerate(producer.operands)
                if value == operand] == [2]
    return False


def is_splat_constant(op: ir.Operation) -> bool:
    """Whether `op` is a `tile.constant` whose elements are all equal."""
    if op.name != tile.ConstantOp.OPERATION_NAME:
        return False
    value = op.attributes["value"]
    return isinstance(value, ir.DenseElementsAttr) and ir.DenseElementsAttr(value).is_splat


def _assign_offsets(ranges: list[ScratchStorage]) -> dict[Unit, int]:
    """Gives every range the lowest aligned offset free of the ranges of its
    unit that are live at the same time; returns each unit's scratch size."""
    sizes: dict[Unit, int] = {}
    # The ranges placed so far that a later one may overlap: the candidates
    # come in order of their first point, so one that ended before it ends
    # before every later one too.
    active: dict[Unit, list[ScratchStorage]] = {}
    for candidate in sorted(ranges, key=lambda r: (r.start, -r.size)):
        others = [other for other in active.get(candidate.unit, [])
                  if other.end >= candidate.start]
        busy = sorted((other.offset, other.offset + other.size) for other in others
                      if other.start <= candidate.end)
        offset = 0
        for low, high in busy:
            if offset + candidate.size <= low:
                break
            offset = max(offset, _aligned(high))
        candidate.offset = offset
        others.append(candidate)
        active[candidate.unit] = others
        sizes[candidate.unit] = max(sizes.get(candidate.unit, 0), offset + candidate.size)
    return sizes


def peak_live_ranges(plan: StoragePlan, unit: Unit) -> list[ScratchStorage]:
    """The ranges of `unit`'s scratch live together at the first point where
    their bytes sum highest, in order of their first point: what a kernel
    whose plan does not fit holds at its peak."""
    ranges = [group for group in {id(storage): storage for storage in plan.storage.values()
                                  if isinstance(storage, ScratchStorage)}.values()
              if group.unit == unit]
    ranges += [t for ts in plan.temporaries.values() for t in ts if t.unit == unit]
    # A sweep over the first points, in order: the bytes live at each.
    by_start = sorted(ranges, key=lambda r: r.start)
    ends: list[tuple[int, int]] = []  # (last point, bytes) of the live ranges
    live_bytes, peak_bytes, peak_point, next_range = 0, 0, None, 0
    for point in sorted({r.start for r in ranges}):
        while next_range < len(by_start) and by_start[next_range].start == point:
            heapq.heappush(ends, (by_start[next_range].end, by_start[next_range].size))
            live_bytes += by_start[next_range].size
            next_range += 1
        while ends and ends[0][0] < point:
            live_bytes -= heapq.heappop(ends)[1]
        if live_bytes > peak_bytes:
            peak_bytes, peak_point = live_bytes, point
    if peak_point is None:
        return []
    return sorted((r for r in ranges if r.start <= peak_point <= r.end), key=lambda r: r.start)


def describe_range(storage: ScratchStorage) -> str:
    """A range for diagnostics: the source name of its first tile (or the
    operation defining it), its bytes and its source location."""
    if not storage.members:
        return f"a temporary ({storage.size} bytes)"
    value = storage.members[0]
    where = _where(value)
    location = where.location
    name = location.name_str if location.is_a_name() else f"result of '{op_name(where)}'"
    if isinstance(value, ir.BlockArgument):
        name = f"an argument of '{op_name(where)}'"
    return f"tile {name} ({storage.size} bytes) at {file_location(location) or '<unknown>'}"


def _aligned(size: int) -> int:
    return -(-size // SLOT_ALIGNMENT) * SLOT_ALIGNMENT


def _page(op: ir.Operation) -> int:
    return ir.IntegerAttr(op.attributes["page"]).value


def cb_pages(op: ir.Operation) -> int:
    """The `pages` attribute of a reserve, push, wait or pop."""
    return ir.IntegerAttr(op.attributes["pages"]).value


def _terminator(block: ir.Block) -> ir.Operation:
    return block.operations[-1].operation


def _where(value: ir.Value) -> ir.Operation:
    """The op to name in diagnostics about `value`."""
    if isinstance(value, ir.BlockArgument):
        return _parent_op(value.owner)
    return value.owner.operation


def copy_sites(ops: list[ir.Operation]) -> Iterator[CopySite]:
    """Every point where a tile flows into the storage of another value or
    of a write_back page (a copy unless the planner placed both together),
    among a kernel's operations `ops`."""
    for op in ops:
        name = op.name
        if name == scf.ForOp.OPERATION_NAME:
            view = view_as(op, scf.ForOp)
            body = view.body
            inits = list(view.initArgs)
            yielded = list(_terminator(body).operands)
            for index, init in enumerate(inits):
                if is_tile(init.type):
                    argument = body.arguments[index + 1]
                    yield CopySite(op, init, argument)
                    yield CopySite(_terminator(body), yielded[index], argument)
        elif name == scf.WhileOp.OPERATION_NAME:
            loop = view_as(op, scf.WhileOp)
            before, after = loop.before.blocks[0], loop.after.blocks[0]
            condition = _terminator(before)
            for index, init in enumerate(op.operands):
                if is_tile(init.type):
                    yield CopySite(op, init, before.arguments[index])
                    yield CopySite(_terminator(after), list(_terminator(after).operands)[index],
                                   before.arguments[index])
            for index, value in enumerate(list(condition.operands)[1:]):
                if is_tile(value.type):
                    yield CopySite(condition, value, after.arguments[index])
                    yield CopySite(condition, value, op.results[index])
        elif name == scf.IfOp.OPERATION_NAME:
            for region in op.regions:
                for block in region.blocks:
                    terminator = _terminator(block)
                    for index, value in enumerate(terminator.operands):
                        if is_tile(value.type):
                            yield CopySite(terminator, value, op.results[index])
        elif name in _BRANCHES:
            for successor, operands in branch_targets(op):
                for argument, value in zip(successor.arguments, operands, strict=True):
                    if is_tile(value.type):
                        yield CopySite(op, value, argument)
        elif name == cb.WriteBackOp.OPERATION_NAME:
            write_back = view_as(op, cb.WriteBackOp)
            yield CopySite(op, write_back.tile, PageStorage(write_back.cb, "back", _page(op)))


def branch_targets(op: ir.Operation) -> list[tuple[ir.Block, list[ir.Value]]]:
    """The successors of a cf branch with the operands passed to each."""
    successors = list(op.successors)
    if op.name == cf.BranchOp.OPERATION_NAME:
        return [(successors[0], list(view_as(op, cf.BranchOp).destOperands))]
    branch = view_as(op, cf.CondBranchOp)
    return [(successors[0], list(branch.trueDestOperands)),
            (successors[1], list(branch.falseDestOperands))]


def folded_splats(ops: list[ir.Operation]) -> set[ir.Value]:
    """The splat tiles (`tile.splat`, `tile.splat_element`, splat
    `tile.constant`) and broadcast tiles (`tile.broadcast`) that need no
    storage: every use is an elementwise SIMD operation, which reads the
    scalar (an immediate, a register or the element of a rank-0 tile) or the
    broadcast's source instead of a filled tile; and the `tile.zeros`
    used only as accumulators of `tile.matmul`, which then multiplies
    without one."""
    folded: set[ir.Value] = set()
    for op in ops:
        name = op.name
        if name == tile.ZerosOp.OPERATION_NAME:
            # A dot whose accumulator is zero has none.
            if all(use.owner.operation.name == tile.MatmulOp.OPERATION_NAME and
                   use.operand_number == 2
                   for use in op.results[0].uses):
                folded.add(op.results[0])
            continue
        if name not in _FOLDABLE and not is_splat_constant(op):
            continue
        # A broadcast input walks at most MAX_DIMS dimensions.
        if name == tile.BroadcastOp.OPERATION_NAME and len(broadcast_view(op)[0]) > MAX_DIMS:
            continue
        value = op.results[0]
        if all(use.owner.operation.name in SCALAR_OPERAND_OPS for use in value.uses):
            folded.add(value)
    return folded


def tile_homes(ops: list[ir.Operation]) -> dict[ir.Value, Unit]:
    """The unit holding every tile value of a kernel's operations `ops`, as
    the data-movement stage's `UnitAssignment` analysis decides it (through
    the C API): the unit of its defining op, the consumer of the buffer a
    `cb.read_front` reads, the producer of the buffer a `cb.read_pushed`
    reads, or for loop-carried values, branch results and
    block arguments the unit of what flows in."""
    homes: dict[ir.Value, Unit] = {}
    for op in ops:
        tiles = [value for value in op.results if is_tile(value.type)]
        if tiles and op.name not in _TILE_FORWARDING_OPS and tile_op_unit(op) is None:
            raise located_error(op, f"'{op_name(op)}' producing a tile is not supported by the "
                                "program stage")
        tiles += [value for value in _region_arguments(op) if is_tile(value.type)]
        for value in tiles:
            holder = tile_holder(value)
            if holder is None:
                raise located_error(op, "cannot tell which unit holds a tile of "
                                    f"'{op_name(op)}'")
            homes[value] = holder
    return homes


def _region_arguments(op: ir.Operation) -> Iterator[ir.Value]:
    """The arguments of the blocks of the regions of `op`."""
    if not _has_regions(op):
        return
    for region in op.regions:
        for block in region.blocks:
            yield from block.arguments


def check_units(ops: list[ir.Operation], roles: BufferRoles,
                homes: dict[ir.Value, Unit]) -> None:
    """Raises a located CompilationError where a unit reads a tile held by
    another unit (tiles cross units only through circular buffers), and where
    a tile flows into storage of another unit."""
    for op in ops:
        expected = op_unit(op)
        if op.name == cb.WriteBackOp.OPERATION_NAME:
            expected = roles.producer[op.operands[1]]
        if expected is None:
            continue
        for value in op.operands:
            if homes.get(value, expected) != expected and is_tile(value.type):
                raise located_error(op, f"'{op_name(op)}' runs on {expected.value} but reads a "
                                    f"tile held by {homes[value].value}; tiles must pass "
                                    "between units through a circular buffer")
    for site in copy_sites(ops):
        if isinstance(site.destination, PageStorage):
            continue
        if homes[site.source] != homes[site.destination]:
            raise located_error(site.op, f"a tile held by {homes[site.source].value} flows "
                                f"into one held by {homes[site.destination].value} without "
                                "a circular buffer")
