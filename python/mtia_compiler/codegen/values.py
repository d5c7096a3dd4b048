"""What an SSA value of the final IR is while its program is written."""

from __future__ import annotations

from dataclasses import dataclass

from mtia_compiler import ir
from mtia_compiler.program import CB, FReg, Reg, Unit

from .common import located_error


@dataclass(frozen=True)
class IntScalar:
    """An integer (or index) in a control-core register. Values narrower than
    64 bits are kept sign-extended, except i1, which is 0 or 1."""

    reg: Reg
    width: int


@dataclass(frozen=True)
class FloatScalar:
    """A float in a control-core float register (which holds a double that is
    exactly representable in `dtype`)."""

    reg: FReg
    dtype: str


@dataclass(frozen=True)
class PointerScalar:
    """A global byte address in an integer register; `dtype` is the pointee's."""

    reg: Reg
    dtype: str


@dataclass(frozen=True)
class Buffer:
    """A circular buffer declared in the program with its simulator endpoints."""

    cb: CB
    producer: Unit
    consumer: Unit


@dataclass(frozen=True)
class Token:
    """A DMA completion token (completion is awaited with a fence)."""


Scalar = IntScalar | FloatScalar | PointerScalar
Value = Scalar | Buffer | Token


class ValueTable(dict[ir.Value, Value]):
    """What every SSA value of the kernel is, with lookups that raise a
    located CompilationError for a value of another kind."""

    def buffer(self, value: ir.Value) -> Buffer:
        found = self.get(value)
        if not isinstance(found, Buffer):
            raise located_error(value.location, "a circular buffer must be the result of a "
                                "cb.alloc of the kernel")
        return found

    def scalar(self, value: ir.Value, where: ir.Operation) -> Scalar:
        found = self.get(value)
        if not isinstance(found, (IntScalar, FloatScalar, PointerScalar)):
            raise located_error(where, f"operand of type {value.type} is not a scalar of the "
                                "control core")
        return found

    def int_scalar(self, value: ir.Value, where: ir.Operation) -> IntScalar:
        found = self.scalar(value, where)
        if not isinstance(found, IntScalar):
            raise located_error(where, f"expected an integer operand, got {value.type}")
        return found

    def float_scalar(self, value: ir.Value, where: ir.Operation) -> FloatScalar:
        found = self.scalar(value, where)
        if not isinstance(found, FloatScalar):
            raise located_error(where, f"expected a float operand, got {value.type}")
        return found

    def pointer(self, value: ir.Value, where: ir.Operation) -> PointerScalar:
        found = self.scalar(value, where)
        if not isinstance(found, PointerScalar):
            raise located_error(where, f"expected a pointer operand, got {value.type}")
        return found
