//===- AddressingIsolation.cpp - Keep pointer and mask computations -------===//
//
// Memory accesses are not converted by the tile stage: `tt.load`, `tt.store`
// and the atomics keep their tensor operands, and the tensor operations that
// only compute their pointers and masks stay untouched, so that the
// data-movement stage can analyse them (passes/Analysis/PointerAnalysis.h).
// A tensor operation whose result feeds both addressing and compute is
// duplicated: the original keeps serving the addressing, a tile copy serves
// the compute.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mtia;

namespace {

/// Whether operand `operand` of its user is a pointer or a mask of a memory
/// access (as opposed to a value that is computed with).
bool isAddressingUse(OpOperand &operand) {
  Operation *user = operand.getOwner();
  if (isa<tt::AddPtrOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp>(user) &&
      isa<tt::PointerType>(getElementTypeOrSelf(user->getResult(0).getType())))
    return true;
  if (auto load = dyn_cast<tt::LoadOp>(user))
    return operand.get() == load.getPtr() || operand.get() == load.getMask();
  if (auto store = dyn_cast<tt::StoreOp>(user))
    return operand.get() == store.getPtr() || operand.get() == store.getMask();
  if (auto atomic = dyn_cast<tt::AtomicRMWOp>(user))
    return operand.get() == atomic.getPtr() ||
           operand.get() == atomic.getMask();
  if (auto cas = dyn_cast<tt::AtomicCASOp>(user))
    return operand.get() == cas.getPtr();
  return false;
}

} // namespace

/// Finds the tensor operations whose results are used only to address
/// memory, duplicating those that also feed compute, and returns them.
DenseSet<Operation *> mtia::isolateAddressing(tt::FuncOp function) {
  DenseSet<Operation *> addressing;
  auto isAddressingOp = [&](Operation *op) { return addressing.contains(op); };
  // Users come after their definitions in a region, so a reverse walk sees
  // every user of a value before the value's definition.
  SmallVector<Operation *> ops;
  function.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : llvm::reverse(ops)) {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !isValueTensor(op->getResult(0).getType()) ||
        isa<tt::LoadOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op))
      continue;
    bool addressingUse = false, computeUse = false;
    for (OpOperand &use : op->getResult(0).getUses()) {
      if (isAddressingUse(use) || isAddressingOp(use.getOwner()))
        addressingUse = true;
      else
        computeUse = true;
    }
    if (!addressingUse)
      continue;
    addressing.insert(op);
    if (!computeUse)
      continue;
    OpBuilder builder(op);
    Operation *copy = builder.clone(*op);
    op->getResult(0).replaceUsesWithIf(copy->getResult(0), [&](OpOperand &use) {
      return !isAddressingUse(use) && !isAddressingOp(use.getOwner());
    });
  }
  return addressing;
}
