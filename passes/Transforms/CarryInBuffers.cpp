//===- CarryInBuffers.cpp - Loop-carried tiles kept in their buffers ------===//
//
// A tile that a loop carries from one unit to another (attention's row
// maximum, which the reduction engine computes for the next iteration and
// the SIMD engine reads) is lowered as a value the producing unit keeps in
// storage of its own, which it copies into a page of the buffer to the
// consumer at the start of each iteration. That copy waits in the
// producer's queue behind everything the producer was given before it, and
// for a product of the DPE it costs a pass of the DPE.
//
// This pass pushes the page where the tile is computed instead: in the
// iteration before, right after the operation that computes it (so that
// `mtia-reserve-where-produced` lets the unit compute it straight into the
// page), and for the first iteration before the loop, or in the branches
// of an `scf.if` right before it that computes the first tile. The consumer
// still waits for the page at the start of the iteration and pops it as
// before.
// After the loop, the page pushed for the iteration that did not run holds
// the loop's result. When the producer only copies the result into another
// buffer to the same consumer (the next loop's), the consumer reads this
// page instead; otherwise it pops the page, and the producer reads the
// result in it (`cb.read_pushed`). The loop no longer carries the tile.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LastUse.h"
#include "passes/Passes.h"
#include "passes/Transforms/IterArgs.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mtia {
#define GEN_PASS_DEF_CARRYINBUFFERS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether `op` has regions in which `buffer` is used.
bool usesInRegions(Operation *op, Value buffer) {
  return op->getNumRegions() != 0 &&
         llvm::any_of(buffer.getUsers(), [&](Operation *user) {
           return user != op && op->isAncestor(user);
         });
}

/// A loop-carried tile that the loop's body writes into a buffer at its
/// start: the reserve, write and push of one page, and the operation of the
/// body that computes the tile for the next iteration.
struct CarriedTile {
  unsigned index;
  cb::ReserveBackOp reserve;
  cb::WriteBackOp write;
  cb::PushBackOp push;
  Operation *producer;
};

/// The carried tile of iteration argument `index` of `loop`, when its only
/// use is the write of one page at the start of the body, and pushing that
/// page right after the tile's producer in the iteration before keeps the
/// order of the buffer's pages.
std::optional<CarriedTile> findCarriedTile(scf::ForOp loop, unsigned index) {
  Block *body = loop.getBody();
  BlockArgument argument = loop.getRegionIterArg(index);
  if (!argument.hasOneUse())
    return std::nullopt;
  auto write = dyn_cast<cb::WriteBackOp>(*argument.getUsers().begin());
  if (!write || write->getBlock() != body || write.getPage() != 0)
    return std::nullopt;
  Value buffer = write.getCb();
  auto alloc = buffer.getDefiningOp<cb::AllocOp>();
  if (!alloc)
    return std::nullopt;
  // The write's reserve and push: the buffer's first producer operations in
  // the body, of one page each.
  auto first = llvm::find_if(*body, [&](Operation &op) {
    return cb::fillsBuffer(&op, buffer);
  });
  auto reserve =
      first == body->end() ? nullptr : dyn_cast<cb::ReserveBackOp>(*first);
  if (!reserve || reserve.getPages() != 1 ||
      reserve->getNextNode() != write.getOperation())
    return std::nullopt;
  auto push = dyn_cast_or_null<cb::PushBackOp>(write->getNextNode());
  if (!push || push.getCb() != buffer || push.getPages() != 1)
    return std::nullopt;
  // The tile of the next iteration: computed in the body, after which the
  // body neither writes nor moves the buffer's write pointer.
  Value next = body->getTerminator()->getOperand(index);
  Operation *producer = next.getDefiningOp();
  if (!producer || producer->getBlock() != body)
    return std::nullopt;
  for (Operation *op = producer->getNextNode(); op; op = op->getNextNode())
    if (cb::fillsBuffer(op, buffer))
      return std::nullopt;
  return CarriedTile{index, reserve, write, push, producer};
}

/// The pages the buffer needs, in program order, right after the tile's
/// producer for a push there not to wait for a pop that program order puts
/// later: the page carried into the iteration, held from its start until the
/// consumer pops it, every page pushed since and not popped, and one more.
/// Nothing when that is more than the buffer has, or the body does not pop
/// as many pages as it pushes (every iteration must start the same way).
std::optional<int64_t> getPagesNeeded(CarriedTile carried) {
  Value buffer = carried.write.getCb();
  int64_t held = 1;
  std::optional<int64_t> heldAtProducer;
  for (Operation &op : *carried.producer->getBlock()) {
    if (usesInRegions(&op, buffer))
      return std::nullopt;
    if (auto push = dyn_cast<cb::PushBackOp>(op);
        push && push.getCb() == buffer && push != carried.push)
      held += push.getPages();
    if (auto pop = dyn_cast<cb::PopFrontOp>(op); pop && pop.getCb() == buffer)
      held -= pop.getPages();
    if (&op == carried.producer)
      heldAtProducer = held;
  }
  int64_t pages = cast<cb::CircularBufferType>(buffer.getType()).getNumPages();
  if (held != 0 || !heldAtProducer || *heldAtProducer + 1 > pages)
    return std::nullopt;
  return *heldAtProducer + 1;
}

/// Whether every use of the loop's result `result` lies in the loop's block
/// before the buffer's next producer operation there, so that a read of the
/// pushed page after the loop can stand for it: the block's terminator may
/// not use it, and a user that names a unit must be the buffer's producer.
bool resultReadable(scf::ForOp loop, Value result, Value buffer) {
  cb::Endpoint producer = buffer.getDefiningOp<cb::AllocOp>().getProducer();
  Block *block = loop->getBlock();
  Operation *nextProducer = nullptr;
  for (Operation *op = loop->getNextNode(); op && !nextProducer;
       op = op->getNextNode())
    if (cb::fillsBuffer(op, buffer))
      nextProducer = op;
  return llvm::all_of(getTileReaders(result), [&](Operation *user) {
    std::optional<cb::Endpoint> reader = cb::getEndpointOf(user);
    if (reader && *reader != producer)
      return false;
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    return inBlock && inBlock != block->getTerminator() &&
           (!nextProducer || inBlock->isBeforeInBlock(nextProducer));
  });
}

/// Whether the page of a loop's initial tile that `branch` yields can be
/// pushed in each of its branches instead of before `loop`: the branch
/// comes right before the loop in its block, as far as `buffer` is
/// concerned (nothing between them, or in the branch, fills it), and has
/// both branches.
bool pushableInBranches(scf::IfOp branch, scf::ForOp loop, Value buffer) {
  if (branch->getBlock() != loop->getBlock() || !branch.elseBlock() ||
      cb::fillsBuffer(branch, buffer))
    return false;
  for (Operation *op = branch->getNextNode(); op != loop;
       op = op->getNextNode())
    if (cb::fillsBuffer(op, buffer))
      return false;
  return true;
}

/// A loop's result that the producer only copies into a page of another
/// buffer between the same units, which the consumer then waits for, reads
/// and pops in the loop's block (the buffer may carry other tiles before
/// and after).
struct ForwardedCopy {
  cb::AllocOp alloc;
  cb::ReserveBackOp reserve;
  cb::WriteBackOp write;
  cb::PushBackOp push;
  cb::WaitFrontOp wait;
  cb::ReadFrontOp read;
  cb::PopFrontOp pop;
};

/// The copy of `result`, the loop's result that `buffer` will hold in its
/// last pushed page, when the copy's buffer has the same units and page type
/// as `buffer` and nothing uses `buffer` from the loop to the copy's pop:
/// the consumer can read the result in `buffer`.
std::optional<ForwardedCopy> findForwardedCopy(scf::ForOp loop, Value result,
                                               Value buffer) {
  if (!result.hasOneUse())
    return std::nullopt;
  auto write = dyn_cast<cb::WriteBackOp>(*result.getUsers().begin());
  if (!write || write->getBlock() != loop->getBlock() || write.getPage() != 0)
    return std::nullopt;
  auto alloc = write.getCb().getDefiningOp<cb::AllocOp>();
  auto carrying = buffer.getDefiningOp<cb::AllocOp>();
  if (!alloc || alloc.getProducer() != carrying.getProducer() ||
      alloc.getConsumer() != carrying.getConsumer() ||
      alloc.getType().getPageType() != carrying.getType().getPageType())
    return std::nullopt;
  // The copy: a reserve, the write and a push of one page; then the
  // consumer's next operations on the copy's buffer wait for it, read it
  // and pop it, in the loop's block.
  ForwardedCopy copy{alloc, {}, write, {}, {}, {}, {}};
  Value copyBuffer = write.getCb();
  copy.reserve = dyn_cast_or_null<cb::ReserveBackOp>(write->getPrevNode());
  copy.push = dyn_cast_or_null<cb::PushBackOp>(write->getNextNode());
  if (!copy.reserve || copy.reserve.getCb() != copyBuffer ||
      copy.reserve.getPages() != 1 || !copy.push ||
      copy.push.getCb() != copyBuffer || copy.push.getPages() != 1 ||
      !loop->isBeforeInBlock(copy.reserve))
    return std::nullopt;
  SmallVector<Operation *> next;
  for (Operation *op = copy.push->getNextNode(); op && next.size() < 3;
       op = op->getNextNode()) {
    if (usesInRegions(op, copyBuffer))
      return std::nullopt;
    if (llvm::is_contained(op->getOperands(), copyBuffer))
      next.push_back(op);
  }
  if (next.size() != 3)
    return std::nullopt;
  copy.wait = dyn_cast<cb::WaitFrontOp>(next[0]);
  copy.read = dyn_cast<cb::ReadFrontOp>(next[1]);
  copy.pop = dyn_cast<cb::PopFrontOp>(next[2]);
  if (!copy.wait || !copy.read || !copy.pop || copy.wait.getPages() != 1 ||
      copy.read.getPage() != 0 || copy.pop.getPages() != 1)
    return std::nullopt;
  for (Operation *op = loop->getNextNode(); op != copy.pop.getOperation();
       op = op->getNextNode())
    if (llvm::is_contained(op->getOperands(), buffer) ||
        usesInRegions(op, buffer))
      return std::nullopt;
  return copy;
}

/// Makes the consumer of `copy` read the page of `buffer` that holds the
/// loop's result, and pop it where it popped the copy, which is erased.
void forwardPage(RewriterBase &rewriter, ForwardedCopy copy, Value buffer) {
  rewriter.setInsertionPoint(copy.wait);
  cb::WaitFrontOp::create(rewriter, copy.wait.getLoc(), buffer, 1);
  auto read = cb::ReadFrontOp::create(rewriter, copy.read.getLoc(),
                                      copy.read.getType(), buffer, 0);
  rewriter.replaceAllUsesWith(copy.read.getResult(), read.getResult());
  rewriter.setInsertionPoint(copy.pop);
  cb::PopFrontOp::create(rewriter, copy.pop.getLoc(), buffer, 1);
  for (Operation *op : {copy.pop.getOperation(), copy.read.getOperation(),
                        copy.wait.getOperation(), copy.push.getOperation(),
                        copy.write.getOperation(), copy.reserve.getOperation()})
    rewriter.eraseOp(op);
  if (copy.alloc->use_empty())
    rewriter.eraseOp(copy.alloc);
}

/// Keeps `carried` in its buffer across the iterations of `loop` (see the
/// file comment), which needs `pages` of the buffer's pages: those the
/// buffer had for running ahead become pages the program stage keeps. The
/// loop still carries the tile, unused, for the caller to drop.
void carryInBuffer(RewriterBase &rewriter, scf::ForOp loop,
                   CarriedTile carried, int64_t pages) {
  Value buffer = carried.write.getCb();
  Location loc = carried.write.getLoc();
  auto alloc = buffer.getDefiningOp<cb::AllocOp>();
  int64_t kept = alloc.getType().getNumPages() -
                 static_cast<int64_t>(alloc.getRunAheadPages());
  if (kept < pages)
    alloc.setRunAheadPages(alloc.getType().getNumPages() - pages);
  // The first iteration's page: where the initial tile is computed when a
  // branch right before the loop yields it (the first iteration's product,
  // computed only when the loop runs), else before the loop.
  auto pushPage = [&](Value tile) {
    cb::ReserveBackOp::create(rewriter, loc, buffer, 1);
    cb::WriteBackOp::create(rewriter, loc, tile, buffer, 0);
    cb::PushBackOp::create(rewriter, loc, buffer, 1);
  };
  Value init = loop.getInitArgs()[carried.index];
  if (auto branch = init.getDefiningOp<scf::IfOp>();
      branch && pushableInBranches(branch, loop, buffer)) {
    unsigned result = cast<OpResult>(init).getResultNumber();
    for (Block *block : {branch.thenBlock(), branch.elseBlock()}) {
      Operation *yield = block->getTerminator();
      rewriter.setInsertionPoint(yield);
      pushPage(yield->getOperand(result));
    }
  } else {
    rewriter.setInsertionPoint(loop);
    pushPage(init);
  }
  // The next iteration's page, where its tile is computed.
  carried.push->moveAfter(carried.producer);
  carried.write->moveAfter(carried.producer);
  carried.reserve->moveAfter(carried.producer);
  carried.write.getTileMutable().assign(
      loop.getBody()->getTerminator()->getOperand(carried.index));
  // After the loop, the page of the iteration that did not run holds the
  // loop's result. A copy of it into a buffer to the same consumer reads
  // this page instead; otherwise the consumer drops the page, and the
  // producer reads the result in it.
  Value result = loop.getResult(carried.index);
  if (std::optional<ForwardedCopy> copy =
          findForwardedCopy(loop, result, buffer)) {
    forwardPage(rewriter, *copy, buffer);
    return;
  }
  rewriter.setInsertionPointAfter(loop);
  cb::WaitFrontOp::create(rewriter, loc, buffer, 1);
  cb::PopFrontOp::create(rewriter, loc, buffer, 1);
  if (!result.use_empty()) {
    auto read = cb::ReadPushedOp::create(rewriter, loc, result.getType(),
                                         buffer, 0);
    rewriter.replaceAllUsesWith(result, read.getResult());
  }
}

void carryInBuffers(scf::ForOp loop) {
  IRRewriter rewriter(loop);
  llvm::SmallBitVector dropped(loop.getNumRegionIterArgs());
  for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
    std::optional<CarriedTile> carried = findCarriedTile(loop, index);
    if (!carried)
      continue;
    std::optional<int64_t> pages = getPagesNeeded(*carried);
    if (!pages ||
        !resultReadable(loop, loop.getResult(index), carried->write.getCb()))
      continue;
    carryInBuffer(rewriter, loop, *carried, *pages);
    dropped.set(index);
  }
  if (dropped.any())
    dropIterArgs(rewriter, loop, dropped);
}

struct CarryInBuffersPass
    : public mtia::impl::CarryInBuffersBase<CarryInBuffersPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      carryInBuffers(loop);
  }
};

} // namespace
