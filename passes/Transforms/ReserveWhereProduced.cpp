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

/// Moves the reserve of a buffer that takes one tile from its write_back
/// up to the operation computing that tile, when the tile has no other
/// use: the unit can then compute it straight into the page rather than
/// into storage of its own that the write_back copies from. The buffer
/// has no other reserve, so the one moved still waits only for the pop of
/// its previous use, earlier in program order.
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
        found == reserves.end() || found->second.size() != 1)
      return;
    cb::ReserveBackOp reserve = found->second.front();
    Block *block = writeBack->getBlock();
    if (producer->getBlock() != block || reserve->getBlock() != block ||
        !producer->isBeforeInBlock(reserve) ||
        !reserve->isBeforeInBlock(writeBack))
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
