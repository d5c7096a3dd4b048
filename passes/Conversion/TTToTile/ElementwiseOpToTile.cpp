//===- ElementwiseOpToTile.cpp - Elementwise compute on the SIMD engine ---===//
//
// Converts the elementwise arith and math operations on value tensors, and
// `tt.clampf`, `tt.fp_to_fp`, `tt.precise_*`, `tt.mulhiui` and `tt.bitcast`,
// to the SIMD engine's tile operations; transcendental functions go to its
// special-function unit.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mtia;

namespace {

/// An elementwise op that becomes one tile op selected by an enum value
/// (the binary or unary kind, the special function, the cast kind).
/// `Create` builds the tile op from the converted result type, the enum value
/// and the converted operands.
template <typename SourceOp, typename Kind>
struct KindPattern : public OpConversionPattern<SourceOp> {
  using Create = Value (*)(OpBuilder &, Location, Type, Kind, ValueRange);

  KindPattern(const TypeConverter &converter, MLIRContext *context, Kind kind,
              Create create)
      : OpConversionPattern<SourceOp>(converter, context), kind(kind),
        create(create) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(
        op, create(rewriter, op.getLoc(), type, kind, adaptor.getOperands()));
    return success();
  }

  Kind kind;
  Create create;
};

template <typename SourceOp, typename Kind>
void addKindPattern(RewritePatternSet &patterns, const TypeConverter &converter,
                    Kind kind,
                    typename KindPattern<SourceOp, Kind>::Create create) {
  patterns.add<KindPattern<SourceOp, Kind>>(converter, patterns.getContext(),
                                            kind, create);
}

Value createBinary(OpBuilder &builder, Location loc, Type type,
                   tile::BinaryKind kind, ValueRange operands) {
  return tile::BinaryOp::create(builder, loc, type, kind, operands[0],
                                operands[1]);
}

Value createUnary(OpBuilder &builder, Location loc, Type type,
                  tile::UnaryKind kind, ValueRange operands) {
  return tile::UnaryOp::create(builder, loc, type, kind, operands[0]);
}

Value createSpecialFunction(OpBuilder &builder, Location loc, Type type,
                            tile::SpecialFunction function,
                            ValueRange operands) {
  return tile::SFUOp::create(builder, loc, type, function, operands[0]);
}

/// Inexact conversions round to nearest even, as arith specifies.
Value createCast(OpBuilder &builder, Location loc, Type type,
                 tile::CastKind kind, ValueRange operands) {
  tile::RoundingModeAttr rounding;
  if (kind == tile::CastKind::TruncF || kind == tile::CastKind::SIToFP ||
      kind == tile::CastKind::UIToFP)
    rounding = tile::RoundingModeAttr::get(builder.getContext(),
                                           tile::RoundingMode::RTNE);
  return tile::CastOp::create(
      builder, loc, type, tile::CastKindAttr::get(builder.getContext(), kind),
      operands[0], rounding);
}

struct FmaPattern : public OpConversionPattern<math::FmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::FmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::FmaOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getA(),
        adaptor.getB(), adaptor.getC());
    return success();
  }
};

struct CmpIPattern : public OpConversionPattern<arith::CmpIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::CmpIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<tile::CmpIPredicate> predicate = tile::symbolizeCmpIPredicate(
        arith::stringifyCmpIPredicate(op.getPredicate()));
    if (!predicate)
      return rewriter.notifyMatchFailure(op, "unknown predicate");
    rewriter.replaceOpWithNewOp<tile::CmpIOp>(
        op, getTypeConverter()->convertType(op.getType()), *predicate,
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct CmpFPattern : public OpConversionPattern<arith::CmpFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::CmpFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<tile::CmpFPredicate> predicate = tile::symbolizeCmpFPredicate(
        arith::stringifyCmpFPredicate(op.getPredicate()));
    if (!predicate)
      return rewriter.notifyMatchFailure(op, "unsupported predicate");
    rewriter.replaceOpWithNewOp<tile::CmpFOp>(
        op, getTypeConverter()->convertType(op.getType()), *predicate,
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct SelectPattern : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    Value condition = adaptor.getCondition();
    // A scalar condition chooses a whole tile: broadcast it.
    if (!isa<tile::TileType>(condition.getType()))
      condition = tile::SplatOp::create(
          rewriter, op.getLoc(), type.withElementType(rewriter.getI1Type()),
          condition);
    rewriter.replaceOpWithNewOp<tile::SelectOp>(
        op, type, condition, adaptor.getTrueValue(), adaptor.getFalseValue());
    return success();
  }
};

struct ConstantPattern : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto elements = dyn_cast<ElementsAttr>(op.getValue());
    if (!elements)
      return failure();
    rewriter.replaceOpWithNewOp<tile::ConstantOp>(
        op, getTypeConverter()->convertType(op.getType()), elements);
    return success();
  }
};

/// `tt.clampf`: max then min; `propagateNan = all` uses the NaN-propagating
/// forms.
struct ClampPattern : public OpConversionPattern<tt::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    bool propagate = op.getPropagateNan() == tt::PropagateNan::ALL;
    Value lower = tile::BinaryOp::create(rewriter, op.getLoc(), type,
                                         propagate ? tile::BinaryKind::MaximumF
                                                   : tile::BinaryKind::MaxNumF,
                                         adaptor.getX(), adaptor.getMin());
    rewriter.replaceOpWithNewOp<tile::BinaryOp>(
        op, type,
        propagate ? tile::BinaryKind::MinimumF : tile::BinaryKind::MinNumF,
        lower, adaptor.getMax());
    return success();
  }
};

/// `tt.fp_to_fp`: widening is exact; narrowing rounds as the op says (to
/// nearest even between fp8 formats, where the op has no mode). The
/// SIMD engine rounds to nearest even; rounding toward zero is that result
/// stepped one unit toward zero wherever it lies farther from zero than the
/// source (an overflow to infinity becomes the largest finite value, NaN
/// stays NaN): floats of one sign are ordered like their bit patterns. In a
/// format without negative zero (the fnuz fp8 formats) that pattern is the
/// NaN, so a step onto it gives +0 instead.
struct FpToFpPattern : public OpConversionPattern<tt::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    MLIRContext *context = op.getContext();
    Location loc = op.getLoc();
    std::optional<tt::RoundingMode> mode = op.getRounding();
    auto castTo = [&](tile::CastKind kind, tile::TileType to, Value value,
                      tile::RoundingModeAttr rounding) -> Value {
      return tile::CastOp::create(rewriter, loc, to,
                                  tile::CastKindAttr::get(context, kind), value,
                                  rounding);
    };
    auto sourceType = cast<tile::TileType>(adaptor.getSrc().getType());
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    if (!mode && sourceType.getElementType().getIntOrFloatBitWidth() < width) {
      rewriter.replaceOp(op,
                         castTo(tile::CastKind::ExtF, type, adaptor.getSrc(),
                                tile::RoundingModeAttr()));
      return success();
    }
    // Between types of one width (one fp8 format to another) the frontend
    // gives no rounding mode, and the conversion may round: to nearest even.
    if (!mode)
      mode = tt::RoundingMode::RTNE;
    Value nearest =
        castTo(tile::CastKind::TruncF, type, adaptor.getSrc(),
               tile::RoundingModeAttr::get(context, tile::RoundingMode::RTNE));
    if (*mode != tt::RoundingMode::RTZ) {
      rewriter.replaceOp(op, nearest);
      return success();
    }
    Value source = adaptor.getSrc();
    Value back = castTo(tile::CastKind::ExtF, sourceType, nearest,
                        tile::RoundingModeAttr());
    auto magnitude = [&](Value value) -> Value {
      return tile::UnaryOp::create(rewriter, loc, value.getType(),
                                   tile::UnaryKind::AbsF, value);
    };
    Value backMagnitude = magnitude(back);
    Value sourceMagnitude = magnitude(source);
    Value away = tile::CmpFOp::create(
        rewriter, loc, sourceType.withElementType(rewriter.getI1Type()),
        tile::CmpFPredicate::OGT, backMagnitude, sourceMagnitude);
    tile::TileType bitsType =
        type.withElementType(rewriter.getIntegerType(width));
    Value bits = castTo(tile::CastKind::Bitcast, bitsType, nearest,
                        tile::RoundingModeAttr());
    Value one = createIntegerSplat(rewriter, loc, bitsType, 1);
    Value steppedBits = tile::BinaryOp::create(
        rewriter, loc, bitsType, tile::BinaryKind::SubI, bits, one);
    auto floatType = cast<FloatType>(type.getElementType());
    bool hasNegativeZero =
        APFloat::getZero(floatType.getFloatSemantics(), /*Negative=*/true)
            .isNegative();
    if (!hasNegativeZero) {
      Value negativeZeroBits = createIntegerSplat(
          rewriter, loc, bitsType, APInt::getSignMask(width).getSExtValue());
      Value steppedOntoNan = tile::CmpIOp::create(
          rewriter, loc, bitsType.withElementType(rewriter.getI1Type()),
          tile::CmpIPredicate::EQ, steppedBits, negativeZeroBits);
      steppedBits = tile::SelectOp::create(
          rewriter, loc, bitsType, steppedOntoNan,
          createIntegerSplat(rewriter, loc, bitsType, 0), steppedBits);
    }
    Value stepped = castTo(tile::CastKind::Bitcast, type, steppedBits,
                           tile::RoundingModeAttr());
    rewriter.replaceOpWithNewOp<tile::SelectOp>(op, type, away, stepped,
                                                nearest);
    return success();
  }
};

} // namespace

void mtia::populateElementwisePatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  using BK = tile::BinaryKind;
  addKindPattern<arith::AddFOp>(patterns, converter, BK::AddF, createBinary);
  addKindPattern<arith::SubFOp>(patterns, converter, BK::SubF, createBinary);
  addKindPattern<arith::MulFOp>(patterns, converter, BK::MulF, createBinary);
  addKindPattern<arith::DivFOp>(patterns, converter, BK::DivF, createBinary);
  addKindPattern<tt::PreciseDivFOp>(patterns, converter, BK::DivF,
                                    createBinary);
  addKindPattern<arith::RemFOp>(patterns, converter, BK::RemF, createBinary);
  addKindPattern<arith::MaximumFOp>(patterns, converter, BK::MaximumF,
                                    createBinary);
  addKindPattern<arith::MinimumFOp>(patterns, converter, BK::MinimumF,
                                    createBinary);
  addKindPattern<arith::MaxNumFOp>(patterns, converter, BK::MaxNumF,
                                   createBinary);
  addKindPattern<arith::MinNumFOp>(patterns, converter, BK::MinNumF,
                                   createBinary);
  addKindPattern<math::PowFOp>(patterns, converter, BK::PowF, createBinary);
  addKindPattern<math::Atan2Op>(patterns, converter, BK::Atan2F, createBinary);
  addKindPattern<math::CopySignOp>(patterns, converter, BK::CopySignF,
                                   createBinary);
  addKindPattern<arith::AddIOp>(patterns, converter, BK::AddI, createBinary);
  addKindPattern<arith::SubIOp>(patterns, converter, BK::SubI, createBinary);
  addKindPattern<arith::MulIOp>(patterns, converter, BK::MulI, createBinary);
  addKindPattern<arith::DivSIOp>(patterns, converter, BK::DivSI, createBinary);
  addKindPattern<arith::DivUIOp>(patterns, converter, BK::DivUI, createBinary);
  addKindPattern<arith::RemSIOp>(patterns, converter, BK::RemSI, createBinary);
  addKindPattern<arith::RemUIOp>(patterns, converter, BK::RemUI, createBinary);
  addKindPattern<arith::MaxSIOp>(patterns, converter, BK::MaxSI, createBinary);
  addKindPattern<arith::MinSIOp>(patterns, converter, BK::MinSI, createBinary);
  addKindPattern<arith::MaxUIOp>(patterns, converter, BK::MaxUI, createBinary);
  addKindPattern<arith::MinUIOp>(patterns, converter, BK::MinUI, createBinary);
  addKindPattern<arith::AndIOp>(patterns, converter, BK::AndI, createBinary);
  addKindPattern<arith::OrIOp>(patterns, converter, BK::OrI, createBinary);
  addKindPattern<arith::XOrIOp>(patterns, converter, BK::XOrI, createBinary);
  addKindPattern<arith::ShLIOp>(patterns, converter, BK::ShLI, createBinary);
  addKindPattern<arith::ShRSIOp>(patterns, converter, BK::ShRSI, createBinary);
  addKindPattern<arith::ShRUIOp>(patterns, converter, BK::ShRUI, createBinary);
  addKindPattern<tt::MulhiUIOp>(patterns, converter, BK::MulHiUI, createBinary);

  using UK = tile::UnaryKind;
  addKindPattern<arith::NegFOp>(patterns, converter, UK::NegF, createUnary);
  addKindPattern<math::AbsFOp>(patterns, converter, UK::AbsF, createUnary);
  addKindPattern<math::AbsIOp>(patterns, converter, UK::AbsI, createUnary);
  addKindPattern<math::FloorOp>(patterns, converter, UK::Floor, createUnary);
  addKindPattern<math::CeilOp>(patterns, converter, UK::Ceil, createUnary);
  addKindPattern<math::RoundEvenOp>(patterns, converter, UK::RoundEven,
                                    createUnary);
  addKindPattern<math::RoundOp>(patterns, converter, UK::Round, createUnary);
  addKindPattern<math::TruncOp>(patterns, converter, UK::Trunc, createUnary);

  using SF = tile::SpecialFunction;
  addKindPattern<math::ExpOp>(patterns, converter, SF::Exp,
                              createSpecialFunction);
  addKindPattern<math::Exp2Op>(patterns, converter, SF::Exp2,
                               createSpecialFunction);
  addKindPattern<math::LogOp>(patterns, converter, SF::Log,
                              createSpecialFunction);
  addKindPattern<math::Log2Op>(patterns, converter, SF::Log2,
                               createSpecialFunction);
  addKindPattern<math::SqrtOp>(patterns, converter, SF::Sqrt,
                               createSpecialFunction);
  addKindPattern<tt::PreciseSqrtOp>(patterns, converter, SF::Sqrt,
                                    createSpecialFunction);
  addKindPattern<math::RsqrtOp>(patterns, converter, SF::Rsqrt,
                                createSpecialFunction);
  addKindPattern<math::SinOp>(patterns, converter, SF::Sin,
                              createSpecialFunction);
  addKindPattern<math::CosOp>(patterns, converter, SF::Cos,
                              createSpecialFunction);
  addKindPattern<math::TanhOp>(patterns, converter, SF::Tanh,
                               createSpecialFunction);
  addKindPattern<math::ErfOp>(patterns, converter, SF::Erf,
                              createSpecialFunction);
  addKindPattern<math::ErfcOp>(patterns, converter, SF::Erfc,
                               createSpecialFunction);
  addKindPattern<math::ExpM1Op>(patterns, converter, SF::Expm1,
                                createSpecialFunction);
  addKindPattern<math::Log10Op>(patterns, converter, SF::Log10,
                                createSpecialFunction);
  addKindPattern<math::Log1pOp>(patterns, converter, SF::Log1p,
                                createSpecialFunction);
  addKindPattern<math::TanOp>(patterns, converter, SF::Tan,
                              createSpecialFunction);
  addKindPattern<math::AsinOp>(patterns, converter, SF::Asin,
                               createSpecialFunction);
  addKindPattern<math::AcosOp>(patterns, converter, SF::Acos,
                               createSpecialFunction);
  addKindPattern<math::AtanOp>(patterns, converter, SF::Atan,
                               createSpecialFunction);
  addKindPattern<math::SinhOp>(patterns, converter, SF::Sinh,
                               createSpecialFunction);
  addKindPattern<math::CoshOp>(patterns, converter, SF::Cosh,
                               createSpecialFunction);
  addKindPattern<math::AsinhOp>(patterns, converter, SF::Asinh,
                                createSpecialFunction);
  addKindPattern<math::AcoshOp>(patterns, converter, SF::Acosh,
                                createSpecialFunction);
  addKindPattern<math::AtanhOp>(patterns, converter, SF::Atanh,
                                createSpecialFunction);
  addKindPattern<math::CbrtOp>(patterns, converter, SF::Cbrt,
                               createSpecialFunction);

  using CK = tile::CastKind;
  addKindPattern<arith::ExtFOp>(patterns, converter, CK::ExtF, createCast);
  addKindPattern<arith::TruncFOp>(patterns, converter, CK::TruncF, createCast);
  addKindPattern<arith::FPToSIOp>(patterns, converter, CK::FPToSI, createCast);
  addKindPattern<arith::FPToUIOp>(patterns, converter, CK::FPToUI, createCast);
  addKindPattern<arith::SIToFPOp>(patterns, converter, CK::SIToFP, createCast);
  addKindPattern<arith::UIToFPOp>(patterns, converter, CK::UIToFP, createCast);
  addKindPattern<arith::ExtSIOp>(patterns, converter, CK::ExtSI, createCast);
  addKindPattern<arith::ExtUIOp>(patterns, converter, CK::ExtUI, createCast);
  addKindPattern<arith::TruncIOp>(patterns, converter, CK::TruncI, createCast);
  addKindPattern<arith::BitcastOp>(patterns, converter, CK::Bitcast,
                                   createCast);
  addKindPattern<tt::BitcastOp>(patterns, converter, CK::Bitcast, createCast);

  patterns.add<FmaPattern, CmpIPattern, CmpFPattern, SelectPattern,
               ConstantPattern, ClampPattern, FpToFpPattern>(
      converter, patterns.getContext());
}
