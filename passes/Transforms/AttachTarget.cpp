//===- AttachTarget.cpp - Stamp the target and num_stages on the module ---===//
//
// The first pass of a compilation that needs the machine: it loads the
// target description once and stamps it on the module, with the launch's
// `num_stages` (and a bound of every loop's stages, if given), where the
// later passes read them (see
// passes/Analysis/TargetDescription.h and PipelineStages.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/TargetDescription.h"

namespace mtia {
#define GEN_PASS_DEF_ATTACHTARGET
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

struct AttachTargetPass
    : public mtia::impl::AttachTargetBase<AttachTargetPass> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    if (failed(attachTargetDescription(getOperation(), target)) ||
        failed(attachNumStages(getOperation(), numStages, maxStages)))
      signalPassFailure();
  }
};

} // namespace
