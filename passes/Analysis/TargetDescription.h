//===- TargetDescription.h - The machine the passes compile for -*- C++ -*-===//
//
// The target description (targets/*.json, read by the simulator's loader) is
// stamped once on the module, as its `mtia.target` attribute, by
// `mtia-attach-target`; the passes that need the machine's constants (the DMA
// alignment, the circular-buffer budget, local memory) read them from there,
// so that every pass of a compilation sees the same machine.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H
#define MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H

#include "mtia/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mtia {

/// The name of the module attribute that holds the target description.
constexpr llvm::StringLiteral kTargetAttrName = "mtia.target";

/// Stamps the target description `target` on `module`: a name of a
/// description installed with the passes (`mtia-2i`), or a path to a JSON
/// file (a name that ends in `.json` or contains `/`). The attribute holds
/// the description's figures (its `sources` and `description` are left
/// out). Reports a failure as an error at the module.
mlir::LogicalResult attachTargetDescription(mlir::ModuleOp module,
                                            llvm::StringRef target);

/// The target description stamped on the module that holds `anchor`.
/// Reports a module without one, or one the loader rejects, as an error at
/// `anchor`.
mlir::FailureOr<TargetDesc> getTargetDescription(mlir::Operation *anchor);

/// The circular buffers of the command processor of the target stamped on
/// the module that holds `anchor` that the data-movement stage may use: all
/// but `reserved`, which later stages add.
mlir::FailureOr<int64_t> getDataMovementBuffers(mlir::Operation *anchor,
                                                int64_t reserved);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_TARGETDESCRIPTION_H
