"""Builder for MTIA program files (format version 1, docs/program-format.md).

A program is the per-PE control code of one Triton kernel plus its parameter
list, local-memory plan (circular buffers) and source-location table. The
control code is a small register machine (integer registers ``r*``, float
registers ``f*``) that computes addresses and loop bounds and issues
tile-granular instructions to the units of its PE:

* ``dma.in`` (loads, gathers) and ``dma.out`` (stores, scatters, atomics),
* ``dpe`` (matrix multiply-accumulate), ``simd`` (elementwise, casts, print,
  assert), ``re`` (reductions, scans, histograms, cross-PE reductions and
  broadcasts) and ``mlu`` (layout copies, local gathers).

Units synchronise only through circular buffers (CBs): a producer unit
``reserve``s pages, writes them (``CB.back()`` slots) and ``push``es them; the
consumer unit ``wait``s, reads (``CB.front()`` slots) and ``pop``s. The control
core can be a consumer too: it waits itself (blocking until the pages are
pushed), reads elements into registers (``load_local``) and pops.

Example (one program adds two 1024-element f32 blocks)::

    b = ProgramBuilder("add")
    x, y, out, n = b.param_ptr("x", "f32"), b.param_ptr("y", "f32"), \\
        b.param_ptr("out", "f32"), b.param_int("n")
    cx, cy, cz = (b.cb(name, 4096, pages=2) for name in ("x", "y", "z"))
    start = b.mul(b.program_id(0), 1024)
    offset = b.mul(start, 4)
    limit = b.sub(b.param(n), start)
    for cb, ptr in ((cx, x), (cy, y)):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(ptr), offset), "f32", [1024], [1],
                   lo=[0], hi=[limit])
        b.push(Unit.DMA_IN, cb)
    ...
    data = b.build()
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mtia_compiler import _sim

#: The format's vocabulary, as the simulator that reads it defines it
#: (`sim/include/mtia/Program.h`): the builder keeps no copy of its own, and
#: the simulator's parser refuses any field it does not read.
_FORMAT: dict[str, Any] = _sim.program_format()
FORMAT_VERSION: int = _FORMAT["version"]
MAGIC: bytes = _FORMAT["magic"]
#: The most dimensions a unit instruction takes (the format's `shape` fields).
MAX_DIMS: int = _FORMAT["max_rank"]
#: Tiles start at offsets into their page that are multiples of this.
SLOT_ALIGNMENT: int = _FORMAT["slot_alignment"]
#: The container's header: magic, version, flags, body length and the
#: body's CRC-32 (`zlib.crc32`), little-endian.
_HEADER = struct.Struct("<8sIIQI")
if _HEADER.size != _FORMAT["header_bytes"]:
    raise ImportError(f"the simulator's program header has {_FORMAT['header_bytes']} bytes, "
                      f"the builder's {_HEADER.size}")

#: The element types and their sizes in bytes.
DTYPE_BYTES: dict[str, int] = dict(_FORMAT["dtypes"])
DTYPES = tuple(DTYPE_BYTES)
#: The unit (`Unit` value) that executes each op.
OP_UNITS: dict[str, str] = dict(_FORMAT["ops"])


class Unit(str, Enum):
    """The agents of a PE that move CB pointers: the units the control core
    issues to, and the control core itself (``CTL``), which can only consume
    a CB (it reads pages with :meth:`ProgramBuilder.load_local` and never
    writes local memory)."""

    DMA_IN = "dma.in"
    DMA_OUT = "dma.out"
    DPE = "dpe"
    SIMD = "simd"
    RE = "re"
    MLU = "mlu"
    CTL = "ctl"


if {unit.value for unit in Unit} != set(_FORMAT["units"]):
    raise ImportError(f"the simulator's units {_FORMAT['units']} are not the builder's")


@dataclass(frozen=True)
class Reg:
    """An integer (64-bit) register of the control core."""

    index: int

    def encode(self) -> dict[str, int]:
        return {"r": self.index}


@dataclass(frozen=True)
class FReg:
    """A float register of the control core: a double, holding the f16, bf16,
    f32 or f64 value that the instruction writing it rounded to its type."""

    index: int

    def encode(self) -> dict[str, int]:
        return {"f": self.index}


@dataclass(frozen=True)
class Slot:
    """A tile in local memory: page ``page`` of the pages the accessing unit
    holds in a CB (``back``: reserved by the producer, ``front``: waited for by
    the consumer, ``pushed``: pushed by the producer and not reserved again,
    counted back from the last), ``offset`` bytes in (a multiple of 8)."""

    cb: int
    side: str
    page: int = 0
    offset: int = 0

    def encode(self) -> dict[str, Any]:
        return {"cb": self.cb, "side": self.side, "page": self.page, "offset": self.offset}


@dataclass(frozen=True)
class CB:
    """A circular buffer of ``pages`` pages of ``page_bytes`` bytes."""

    index: int
    name: str
    page_bytes: int
    pages: int

    def front(self, page: int = 0, offset: int = 0) -> Slot:
        return Slot(self.index, "front", page, offset)

    def back(self, page: int = 0, offset: int = 0) -> Slot:
        return Slot(self.index, "back", page, offset)

    def pushed(self, page: int = 0, offset: int = 0) -> Slot:
        return Slot(self.index, "pushed", page, offset)


@dataclass
class Label:
    """A branch target; bind it with :meth:`ProgramBuilder.bind`."""

    position: int | None = None


IntArg = Reg | int
"""An integer operand: a register, read when the instruction issues, or an
immediate."""
Scalar = Reg | FReg | int | float
"""A scalar operand of a unit instruction."""
@dataclass(frozen=True)
class Splat:
    """A SIMD input: the one element at ``slot``, broadcast to every element."""

    slot: Slot

    def encode(self) -> dict[str, Any]:
        return {**self.slot.encode(), "splat": True}


@dataclass(frozen=True)
class Broadcast:
    """A SIMD input: the tile at ``slot`` spread over the instruction's
    elements, viewed row-major as ``shape``: the element at index i reads
    the tile's element ``sum(i[d] * strides[d])`` (stride 0 along a
    replicated dimension)."""

    slot: Slot
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    def encode(self) -> dict[str, Any]:
        return {**self.slot.encode(),
                "broadcast": {"shape": list(self.shape), "strides": list(self.strides)}}


TileArg = Slot | Splat | Broadcast | Reg | FReg | int | float
"""A SIMD input: a tile, a tile broadcast over the instruction's elements,
or a scalar (a one-element tile, a register or an immediate) broadcast to
every element."""


def _float_immediate(value: float) -> float | str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _scalar(value: Scalar) -> Any:
    if isinstance(value, (Reg, FReg)):
        return value.encode()
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    return _float_immediate(float(value))


def _int_arg(value: IntArg) -> Any:
    if isinstance(value, Reg):
        return value.encode()
    return int(value)


def _tile_arg(value: TileArg) -> Any:
    if isinstance(value, (Slot, Splat, Broadcast)):
        return value.encode()
    return _scalar(value)


def _dtype(name: str) -> str:
    if name not in DTYPE_BYTES:
        raise ValueError(f"unknown dtype {name!r}; expected one of {', '.join(DTYPES)}")
    return name


class ProgramFormatError(ValueError):
    """Bytes that are not an intact program of this format: too short, of
    another format or version, truncated, padded, damaged (the body's digest
    does not match the header's) or without a JSON object as body."""


def encode(body: dict[str, Any]) -> bytes:
    """Wraps a program body (the JSON object) in the versioned header."""
    return seal(json.dumps(body, separators=(",", ":"), allow_nan=False).encode())


def seal(payload: bytes) -> bytes:
    """Wraps the bytes of a program body in the versioned header, with their
    length and digest."""
    return _HEADER.pack(MAGIC, FORMAT_VERSION, 0, len(payload), zlib.crc32(payload)) + payload


def decode(data: bytes) -> dict[str, Any]:
    """Returns the JSON body of program bytes, after checking the header and
    the body's length and digest (the body's contents are the simulator's to
    validate); raises :class:`ProgramFormatError` saying what is wrong."""
    if len(data) < _HEADER.size:
        raise ProgramFormatError(f"the program is truncated: {len(data)} bytes is shorter than "
                                 f"the {_HEADER.size}-byte header")
    magic, version, flags, size, digest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ProgramFormatError("not an MTIA program (bad magic)")
    if version != FORMAT_VERSION:
        raise ProgramFormatError(f"unsupported program format version {version} "
                                 f"(this reader reads version {FORMAT_VERSION})")
    if flags != 0:
        raise ProgramFormatError(f"unknown header flags {flags}")
    payload = bytes(data[_HEADER.size:])
    if size != len(payload):
        state = "truncated" if size > len(payload) else "padded"
        raise ProgramFormatError(f"the program is {state}: the header says {size} bytes of "
                                 f"body, {len(payload)} present")
    computed = zlib.crc32(payload)
    if computed != digest:
        raise ProgramFormatError(f"the program is damaged: its digest does not match its body "
                                 f"(CRC-32 {digest:08x} in the header, {computed:08x} of the "
                                 f"body)")
    try:
        body = json.loads(payload)
    except ValueError as error:
        raise ProgramFormatError(f"the program's body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise ProgramFormatError("the program's body is not a JSON object")
    return body


class _LocationScope(contextlib.AbstractContextManager[None]):
    """The scope of :meth:`ProgramBuilder.location`: a compiler enters one
    per operation, which a class does at a fraction of the cost of a
    generator-based context manager."""

    def __init__(self, builder: ProgramBuilder, loc: int | None) -> None:
        self._builder = builder
        self._loc = loc
        self._saved: int | None = None

    def __enter__(self) -> None:
        self._saved = self._builder._current_loc
        self._builder._current_loc = self._loc

    def __exit__(self, *exc_info: object) -> None:
        self._builder._current_loc = self._saved


class ProgramBuilder:
    """Writes one program. Instruction methods append to the control code in
    order; methods that produce a scalar allocate a fresh register unless
    ``dst`` names an existing one (for loop-carried values)."""

    def __init__(self, kernel: str) -> None:
        self.kernel = kernel
        self._params: list[dict[str, Any]] = []
        self._cbs: list[CB] = []
        self._locs: list[str] = []
        self._loc_index: dict[str, int] = {}
        self._current_loc: int | None = None
        self._code: list[dict[str, Any]] = []
        self._labels: list[tuple[int, Label]] = []
        self._num_iregs = 0
        self._num_fregs = 0
        #: The order in which the PEs take the launch's programs, round by
        #: round: "round_robin", "serpentine" or "staggered", and the grid
        #: axis along which a staggered order's programs differ in work
        #: (docs/program-format.md).
        self.program_order = "round_robin"
        self.program_order_axis = 0
        #: The bytes of global memory that the program on each PE owns while
        #: it runs (`scratch` reads their address); 0 for none.
        self.scratch_bytes = 0

    # -- declarations ------------------------------------------------------

    def _param(self, name: str, entry: dict[str, Any]) -> int:
        self._params.append({"name": name, **entry})
        return len(self._params) - 1

    def param_ptr(self, name: str, dtype: str, memory: str = "dram") -> int:
        """Declares a pointer parameter (a host buffer); returns its index."""
        if memory not in ("dram", "sram"):
            raise ValueError("memory must be 'dram' or 'sram'")
        return self._param(name, {"kind": "ptr", "dtype": _dtype(dtype), "memory": memory})

    def param_int(self, name: str) -> int:
        return self._param(name, {"kind": "int"})

    def param_float(self, name: str) -> int:
        return self._param(name, {"kind": "float"})

    def cb(self, name: str, page_bytes: int, pages: int = 2) -> CB:
        """Declares a circular buffer in every PE's local memory."""
        cb = CB(len(self._cbs), name, page_bytes, pages)
        self._cbs.append(cb)
        return cb

    def ireg(self) -> Reg:
        self._num_iregs += 1
        return Reg(self._num_iregs - 1)

    def freg(self) -> FReg:
        self._num_fregs += 1
        return FReg(self._num_fregs - 1)

    def location(self, loc: str | None) -> contextlib.AbstractContextManager[None]:
        """Attributes the instructions emitted inside to ``loc`` (file:line:col)."""
        return _LocationScope(self, None if loc is None else self._intern_loc(loc))

    def _intern_loc(self, loc: str) -> int:
        if loc not in self._loc_index:
            self._loc_index[loc] = len(self._locs)
            self._locs.append(loc)
        return self._loc_index[loc]

    def _emit(self, op: str, **fields: Any) -> None:
        if op not in OP_UNITS:
            raise ValueError(f"the program format has no op {op!r}")
        inst: dict[str, Any] = {"op": op, **fields}
        if self._current_loc is not None:
            inst["loc"] = self._current_loc
        self._code.append(inst)

    def _int_dst(self, dst: Reg | None) -> Reg:
        return dst if dst is not None else self.ireg()

    def _float_dst(self, dst: FReg | None) -> FReg:
        return dst if dst is not None else self.freg()

    # -- control core: scalars --------------------------------------------

    def const(self, value: int, dst: Reg | None = None) -> Reg:
        d = self._int_dst(dst)
        self._emit("li", d=d.index, imm=int(value))
        return d

    def fconst(self, value: float, dst: FReg | None = None) -> FReg:
        d = self._float_dst(dst)
        self._emit("lf", d=d.index, imm=_float_immediate(float(value)))
        return d

    def mov(self, src: Reg, dst: Reg | None = None) -> Reg:
        d = self._int_dst(dst)
        self._emit("mov", d=d.index, a=src.index)
        return d

    def fmov(self, src: FReg, dst: FReg | None = None) -> FReg:
        d = self._float_dst(dst)
        self._emit("fmov", d=d.index, a=src.index)
        return d

    def iop(self, fn: str, a: Reg, b: IntArg, width: int = 64, dst: Reg | None = None) -> Reg:
        """Integer ``fn`` (add, sub, mul, div, rem, divu, remu, min, max, minu,
        maxu, and, or, xor, shl, shrs, shru, mulhiu, mulhis) on ``width``-bit
        values; 32-bit results are sign-extended into the register."""
        d = self._int_dst(dst)
        self._emit("iop", fn=fn, w=width, d=d.index, a=a.index, b=_int_arg(b))
        return d

    def add(self, a: Reg, b: IntArg, dst: Reg | None = None) -> Reg:
        return self.iop("add", a, b, dst=dst)

    def sub(self, a: Reg, b: IntArg, dst: Reg | None = None) -> Reg:
        return self.iop("sub", a, b, dst=dst)

    def mul(self, a: Reg, b: IntArg, dst: Reg | None = None) -> Reg:
        return self.iop("mul", a, b, dst=dst)

    def icmp(self, pred: str, a: Reg, b: IntArg, width: int = 64) -> Reg:
        """Integer compare (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge) -> 0/1."""
        d = self.ireg()
        self._emit("icmp", pred=pred, w=width, d=d.index, a=a.index, b=_int_arg(b))
        return d

    def fop(self, fn: str, a: FReg, b: FReg, dtype: str = "f32",
            dst: FReg | None = None) -> FReg:
        """Scalar float ``fn`` in ``dtype`` (f16, bf16, f32 or f64): the
        operands and the result are rounded to it."""
        d = self._float_dst(dst)
        self._emit("fop", fn=fn, t=dtype, d=d.index, a=a.index, b=b.index)
        return d

    def ffma(self, a: FReg, b: FReg, c: FReg, dtype: str = "f32",
             dst: FReg | None = None) -> FReg:
        """Scalar ``a * b + c`` in ``dtype`` with one rounding."""
        d = self._float_dst(dst)
        self._emit("ffma", t=dtype, d=d.index, a=a.index, b=b.index, c=c.index)
        return d

    def fun(self, fn: str, a: FReg, dtype: str = "f32", dst: FReg | None = None) -> FReg:
        """Scalar float unary function (the SIMD unary set)."""
        d = self._float_dst(dst)
        self._emit("fun", fn=fn, t=dtype, d=d.index, a=a.index)
        return d

    def fcmp(self, pred: str, a: FReg, b: FReg, dtype: str = "f32") -> Reg:
        """Float compare (oeq, one, olt, ole, ogt, oge, ord, ueq, une, fult,
        fule, fugt, fuge, uno) -> 0/1."""
        d = self.ireg()
        self._emit("fcmp", pred=pred, t=dtype, d=d.index, a=a.index, b=b.index)
        return d

    def itof(self, a: Reg, dtype: str = "f32", signed: bool = True) -> FReg:
        d = self.freg()
        self._emit("itof", d=d.index, a=a.index, t=dtype, signed=signed)
        return d

    def ftoi(self, a: FReg, width: int = 32, signed: bool = True) -> Reg:
        """Float to integer, truncating and saturating (NaN -> 0)."""
        d = self.ireg()
        self._emit("ftoi", d=d.index, a=a.index, w=width, signed=signed)
        return d

    def fmvx(self, a: FReg, dtype: str = "f32") -> Reg:
        """The bits of `a` as a `dtype` float, as a signed integer of its width."""
        d = self.ireg()
        self._emit("fmvx", d=d.index, a=a.index, t=dtype)
        return d

    def fmvf(self, a: Reg, dtype: str = "f32") -> FReg:
        """The low bits of `a` (as many as `dtype` has) read as a `dtype` float."""
        d = self.freg()
        self._emit("fmvf", d=d.index, a=a.index, t=dtype)
        return d

    def select(self, cond: Reg, a: Reg, b: Reg, dst: Reg | None = None) -> Reg:
        d = self._int_dst(dst)
        self._emit("isel", d=d.index, c=cond.index, a=a.index, b=b.index)
        return d

    def fselect(self, cond: Reg, a: FReg, b: FReg, dst: FReg | None = None) -> FReg:
        d = self._float_dst(dst)
        self._emit("fsel", d=d.index, c=cond.index, a=a.index, b=b.index)
        return d

    def program_id(self, axis: int) -> Reg:
        d = self.ireg()
        self._emit("pid", d=d.index, axis=axis)
        return d

    def num_programs(self, axis: int) -> Reg:
        d = self.ireg()
        self._emit("nprog", d=d.index, axis=axis)
        return d

    def pe(self, query: str) -> Reg:
        """The identity of the PE running the program (RISC-V ``mhartid``):
        ``query`` is ``"row"``, ``"col"``, ``"rows"``, ``"cols"`` (of the
        target's PE grid) or ``"index"`` (``row * cols + col``)."""
        d = self.ireg()
        self._emit("pe", d=d.index, q=query)
        return d

    def scratch(self) -> Reg:
        """The address of the `scratch_bytes` of global memory that the
        program on this PE owns while it runs."""
        d = self.ireg()
        self._emit("scratch", d=d.index)
        return d

    def param(self, index: int) -> Reg:
        """The value of an int parameter or the address of a pointer parameter."""
        d = self.ireg()
        self._emit("param", d=d.index, index=index)
        return d

    def fparam(self, index: int) -> FReg:
        d = self.freg()
        self._emit("fparam", d=d.index, index=index)
        return d

    def load_scalar(self, addr: Reg, dtype: str) -> Reg | FReg:
        """One element from global memory through the control core."""
        d: Reg | FReg = self.freg() if dtype.startswith(("f", "bf")) else self.ireg()
        self._emit("ld", d=d.index, addr=addr.index, t=_dtype(dtype))
        return d

    def load_local(self, src: Slot, dtype: str, index: IntArg = 0) -> Reg | FReg:
        """Element ``index`` of the ``dtype`` tile at ``src`` (a front slot of
        a CB the control core waited for, see :meth:`wait`) into a register:
        a float register for float types, else an integer register
        (sign-extended; i1 is 0 or 1)."""
        d: Reg | FReg = self.freg() if dtype.startswith(("f", "bf")) else self.ireg()
        self._emit("ldl", d=d.index, src=src.encode(), t=_dtype(dtype), i=_int_arg(index))
        return d

    def store_scalar(self, addr: Reg, value: Reg | FReg, dtype: str) -> None:
        self._emit("st", addr=addr.index, v=value.index, t=_dtype(dtype))

    def atomic_scalar(self, fn: str, addr: Reg, value: Reg | FReg, dtype: str, sem: str,
                      cmp: Reg | FReg | None = None, mask: Reg | None = None) -> Reg | FReg:
        """An atomic on one element through the control core (``amo``); returns
        the previous value (0 when ``mask`` is 0 and nothing is accessed)."""
        d: Reg | FReg = self.freg() if dtype.startswith(("f", "bf")) else self.ireg()
        fields: dict[str, Any] = {"fn": fn, "t": _dtype(dtype), "d": d.index,
                                  "addr": addr.index, "v": value.index, "sem": sem}
        if cmp is not None:
            fields["cmp"] = cmp.index
        if mask is not None:
            fields["mask"] = mask.index
        self._emit("amo", **fields)
        return d

    # -- control flow -------------------------------------------------------

    def label(self) -> Label:
        return Label()

    def bind(self, label: Label) -> None:
        label.position = len(self._code)

    def _branch(self, op: str, label: Label, **fields: Any) -> None:
        self._labels.append((len(self._code), label))
        self._emit(op, target=-1, **fields)

    def jump(self, label: Label) -> None:
        self._branch("jmp", label)

    def branch_if_zero(self, cond: Reg, label: Label) -> None:
        self._branch("bz", label, c=cond.index)

    def branch_if_nonzero(self, cond: Reg, label: Label) -> None:
        self._branch("bnz", label, c=cond.index)

    @contextlib.contextmanager
    def for_range(self, start: IntArg, stop: IntArg, step: int = 1) -> Iterator[Reg]:
        """``for i in range(start, stop, step)`` (step > 0) in control code."""
        if step <= 0:
            raise ValueError("for_range needs a positive step")
        index = self.mov(start) if isinstance(start, Reg) else self.const(start)
        limit = stop if isinstance(stop, Reg) else self.const(stop)
        top, done = self.label(), self.label()
        self.bind(top)
        self.branch_if_zero(self.icmp("slt", index, limit), done)
        yield index
        self.add(index, step, dst=index)
        self.jump(top)
        self.bind(done)

    def fence(self) -> None:
        """Waits until every unit of the PE has drained its queue (orders DMA
        writes before later scalar loads, for example)."""
        self._emit("fence")

    def barrier(self, axes: Sequence[int]) -> None:
        """Waits like :meth:`fence`, then until every program of the group
        over the grid ``axes`` (those sharing their ids outside ``axes``, as
        for :meth:`cross_reduce`) has reached its matching barrier: global
        memory written before the barrier by any member is visible to every
        member after it."""
        self._emit("barrier", axes=list(axes))

    def print(self, text: str, *args: Scalar) -> None:
        """Prints ``pid (x, y, z) idx ()<text> <args...>`` from the control core."""
        self._emit("print", text=text, args=[_scalar(a) for a in args])

    def assert_(self, cond: Reg, message: str) -> None:
        self._emit("assert", c=cond.index, text=message)

    def end(self) -> None:
        """Ends the current program (falling off the code also does)."""
        self._emit("end")

    # -- circular buffers ---------------------------------------------------

    def reserve(self, unit: Unit, cb: CB, n: int = 1) -> None:
        """``unit`` (the CB's producer) waits for ``n`` free pages."""
        self._emit("cb.reserve", unit=Unit(unit).value, cb=cb.index, n=n)

    def push(self, unit: Unit, cb: CB, n: int = 1) -> None:
        """Publishes ``n`` reserved pages once the unit's writes complete."""
        self._emit("cb.push", unit=Unit(unit).value, cb=cb.index, n=n)

    def wait(self, unit: Unit, cb: CB, n: int = 1) -> None:
        """``unit`` (the CB's consumer) waits for ``n`` pushed pages; with
        ``Unit.CTL`` the control core itself blocks until they are pushed."""
        self._emit("cb.wait", unit=Unit(unit).value, cb=cb.index, n=n)

    def pop(self, unit: Unit, cb: CB, n: int = 1) -> None:
        """Frees ``n`` waited-for pages once the unit's reads complete (the
        control core's reads are complete when it pops)."""
        self._emit("cb.pop", unit=Unit(unit).value, cb=cb.index, n=n)

    # -- DMA ------------------------------------------------------------------

    @staticmethod
    def _strided(addr: IntArg, dtype: str, shape: Sequence[int],
                 strides: Sequence[IntArg], lo: Sequence[IntArg] | None,
                 hi: Sequence[IntArg] | None, mask: Slot | None,
                 elementwise: bool) -> dict[str, Any]:
        if len(strides) != len(shape):
            raise ValueError("strides needs one entry per dimension")
        fields: dict[str, Any] = {
            "addr": _int_arg(addr), "t": _dtype(dtype), "shape": list(shape),
            "strides": [_int_arg(s) for s in strides],
        }
        if (lo is None) != (hi is None):
            raise ValueError("give both lo and hi bounds or neither")
        if lo is not None and hi is not None:
            fields["lo"] = [_int_arg(v) for v in lo]
            fields["hi"] = [_int_arg(v) for v in hi]
        if mask is not None:
            fields["mask"] = mask.encode()
        if elementwise:
            fields["elementwise"] = True
        return fields

    def dma_load(self, dst: Slot, addr: IntArg, dtype: str, shape: Sequence[int],
                 strides: Sequence[IntArg], lo: Sequence[IntArg] | None = None,
                 hi: Sequence[IntArg] | None = None, other: Scalar = 0,
                 mask: Slot | None = None, elementwise: bool = False) -> None:
        """Copies the N-d window ``addr + sum(i_d * strides_d) * elem_bytes`` of
        global memory (byte address, strides in elements) into the dense tile
        ``dst``. Element ``i`` is read only if ``lo_d <= i_d < hi_d`` for all d
        and ``mask[i]`` (an i1 tile) is set; others get ``other``.
        ``elementwise`` moves every element on its own (rows of any alignment,
        one transaction per element)."""
        self._emit("dma.load", dst=dst.encode(), other=_scalar(other),
                   **self._strided(addr, dtype, shape, strides, lo, hi, mask, elementwise))

    def dma_store(self, src: Slot, addr: IntArg, dtype: str, shape: Sequence[int],
                  strides: Sequence[IntArg], lo: Sequence[IntArg] | None = None,
                  hi: Sequence[IntArg] | None = None, mask: Slot | None = None,
                  elementwise: bool = False) -> None:
        """The reverse of :meth:`dma_load`; masked-off elements are not written."""
        self._emit("dma.store", src=src.encode(),
                   **self._strided(addr, dtype, shape, strides, lo, hi, mask, elementwise))

    def dma_gather(self, dst: Slot, addr: IntArg, dtype: str, n: int, index: Slot,
                   index_dtype: str = "i32", mask: Slot | None = None,
                   other: Scalar = 0) -> None:
        """``dst[i] = addr[index[i]]`` (element offsets) for ``n`` elements."""
        fields: dict[str, Any] = {"dst": dst.encode(), "addr": _int_arg(addr),
                                  "t": _dtype(dtype), "n": n, "index": index.encode(),
                                  "index_t": index_dtype, "other": _scalar(other)}
        if mask is not None:
            fields["mask"] = mask.encode()
        self._emit("dma.gather", **fields)

    def dma_scatter(self, src: Slot, addr: IntArg, dtype: str, n: int, index: Slot,
                    index_dtype: str = "i32", mask: Slot | None = None) -> None:
        """``addr[index[i]] = src[i]`` for ``n`` elements, in increasing i."""
        fields: dict[str, Any] = {"src": src.encode(), "addr": _int_arg(addr),
                                  "t": _dtype(dtype), "n": n, "index": index.encode(),
                                  "index_t": index_dtype}
        if mask is not None:
            fields["mask"] = mask.encode()
        self._emit("dma.scatter", **fields)

    def dma_atomic(self, fn: str, addr: IntArg, dtype: str, n: int, val: TileArg,
                   index: Slot | None = None, index_dtype: str = "i32",
                   mask: Slot | None = None, old: Slot | None = None,
                   cmp: TileArg | None = None) -> None:
        """Read-modify-write of ``n`` global elements at ``addr + index[i]`` (or
        ``addr + i``) with ``fn`` in add, max, min, maxu, minu, and, or, xor,
        xchg, cas (``cmp`` operand). ``old`` receives the previous values."""
        fields: dict[str, Any] = {"fn": fn, "addr": _int_arg(addr), "t": _dtype(dtype),
                                  "n": n, "val": _tile_arg(val), "index_t": index_dtype}
        for key, slot in (("index", index), ("mask", mask), ("old", old)):
            if slot is not None:
                fields[key] = slot.encode()
        if fn == "cas":
            if cmp is None:
                raise ValueError("cas needs a cmp operand")
            fields["cmp"] = _tile_arg(cmp)
        self._emit("dma.atomic", **fields)

    # -- DPE --------------------------------------------------------------------

    def mma(self, a: Slot, b: Slot, c: Slot, m: int, n: int, k: int, dtype: str,
            acc_dtype: str = "f32", acc: Slot | None = None) -> None:
        """``c = a @ b (+ acc)``: a is m x k, b is k x n (row-major, ``dtype`` in
        f16/bf16/f32 with f32 results, or i8 with i32), c and acc m x n."""
        fields: dict[str, Any] = {"a": a.encode(), "b": b.encode(), "c": c.encode(),
                                  "m": m, "n": n, "k": k, "t": dtype, "acc_t": acc_dtype}
        if acc is not None:
            fields["acc"] = acc.encode()
        self._emit("dpe.mma", **fields)

    # -- SIMD / SFU -------------------------------------------------------------

    def simd_binary(self, fn: str, dtype: str, d: Slot, a: TileArg, b: TileArg,
                    n: int) -> None:
        """Elementwise ``d = fn(a, b)`` over ``n`` elements of ``dtype``."""
        self._emit("simd.binary", fn=fn, t=_dtype(dtype), d=d.encode(),
                   a=_tile_arg(a), b=_tile_arg(b), n=n)

    def simd_unary(self, fn: str, dtype: str, d: Slot, a: TileArg, n: int) -> None:
        self._emit("simd.unary", fn=fn, t=_dtype(dtype), d=d.encode(), a=_tile_arg(a), n=n)

    def simd_cmp(self, pred: str, dtype: str, d: Slot, a: TileArg, b: TileArg,
                 n: int) -> None:
        """``d`` (i1, one byte per element) = pred(a, b)."""
        self._emit("simd.cmp", pred=pred, t=_dtype(dtype), d=d.encode(),
                   a=_tile_arg(a), b=_tile_arg(b), n=n)

    def simd_select(self, dtype: str, d: Slot, c: TileArg, a: TileArg, b: TileArg,
                    n: int) -> None:
        self._emit("simd.select", t=_dtype(dtype), d=d.encode(), c=_tile_arg(c),
                   a=_tile_arg(a), b=_tile_arg(b), n=n)

    def simd_fma(self, dtype: str, d: Slot, a: TileArg, b: TileArg, c: TileArg,
                 n: int) -> None:
        self._emit("simd.fma", t=_dtype(dtype), d=d.encode(), a=_tile_arg(a),
                   b=_tile_arg(b), c=_tile_arg(c), n=n)

    def simd_mma(self, a: Slot, b: Slot, c: Slot, m: int, n: int, k: int,
                 acc: Slot | None = None) -> None:
        """``c = a @ b (+ acc)`` in f64 on the SIMD engine: a is m x k, b is
        k x n (row-major), c and acc m x n; every product and sum rounded."""
        fields: dict[str, Any] = {"a": a.encode(), "b": b.encode(), "c": c.encode(),
                                  "m": m, "n": n, "k": k, "t": "f64"}
        if acc is not None:
            fields["acc"] = acc.encode()
        self._emit("simd.mma", **fields)

    def simd_cast(self, d: Slot, a: Slot, n: int, from_dtype: str, to_dtype: str,
                  signed: bool = True, bitcast: bool = False) -> None:
        """Converts ``n`` elements (RNE for narrowing floats; ``signed`` picks
        sign/zero extension and signedness of float<->int)."""
        self._emit("simd.cast", d=d.encode(), a=a.encode(), n=n, signed=signed,
                   bitcast=bitcast, **{"from": _dtype(from_dtype), "to": _dtype(to_dtype)})

    def simd_fill(self, dtype: str, d: Slot, n: int, value: Scalar) -> None:
        self._emit("simd.fill", t=_dtype(dtype), d=d.encode(), n=n, v=_scalar(value))

    def simd_iota(self, dtype: str, d: Slot, n: int, start: Scalar = 0) -> None:
        """``d[i] = start + i``."""
        self._emit("simd.iota", t=_dtype(dtype), d=d.encode(), n=n, start=_scalar(start))

    def simd_print(self, a: Slot, dtype: str, shape: Sequence[int], text: str = "",
                   hex: bool = False, signed: bool = True) -> None:
        self._emit("simd.print", a=a.encode(), t=_dtype(dtype), shape=list(shape),
                   text=text, hex=hex, signed=signed)

    def simd_assert(self, cond: Slot, n: int, text: str) -> None:
        """Aborts the launch with ``text`` if an element of the i1 tile is 0."""
        self._emit("simd.assert", c=cond.encode(), n=n, text=text)

    # -- reduction engine -------------------------------------------------------

    def reduce(self, fn: str, dtype: str, src: Slot, shape: Sequence[int], axis: int,
               d: Slot | None = None, idx: Slot | None = None) -> None:
        """Reduces ``src`` along ``axis`` with sum, prod, max, min, maxnum,
        minnum, maxu, minu, and, or, xor, argmax, argmin (these write i32
        positions to ``idx``, first extreme wins, and values to ``d``)."""
        shape, axis = _around_axis(shape, axis)
        fields: dict[str, Any] = {"fn": fn, "t": _dtype(dtype), "src": src.encode(),
                                  "shape": shape, "axis": axis}
        if d is not None:
            fields["d"] = d.encode()
        if idx is not None:
            fields["idx"] = idx.encode()
        self._emit("re.reduce", **fields)

    def scan(self, fn: str, dtype: str, src: Slot, d: Slot, shape: Sequence[int],
             axis: int, reverse: bool = False) -> None:
        """Inclusive scan along ``axis``."""
        shape, axis = _around_axis(shape, axis)
        self._emit("re.scan", fn=fn, t=_dtype(dtype), src=src.encode(), d=d.encode(),
                   shape=list(shape), axis=axis, reverse=reverse)

    def histogram(self, dtype: str, src: Slot, n: int, bins: int, d: Slot,
                  mask: Slot | None = None, signed: bool = True) -> None:
        """``d`` (``bins`` i32 counts) = how often each value ``0 <= v < bins``
        occurs among the ``n`` integers of ``src`` (skipping elements whose i1
        ``mask`` is 0). Any counted value outside ``[0, bins)`` aborts the
        launch."""
        fields: dict[str, Any] = {"t": _dtype(dtype), "src": src.encode(), "n": n,
                                  "bins": bins, "d": d.encode(), "signed": signed}
        if mask is not None:
            fields["mask"] = mask.encode()
        self._emit("re.histogram", **fields)

    def cross_reduce(self, fn: str, dtype: str, src: Slot, n: int, axes: Sequence[int],
                     d: Slot | None = None, src_idx: Slot | None = None,
                     idx: Slot | None = None, root: int | None = None) -> None:
        """Combines the ``n``-element tile ``src`` elementwise across the
        programs that share their ids outside the grid ``axes`` (the reduce
        group) over the reduction network, folding in increasing rank (the
        linear id along ``axes``). ``fn`` is a :meth:`reduce` combiner; for
        argmax/argmin each member also sends the i32 indices ``src_idx`` of
        its values and receives the winner's in ``idx`` (lowest rank wins
        ties). Every member receives the result in ``d``, or with ``root``
        only the member of that rank (the others do not wait). The k-th
        collective (:meth:`cross_reduce`, :meth:`cross_broadcast`,
        :meth:`cross_shift`, :meth:`barrier`) over given ``axes`` that a
        program runs matches the k-th over the same ``axes`` of every other
        member of its group."""
        fields: dict[str, Any] = {"fn": fn, "t": _dtype(dtype), "src": src.encode(),
                                  "n": n, "axes": list(axes)}
        for key, slot in (("d", d), ("src_idx", src_idx), ("idx", idx)):
            if slot is not None:
                fields[key] = slot.encode()
        if root is not None:
            fields["root"] = root
        self._emit("re.xreduce", **fields)

    def cross_broadcast(self, dtype: str, src: Slot, n: int, axes: Sequence[int], root: int,
                        d: Slot) -> None:
        """Sends the ``n``-element tile ``src`` of the member of rank ``root``
        of the group over the grid ``axes`` (see :meth:`cross_reduce`) to
        ``d`` of every member, the root included, over the reduction
        network. ``src`` is read only on the root; the others wait for it."""
        self._emit("re.xbroadcast", t=_dtype(dtype), src=src.encode(), n=n, axes=list(axes),
                   root=root, d=d.encode())

    def cross_shift(self, dtype: str, src: Slot, n: int, axis: int, direction: int, d: Slot,
                    other: Scalar = 0) -> None:
        """Sends the ``n``-element tile ``src`` to the neighbour of rank
        ``rank + direction`` (``direction`` is +1 or -1) in the line of
        programs along the grid ``axis`` (the group over ``[axis]``, see
        :meth:`cross_reduce`) and receives the tile of the neighbour of rank
        ``rank - direction`` in ``d``, bit for bit. The member at the end of
        the line that has no such neighbour gets ``other`` in every element
        of ``d``. A member waits only for that neighbour."""
        self._emit("re.xshift", t=_dtype(dtype), src=src.encode(), n=n, axes=[axis],
                   dir=direction, d=d.encode(), other=_scalar(other))

    # -- layout unit ------------------------------------------------------------

    def mlu_gather(self, d: Slot, src: Slot, index: Slot, elem_bytes: int,
                   shape: Sequence[int], src_shape: Sequence[int], axis: int,
                   index_dtype: str = "i32") -> None:
        """``d[..., i, ...] = src[..., index[..., i, ...], ...]`` along ``axis``
        (``tt.gather``): ``d`` and ``index`` have ``shape``, ``src`` has
        ``src_shape``, equal to ``shape`` except along ``axis``. An index
        outside ``[0, src_shape[axis])`` aborts the launch."""
        self._emit("mlu.gather", d=d.encode(), src=src.encode(), index=index.encode(),
                   esize=elem_bytes, shape=list(shape), src_shape=list(src_shape),
                   axis=axis, index_t=index_dtype)

    def mlu_copy(self, d: Slot, src: Slot, elem_bytes: int, shape: Sequence[int],
                 src_strides: Sequence[int], dst_strides: Sequence[int],
                 src_offset: int = 0, dst_offset: int = 0) -> None:
        """``d[dst_offset + i.dst_strides] = src[src_offset + i.src_strides]``
        for every index i of ``shape`` (strides and offsets in elements)."""
        shape, src_strides, dst_strides = merge_copy_dims(shape, src_strides, dst_strides)
        # Dimensions beyond what the MLU takes become one copy per index.
        outer = len(shape) - MAX_DIMS
        for index in itertools.product(*(range(n) for n in shape[:max(outer, 0)])):
            self._emit("mlu.copy", d=d.encode(), src=src.encode(), esize=elem_bytes,
                       shape=shape[len(index):], src_strides=src_strides[len(index):],
                       dst_strides=dst_strides[len(index):],
                       src_offset=src_offset + _dot(index, src_strides),
                       dst_offset=dst_offset + _dot(index, dst_strides))

    def transpose(self, d: Slot, src: Slot, elem_bytes: int, rows: int, cols: int) -> None:
        """``d`` (cols x rows) = transpose of ``src`` (rows x cols)."""
        self.mlu_copy(d, src, elem_bytes, [rows, cols], [cols, 1], [1, rows])

    def broadcast(self, d: Slot, src: Slot, elem_bytes: int, src_shape: Sequence[int],
                  dst_shape: Sequence[int]) -> None:
        """Broadcasts ``src`` (same rank, size-1 dims expand) to dense ``dst_shape``."""
        if len(src_shape) != len(dst_shape):
            raise ValueError("broadcast needs equal ranks")
        src_strides = _dense_strides(src_shape)
        strides = [0 if s == 1 and t != 1 else st
                   for s, t, st in zip(src_shape, dst_shape, src_strides, strict=True)]
        self.mlu_copy(d, src, elem_bytes, dst_shape, strides, _dense_strides(dst_shape))

    # -- output -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The program body as a JSON-compatible dict (labels resolved)."""
        code = [dict(inst) for inst in self._code]
        for position, label in self._labels:
            if label.position is None:
                raise ValueError(f"instruction {position} branches to an unbound label")
            code[position]["target"] = label.position
        body: dict[str, Any] = {
            "kernel": self.kernel,
            "iregs": max(self._num_iregs, 1),
            "fregs": max(self._num_fregs, 1),
            "params": list(self._params),
            "cbs": [{"name": cb.name, "page_bytes": cb.page_bytes, "pages": cb.pages}
                    for cb in self._cbs],
            "locs": list(self._locs),
            "code": code,
        }
        if self.program_order != "round_robin":
            body["program_order"] = self.program_order
        if self.program_order_axis:
            body["program_order_axis"] = self.program_order_axis
        if self.scratch_bytes:
            body["scratch_bytes"] = self.scratch_bytes
        return body

    def build(self) -> bytes:
        """The program file bytes."""
        return encode(self.to_json())


def _dense_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides


def _around_axis(shape: Sequence[int], axis: int) -> tuple[list[int], int]:
    """A shape of more dimensions than the units take, as the equivalent
    ``[outer, shape[axis], inner]`` (row-major order is unchanged)."""
    if len(shape) <= MAX_DIMS:
        return list(shape), axis
    return [math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])], 1


def merge_copy_dims(shape: Sequence[int], src_strides: Sequence[int],
                    dst_strides: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """A strided copy of more dimensions than the units take, with its size-1
    dimensions dropped and each dimension merged into the one before it when
    both sides step over it contiguously (more than the units take may
    remain)."""
    if len(shape) <= MAX_DIMS:
        return list(shape), list(src_strides), list(dst_strides)
    dims = [(n, s, t) for n, s, t in zip(shape, src_strides, dst_strides, strict=True) if n != 1]
    merged: list[tuple[int, int, int]] = []
    for n, s, t in dims:
        if merged:
            outer_n, outer_s, outer_t = merged[-1]
            if outer_s == s * n and outer_t == t * n:
                merged[-1] = (outer_n * n, s, t)
                continue
        merged.append((n, s, t))
    merged = merged or [(1, 1, 1)]
    return [n for n, _, _ in merged], [s for _, s, _ in merged], [t for _, _, t in merged]


def _dot(index: Sequence[int], strides: Sequence[int]) -> int:
    return sum(i * stride for i, stride in zip(index, strides, strict=False))
