//===- DotOpToTile.cpp - tt.dot on the dot-product engine -----------------===//
//
// Converts `tt.dot` to `tile.matmul`, widening the operands and the
// accumulator that the dot-product engine does not multiply directly, or to
// `tile.simd_matmul` when it involves f64, which the DPE does not have.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

using namespace mlir;
using namespace mtia;

/// Whether `value` is a tile of f64.
static bool isF64Tile(Value value) {
  return cast<tile::TileType>(value.getType()).getElementType().isF64();
}

Value mtia::widenTile(OpBuilder &builder, Location loc, Value operand,
                      Type elementType) {
  auto tileType = cast<tile::TileType>(operand.getType());
  if (tileType.getElementType() == elementType)
    return operand;
  return tile::CastOp::create(
      builder, loc, tileType.withElementType(elementType),
      tile::CastKindAttr::get(builder.getContext(), tile::CastKind::ExtF),
      operand, tile::RoundingModeAttr());
}

Value mtia::createDot(OpBuilder &builder, Location loc, Value lhs, Value rhs,
                      Value acc) {
  MLIRContext *context = builder.getContext();
  auto type = cast<tile::TileType>(acc.getType());
  Type accType = type.getElementType();
  auto roundTo = [&](Value product) -> Value {
    if (product.getType() == type)
      return product;
    return tile::CastOp::create(
        builder, loc, type,
        tile::CastKindAttr::get(context, tile::CastKind::TruncF), product,
        tile::RoundingModeAttr::get(context, tile::RoundingMode::RTNE));
  };
  // f64 on either side: the SIMD engine multiplies in f64, into which every
  // float widens exactly.
  if (isF64Tile(lhs) || isF64Tile(rhs) || accType.isF64()) {
    Type f64 = builder.getF64Type();
    Value wideAcc = widenTile(builder, loc, acc, f64);
    return roundTo(tile::SimdMatmulOp::create(
        builder, loc, wideAcc.getType(), widenTile(builder, loc, lhs, f64),
        widenTile(builder, loc, rhs, f64), wideAcc));
  }
  // fp8 operands widen exactly to f16 for the DPE.
  auto widenFp8 = [&](Value operand) -> Value {
    Type elementType = cast<tile::TileType>(operand.getType()).getElementType();
    if (!isa<FloatType>(elementType) ||
        elementType.getIntOrFloatBitWidth() != 8)
      return operand;
    return widenTile(builder, loc, operand, builder.getF16Type());
  };
  lhs = widenFp8(lhs);
  rhs = widenFp8(rhs);
  if (!isa<FloatType>(accType) || accType.getIntOrFloatBitWidth() >= 32)
    return tile::MatmulOp::create(builder, loc, type, lhs, rhs, acc);
  // A narrower float accumulator is widened for the multiply and the result
  // rounded back.
  Value wideAcc = widenTile(builder, loc, acc, builder.getF32Type());
  return roundTo(tile::MatmulOp::create(builder, loc, wideAcc.getType(), lhs,
                                        rhs, wideAcc));
}

namespace {

/// `tt.dot` on the DPE, which multiplies f16, bf16, f32 and i8 and
/// accumulates float products in f32 (i8 products in i32); fp8 operands are
/// widened to f16, which holds every fp8 value exactly. A dot with f64
/// operands or accumulator runs on the SIMD engine instead.
struct DotPattern : public OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createDot(rewriter, op.getLoc(), adaptor.getA(),
                                     adaptor.getB(), adaptor.getC()));
    return success();
  }
};

} // namespace

void mtia::populateDotPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns) {
  patterns.add<DotPattern>(converter, patterns.getContext());
}
