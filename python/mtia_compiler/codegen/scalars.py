"""Scalar arithmetic on the control core: `arith`, `math` and the scalar `tt`
operations, with integer widths kept exact (see values.IntScalar)."""

from __future__ import annotations

from mtia_compiler import ir
from mtia_compiler.dialects.tt import PointerType
from mtia_compiler.program import FReg, ProgramBuilder, Reg

from .common import element_dtype, located_error, op_name
from .values import FloatScalar, IntScalar, PointerScalar, Scalar

INT_BINARY = {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul", "arith.divsi": "div",
    "arith.divui": "divu", "arith.remsi": "rem", "arith.remui": "remu",
    "arith.minsi": "min", "arith.maxsi": "max", "arith.minui": "minu", "arith.maxui": "maxu",
    "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor", "arith.shli": "shl",
    "arith.shrsi": "shrs", "arith.shrui": "shru", "tt.mulhiui": "mulhiu",
}
UNSIGNED_OPERAND_FNS = ("divu", "remu", "shru", "mulhiu")
FLOAT_BINARY = {
    "arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul", "arith.divf": "div",
    "arith.remf": "rem", "arith.maximumf": "max", "arith.minimumf": "min",
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum", "math.powf": "pow",
    "math.atan2": "atan2", "math.copysign": "copysign", "tt.precise_divf": "div",
}
FLOAT_UNARY = {
    "arith.negf": "neg", "math.absf": "abs", "math.floor": "floor", "math.ceil": "ceil",
    "math.trunc": "trunc", "math.round": "round", "math.roundeven": "rint",
    "tt.precise_sqrt": "sqrt",
    **{f"math.{fn}": fn for fn in (
        "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
        "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
        "atanh", "erf", "erfc", "cbrt")},
}
CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = {1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 7: "ord",
                   8: "ueq", 9: "fugt", 10: "fuge", 11: "fult", 12: "fule", 13: "une",
                   14: "uno"}
CASTS = ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
         "arith.index_castui", "arith.sitofp", "arith.uitofp", "arith.fptosi",
         "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast", "tt.bitcast",
         "tt.int_to_ptr", "tt.ptr_to_int")


def integer_width(value_type: ir.Type) -> int | None:
    """The width of an integer or index type, or None for other types."""
    if isinstance(value_type, ir.IndexType):
        return 64
    if isinstance(value_type, ir.IntegerType):
        return ir.IntegerType(value_type).width
    return None


def sign_extend(value: int, width: int) -> int:
    """The canonical register value of a `width`-bit integer (i1: 0 or 1)."""
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


class ScalarEmitter:
    """Emits scalar operations into `builder`; `lookup` gives the emitted
    form of an operand."""

    def __init__(self, builder: ProgramBuilder) -> None:
        self.b = builder

    # -- integer helpers ------------------------------------------------------

    def canonical(self, reg: Reg, width: int) -> Reg:
        """Brings a register computed at 64 bits back to the `width`-bit form."""
        if width == 64:
            return reg
        if width == 32:
            return self.b.iop("add", reg, 0, width=32)
        if width == 1:
            return self.b.iop("and", reg, 1)
        shift = 64 - width
        return self.b.iop("shrs", self.b.iop("shl", reg, shift), shift)

    def zero_extended(self, reg: Reg, width: int) -> Reg:
        """The unsigned value of a `width`-bit register as a 64-bit value."""
        if width in (1, 64):
            return reg
        return self.b.iop("and", reg, (1 << width) - 1)

    def integer_binary(self, fn: str, a: IntScalar, b: IntScalar,
                       where: ir.Operation) -> Reg:
        width = a.width
        if width == 1:
            return self._bool_binary(fn, a.reg, b.reg, where)
        if width in (32, 64):
            return self.b.iop(fn, a.reg, b.reg, width=width)
        if fn == "mulhiu":
            raise located_error(where, f"mulhiui on i{width} is not supported")
        lhs, rhs = a.reg, b.reg
        if fn in UNSIGNED_OPERAND_FNS:
            lhs, rhs = self.zero_extended(lhs, width), self.zero_extended(rhs, width)
        return self.canonical(self.b.iop(fn, lhs, rhs), width)

    def _bool_binary(self, fn: str, a: Reg, b: Reg, where: ir.Operation) -> Reg:
        # With true = 1 (unsigned view) and true = -1 (signed view), i1
        # addition and subtraction are xor, multiplication is and, the
        # unsigned extremes are or/and and the signed ones the reverse.
        table = {"and": "and", "or": "or", "xor": "xor", "add": "xor", "sub": "xor",
                 "mul": "and", "maxu": "or", "minu": "and", "max": "and", "min": "or"}
        if fn not in table:
            raise located_error(where, f"'{op_name(where)}' on i1 is not supported")
        return self.b.iop(table[fn], a, b)

    def compare(self, predicate: str, a: IntScalar, b: IntScalar) -> Reg:
        lhs, rhs = a.reg, b.reg
        width = 32 if a.width == 32 else 64
        if a.width == 1 and predicate[0] == "s":
            zero = self.b.const(0)
            lhs, rhs = self.b.sub(zero, lhs), self.b.sub(zero, rhs)
        return self.b.icmp(predicate, lhs, rhs, width=width)

    def abs_int(self, a: IntScalar) -> Reg:
        negated = self.canonical(self.b.sub(self.b.const(0), a.reg), a.width)
        return self.b.iop("max", a.reg, negated)

    # -- operations -----------------------------------------------------------

    def constant(self, op: ir.Operation) -> Scalar:
        attribute = op.attributes["value"]
        result_type = op.results[0].type
        width = integer_width(result_type)
        if isinstance(attribute, ir.BoolAttr):
            return IntScalar(self.b.const(int(ir.BoolAttr(attribute).value)), 1)
        if width is not None:
            value = sign_extend(ir.IntegerAttr(attribute).value, width)
            return IntScalar(self.b.const(value), width)
        if isinstance(attribute, ir.FloatAttr):
            dtype = float_dtype(result_type, op)
            return FloatScalar(self.b.fconst(ir.FloatAttr(attribute).value), dtype)
        raise located_error(op, f"constant {attribute} is not a scalar")

    def float_binary(self, fn: str, a: FloatScalar, b: FloatScalar, where: ir.Operation) -> FReg:
        return self.b.fop(fn, a.reg, b.reg, dtype=arithmetic_dtype(a.dtype, where))

    def float_fma(self, a: FloatScalar, b: FloatScalar, c: FloatScalar,
                  where: ir.Operation) -> FReg:
        return self.b.ffma(a.reg, b.reg, c.reg, dtype=arithmetic_dtype(a.dtype, where))

    def float_unary(self, fn: str, a: FloatScalar, where: ir.Operation) -> FReg:
        return self.b.fun(fn, a.reg, dtype=arithmetic_dtype(a.dtype, where))

    def cast(self, op: ir.Operation, source: Scalar) -> Scalar:
        name = op_name(op)
        result_type = op.results[0].type
        to_width = integer_width(result_type)
        if name in ("tt.int_to_ptr", "arith.bitcast", "tt.bitcast", "tt.ptr_to_int"):
            return self._reinterpret(op, source, result_type, to_width)
        if isinstance(source, IntScalar):
            return self._cast_integer(op, name, source, result_type, to_width)
        if isinstance(source, FloatScalar):
            return self._cast_float(op, name, source, result_type, to_width)
        raise located_error(op, f"'{name}' of a pointer is not supported")

    def _reinterpret(self, op: ir.Operation, source: Scalar, result_type: ir.Type,
                     to_width: int | None) -> Scalar:
        if PointerType.isinstance(result_type) and not isinstance(source, FloatScalar):
            return PointerScalar(source.reg, pointee_dtype(result_type, op))
        if to_width is not None and not isinstance(source, FloatScalar):
            return IntScalar(source.reg, to_width)
        if isinstance(source, FloatScalar) and not isinstance(result_type, ir.IntegerType):
            return FloatScalar(source.reg, float_dtype(result_type, op))
        raise located_error(op, "bitcasts between integer and float scalars are not "
                            "supported: the control core has no instruction that moves "
                            "bits between its register files")

    def _cast_integer(self, op: ir.Operation, name: str, source: IntScalar,
                      result_type: ir.Type, to_width: int | None) -> Scalar:
        if name in ("arith.sitofp", "arith.uitofp"):
            signed = name == "arith.sitofp"
            dtype = arithmetic_dtype(float_dtype(result_type, op), op)
            reg = source.reg if signed else self.zero_extended(source.reg, source.width)
            if signed and source.width == 1:
                reg = self.b.sub(self.b.const(0), reg)
            return FloatScalar(self.b.itof(reg, dtype, signed=signed or source.width < 64),
                               dtype)
        assert to_width is not None
        widening = to_width >= source.width
        unsigned = name in ("arith.extui", "arith.index_castui")
        if not widening:
            return IntScalar(self.canonical(source.reg, to_width), to_width)
        if unsigned:
            return IntScalar(self.zero_extended(source.reg, source.width), to_width)
        if source.width == 1:
            return IntScalar(self.b.sub(self.b.const(0), source.reg), to_width)
        return IntScalar(source.reg, to_width)

    def _cast_float(self, op: ir.Operation, name: str, source: FloatScalar,
                    result_type: ir.Type, to_width: int | None) -> Scalar:
        if name in ("arith.fptosi", "arith.fptoui"):
            assert to_width is not None
            signed = name == "arith.fptosi"
            reg = self.b.ftoi(source.reg, width=64 if to_width == 64 else 32, signed=signed)
            return IntScalar(self.canonical(reg, to_width), to_width)
        dtype = float_dtype(result_type, op)
        if name == "arith.extf" or dtype == source.dtype:
            return FloatScalar(source.reg, dtype)
        return FloatScalar(self.round_to(source.reg, dtype, op), dtype)

    def round_to(self, reg: FReg, dtype: str, where: ir.Operation) -> FReg:
        """`reg` rounded once to `dtype` (to nearest even): adding -0.0 is
        exact, and computing in `dtype` rounds the operand."""
        return self.b.fop("add", reg, self.b.fconst(-0.0),
                          dtype=arithmetic_dtype(dtype, where))


def float_dtype(value_type: ir.Type, where: ir.Operation) -> str:
    dtype = element_dtype(value_type, where)
    if not dtype.startswith(("f", "bf")):
        raise located_error(where, f"expected a float type, got {value_type}")
    return dtype


def arithmetic_dtype(dtype: str, where: ir.Operation) -> str:
    """The control core computes in f16, bf16, f32 and f64, rounding every
    result to the type (the fp8 types have no scalar arithmetic)."""
    if dtype not in ("f16", "bf16", "f32", "f64"):
        raise located_error(where, f"scalar {dtype} arithmetic is not supported: the control "
                            "core computes in f16, bf16, f32 and f64 only")
    return dtype


def pointee_dtype(pointer_type: ir.Type, where: ir.Operation) -> str:
    """The dtype of what a `!tt.ptr` points to (pointers to pointers: i64)."""
    pointee = PointerType(pointer_type).pointee_type
    if PointerType.isinstance(pointee):
        return "i64"
    return element_dtype(pointee, where)
