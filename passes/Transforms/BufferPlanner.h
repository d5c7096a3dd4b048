//===- BufferPlanner.h - Circular buffers that share ------------*- C++ -*-===//
//
// Plans which circular buffers of a kernel carry their transfers one after
// another through one buffer, and with how many pages.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_BUFFERPLANNER_H
#define MTIA_PASSES_TRANSFORMS_BUFFERPLANNER_H

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace mtia {

/// Lets buffers of one producer and consumer in `function` carry their
/// transfers one after another, within `maxBuffers` buffers where local
/// memory allows (see BufferPlanner.cpp).
void shareBuffers(mlir::FunctionOpInterface function, int64_t maxBuffers);

/// The fewest buffers `function` keeps once its buffers share (at any cost
/// of local memory), with the buffers in `own` kept out of the sharing.
int64_t countLeastBuffers(mlir::FunctionOpInterface function,
                          const llvm::DenseSet<mlir::Operation *> &own);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_BUFFERPLANNER_H
