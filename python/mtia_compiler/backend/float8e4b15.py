"""Conversions of Triton's `tl.float8e4b15`, which the frontend asks the backend
for (`convert_custom_types`) because MLIR has no such type.

fp8e4b15 is e4m3 with exponent bias 15: a sign bit, a 4-bit exponent field and
3 mantissa bits, subnormals below 2^-14, no infinities and no NaN; the largest
magnitude, `0x7F`, is 1.875. In the IR its values are `i8`, so every
conversion is built here from operations the compiler already has:

* decoding is exact: the code is the top byte of an f16 with the same bias
  (sign, the low 4 bits of the exponent field, 3 mantissa bits), so the f16
  is the code shifted left by 7 with the sign moved to bit 15; it is then
  extended (or converted) to the destination type;
* encoding rounds once, to nearest even (`rtne`, the default) or toward zero
  (`rtz`), and saturates: a value is scaled by 2^8 (exactly) into
  `float8e4nv` (OCP e4m3fn, bias 7), whose codes below `0x7F` are those of
  fp8e4b15 scaled by 2^8 and which the SIMD engine rounds exactly; what lies
  beyond 1.75 and rounds up (beyond 1.8125 to nearest, from 1.875 toward
  zero) becomes `0x7F`, where e4m3fn keeps its NaN. Infinities and
  overflows become ±1.875, and so does NaN, which the format cannot hold.

Triton's CUDA backend (whose software conversion this type was made for)
decodes the same way but encodes f16 with ties away from zero and clamps to
1.75; its interpreter decodes the same way too.
"""

from __future__ import annotations

from typing import Any

from triton._C.libtriton import ir
from triton.language import core

#: 2^8: the ratio of a float8e4nv value to the fp8e4b15 value of its code.
_SCALE = 256.0
#: The bit of f16's sign, and the f16 bits that an fp8e4b15 code shifted left
#: by 7 occupies (its sign, from the sign extension, moves to bit 15).
_F16_CODE_BITS = -0x4080  # 0xBF80 as an i16
#: The largest fp8e4b15 magnitude code, whose e4m3fn code is NaN.
_LARGEST = 0x7F


def _rounding_name(rounding: Any) -> str:
    if rounding is None or rounding == ir.ROUNDING_MODE.RTNE:
        return "rtne"
    if rounding == ir.ROUNDING_MODE.RTZ:
        return "rtz"
    raise ValueError(f"unknown rounding mode {rounding}")


def _decode(arg: core.tensor, dst_ty: core.dtype, semantic: Any) -> core.tensor:
    codes = semantic.make_tensor(arg.handle, arg.type.with_element_ty(core.int8)
                                 if arg.type.is_block() else core.int8)
    shifted = semantic.shl(semantic.cast(codes, core.int16), 7)
    f16_bits = semantic.and_(shifted, _F16_CODE_BITS)
    return semantic.cast(semantic.bitcast(f16_bits, core.float16), dst_ty)


def _encode(arg: core.tensor, dst_ty: core.dtype, rounding: str, semantic: Any) -> core.tensor:
    source = arg
    if not source.dtype.is_standard_floating():
        # Integers and the other fp8 formats: f32 holds every fp8 value, and
        # an integer beyond 2^24 saturates either way.
        source = semantic.cast(source, core.float32)
    scaled = semantic.mul(source, _SCALE, sanitize_overflow=False)
    codes = semantic.bitcast(semantic.cast(scaled, core.float8e4nv, rounding), core.int8)
    magnitude = core.tensor(semantic.builder.create_fabs(source.handle), source.type)
    # The largest code, which e4m3fn does not have as a number: to nearest,
    # what lies above 1.8125 (the tie goes to the even 0x7E, 1.75); toward
    # zero, what is at least 1.875.
    if rounding == "rtz":
        largest = semantic.greater_equal(magnitude, 1.875)
    else:
        largest = semantic.greater_than(magnitude, 1.8125)
    codes = semantic.where(largest, semantic.or_(codes, _LARGEST), codes)
    return semantic.make_tensor(codes.handle, dst_ty)


@core.builtin
def convert_custom_types(arg: core.tensor, dst_ty: core.dtype, fp_downcast_rounding: Any = None,
                         _semantic: Any = None) -> core.tensor:
    """`arg` converted to `dst_ty` (the block type of the result for a block),
    one of which is fp8e4b15; `fp_downcast_rounding` is the frontend's
    rounding mode (None for rtne)."""
    if arg.type.scalar.is_fp8e4b15():
        return _decode(arg, dst_ty, _semantic)
    return _encode(arg, dst_ty, _rounding_name(fp_downcast_rounding), _semantic)
