//===- LiveBytes.h - The peak of the data a block holds ---------*- C++ -*-===//
//
// An estimate of the local memory a block of tensor operations needs: the
// peak, over its operations in program order, of the bytes of the tensors
// live at once (from a value's definition to its last use in the block),
// nested regions adding their own peak at the operation that holds them.
// Results that share storage with what their operation holds take bytes of
// their own only after it: a loop's results are the values its body carries,
// and a dot writes its result over an accumulator it reads last. Loads in
// loops may count every page their buffers prefetch.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_LIVEBYTES_H
#define MTIA_PASSES_ANALYSIS_LIVEBYTES_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace mtia {

/// The estimated peak of the bytes of the tensors of `block` live at once,
/// each of the type `typeOf` gives it (a strip's, say). Values in
/// `uncounted` (indices and masks, which the transfers fold into their
/// addressing) take no bytes. With `countPrefetch`, a load in a loop counts
/// every page its buffer prefetches (`getLoopLoadPages`). With `first` and
/// `last`, operations of `block`, the peak is taken between them only (what
/// is live there, wherever defined).
int64_t estimatePeakLiveBytes(
    mlir::Block &block, llvm::function_ref<mlir::Type(mlir::Value)> typeOf,
    const llvm::DenseSet<mlir::Value> &uncounted, bool countPrefetch,
    mlir::Operation *first = nullptr, mlir::Operation *last = nullptr);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_LIVEBYTES_H
