//===- OrderPrograms.cpp - The order in which PEs take a launch's programs -===//
//
// The PEs of a launch take its programs round by round, one per PE in each
// round. When a loop's bounds depend on the program id, the programs do
// different amounts of work: a causal attention's program for query block x
// runs over the x + 1 key blocks up to it. Given out round-robin, program
// r*P + s to PE s in every round, PE s gets query block s of every head, and
// the PE with the last blocks does the most work every round. Such a kernel
// asks for a serpentine order instead: odd rounds are given out from the last
// PE to the first, so that a PE that had one of the longest programs of a
// round gets one of the shortest of the next.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mtia {
#define GEN_PASS_DEF_ORDERPROGRAMS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Returns whether `value` is computed from a program id.
bool dependsOnProgramId(Value value) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  if (failed(getBackwardSlice(value, &slice, options)))
    return false;
  if (isa_and_nonnull<tt::GetProgramIdOp>(value.getDefiningOp()))
    return true;
  return llvm::any_of(slice, [](Operation *op) {
    return isa<tt::GetProgramIdOp>(op);
  });
}

struct OrderProgramsPass
    : public mtia::impl::OrderProgramsBase<OrderProgramsPass> {
  void runOnOperation() override {
    getOperation().walk([&](tt::FuncOp function) {
      WalkResult varying = function.walk([&](scf::ForOp loop) {
        bool bounds = dependsOnProgramId(loop.getLowerBound()) ||
                      dependsOnProgramId(loop.getUpperBound()) ||
                      dependsOnProgramId(loop.getStep());
        return bounds ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (varying.wasInterrupted())
        function->setAttr("mtia.program_order",
                          StringAttr::get(&getContext(), "serpentine"));
    });
  }
};

} // namespace
