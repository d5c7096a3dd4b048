"""What an SSA value of the final IR is while its program is written."""

from __future__ import annotations

from dataclasses import dataclass

from mtia_compiler.program import CB, FReg, Reg, Unit


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
