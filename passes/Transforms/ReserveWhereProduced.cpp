//===- ReserveWhereProduced.cpp - Pages reserved early --------------------===//
//
// Moves the reserve of a circular buffer that takes one tile up to the
// operation that computes the tile, so that the unit computes it straight
// into the page. A unit that also keeps using the tile reads it in the page
// after pushing it (`cb.read_pushed`) while the page cannot be reserved
// again; otherwise the SIMD engine computes it once more, straight into the
// page, when that costs what the copy would.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LastUse.h"
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

/// Whether an operation from `first` up to `last` (excluded), or nested in
/// one, reads a tile through a `cb.read_pushed` of `buffer`, or through a
/// `tile.splat_element` or `tile.broadcast` of one (whose readers read the
/// page, `getTileReaders`): a reserve of the buffer must not move above it,
/// since it may reserve that page.
bool readsPushedPageFrom(Value buffer, Operation *first, Operation *last) {
  auto isPushedPage = [&](Value tile) {
    auto read = tile.getDefiningOp<cb::ReadPushedOp>();
    return read && read.getCb() == buffer;
  };
  for (Operation *op = first; op != last; op = op->getNextNode()) {
    WalkResult result = op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *spread = operand.getDefiningOp();
        if (isPushedPage(operand) ||
            (isa_and_nonnull<tile::SplatElementOp, tile::BroadcastOp>(spread) &&
             isPushedPage(spread->getOperand(0))))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
  }
  return false;
}

/// Whether the SIMD engine computes `op` in one elementwise pass over its
/// tiles, which costs it about what a copy of the result does: as much
/// arithmetic, and a third more local-memory traffic for the third operand
/// of a select or a fused multiply-add, which the earlier push repays in
/// causal attention's masked loop (benchmarks/suite.py measures it).
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

/// The uses of `tile` other than `writeBack`, when each operation reading
/// the tile through them (`getTileReaders`: the users of a
/// `tile.splat_element` or `tile.broadcast` of it read it too, wherever
/// they are) can read it in the page that `push` pushes: it lies after the
/// producer of the tile and before the next reserve or push of the buffer
/// after `push` in the block (so the page cannot be reserved again before
/// it runs), it is not the block's terminator (which would carry the page
/// into an iteration or branch that reserves it), and its unit, if it names
/// one, is the buffer's producer. Nothing otherwise.
std::optional<SmallVector<OpOperand *>>
getPushedPageReads(Value tile, cb::WriteBackOp writeBack,
                   cb::PushBackOp push) {
  auto alloc = writeBack.getCb().getDefiningOp<cb::AllocOp>();
  if (!alloc)
    return std::nullopt;
  cb::Endpoint producer = alloc.getProducer();
  Block *block = push->getBlock();
  Operation *nextMove = nullptr;
  for (Operation *op = push->getNextNode(); op && !nextMove;
       op = op->getNextNode())
    if (cb::fillsBuffer(op, writeBack.getCb()))
      nextMove = op;
  for (Operation *reader : getTileReaders(tile)) {
    if (reader == writeBack)
      continue;
    std::optional<cb::Endpoint> unit = cb::getEndpointOf(reader);
    Operation *inBlock = block->findAncestorOpInBlock(*reader);
    if ((unit && *unit != producer) || !inBlock ||
        inBlock == block->getTerminator() ||
        (nextMove && !inBlock->isBeforeInBlock(nextMove)))
      return std::nullopt;
  }
  SmallVector<OpOperand *> reads;
  for (OpOperand &use : tile.getUses())
    if (use.getOwner() != writeBack)
      reads.push_back(&use);
  return reads;
}

/// Whether every element of `op`'s tile is one scalar: its other uses read
/// that scalar, not the tile, so they need neither a copy nor the page.
bool isSplat(Operation *op) {
  if (isa<tile::SplatOp>(op))
    return true;
  auto constant = dyn_cast<tile::ConstantOp>(op);
  auto elements =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  return elements && elements.isSplat();
}

/// Makes `reads` read the tile that `writeBack` writes through a
/// `cb.read_pushed` of its page right after `push`, which they all follow.
void readPushedPage(ArrayRef<OpOperand *> reads, cb::WriteBackOp writeBack,
                    cb::PushBackOp push) {
  // The write's page, counted back from the write pointer after the push.
  int64_t page = push.getPages() - 1 - writeBack.getPage();
  OpBuilder builder(push->getContext());
  builder.setInsertionPointAfter(push);
  auto read = cb::ReadPushedOp::create(builder, writeBack.getLoc(),
                                       writeBack.getTile().getType(),
                                       writeBack.getCb(), page);
  for (OpOperand *use : reads)
    use->set(read.getResult());
}

/// Moves `writeBack` and the push that follows it up to right after
/// `producer`, which computes the tile into the page reserved before it,
/// when nothing between them uses the buffer or a tile read in a page it
/// pushed before (which the push would move the count of pages from): the
/// consumer can then take the tile as soon as it is computed, rather than
/// after whatever the producer does before the write in program order (the
/// DPE's next product, computed ahead in a pipelined loop, waits for no
/// later product of the iteration).
void pushWhereProduced(cb::WriteBackOp writeBack, Operation *producer) {
  Value buffer = writeBack.getCb();
  cb::PushBackOp push = getNextPush(buffer, writeBack);
  if (!push || cb::usesBufferBetween(buffer, producer, writeBack) ||
      cb::usesBufferBetween(buffer, writeBack, push) ||
      readsPushedPageFrom(buffer, producer->getNextNode(), push))
    return;
  writeBack->moveAfter(producer);
  push->moveAfter(writeBack);
}

/// Moves the reserve of a buffer that takes one tile from its write_back
/// up to the operation computing that tile, when the tile has no other
/// use: the unit can then compute it straight into the page rather than
/// into storage of its own that the write_back copies from. Nothing on the
/// buffer lies between the two places, so the reserve moved still waits
/// only for the pops earlier in program order that it waited for before.
/// The write and its push follow the producer when nothing on the buffer
/// lies between them either (`pushWhereProduced`).
///
/// When the tile has other uses, the write and its push move up to the
/// producer, which computes the tile straight into the page. The other uses
/// then read the pushed page when they can (`readPushedPage`): attention's
/// SIMD engine casts the probabilities it pushed to the reduction engine for
/// their row sum. Otherwise, when the SIMD engine computes the tile in one
/// elementwise pass, it computes it a second time into its own storage:
/// that costs it what a copy would, and the buffer's consumer gets the tile
/// one pass earlier. (A tile a loop carries for the SIMD engine, such as
/// attention's next scaled scores, is read in its pushed page instead when
/// `mtia-carry-in-pushed-pages` could keep it there.)
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
    // A tile of one value costs no more to compute again than to copy: a
    // write of DPE zeros or a SIMD splat that is used elsewhere too (the
    // accumulator a loop starts from; the product or the scores a pipelined
    // loop that runs no iteration carries) gets a tile of its own, which the
    // unit fills the page with, rather than a tile it keeps in its scratch
    // to copy from.
    if (producer && (isa<tile::ZerosOp>(producer) || isSplat(producer)) &&
        (!writeBack.getTile().hasOneUse() ||
         producer->getBlock() != writeBack->getBlock())) {
      OpBuilder builder(writeBack);
      Operation *original = producer;
      producer = builder.clone(*original);
      writeBack.getTileMutable().assign(producer->getResult(0));
      if (original->use_empty())
        original->erase();
    }
    auto found = reserves.find(writeBack.getCb());
    if (!producer || !isa<tile::TileDialect>(producer->getDialect()) ||
        found == reserves.end())
      continue;
    bool otherUses = !writeBack.getTile().hasOneUse();
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
    if (!otherUses) {
      if (!producer->isBeforeInBlock(reserve) ||
          cb::usesBufferBetween(writeBack.getCb(), producer, reserve) ||
          readsPushedPageFrom(writeBack.getCb(), producer, reserve))
        continue;
      reserve->moveBefore(producer);
      pushWhereProduced(writeBack, producer);
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
         (cb::usesBufferBetween(writeBack.getCb(), producer, reserve) ||
          readsPushedPageFrom(writeBack.getCb(), producer, reserve))) ||
        cb::usesBufferBetween(writeBack.getCb(), reserve, writeBack) ||
        cb::usesBufferBetween(writeBack.getCb(), writeBack, push))
      continue;
    std::optional<SmallVector<OpOperand *>> pushedPageReads;
    if (!isSplat(producer))
      pushedPageReads =
          getPushedPageReads(writeBack.getTile(), writeBack, push);
    if (!pushedPageReads && !isElementwisePass(producer))
      continue;
    if (reservedAfter)
      reserve->moveBefore(producer);
    if (pushedPageReads) {
      writeBack->moveAfter(producer);
      push->moveAfter(writeBack);
      readPushedPage(*pushedPageReads, writeBack, push);
      continue;
    }
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
