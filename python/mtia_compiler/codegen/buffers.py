"""The circular buffers of a kernel in local memory.

Every `cb.alloc` is a buffer of its own, with the pages the data-movement
stage gave it. When the buffers, scratch pages and other fixed pages do not
fit the local memory, the plan gives up overlap before it gives up the
kernel, in this order:

1. buffers whose producer runs ahead of their consumer (loads in loops
   prefetch several iterations ahead; a unit computes the next iteration's
   tile while its consumer works on this one) give back the pages the
   data-movement stage added for it (`cb.alloc`'s `run_ahead_pages`);
2. buffers used at disjoint times share memory: two buffers of the same
   producer and consumer whose uses lie in different top-level operations
   of the kernel (say, two loops one after the other) become one buffer;
   the second's first reserve waits for the first's last pop, which comes
   earlier in program order (a buffer is in use until the last use of a
   tile read in a page its producer pushed);
3. buffers whose every reserve is freed before the next one (loads outside
   loops, stores) keep the pages one reserve takes; their second page only
   lets a transfer overlap the previous use of the buffer (the previous
   program on the PE).

Each step takes from the largest buffers first and stops once the plan fits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mtia_compiler import ir
from mtia_compiler.dialects import cb

from .common import round_up
from .storage import FOLDABLE_READS, cb_pages
from .units import BufferRoles


@dataclass(eq=False)
class BufferDeclaration:
    """A buffer of the program: the `cb.alloc` results it stands for, its
    name, page size and page count, and the target's alignment of buffers in
    local memory."""

    results: list[ir.Value]
    name: str
    page_bytes: int
    pages: int
    run_ahead_pages: int
    alignment: int

    @property
    def size(self) -> int:
        return round_up(self.pages * self.page_bytes, self.alignment)


def fit_buffers(kernel: ir.Operation, ops: list[ir.Operation], roles: BufferRoles,
                declared: list[BufferDeclaration], fixed_bytes: int,
                capacity: int) -> list[BufferDeclaration]:
    """The buffers to declare: `declared`, merged and with pages shed (see
    the module docstring) while they and `fixed_bytes` exceed `capacity`."""

    def fits(buffers: list[BufferDeclaration]) -> bool:
        return fixed_bytes + sum(buffer.size for buffer in buffers) <= capacity

    if fits(declared):
        return declared

    def shed(buffers: list[BufferDeclaration], floors: dict[BufferDeclaration, int]) -> None:
        candidates = [buffer for buffer in buffers
                      if buffer.pages > floors.get(buffer, buffer.pages)]
        while not fits(buffers) and candidates:
            largest = max(candidates, key=lambda buffer: buffer.page_bytes * buffer.pages)
            largest.pages -= 1
            if largest.pages == floors[largest]:
                candidates.remove(largest)

    buffers = list(declared)
    shed(buffers, {buffer: buffer.pages - buffer.run_ahead_pages for buffer in buffers
                   if buffer.run_ahead_pages})
    buffers = _merge_disjoint(kernel, ops, roles, buffers, fits)
    serial = _serially_reserved_buffers(ops)
    shed(buffers, {buffer: max(serial[result] for result in buffer.results)
                   for buffer in buffers if all(result in serial for result in buffer.results)})
    return buffers


def _merge_disjoint(kernel: ir.Operation, ops: list[ir.Operation], roles: BufferRoles,
                    declared: list[BufferDeclaration],
                    fits: Callable[[list[BufferDeclaration]], bool]) -> list[BufferDeclaration]:
    """Merges buffers of one producer and consumer used at disjoint times,
    largest first, until the plan fits (`fits`)."""
    spans = _buffer_spans(kernel, ops)
    if spans is None:
        return declared
    buffers = list(declared)
    intervals = {buffer: spans.get(buffer.results[0], (0, 0)) for buffer in buffers}
    merged = True
    while merged and not fits(buffers):
        merged = False
        for large in sorted(buffers, key=lambda buffer: -buffer.size):
            partner = _disjoint_partner(large, buffers, intervals, roles)
            if partner is None:
                continue
            large.results += partner.results
            large.name = f"{large.name}+{partner.name}"
            large.page_bytes = max(large.page_bytes, partner.page_bytes)
            large.pages = max(large.pages, partner.pages)
            (first, last), (start, end) = intervals[large], intervals.pop(partner)
            intervals[large] = (min(first, start), max(last, end))
            buffers.remove(partner)
            merged = True
            break
    return buffers


def _disjoint_partner(buffer: BufferDeclaration, buffers: list[BufferDeclaration],
                      intervals: dict[BufferDeclaration, tuple[int, int]],
                      roles: BufferRoles) -> BufferDeclaration | None:
    """The largest other buffer of `buffer`'s producer and consumer whose
    uses never overlap its own."""
    first, last = intervals[buffer]
    key = (roles.producer[buffer.results[0]], roles.consumer[buffer.results[0]])
    partners = [other for other in buffers
                if other is not buffer
                and (roles.producer[other.results[0]], roles.consumer[other.results[0]]) == key
                and (intervals[other][1] < first or intervals[other][0] > last)]
    return max(partners, key=lambda other: other.size, default=None)


def _buffer_spans(kernel: ir.Operation,
                  ops: list[ir.Operation]) -> dict[ir.Value, tuple[int, int]] | None:
    """The first and last top-level operation of the kernel that uses each
    buffer (an operation whose regions use it counts as a use, and so does
    a use of a tile read in a page the buffer's producer pushed, or of a
    splat or broadcast of it, which the page holds until then), by position
    in the kernel's block; None when the kernel has several blocks, whose
    order is not their execution order."""
    blocks = list(kernel.regions[0].blocks)
    if len(blocks) != 1:
        return None
    buffers = {op.results[0] for op in ops if isinstance(op.opview, cb.AllocOp)}
    pushed_reads: dict[ir.Value, ir.Value] = {}
    for op in ops:
        if isinstance(op.opview, cb.ReadPushedOp):
            pushed_reads[op.results[0]] = op.operands[0]
        # The users of a splat or broadcast of the tile may read its page
        # (the splat or broadcast folded into them).
        elif op.name in FOLDABLE_READS and op.operands[0] in pushed_reads:
            pushed_reads[op.results[0]] = pushed_reads[op.operands[0]]
    spans: dict[ir.Value, tuple[int, int]] = {}
    for position, child in enumerate(blocks[0].operations):
        top = child.operation
        used: set[ir.Value] = set()

        def collect(op: ir.Operation, used: set[ir.Value] = used) -> ir.WalkResult:
            used.update(value for value in op.operands if value in buffers)
            used.update(pushed_reads[value] for value in op.operands if value in pushed_reads)
            return ir.WalkResult.ADVANCE

        top.walk(collect, ir.WalkOrder.PRE_ORDER)
        for buffer in used:
            first, _ = spans.get(buffer, (position, position))
            spans[buffer] = (first, position)
    return spans


def _serially_reserved_buffers(ops: list[ir.Operation]) -> dict[ir.Value, int]:
    """The buffers whose reserves and pops are all in one block and alternate
    (each reserve's pages are popped before the next reserve), with the most
    pages one reserve takes. Such a buffer never waits on a pop that comes
    later in program order, so it runs without deadlock on those pages."""
    sequences: dict[ir.Value, list[ir.Operation]] = {}
    for op in ops:
        if isinstance(op.opview, (cb.ReserveBackOp, cb.PopFrontOp)):
            sequences.setdefault(op.operands[0], []).append(op)
    serial: dict[ir.Value, int] = {}
    for buffer, sequence in sequences.items():
        if len({op.block for op in sequence}) != 1:
            continue
        kinds = [type(op.opview) for op in sequence]
        alternating = kinds == [cb.ReserveBackOp, cb.PopFrontOp] * (len(kinds) // 2)
        if not alternating:
            continue
        reserved = [cb_pages(op) for op in sequence[0::2]]
        popped = [cb_pages(op) for op in sequence[1::2]]
        if reserved == popped:
            serial[buffer] = max(reserved)
    return serial
