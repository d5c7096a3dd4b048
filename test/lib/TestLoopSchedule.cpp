//===- TestLoopSchedule.cpp - Report loops' schedules as remarks ----------===//
//
// `mtia-test-loop-schedule` attaches to every `scf.for` a remark with its
// estimated modulo schedule and its stages, so that the estimate the
// pipelining and loop-splitting decisions rest on can be tested with
// --verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LoopSchedule.h"
#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/TargetDescription.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

namespace mtia {
#define GEN_PASS_DEF_TESTLOOPSCHEDULE
#include "test/lib/TestPasses.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

struct TestLoopSchedulePass
    : public mtia::impl::TestLoopScheduleBase<TestLoopSchedulePass> {
  void runOnOperation() override {
    FailureOr<TargetDesc> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    getOperation().walk([&](scf::ForOp loop) {
      LoopSchedule schedule = estimateLoopSchedule(*loop.getBody(), *target);
      loop.emitRemark(llvm::formatv(
          "initiation interval {0:f1} cycles, critical path {1:f1} cycles, "
          "{2} stage(s) needed, num_stages {3}",
          schedule.initiationInterval, schedule.criticalPath,
          schedule.getStages(), getNumStages(loop)));
    });
  }
};

} // namespace
