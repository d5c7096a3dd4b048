//===- CBDialect.h - The `cb` dialect ---------------------------*- C++ -*-===//
//
// Circular buffers of tile pages in a PE's local memory. Include this header
// to use the dialect, its type, interface and operations.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_CB_CBDIALECT_H
#define MTIA_DIALECT_CB_CBDIALECT_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

#include "dialects/CB/CBDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/CB/CBTypes.h.inc"

#include "dialects/CB/CBInterfaces.h.inc"

namespace mtia::cb {

/// Checks that the page index `page` of an access lies within the pages of
/// `cbType`.
mlir::LogicalResult verifyPageIndex(mlir::Operation *op,
                                    CircularBufferType cbType, int64_t page);

} // namespace mtia::cb

#define GET_OP_CLASSES
#include "dialects/CB/CBOps.h.inc"

#endif // MTIA_DIALECT_CB_CBDIALECT_H
