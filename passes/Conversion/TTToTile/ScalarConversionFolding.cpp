//===- ScalarConversionFolding.cpp - Float conversions of scalar constants ===//
//
// The control core has no fp8 type and no `tt.fp_to_fp`, so a scalar float
// conversion must be gone before the program stage. The frontend makes them
// from constants: the `other` of a masked fp8 load and `tl.full` of an fp8
// value are a float constant converted to fp8 (`tt.fp_to_fp`, or
// `arith.truncf`, which MLIR folds only when it is exact), and fp8e4b15's
// conversions (`i8` in the IR) also reinterpret bits (`tt.bitcast`). These
// are folded here into constants, rounding as the SIMD engine does: once, to
// nearest even or toward zero, with overflows and infinities saturating in
// formats without infinities (APFloat gives NaN there).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mtia;

namespace {

/// `value` converted to `type` as the SIMD engine converts: rounded once by
/// `mode`; where the format has no infinities, an overflow or an infinity is
/// the largest finite value of its sign.
APFloat convertAsTheSimdEngine(APFloat value, FloatType type,
                               llvm::RoundingMode mode) {
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  bool wasNan = value.isNaN();
  bool negative = value.isNegative();
  bool losesInfo;
  value.convert(semantics, mode, &losesInfo);
  if (value.isNaN() && !wasNan)
    return APFloat::getLargest(semantics, negative);
  return value;
}

/// The float constant that `operand` is, if it is a scalar one.
std::optional<APFloat> scalarFloatConstant(Value operand) {
  FloatAttr attribute;
  if (!isa<FloatType>(operand.getType()) ||
      !matchPattern(operand, m_Constant(&attribute)))
    return std::nullopt;
  return attribute.getValue();
}

/// `tt.fp_to_fp` of a scalar constant: rounded by the op's mode, to nearest
/// even where it has none (a widening conversion is exact either way).
struct FoldFpToFp : public OpRewritePattern<tt::FpToFpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tt::FpToFpOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<APFloat> value = scalarFloatConstant(op.getSrc());
    if (!value)
      return failure();
    llvm::RoundingMode mode = op.getRounding() == tt::RoundingMode::RTZ
                                  ? llvm::RoundingMode::TowardZero
                                  : llvm::RoundingMode::NearestTiesToEven;
    auto type = cast<FloatType>(op.getType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, FloatAttr::get(type, convertAsTheSimdEngine(*value, type, mode)));
    return success();
  }
};

/// `arith.truncf` of a scalar constant, which MLIR folds only when exact.
struct FoldTruncF : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<APFloat> value = scalarFloatConstant(op.getIn());
    if (!value)
      return failure();
    llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven;
    if (std::optional<arith::RoundingMode> rounding = op.getRoundingmode()) {
      if (*rounding != arith::RoundingMode::to_nearest_even &&
          *rounding != arith::RoundingMode::toward_zero)
        return failure();
      if (*rounding == arith::RoundingMode::toward_zero)
        mode = llvm::RoundingMode::TowardZero;
    }
    auto type = cast<FloatType>(op.getType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, FloatAttr::get(type, convertAsTheSimdEngine(*value, type, mode)));
    return success();
  }
};

/// `tt.bitcast` of a scalar integer or float constant.
struct FoldBitcast : public OpRewritePattern<tt::BitcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tt::BitcastOp op,
                                PatternRewriter &rewriter) const override {
    Attribute attribute;
    Type type = op.getType();
    if (!type.isIntOrFloat() ||
        !matchPattern(op.getSrc(), m_Constant(&attribute)))
      return failure();
    APInt bits;
    if (auto integer = dyn_cast<IntegerAttr>(attribute))
      bits = integer.getValue();
    else if (auto floating = dyn_cast<FloatAttr>(attribute))
      bits = floating.getValue().bitcastToAPInt();
    else
      return failure();
    TypedAttr result;
    if (auto floatType = dyn_cast<FloatType>(type))
      result = FloatAttr::get(floatType,
                              APFloat(floatType.getFloatSemantics(), bits));
    else
      result = IntegerAttr::get(type, bits);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, result);
    return success();
  }
};

} // namespace

LogicalResult mtia::foldScalarConversions(ModuleOp module) {
  RewritePatternSet patterns(module.getContext());
  patterns.add<FoldFpToFp, FoldTruncF, FoldBitcast>(module.getContext());
  return applyPatternsGreedily(module, std::move(patterns));
}
