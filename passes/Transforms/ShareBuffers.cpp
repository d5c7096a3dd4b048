//===- ShareBuffers.cpp - Circular buffers that share ---------------------===//
//
// The pass around the buffer planner: every kernel's buffers of one
// producer and consumer share where that costs no local memory, or more
// when they would exceed the target's circular buffers less those later
// stages reserve.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"
#include "passes/Transforms/BufferPlanner.h"

#include "dialects/TT/TTDialect.h"

namespace mtia {
#define GEN_PASS_DEF_SHAREBUFFERS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

struct ShareBuffersPass
    : public mtia::impl::ShareBuffersBase<ShareBuffersPass> {
  using ShareBuffersBase::ShareBuffersBase;

  void runOnOperation() override {
    FailureOr<int64_t> maxBuffers =
        getDataMovementBuffers(getOperation(), reservedBuffers);
    if (failed(maxBuffers))
      return signalPassFailure();
    getOperation().walk(
        [&](tt::FuncOp function) { shareBuffers(function, *maxBuffers); });
  }
};

} // namespace
