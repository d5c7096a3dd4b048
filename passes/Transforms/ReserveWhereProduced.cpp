//===- ReserveWhereProduced.cpp - Pages reserved early --------------------===//
//
// Moves the reserve of a circular buffer that takes one tile up to the
// operation that computes the tile, so that the unit computes it straight
// into the page. A tile the SIMD engine also keeps using is computed once
// more, straight into the page, when that costs what the copy would.
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

/// Whether the SIMD engine computes `op` in one elementwise pass over its
/// tiles, which costs it about what a copy of the result does: as much
/// arithmetic, and a third more local-memory traffic for the third operand
/// of a select or a fused multiply-add (which the earlier push repays in
/// causal attention's masked loop: without them, the attention suite's
/// causal kernels lose 0.1 to 1.3 points).
bool isElementwisePass(Operation *op) {
  return isa<tile::BinaryOp, tile::UnaryOp, tile::FmaOp, tile::CmpIOp,
             tile::CmpFOp, tile::SelectOp, tile::CastOp>(op);
}

/// The first push of `buffer` after `op` in its block.
cb::PushBackOp getNextPush(Value buffer, Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (auto push = dyn_cast<cb::PushBackOp>(next);
        push && push.getCb() == buffer)
      return push;
  return nullptr;
}

/// Moves the reserve of a buffer that takes one tile from its write_back
/// up to the operation computing that tile, when the tile has no other
/// use: the unit can then compute it straight into the page rather than
/// into storage of its own that the write_back copies from. Nothing on the
/// buffer lies between the two places, so the reserve moved still waits
/// only for the pops earlier in program order that it waited for before.
///
/// When the tile has other uses and the SIMD engine computes it in one
/// elementwise pass, the engine computes it twice instead of computing it
/// once and copying it: first straight into the page, which it then
/// pushes, then into its own storage. That costs it what the copy did, and
/// the buffer's consumer gets the tile one pass earlier: attention's
/// reduction engine takes the row maximum of the scaled scores while the
/// SIMD engine scales them for itself.
void reserveWhereProduced(tt::FuncOp function) {
  DenseMap<Value, SmallVector<cb::ReserveBackOp>> reserves;
  function.walk([&](cb::ReserveBackOp reserve) {
    reserves[reserve.getCb()].push_back(reserve);
  });
  // The writes are collected first: the loop moves some of them.
  SmallVector<cb::WriteBackOp> writes;
  function.walk([&](cb::WriteBackOp writeBack) { writes.push_back(writeBack); });
  for (cb::WriteBackOp writeBack : writes) {
    Operation *producer = writeBack.getTile().getDefiningOp();
    auto found = reserves.find(writeBack.getCb());
    if (!producer || !isa<tile::TileDialect>(producer->getDialect()) ||
        found == reserves.end())
      continue;
    bool computeAgain = !writeBack.getTile().hasOneUse();
    if (computeAgain && !isElementwisePass(producer))
      continue;
    // The reserve of this write: the last one before it in its block.
    Block *block = writeBack->getBlock();
    cb::ReserveBackOp reserve;
    for (cb::ReserveBackOp candidate : found->second)
      if (candidate->getBlock() == block &&
          candidate->isBeforeInBlock(writeBack) &&
          (!reserve || reserve->isBeforeInBlock(candidate)))
        reserve = candidate;
    if (!reserve || producer->getBlock() != block)
      continue;
    if (!computeAgain) {
      if (!producer->isBeforeInBlock(reserve) ||
          usesBufferBetween(writeBack.getCb(), producer, reserve))
        continue;
      reserve->moveBefore(producer);
      continue;
    }
    // The write and its push move up to the producer, and the reserve too
    // if it follows it: nothing between the first of the reserve and the
    // producer and the push may use the buffer but the reserve and the
    // write. (An earlier run of this pass may have moved the reserve, and
    // CSE merged the two computations again.)
    cb::PushBackOp push = getNextPush(writeBack.getCb(), writeBack);
    bool reservedAfter = producer->isBeforeInBlock(reserve);
    if (!push ||
        (reservedAfter &&
         usesBufferBetween(writeBack.getCb(), producer, reserve)) ||
        usesBufferBetween(writeBack.getCb(), reserve, writeBack) ||
        usesBufferBetween(writeBack.getCb(), writeBack, push))
      continue;
    if (reservedAfter)
      reserve->moveBefore(producer);
    OpBuilder builder(producer);
    Operation *intoPage = builder.clone(*producer);
    writeBack.getTileMutable().assign(intoPage->getResult(0));
    writeBack->moveBefore(producer);
    push->moveBefore(producer);
  }
}

struct ReserveWhereProducedPass
    : public mtia::impl::ReserveWhereProducedBase<ReserveWhereProducedPass> {
  void runOnOperation() override {
    getOperation().walk(
        [](tt::FuncOp function) { reserveWhereProduced(function); });
  }
};

} // namespace
