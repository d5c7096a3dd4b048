//===- LibdeviceOpToTile.cpp - libdevice calls on the SIMD engine ---------===//
//
// Converts `tt.extern_elementwise` calls of libdevice functions, of
// CUDA-targeted TTIR (`__nv_*`) or of our own MTIA libdevice (`mtia_*`), to
// the SIMD engine's tile operations: the table maps each function to one
// special function, unary or binary kind (`powi` as `pow` of its exponent
// converted to a float) or `fma`, and expands the float
// classifications and the integer bit counts into several tile operations.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mtia;

namespace {

/// How a libdevice function maps onto the SIMD engine: one special
/// function, unary or binary kind, `fma`, a classification of floats
/// (`isnan`, `isinf`, `signbit`) that yields an i32 0 or 1, or a bit count
/// of integers (`popc`, `clz`, `ffs`) that yields an i32.
struct ExternLowering {
  std::optional<tile::SpecialFunction> function;
  std::optional<tile::BinaryKind> binary;
  std::optional<tile::UnaryKind> unary;
  bool fma = false;
  StringRef classification;
  StringRef bitCount;
};

/// The lowering of `tt.extern_elementwise` calling `symbol` — a libdevice
/// function of CUDA-targeted TTIR (`__nv_*`) or of our own MTIA libdevice
/// (`mtia_*`) — on `numOperands` operands, if there is one.
std::optional<ExternLowering> getExternLowering(tt::ExternElementwiseOp op) {
  StringRef name = op.getSymbol();
  if (!name.consume_front("__nv_") && !name.consume_front("mtia_"))
    return std::nullopt;
  // libdevice suffixes the functions of f32 operands with `f`.
  if (!op.getSrcs().empty() &&
      getElementTypeOrSelf(op.getSrcs().front().getType()).isF32() &&
      name.ends_with("f") && name != "erf")
    name = name.drop_back();
  ExternLowering lowering;
  size_t numOperands = op.getSrcs().size();
  using SF = tile::SpecialFunction;
  if (numOperands == 1) {
    lowering.function = llvm::StringSwitch<std::optional<SF>>(name)
                            .Case("exp", SF::Exp)
                            .Case("exp2", SF::Exp2)
                            .Case("expm1", SF::Expm1)
                            .Case("log", SF::Log)
                            .Case("log2", SF::Log2)
                            .Case("log10", SF::Log10)
                            .Case("log1p", SF::Log1p)
                            .Cases({"sqrt", "sqrt_rn"}, SF::Sqrt)
                            .Case("rsqrt", SF::Rsqrt)
                            .Case("rcp", SF::Recip)
                            .Case("sin", SF::Sin)
                            .Case("cos", SF::Cos)
                            .Case("tan", SF::Tan)
                            .Case("asin", SF::Asin)
                            .Case("acos", SF::Acos)
                            .Case("atan", SF::Atan)
                            .Case("sinh", SF::Sinh)
                            .Case("cosh", SF::Cosh)
                            .Case("tanh", SF::Tanh)
                            .Case("asinh", SF::Asinh)
                            .Case("acosh", SF::Acosh)
                            .Case("atanh", SF::Atanh)
                            .Case("erf", SF::Erf)
                            .Case("erfc", SF::Erfc)
                            .Case("erfinv", SF::Erfinv)
                            .Case("cbrt", SF::Cbrt)
                            .Default(std::nullopt);
    lowering.unary =
        llvm::StringSwitch<std::optional<tile::UnaryKind>>(name)
            .Case("fabs", tile::UnaryKind::AbsF)
            .Case("floor", tile::UnaryKind::Floor)
            .Case("ceil", tile::UnaryKind::Ceil)
            .Case("trunc", tile::UnaryKind::Trunc)
            .Case("round", tile::UnaryKind::Round)
            .Cases({"rint", "nearbyint"}, tile::UnaryKind::RoundEven)
            .Default(std::nullopt);
    if (name == "isnan" || name == "isinf" || name == "signbit")
      lowering.classification = name;
    // The 64-bit versions end in `ll`.
    StringRef bitFunction = name;
    bitFunction.consume_back("ll");
    if (bitFunction == "popc" || bitFunction == "clz" || bitFunction == "ffs")
      lowering.bitCount = bitFunction;
  } else if (numOperands == 2) {
    lowering.binary =
        llvm::StringSwitch<std::optional<tile::BinaryKind>>(name)
            .Cases({"pow", "powi"}, tile::BinaryKind::PowF)
            .Case("fmax", tile::BinaryKind::MaxNumF)
            .Case("fmin", tile::BinaryKind::MinNumF)
            .Case("fmod", tile::BinaryKind::RemF)
            .Case("atan2", tile::BinaryKind::Atan2F)
            .Case("copysign", tile::BinaryKind::CopySignF)
            .Cases({"div_rn", "fdiv_rn", "fdivide"}, tile::BinaryKind::DivF)
            .Default(std::nullopt);
  } else if (numOperands == 3) {
    lowering.fma = name == "fma" || name == "fma_rn";
  }
  if (!lowering.function && !lowering.binary && !lowering.unary &&
      !lowering.fma && lowering.classification.empty() &&
      lowering.bitCount.empty())
    return std::nullopt;
  return lowering;
}

struct ExternElementwisePattern
    : public OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  /// `isnan`, `isinf` or `signbit` of the float tile `x`, as the integer
  /// tile `type` of 0s and 1s.
  static Value classify(Operation *op, StringRef classification, Value x,
                        tile::TileType type, OpBuilder &builder) {
    Location loc = op->getLoc();
    auto source = cast<tile::TileType>(x.getType());
    Type floatType = source.getElementType();
    tile::TileType flags = source.withElementType(builder.getI1Type());
    auto castTo = [&](tile::CastKind kind, Type to, Value value) -> Value {
      return tile::CastOp::create(
          builder, loc, type.withElementType(to),
          tile::CastKindAttr::get(builder.getContext(), kind), value,
          tile::RoundingModeAttr());
    };
    Value flag;
    if (classification == "isnan") {
      flag = tile::CmpFOp::create(builder, loc, flags, tile::CmpFPredicate::UNO,
                                  x, x);
    } else if (classification == "isinf") {
      Value magnitude =
          tile::UnaryOp::create(builder, loc, source, tile::UnaryKind::AbsF, x);
      const llvm::fltSemantics &semantics =
          cast<FloatType>(floatType).getFloatSemantics();
      Value inf = tile::SplatOp::create(
          builder, loc, source,
          arith::ConstantOp::create(
              builder, loc,
              builder.getFloatAttr(floatType, APFloat::getInf(semantics)))
              .getResult());
      flag = tile::CmpFOp::create(builder, loc, flags, tile::CmpFPredicate::OEQ,
                                  magnitude, inf);
    } else {
      // signbit: the top bit of the float's bits.
      unsigned width = floatType.getIntOrFloatBitWidth();
      Type bitsType = builder.getIntegerType(width);
      Value bits = castTo(tile::CastKind::Bitcast, bitsType, x);
      Value shift = createIntegerSplat(
          builder, loc, type.withElementType(bitsType), width - 1);
      Value top = tile::BinaryOp::create(builder, loc, bits.getType(),
                                         tile::BinaryKind::ShRUI, bits, shift);
      flag = castTo(tile::CastKind::TruncI, builder.getI1Type(), top);
    }
    return castTo(tile::CastKind::ExtUI, type.getElementType(), flag);
  }

  /// `popc` (set bits), `clz` (leading zeros) or `ffs` (one plus the
  /// trailing zeros, 0 for 0) of the integer tile `x`, as the tile `type`:
  /// clz counts the zeros left after smearing the highest set bit right,
  /// ffs the bits of `x ^ (x - 1)`, which runs up to the lowest set bit.
  static Value countBits(Operation *op, StringRef function, Value x,
                         tile::TileType type, OpBuilder &builder) {
    Location loc = op->getLoc();
    auto source = cast<tile::TileType>(x.getType());
    unsigned width = source.getElementType().getIntOrFloatBitWidth();
    auto constant = [&](int64_t value) {
      return createIntegerSplat(builder, loc, source, value);
    };
    auto binary = [&](tile::BinaryKind kind, Value lhs, Value rhs) -> Value {
      return tile::BinaryOp::create(builder, loc, source, kind, lhs, rhs);
    };
    Value bits = x;
    if (function == "clz") {
      for (unsigned shift = 1; shift < width; shift *= 2)
        bits = binary(tile::BinaryKind::OrI, bits,
                      binary(tile::BinaryKind::ShRUI, bits, constant(shift)));
      bits = binary(tile::BinaryKind::XOrI, bits, constant(-1));
    } else if (function == "ffs") {
      bits = binary(tile::BinaryKind::XOrI, x,
                    binary(tile::BinaryKind::SubI, x, constant(1)));
    }
    Value count = tile::UnaryOp::create(builder, loc, source,
                                        tile::UnaryKind::CtPop, bits);
    if (function == "ffs") {
      Value zero = constant(0);
      Value isZero = tile::CmpIOp::create(
          builder, loc, source.withElementType(builder.getI1Type()),
          tile::CmpIPredicate::EQ, x, zero);
      count = tile::SelectOp::create(builder, loc, source, isZero, zero, count);
    }
    if (source.getElementType() == type.getElementType())
      return count;
    return tile::CastOp::create(
        builder, loc, type,
        tile::CastKindAttr::get(builder.getContext(), tile::CastKind::TruncI),
        count, tile::RoundingModeAttr());
  }

  /// `value` as an operand of the float tile `type`: the integer exponent
  /// of `powi` is converted to a float (exactly, for exponents below 2^24).
  static Value asFloatOperand(Value value, tile::TileType type,
                              OpBuilder &builder, Location loc) {
    auto tileType = cast<tile::TileType>(value.getType());
    if (!isa<IntegerType>(tileType.getElementType()))
      return value;
    return tile::CastOp::create(
        builder, loc, tileType.withElementType(type.getElementType()),
        tile::CastKindAttr::get(builder.getContext(), tile::CastKind::SIToFP),
        value,
        tile::RoundingModeAttr::get(builder.getContext(),
                                    tile::RoundingMode::RTNE));
  }

  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ExternLowering> lowering = getExternLowering(op);
    if (!lowering)
      return failure();
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    ValueRange operands = adaptor.getSrcs();
    if (!lowering->classification.empty()) {
      rewriter.replaceOp(op, classify(op, lowering->classification, operands[0],
                                      type, rewriter));
      return success();
    }
    if (!lowering->bitCount.empty()) {
      if (!isa<IntegerType>(
              cast<tile::TileType>(operands[0].getType()).getElementType()))
        return rewriter.notifyMatchFailure(op, "bit counts take integers");
      rewriter.replaceOp(
          op, countBits(op, lowering->bitCount, operands[0], type, rewriter));
      return success();
    }
    if (lowering->fma)
      rewriter.replaceOpWithNewOp<tile::FmaOp>(op, type, operands[0],
                                               operands[1], operands[2]);
    else if (lowering->function)
      rewriter.replaceOpWithNewOp<tile::SFUOp>(op, type, *lowering->function,
                                               operands[0]);
    else if (lowering->unary)
      rewriter.replaceOpWithNewOp<tile::UnaryOp>(op, type, *lowering->unary,
                                                 operands[0]);
    else
      rewriter.replaceOpWithNewOp<tile::BinaryOp>(
          op, type, *lowering->binary, operands[0],
          asFloatOperand(operands[1], type, rewriter, op->getLoc()));
    return success();
  }
};

} // namespace

bool mtia::hasLibdeviceLowering(tt::ExternElementwiseOp op) {
  return getExternLowering(op).has_value();
}

void mtia::populateLibdevicePatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<ExternElementwisePattern>(converter, patterns.getContext());
}
