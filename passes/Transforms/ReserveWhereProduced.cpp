//===- ReserveWhereProduced.cpp - Pages reserved early --------------------===//
//
// Moves the reserve of a circular buffer that takes one tile up to the
// operation that computes the tile, so that the unit computes it straight
// into the page.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

namespace mtia {
#define GEN_PASS_DEF_RESERVEWHEREPRODUCED
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether an operation strictly between `first` and `last` (of one block),
/// or nested in one, uses `buffer`.
bool usesBufferBetween(Value buffer, Operation *first, Operation *last) {
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    WalkResult result = op->walk([&](Operation *nested) {
      return llvm::is_contained(nested->getOperands(), buffer)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
  }
  return false;
}

/// Moves the reserve of a buffer that takes one tile from its write_back
/// up to the operation computing that tile, when the tile has no other
/// use: the unit can then compute it straight into the page rather than
/// into storage of its own that the write_back copies from. Nothing on the
/// buffer lies between the two places, so the reserve moved still waits
/// only for the pops earlier in program order that it waited for before.
void reserveWhereProduced(tt::FuncOp function) {
  DenseMap<Value, SmallVector<cb::ReserveBackOp>> reserves;
  function.walk([&](cb::ReserveBackOp reserve) {
    reserves[reserve.getCb()].push_back(reserve);
  });
  function.walk([&](cb::WriteBackOp writeBack) {
    Operation *producer = writeBack.getTile().getDefiningOp();
    auto found = reserves.find(writeBack.getCb());
    if (!producer || !writeBack.getTile().hasOneUse() ||
        !isa<tile::TileDialect>(producer->getDialect()) ||
        found == reserves.end())
      return;
    // The reserve of this write: the last one before it in its block.
    Block *block = writeBack->getBlock();
    cb::ReserveBackOp reserve;
    for (cb::ReserveBackOp candidate : found->second)
      if (candidate->getBlock() == block &&
          candidate->isBeforeInBlock(writeBack) &&
          (!reserve || reserve->isBeforeInBlock(candidate)))
        reserve = candidate;
    if (!reserve || producer->getBlock() != block ||
        !producer->isBeforeInBlock(reserve) ||
        usesBufferBetween(writeBack.getCb(), producer, reserve))
      return;
    reserve->moveBefore(producer);
  });
}

struct ReserveWhereProducedPass
    : public mtia::impl::ReserveWhereProducedBase<ReserveWhereProducedPass> {
  void runOnOperation() override {
    getOperation().walk(
        [](tt::FuncOp function) { reserveWhereProduced(function); });
  }
};

} // namespace
