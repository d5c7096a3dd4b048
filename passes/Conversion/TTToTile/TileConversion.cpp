//===- TileConversion.cpp - Types and pattern table of the tile stage -----===//
//
// The type converter from value tensors to tiles, the helpers the pattern
// families share, and the table of every family's patterns, which the tile
// stage and the data-movement stage both apply.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mtia;

bool mtia::isValueTensor(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && !isa<tt::PointerType>(tensorType.getElementType());
}

Value mtia::createIntegerSplat(OpBuilder &builder, Location loc,
                               tile::TileType type, int64_t value) {
  Value scalar = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(type.getElementType(), value));
  return tile::SplatOp::create(builder, loc, type, scalar);
}

mtia::TileTypeConverter::TileTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    if (!isValueTensor(type))
      return type;
    return tile::TileType::get(type.getShape(), type.getElementType());
  });
  auto cast = [](OpBuilder &builder, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

void mtia::populateTileConversionPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  populateElementwisePatterns(converter, patterns);
  populateLanguagePatterns(converter, patterns);
  populateLibdevicePatterns(converter, patterns);
  populateShapePatterns(converter, patterns);
  populateDebugPatterns(converter, patterns);
  populateDotPatterns(converter, patterns);
  populateDotScaledPatterns(converter, patterns);
  populateReductionPatterns(converter, patterns);
  populateMapElementwisePatterns(converter, patterns);
}
