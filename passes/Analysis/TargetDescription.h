//===- TargetDescription.h - The machine the passes compile for -*- C++ -*-===//
//
// Loads a target description (targets/*.json) through the simulator's
// loader, so that the passes read the machine's constants (the DMA
// alignment, the circular-buffer budget, local memory) from the one file
// that defines them.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H
#define MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H

#include "mtia/Target.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mtia {

/// Loads the target description `target`: a name of a description installed
/// with the passes (`mtia-2i`), or a path to a JSON file (a name that ends in
/// `.json` or contains `/`). Reports a failure as an error at `anchor`.
mlir::FailureOr<TargetDesc> loadTargetDescription(mlir::Operation *anchor,
                                                  llvm::StringRef target);

/// The circular buffers of `target`'s command processor that the
/// data-movement stage may use: all but `reserved`, which later stages add.
/// Reports a failure to load the target as an error at `anchor`.
mlir::FailureOr<int64_t> getDataMovementBuffers(mlir::Operation *anchor,
                                                llvm::StringRef target,
                                                int64_t reserved);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H
