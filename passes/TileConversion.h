//===- TileConversion.h - Tensors to tiles ----------------------*- C++ -*-===//
//
// The conversion of tensor compute to tile ops by unit, shared by the tile
// stage (all compute) and the data-movement stage (the address and mask
// computations of accesses that take the indexed path).
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TILECONVERSION_H
#define MTIA_PASSES_TILECONVERSION_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace mtia {

/// Whether `type` is a ranked tensor of integers or floats (not pointers).
bool isValueTensor(mlir::Type type);

/// Maps tensors of integers and floats to tiles of the same shape; joins
/// converted and unconverted values with `unrealized_conversion_cast`.
class TileTypeConverter : public mlir::TypeConverter {
public:
  TileTypeConverter();
};

/// The reduction engine's combine kind of a `tt.reduce`/`tt.scan` (or tile)
/// combine region that applies one arith operation to its two arguments, if
/// the engine knows that operation.
std::optional<tile::CombineKind> getSingleCombineKind(mlir::Region &region);

/// A tile of `type`, whose elements are integers, with `value` in every
/// element.
mlir::Value createIntegerSplat(mlir::OpBuilder &builder, mlir::Location loc,
                               tile::TileType type, int64_t value);

/// The patterns that convert arith, math and tt compute on value tensors to
/// tile ops.
void populateTileConversionPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

} // namespace mtia

#endif // MTIA_PASSES_TILECONVERSION_H
