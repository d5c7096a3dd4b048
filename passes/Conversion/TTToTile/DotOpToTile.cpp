//===- DotOpToTile.cpp - tt.dot on the dot-product engine -----------------===//
//
// Converts `tt.dot` to `tile.matmul`, widening the operands and the
// accumulator that the dot-product engine does not multiply directly.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

using namespace mlir;
using namespace mtia;

namespace {

/// `tt.dot` on the DPE, which multiplies f16, bf16, f32 and i8 and
/// accumulates float products in f32 (i8 products in i32). fp8 operands are
/// widened to f16, which holds every fp8 value exactly; a narrower float
/// accumulator (`out_dtype=tl.float16`) is widened for the multiply and the
/// result rounded back.
struct DotPattern : public OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto widen = [&](Value operand, Type elementType) -> Value {
      auto tileType = cast<tile::TileType>(operand.getType());
      return tile::CastOp::create(
          rewriter, loc, tileType.withElementType(elementType),
          tile::CastKindAttr::get(context, tile::CastKind::ExtF), operand,
          tile::RoundingModeAttr());
    };
    auto widenFp8 = [&](Value operand) -> Value {
      Type elementType =
          cast<tile::TileType>(operand.getType()).getElementType();
      if (!isa<FloatType>(elementType) ||
          elementType.getIntOrFloatBitWidth() != 8)
        return operand;
      return widen(operand, rewriter.getF16Type());
    };
    Value lhs = widenFp8(adaptor.getA());
    Value rhs = widenFp8(adaptor.getB());
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    Type accType = type.getElementType();
    if (!isa<FloatType>(accType) || accType.getIntOrFloatBitWidth() >= 32) {
      rewriter.replaceOpWithNewOp<tile::MatmulOp>(op, type, lhs, rhs,
                                                  adaptor.getC());
      return success();
    }
    Value acc = widen(adaptor.getC(), rewriter.getF32Type());
    Value product =
        tile::MatmulOp::create(rewriter, loc, acc.getType(), lhs, rhs, acc);
    rewriter.replaceOpWithNewOp<tile::CastOp>(
        op, type, tile::CastKindAttr::get(context, tile::CastKind::TruncF),
        product,
        tile::RoundingModeAttr::get(context, tile::RoundingMode::RTNE));
    return success();
  }
};

} // namespace

void mtia::populateDotPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns) {
  patterns.add<DotPattern>(converter, patterns.getContext());
}
