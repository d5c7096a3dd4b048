//===- TestPasses.td - Test passes of mtia-compiler --------*- tablegen -*-===//
//
// Passes that only the lit tests use: they expose analyses of the compiler
// as remarks. They are registered by `mtia-opt` alone, not by `compile()`,
// and live outside the production library MTIAPasses.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_TEST_LIB_TESTPASSES_TD
#define MTIA_TEST_LIB_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def TestPointerAnalysis : Pass<"mtia-test-pointer-analysis", "::mlir::ModuleOp"> {
  let summary = "Report the structure of every load, store and atomic as a remark";
  let description = [{
    Runs the pointer and mask analysis that the data-movement stage uses to
    turn `tt.load`/`tt.store` into strided DMA, and attaches a remark to each
    memory operation: its base pointer, element offset and per-dimension
    strides, and the per-dimension bounds and conditions of its mask, or why
    it is unstructured.
  }];
}

def TestLoopSchedule : Pass<"mtia-test-loop-schedule", "::mlir::ModuleOp"> {
  let summary = "Report every loop's estimated modulo schedule as a remark";
  let description = [{
    Estimates, for every `scf.for`, the schedule `mtia-pipeline-dots` and
    `mtia-split-masked-loops` decide by (passes/Analysis/LoopSchedule.h) on
    the target stamped on the module, and attaches it to the loop as a
    remark: its initiation interval and critical path in cycles, the stages
    of the interval the path spans, and the loop's `num_stages`.
  }];
}

#endif // MTIA_TEST_LIB_TESTPASSES_TD
