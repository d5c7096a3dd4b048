//===- TileConversion.h - Tensors to tiles ----------------------*- C++ -*-===//
//
// The conversion of tensor compute to tile ops by unit, shared by the tile
// stage (all compute) and the data-movement stage (the address and mask
// computations of accesses that take the indexed path).
//
// The patterns come in one file per op family, each of which ends in one
// `populate<Family>Patterns` function; `populateTileConversionPatterns` adds
// them all. The steps of the tile stage that are not patterns (folding
// scalar conversions of constants, isolating the addressing computations,
// lifting tile-derived scalars) are declared at the end.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_CONVERSION_TTTOTILE_TILECONVERSION_H
#define MTIA_PASSES_CONVERSION_TTTOTILE_TILECONVERSION_H

#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace mtia {

//===----------------------------------------------------------------------===//
// Types and helpers (TileConversion.cpp)
//===----------------------------------------------------------------------===//

/// Whether `type` is a ranked tensor of integers or floats (not pointers).
bool isValueTensor(mlir::Type type);

/// Maps tensors of integers and floats to tiles of the same shape; joins
/// converted and unconverted values with `unrealized_conversion_cast`.
class TileTypeConverter : public mlir::TypeConverter {
public:
  TileTypeConverter();
};

/// A tile of `type`, whose elements are integers, with `value` in every
/// element.
mlir::Value createIntegerSplat(mlir::OpBuilder &builder, mlir::Location loc,
                               tile::TileType type, int64_t value);

/// `operand`, a float tile, widened exactly to `elementType` (itself if it
/// is of that type already) on the SIMD engine (DotOpToTile.cpp).
mlir::Value widenTile(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value operand, mlir::Type elementType);

/// `lhs × rhs + acc` on tiles, with `acc`'s type: on the DPE, widening fp8
/// operands to f16 and a float accumulator narrower than f32 to f32 (the
/// result rounded back), or on the SIMD engine in f64 when any of the three
/// is f64 (DotOpToTile.cpp).
mlir::Value createDot(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value lhs, mlir::Value rhs, mlir::Value acc);

/// The patterns that convert arith, math and tt compute on value tensors to
/// tile ops: every family below.
void populateTileConversionPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Pattern families
//===----------------------------------------------------------------------===//

/// Arith and math arithmetic, comparisons, selects, constants and casts, and
/// `tt.clampf`/`tt.fp_to_fp`, on the SIMD engine (ElementwiseOpToTile.cpp).
void populateElementwisePatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

/// `tt.extern_elementwise` calls of libdevice functions
/// (LibdeviceOpToTile.cpp).
void populateLibdevicePatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);

/// Splats, ranges, reshapes, broadcasts, transposes, concatenations and
/// gathers on the memory-layout unit (ShapeOpToTile.cpp).
void populateShapePatterns(const mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);

/// `tt.print` and `tt.assert` of tensors (DebugOpToTile.cpp).
void populateDebugPatterns(const mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);

/// `tt.dot` on the dot-product engine, or of f64 on the SIMD engine
/// (DotOpToTile.cpp).
void populateDotPatterns(const mlir::TypeConverter &converter,
                         mlir::RewritePatternSet &patterns);

/// `tt.dot_scaled`: the operands decoded and scaled to f32 on the SIMD
/// engine, then a dot (DotScaledOpToTile.cpp).
void populateDotScaledPatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);

/// `tt.reduce`, `tt.scan` and `tt.histogram` on the reduction engine
/// (ReductionOpToTile.cpp).
void populateReductionPatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);

/// `tt.map_elementwise` as `tile.map_elementwise`, whose region
/// `mtia-expand-combine-regions` applies to tiles
/// (MapElementwiseOpToTile.cpp).
void populateMapElementwisePatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

/// Whether the libdevice patterns lower `op` (LibdeviceOpToTile.cpp).
bool hasLibdeviceLowering(tt::ExternElementwiseOp op);

/// The calls of MTIA language extensions (`mtia_compiler.language`): PE
/// identity, barriers and collectives over the reduction network
/// (LanguageOpToTile.cpp).
void populateLanguagePatterns(const mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns);

/// Whether `op` calls an MTIA language extension (its library is `mtia`).
bool isLanguageCall(tt::ExternElementwiseOp op);

/// Checks that the language call `op` names an extension this compiler
/// knows, with operands that fit it; reports at `op` otherwise.
mlir::LogicalResult verifyLanguageCall(tt::ExternElementwiseOp op);

//===----------------------------------------------------------------------===//
// Steps of the tile stage around the conversion
//===----------------------------------------------------------------------===//

/// Finds the tensor operations of `function` whose results are used only to
/// address memory, duplicating those that also feed compute, and returns
/// them (AddressingIsolation.cpp).
llvm::DenseSet<mlir::Operation *> isolateAddressing(tt::FuncOp function);

/// Folds the scalar float conversions of constants in `module` (to fp8 and
/// back, and bit casts), which the control core cannot compute
/// (ScalarConversionFolding.cpp).
mlir::LogicalResult foldScalarConversions(mlir::ModuleOp module);

/// Replaces every `tt.ptr_to_int` of a tensor of pointers in `module` by the
/// integer computation of the same addresses, or fails after reporting one
/// whose pointers come from an operation without an integer form
/// (PointerIntegers.cpp).
mlir::LogicalResult computePointerIntegers(mlir::ModuleOp module);

/// Moves the scalar arithmetic of `module` on reduction results onto rank-0
/// tiles and broadcasts such scalars as tiles (ScalarLifting.cpp).
mlir::LogicalResult liftTileDerivedScalars(mlir::ModuleOp module);

} // namespace mtia

#endif // MTIA_PASSES_CONVERSION_TTTOTILE_TILECONVERSION_H
