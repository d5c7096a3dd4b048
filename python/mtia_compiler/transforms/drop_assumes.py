"""`mtia-drop-assumes`: remove `llvm.intr.assume` hints from TTIR.

The Triton frontend emits `llvm.intr.assume` for facts it knows about scalar
arguments (e.g. that a stride is positive). They carry no semantics and the
MTIA program has no use for LLVM intrinsics, so the TTIR stage drops them;
canonicalization then removes the comparisons that only fed them.
"""

from __future__ import annotations

from mtia_compiler import ir
from mtia_compiler.passes import python_pass

ASSUME_OP = "llvm.intr.assume"


@python_pass("mtia-drop-assumes", "Remove llvm.intr.assume hints")
def drop_assumes(module: ir.Operation, pass_: object) -> None:
    assumes: list[ir.Operation] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        if op.name == ASSUME_OP:
            assumes.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(collect, ir.WalkOrder.POST_ORDER)
    for assume in assumes:
        assume.erase()
