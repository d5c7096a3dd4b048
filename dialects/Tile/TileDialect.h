//===- TileDialect.h - The `tile` dialect -----------------------*- C++ -*-===//
//
// Tiles in a PE's local memory and the compute operations of the PE's units.
// Include this header to use the dialect, its types, enums and operations.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TILE_TILEDIALECT_H
#define MTIA_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

#include "dialects/Tile/TileDialect.h.inc"
#include "dialects/Tile/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.h.inc"

#include "dialects/Tile/TileInterfaces.h.inc"

namespace mtia::tile {

/// Returns an i1 tile with the shape and layout of `type` if it is a tile;
/// any other type is returned unchanged, so that a misuse fails verification
/// with a message about the operand instead of a null type.
mlir::Type getBoolTileLike(mlir::Type type);

/// Returns whether the block of `block`'s shape at `offsets` in a tile of
/// type `source` is one contiguous run of its elements: both row-major, the
/// block's dimensions before some dimension 1 and those after it whole.
bool isContiguousBlock(TileType source, TileType block,
                       llvm::ArrayRef<int64_t> offsets);

/// Returns the bytes one element of `elementType` takes in local memory.
int64_t getElementSizeInBytes(mlir::Type elementType);

/// Returns the combine kind of a combine region (of `tile.scan`, or of
/// Triton's `tt.reduce`/`tt.scan`) that applies one arith operation to its
/// two arguments and yields the result, if the reduction engine has that
/// operation; each combine kind is named after the arith operation it
/// applies.
std::optional<CombineKind> getSingleCombineKind(mlir::Region &region);

} // namespace mtia::tile

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.h.inc"

#endif // MTIA_DIALECT_TILE_TILEDIALECT_H
