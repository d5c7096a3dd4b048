//===- LoopSchedule.h - A loop body's modulo schedule ---------*- C++ -*-===//
//
// The units of a PE run their instructions in program order, each from its
// own queue, so a loop whose body is one dependent chain across the units
// (attention: the DPE's Q·K^T, the SIMD engine's and the reduction engine's
// softmax, the DPE's P·V) keeps them all busy only when its iterations
// overlap: in a modulo schedule, a new iteration starts every initiation
// interval (II), the cycles the busiest unit spends on one iteration, and an
// iteration spans as many stages of II as its critical path (the longest
// chain of dependent operations, each taking its unit's time and latency)
// needs. This estimates both on the `tt` level, from the target's rates: a
// `tt.dot` on the DPE at the operands' multiply-accumulate rate, a
// `tt.reduce` on the reduction engine, elementwise arithmetic on the SIMD
// engine, transcendental `math` operations on its special-function tables.
// Loads, pointer arithmetic and layout operations take no unit time here:
// the DMA engine streams ahead of the compute through the buffers' pages.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_LOOPSCHEDULE_H
#define MTIA_PASSES_ANALYSIS_LOOPSCHEDULE_H

#include "mtia/Target.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace mtia {

struct LoopSchedule {
  /// The cycles of one iteration on its busiest unit.
  double initiationInterval = 0;
  /// The cycles of one iteration's longest chain of dependent operations.
  double criticalPath = 0;

  /// The stages of II an iteration spans: at least one.
  int64_t getStages() const;
};

/// Estimates the modulo schedule of the loop body `body` on `target`,
/// without the operations `isLeftOut` names (those a transformation would
/// remove), if given.
LoopSchedule estimateLoopSchedule(
    mlir::Block &body, const TargetDesc &target,
    llvm::function_ref<bool(mlir::Operation *)> isLeftOut = nullptr);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_LOOPSCHEDULE_H
