//===- AttachTarget.cpp - Stamp the target description on the module ------===//
//
// The first pass of a compilation that needs the machine: it loads the
// target description once and stamps it on the module, where the later
// passes read it (see passes/Analysis/TargetDescription.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

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
    if (failed(attachTargetDescription(getOperation(), target)))
      signalPassFailure();
  }
};

} // namespace
