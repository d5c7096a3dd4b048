//===- ReleaseLoopCarriedPointers.cpp - Pointers --------------------------===//
//
// Lets canonicalization drop the tensors of pointers that loops still carry
// after their accesses became DMA transfers.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mtia {
#define GEN_PASS_DEF_RELEASELOOPCARRIEDPOINTERS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

bool onlyAdvances(Value value, OpOperand &yielded);

/// Whether `use` is the initial value of an inner loop's argument released
/// already (functions are walked inner loops first): the loop yields the
/// argument itself, its result is unused, and only pure operations whose
/// results lead nowhere else use it.
bool initOfReleased(OpOperand &use) {
  auto loop = dyn_cast<scf::ForOp>(use.getOwner());
  if (!loop)
    return false;
  BlockArgument argument = loop.getTiedLoopRegionIterArg(&use);
  if (!argument || !loop.getTiedLoopResult(&use).use_empty())
    return false;
  OpOperand *yielded = loop.getTiedLoopYieldedValue(argument);
  return yielded->get() == argument && onlyAdvances(argument, *yielded);
}

/// Whether every use of `value` is a pure operation whose only use leads,
/// the same way, to `yielded`, or the initial value of an inner loop's
/// released argument.
bool onlyAdvances(Value value, OpOperand &yielded) {
  for (OpOperand &use : value.getUses()) {
    if (&use == &yielded || initOfReleased(use))
      continue;
    Operation *user = use.getOwner();
    if (!isPure(user) || user->getNumResults() != 1 ||
        !onlyAdvances(user->getResult(0), yielded))
      return false;
  }
  return true;
}

/// Loops still carry the tensors of pointers of the accesses lowered here,
/// though nothing reads them any more: each iteration yields the argument
/// advanced by pure operations used by nothing else. Such an argument now
/// yields itself, which lets canonicalization drop it and the advance.
void releaseLoopCarriedPointers(tt::FuncOp function) {
  function.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [argument, result, yielded] :
         llvm::zip_equal(loop.getRegionIterArgs(), loop.getResults(),
                         yield->getOpOperands())) {
      if (!isa<tt::PointerType>(getElementTypeOrSelf(argument.getType())) ||
          !result.use_empty() || !onlyAdvances(argument, yielded))
        continue;
      yielded.set(argument);
    }
  });
}

struct ReleaseLoopCarriedPointersPass
    : public mtia::impl::ReleaseLoopCarriedPointersBase<
          ReleaseLoopCarriedPointersPass> {
  void runOnOperation() override {
    getOperation().walk(
        [](tt::FuncOp function) { releaseLoopCarriedPointers(function); });
  }
};

} // namespace
