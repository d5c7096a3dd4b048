//===- IterArgs.h - Iteration arguments a loop no longer needs -*- C++ -*-===//
//
// The rebuild of an `scf.for` without some of its iteration arguments, which
// the passes that keep loop-carried tiles in buffers share.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_ITERARGS_H
#define MTIA_PASSES_TRANSFORMS_ITERARGS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mtia {

/// Replaces `loop` by a loop without the iteration arguments at `dropped`,
/// which nothing uses any more, nor their results.
void dropIterArgs(mlir::RewriterBase &rewriter, mlir::scf::ForOp loop,
                  const llvm::SmallBitVector &dropped);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_ITERARGS_H
