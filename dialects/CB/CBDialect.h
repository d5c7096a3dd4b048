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
#include "dialects/CB/CBEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/CB/CBTypes.h.inc"

#include "dialects/CB/CBInterfaces.h.inc"

namespace mtia::cb {

/// Returns the unit of `endpoint`: the DMA engine for either of its queues.
tile::Unit getUnit(Endpoint endpoint);

/// Returns the endpoint of `unit`, which is not the DMA engine (whose queue
/// the unit does not tell).
Endpoint getEndpoint(tile::Unit unit);

/// Returns the endpoint of the agent that executes `op`, a tile or DMA
/// operation: for a DMA transfer its queue. Nothing for other operations.
std::optional<Endpoint> getEndpointOf(mlir::Operation *op);

/// Returns whether `op`, or an operation nested in it, acts on `buffer` as
/// its producer: reserves or pushes its pages, or fills one (a write_back, a
/// DMA read from global memory).
bool fillsBuffer(mlir::Operation *op, mlir::Value buffer);

/// Returns whether an operation strictly between `first` and `last` (of one
/// block), or nested in one, uses `buffer`.
bool usesBufferBetween(mlir::Value buffer, mlir::Operation *first,
                       mlir::Operation *last);

/// Checks that the page index `page` of an access lies within the pages of
/// `cbType`.
mlir::LogicalResult verifyPageIndex(mlir::Operation *op,
                                    CircularBufferType cbType, int64_t page);

} // namespace mtia::cb

#define GET_OP_CLASSES
#include "dialects/CB/CBOps.h.inc"

#endif // MTIA_DIALECT_CB_CBDIALECT_H
