//===- LoopSplitting.h - One loop split into two ---------------*- C++ -*-===//
//
// The split of an `scf.for` into two loops over consecutive iterations,
// which `mtia-split-masked-loops` and `mtia-pipeline-dots` share.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_LOOPSPLITTING_H
#define MTIA_PASSES_TRANSFORMS_LOOPSPLITTING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mtia {

/// Splits `loop` at `point`, a value of its induction variable's type that
/// is one of its iterations or its upper bound: `loop` stops at `point`,
/// and a copy of it made with `mapping`, placed right after it, runs the
/// iterations from `point` on, starting from `loop`'s results, which it
/// replaces after it. Returns the copy.
mlir::scf::ForOp splitLoopAt(mlir::OpBuilder &builder, mlir::scf::ForOp loop,
                             mlir::Value point, mlir::IRMapping &mapping);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_LOOPSPLITTING_H
