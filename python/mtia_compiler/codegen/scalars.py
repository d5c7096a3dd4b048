"""Scalar arithmetic on the control core: `arith`, `math` and the scalar `tt`
operations, with integer widths kept exact (see values.IntScalar)."""

from __future__ import annotations

from mlir.dialects import arith, math

from mtia_compiler import ir
from mtia_compiler.dialects import tt
from mtia_compiler.dialects.tt import PointerType
from mtia_compiler.program import FReg, ProgramBuilder, Reg

from .common import element_dtype, located_error, op_name
from .values import FloatScalar, IntScalar, PointerScalar, Scalar

#: The control-core instruction of every integer binary operation, by its
#: generated op class (so are the tables below).
INT_BINARY: dict[type, str] = {
    arith.AddIOp: "add", arith.SubIOp: "sub", arith.MulIOp: "mul", arith.DivSIOp: "div",
    arith.DivUIOp: "divu", arith.RemSIOp: "rem", arith.RemUIOp: "remu",
    arith.MinSIOp: "min", arith.MaxSIOp: "max", arith.MinUIOp: "minu", arith.MaxUIOp: "maxu",
    arith.AndIOp: "and", arith.OrIOp: "or", arith.XOrIOp: "xor", arith.ShLIOp: "shl",
    arith.ShRSIOp: "shrs", arith.ShRUIOp: "shru", tt.MulhiUIOp: "mulhiu",
}
UNSIGNED_OPERAND_FNS = ("divu", "remu", "shru", "mulhiu")
FLOAT_BINARY: dict[type, str] = {
    arith.AddFOp: "add", arith.SubFOp: "sub", arith.MulFOp: "mul", arith.DivFOp: "div",
    arith.RemFOp: "rem", arith.MaximumFOp: "max", arith.MinimumFOp: "min",
    arith.MaxNumFOp: "maxnum", arith.MinNumFOp: "minnum", math.PowFOp: "pow",
    math.Atan2Op: "atan2", math.CopySignOp: "copysign", tt.PreciseDivFOp: "div",
}
FLOAT_UNARY: dict[type, str] = {
    arith.NegFOp: "neg", math.AbsFOp: "abs", math.FloorOp: "floor", math.CeilOp: "ceil",
    math.TruncOp: "trunc", math.RoundOp: "round", math.RoundEvenOp: "rint",
    tt.PreciseSqrtOp: "sqrt", math.SqrtOp: "sqrt", math.RsqrtOp: "rsqrt", math.ExpOp: "exp",
    math.Exp2Op: "exp2", math.ExpM1Op: "expm1", math.LogOp: "log", math.Log2Op: "log2",
    math.Log10Op: "log10", math.Log1pOp: "log1p", math.SinOp: "sin", math.CosOp: "cos",
    math.TanOp: "tan", math.AsinOp: "asin", math.AcosOp: "acos", math.AtanOp: "atan",
    math.SinhOp: "sinh", math.CoshOp: "cosh", math.TanhOp: "tanh", math.AsinhOp: "asinh",
    math.AcoshOp: "acosh", math.AtanhOp: "atanh", math.ErfOp: "erf", math.ErfcOp: "erfc",
    math.CbrtOp: "cbrt",
}
#: The float conversions whose result type holds every value of the source.
EXACT_FLOAT_CONVERSIONS = {("f16", "f32"), ("bf16", "f32"), ("f16", "f64"), ("bf16", "f64"),
                           ("f32", "f64")}
#: Casts that reinterpret the register as another type.
REINTERPRETING_CASTS = (tt.IntToPtrOp, arith.BitcastOp, tt.BitcastOp, tt.PtrToIntOp)
CASTS = (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp, arith.IndexCastUIOp,
         arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.FPToUIOp, arith.ExtFOp,
         arith.TruncFOp, tt.FpToFpOp, *REINTERPRETING_CASTS)


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
        view = op.opview
        result_type = op.results[0].type
        to_width = integer_width(result_type)
        if isinstance(view, REINTERPRETING_CASTS):
            return self._reinterpret(op, source, result_type, to_width)
        if isinstance(source, IntScalar):
            return self._cast_integer(op, view, source, result_type, to_width)
        if isinstance(source, FloatScalar):
            return self._cast_float(op, view, source, result_type, to_width)
        raise located_error(op, f"'{op_name(op)}' of a pointer is not supported")

    def _reinterpret(self, op: ir.Operation, source: Scalar, result_type: ir.Type,
                     to_width: int | None) -> Scalar:
        if PointerType.isinstance(result_type) and not isinstance(source, FloatScalar):
            return PointerScalar(source.reg, pointee_dtype(result_type, op))
        if to_width is not None and not isinstance(source, FloatScalar):
            return IntScalar(source.reg, to_width)
        if isinstance(source, FloatScalar) and not isinstance(result_type, ir.IntegerType):
            return FloatScalar(source.reg, float_dtype(result_type, op))
        if isinstance(source, FloatScalar) and to_width is not None:
            return IntScalar(self.b.fmvx(source.reg, arithmetic_dtype(source.dtype, op)),
                             to_width)
        if isinstance(source, IntScalar):
            dtype = arithmetic_dtype(float_dtype(result_type, op), op)
            return FloatScalar(self.b.fmvf(source.reg, dtype), dtype)
        raise located_error(op, f"'{op_name(op)}' of a pointer to a float is not supported")

    def _cast_integer(self, op: ir.Operation, view: ir.OpView, source: IntScalar,
                      result_type: ir.Type, to_width: int | None) -> Scalar:
        if isinstance(view, (arith.SIToFPOp, arith.UIToFPOp)):
            signed = isinstance(view, arith.SIToFPOp)
            dtype = arithmetic_dtype(float_dtype(result_type, op), op)
            reg = source.reg if signed else self.zero_extended(source.reg, source.width)
            if signed and source.width == 1:
                reg = self.b.sub(self.b.const(0), reg)
            return FloatScalar(self.b.itof(reg, dtype, signed=signed or source.width < 64),
                               dtype)
        assert to_width is not None
        widening = to_width >= source.width
        unsigned = isinstance(view, (arith.ExtUIOp, arith.IndexCastUIOp))
        if not widening:
            return IntScalar(self.canonical(source.reg, to_width), to_width)
        if unsigned:
            return IntScalar(self.zero_extended(source.reg, source.width), to_width)
        if source.width == 1:
            return IntScalar(self.b.sub(self.b.const(0), source.reg), to_width)
        return IntScalar(source.reg, to_width)

    def _cast_float(self, op: ir.Operation, view: ir.OpView, source: FloatScalar,
                    result_type: ir.Type, to_width: int | None) -> Scalar:
        if isinstance(view, (arith.FPToSIOp, arith.FPToUIOp)):
            assert to_width is not None
            signed = isinstance(view, arith.FPToSIOp)
            reg = self.b.ftoi(source.reg, width=64 if to_width == 64 else 32, signed=signed)
            return IntScalar(self.canonical(reg, to_width), to_width)
        dtype = float_dtype(result_type, op)
        # A conversion to a type that holds every value of the source (f16 or
        # bf16 to f32) keeps the register's value.
        if isinstance(view, arith.ExtFOp) or dtype == source.dtype or \
                (source.dtype, dtype) in EXACT_FLOAT_CONVERSIONS:
            return FloatScalar(source.reg, dtype)
        if isinstance(view, tt.FpToFpOp) and "rounding" in op.attributes and \
                tt.RoundingMode(ir.IntegerAttr(op.attributes["rounding"]).value) == \
                tt.RoundingMode.RTZ:
            raise located_error(op, f"scalar '{op_name(op)}' with rounding toward zero is not "
                                "supported: the control core rounds to nearest even")
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
