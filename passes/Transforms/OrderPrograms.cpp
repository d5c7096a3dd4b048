//===- OrderPrograms.cpp - The order in which PEs take a launch's programs -===//
//
// The PEs of a launch take its programs round by round, one per PE in each
// round. When a loop's bounds depend on the program id, the programs do
// different amounts of work: a causal attention's program for query block x
// runs over the x + 1 key blocks up to it. Given out round-robin, program
// r*P + s to PE s in every round, PE s gets query block s of every head, and
// the PE with the last blocks does the most work every round. Such a kernel
// asks for an order that pairs long programs with short ones instead.
//
// When the bounds depend on the id along one axis, the kernel asks for the
// staggered order with that axis: rounds go in pairs of complements (a
// round and its reverse), every other pair shifted by half the axis's
// period, each pair's second round two rounds after its first, so that no
// round but the last completes every pair. Besides the balance, this spreads
// out when the PEs start their longest programs, which in an attention are
// the ones that read the keys and values of a head first, from DRAM, and
// keeps the PEs from all ending a round together and loading the next
// round's blocks at once. Bounds that depend on several axes get the
// serpentine order (odd rounds from the last PE to the first).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/SetVector.h"

namespace mtia {
#define GEN_PASS_DEF_ORDERPROGRAMS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Adds to `axes` the grid axes of the program ids `value` is computed from.
void collectProgramIdAxes(Value value, llvm::SmallSetVector<int32_t, 3> &axes) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  if (failed(getBackwardSlice(value, &slice, options)))
    return;
  if (Operation *def = value.getDefiningOp())
    slice.insert(def);
  for (Operation *op : slice)
    if (auto programId = dyn_cast<tt::GetProgramIdOp>(op))
      axes.insert(static_cast<int32_t>(programId.getAxis()));
}

struct OrderProgramsPass
    : public mtia::impl::OrderProgramsBase<OrderProgramsPass> {
  void runOnOperation() override {
    getOperation().walk([&](tt::FuncOp function) {
      llvm::SmallSetVector<int32_t, 3> axes;
      function.walk([&](scf::ForOp loop) {
        for (Value bound :
             {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
          collectProgramIdAxes(bound, axes);
      });
      if (axes.empty())
        return;
      MLIRContext *context = &getContext();
      if (axes.size() > 1) {
        function->setAttr("mtia.program_order",
                          StringAttr::get(context, "serpentine"));
        return;
      }
      function->setAttr("mtia.program_order",
                        StringAttr::get(context, "staggered"));
      function->setAttr(
          "mtia.program_order_axis",
          IntegerAttr::get(IntegerType::get(context, 32), axes.front()));
    });
  }
};

} // namespace
