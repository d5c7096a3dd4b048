//===- CarryInPushedPages.cpp - Loop-carried tiles read where pushed ------===//
//
// A tile that a loop carries for the unit that computes it, and that this
// unit also passes to another unit in the iteration that computes it, is
// lowered as a tile the producer keeps in storage of its own besides the
// page it pushes. Attention's scaled scores are one: the SIMD engine pushes
// the next block's scores to the reduction engine for their row maximum and
// subtracts that maximum from them in the next iteration. The producer then
// either copies the tile into the page or, for an elementwise pass of the
// SIMD engine, computes it twice (`mtia-reserve-where-produced`): a pass of
// the SIMD engine per iteration either way.
//
// This pass has the producer read the tile in the page it pushed instead
// (`cb.read_pushed`): in the next iteration, and after the loop for the
// loop's result. The pages of the tile's chain get one buffer of their own,
// which nothing else pushes to, so that its last pushed page holds the tile
// wherever the producer reads it:
//
// - the loop's initial tile: pushed before the loop or in the branches of an
//   `scf.if` right before it (the first iteration's scores of a pipelined
//   loop), or the result of an earlier loop of the chain; a path that
//   computes it without passing it on pushes it there (the branch for a
//   loop that runs no iteration), and the consumer drops that page;
// - the tile each iteration pushes, which the body reads in the next
//   iteration before it pushes the next;
// - the tiles of a loop that starts from the loop's result (the iteration
//   `mtia-pipeline-dots` peels off), whose other uses come before that loop.
//
// The pass runs before the buffers of one producer and consumer share
// (`mtia-share-buffers`), while every tile has a buffer of its own: a
// buffer used in several blocks is not shared, so the chain keeps its own.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LastUse.h"
#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"
#include "passes/Transforms/BufferPlanner.h"
#include "passes/Transforms/IterArgs.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mtia {
#define GEN_PASS_DEF_CARRYINPUSHEDPAGES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// A tile passed to another unit through a buffer of its own, within one
/// block: the producer reserves, writes and pushes one page, then the
/// consumer waits for it, reads it and pops it.
struct Forwarded {
  cb::AllocOp alloc;
  cb::ReserveBackOp reserve;
  cb::PopFrontOp pop;
};

/// The buffer of its own through which `tile` goes to another unit in
/// `block`, if any.
std::optional<Forwarded> findForwarded(Value tile, Block *block) {
  for (Operation *user : tile.getUsers()) {
    auto write = dyn_cast<cb::WriteBackOp>(user);
    if (!write || write->getBlock() != block || write.getPage() != 0)
      continue;
    auto alloc = write.getCb().getDefiningOp<cb::AllocOp>();
    if (!alloc || alloc.getType().getPageType() != tile.getType())
      continue;
    // The buffer's operations, in the order a forwarded tile has them.
    SmallVector<Operation *> ops(alloc->getUsers());
    if (ops.size() != 6 || llvm::any_of(ops, [&](Operation *op) {
          return op->getBlock() != block;
        }))
      continue;
    llvm::sort(ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    auto reserve = dyn_cast<cb::ReserveBackOp>(ops[0]);
    auto push = dyn_cast<cb::PushBackOp>(ops[2]);
    auto wait = dyn_cast<cb::WaitFrontOp>(ops[3]);
    auto read = dyn_cast<cb::ReadFrontOp>(ops[4]);
    auto pop = dyn_cast<cb::PopFrontOp>(ops[5]);
    if (!reserve || ops[1] != write || !push || !wait || !read || !pop ||
        reserve.getPages() != 1 || push.getPages() != 1 ||
        wait.getPages() != 1 || read.getPage() != 0 || pop.getPages() != 1)
      continue;
    return Forwarded{alloc, reserve, pop};
  }
  return std::nullopt;
}

/// Where the page holding a loop's initial tile is pushed before the loop.
struct InitialPages {
  /// A read of the chain's buffer's last pushed page that holds the tile
  /// already: the result of an earlier loop of the chain.
  cb::ReadPushedOp pushed;
  /// The buffers of their own through which the tile goes to the consumer
  /// where it is computed: they become the chain's.
  SmallVector<cb::AllocOp> forwarded;
  /// The paths that compute the tile without passing it on: the producer
  /// pushes it right before the operation, and the consumer drops it.
  SmallVector<std::pair<Operation *, Value>> pushes;
};

/// Whether the producer `producer` can write `tile` into a page: a tile
/// operation of that unit computes it.
bool producedBy(Value tile, cb::Endpoint producer) {
  Operation *op = tile.getDefiningOp();
  if (!op || !isa<tile::TileDialect>(op->getDialect()))
    return false;
  std::optional<cb::Endpoint> endpoint = cb::getEndpointOf(op);
  return endpoint && *endpoint == producer;
}

/// The pages that hold `loop`'s initial tile `init`, when each path to the
/// loop pushes it last to its buffer, or can push it (see InitialPages).
std::optional<InitialPages> findInitialPages(scf::ForOp loop, Value init,
                                             cb::Endpoint producer) {
  Block *block = loop->getBlock();
  InitialPages pages;
  // Where `tile`, the last value `where` computes for the loop, goes: the
  // block passes it on to the consumer before `before` (the consumer pops
  // it there, so that it finds the pages of the iterations at the front),
  // or the producer pushes it right before `before`.
  auto pushedIn = [&](Value tile, Block *where, Operation *before) {
    if (std::optional<Forwarded> forwarded = findForwarded(tile, where)) {
      pages.forwarded.push_back(forwarded->alloc);
      return forwarded->pop->isBeforeInBlock(before);
    }
    if (!producedBy(tile, producer))
      return false;
    pages.pushes.emplace_back(before, tile);
    return true;
  };
  if (auto read = init.getDefiningOp<cb::ReadPushedOp>();
      read && read->getBlock() == block && read.getPage() == 0 &&
      !cb::usesBufferBetween(read.getCb(), read, loop)) {
    pages.pushed = read;
    return pages;
  }
  if (auto branch = init.getDefiningOp<scf::IfOp>();
      branch && branch->getBlock() == block && branch.elseBlock()) {
    unsigned index = cast<OpResult>(init).getResultNumber();
    for (Block *branchBlock : {branch.thenBlock(), branch.elseBlock()}) {
      Operation *yield = branchBlock->getTerminator();
      if (!pushedIn(yield->getOperand(index), branchBlock, yield))
        return std::nullopt;
    }
    return pages;
  }
  if (!pushedIn(init, block, loop))
    return std::nullopt;
  return pages;
}

/// One iteration argument of a loop whose tile the producer can read in
/// the pages it pushed (see the file comment).
struct PushedCarry {
  unsigned index;
  /// The buffer through which the body passes the next iteration's tile on.
  Forwarded next;
  InitialPages initial;

  /// The buffers of their own of the pages, which merge into the chain's:
  /// the initial tile's, then the body's.
  SmallVector<cb::AllocOp> getPageBuffers() const {
    SmallVector<cb::AllocOp> buffers(initial.forwarded);
    buffers.push_back(next.alloc);
    return buffers;
  }
};

/// The carry of iteration argument `index` of `loop` in pushed pages, when
/// the body passes the next iteration's tile on to another unit through a
/// buffer of its own and uses this iteration's only on the producer, before
/// it pushes the next; the loop's initial tile is pushed last before the
/// loop on every path; and the loop's result is used on the producer before
/// anything else pushes to the chain's buffer.
std::optional<PushedCarry> findPushedCarry(scf::ForOp loop, unsigned index) {
  Block *body = loop.getBody();
  Operation *terminator = body->getTerminator();
  BlockArgument argument = loop.getRegionIterArg(index);
  if (!isa<tile::TileType>(argument.getType()) || argument.use_empty())
    return std::nullopt;
  std::optional<Forwarded> next =
      findForwarded(terminator->getOperand(index), body);
  if (!next)
    return std::nullopt;
  cb::Endpoint producer = next->alloc.getProducer();
  // A use on another unit, or by a unit the operation does not name,
  // would need a copy of the tile, not the page.
  auto readsOnProducer = [&](Operation *user) {
    std::optional<cb::Endpoint> reader = cb::getEndpointOf(user);
    return !reader || *reader == producer;
  };
  for (Operation *reader : getTileReaders(argument)) {
    Operation *inBody = body->findAncestorOpInBlock(*reader);
    if (!inBody || inBody == terminator ||
        !inBody->isBeforeInBlock(next->reserve) || !readsOnProducer(reader))
      return std::nullopt;
  }
  std::optional<InitialPages> initial =
      findInitialPages(loop, loop.getInitArgs()[index], producer);
  if (!initial)
    return std::nullopt;
  // The result: the initial tile of one later loop of the block, which may
  // push to the chain's buffer, and uses on the producer before that loop.
  Block *block = loop->getBlock();
  Value result = loop.getResult(index);
  Operation *chained = nullptr;
  for (OpOperand &use : result.getUses()) {
    auto later = dyn_cast<scf::ForOp>(use.getOwner());
    if (!later || !later.getTiedLoopRegionIterArg(&use))
      continue;
    if (chained || later->getBlock() != block)
      return std::nullopt;
    chained = later;
  }
  for (Operation *reader : getTileReaders(result)) {
    if (reader == chained)
      continue;
    Operation *inBlock = block->findAncestorOpInBlock(*reader);
    if (!inBlock || inBlock == block->getTerminator() ||
        (chained && !inBlock->isBeforeInBlock(chained)) ||
        !readsOnProducer(reader))
      return std::nullopt;
  }
  return PushedCarry{index, *next, std::move(*initial)};
}

/// The buffer of the chain of `carry`, into which the buffers of its pages
/// merge: the earlier loop's, or the first of them, which dominates the
/// others. Nothing when their types or units differ, or they are allocated
/// in different blocks.
std::optional<cb::AllocOp> getChainBuffer(PushedCarry &carry) {
  SmallVector<cb::AllocOp> merged = carry.getPageBuffers();
  cb::AllocOp chain =
      carry.initial.pushed
          ? carry.initial.pushed.getCb().getDefiningOp<cb::AllocOp>()
          : merged.front();
  if (!chain)
    return std::nullopt;
  for (cb::AllocOp alloc : merged) {
    if (alloc->getBlock() != chain->getBlock() ||
        alloc.getType() != chain.getType() ||
        alloc.getProducer() != chain.getProducer() ||
        alloc.getConsumer() != chain.getConsumer())
      return std::nullopt;
    if (!carry.initial.pushed && alloc->isBeforeInBlock(chain))
      chain = alloc;
  }
  return chain;
}

/// Carries the tile of `carry` in the pages of `chain` (see the file
/// comment). The loop still carries the tile, unused, for the caller to
/// drop.
void carryInPushedPages(RewriterBase &rewriter, scf::ForOp loop,
                        PushedCarry &carry, cb::AllocOp chain) {
  Value buffer = chain.getResult();
  for (cb::AllocOp alloc : carry.getPageBuffers()) {
    if (alloc == chain)
      continue;
    rewriter.replaceAllUsesWith(alloc.getResult(), buffer);
    rewriter.eraseOp(alloc);
  }
  BlockArgument argument = loop.getRegionIterArg(carry.index);
  Location loc = argument.getLoc();
  for (auto [before, tile] : carry.initial.pushes) {
    rewriter.setInsertionPoint(before);
    cb::ReserveBackOp::create(rewriter, loc, buffer, 1);
    cb::WriteBackOp::create(rewriter, loc, tile, buffer, 0);
    cb::PushBackOp::create(rewriter, loc, buffer, 1);
    cb::WaitFrontOp::create(rewriter, loc, buffer, 1);
    cb::PopFrontOp::create(rewriter, loc, buffer, 1);
  }
  // This iteration's tile, before its first use.
  Block *body = loop.getBody();
  Operation *firstUse = nullptr;
  for (Operation *user : argument.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (!firstUse || inBody->isBeforeInBlock(firstUse))
      firstUse = inBody;
  }
  rewriter.setInsertionPoint(firstUse);
  auto thisIteration = cb::ReadPushedOp::create(
      rewriter, loc, argument.getType(), buffer, 0);
  rewriter.replaceAllUsesWith(argument, thisIteration.getResult());
  // The loop's result, right after it.
  Value result = loop.getResult(carry.index);
  if (result.use_empty())
    return;
  rewriter.setInsertionPointAfter(loop);
  auto last =
      cb::ReadPushedOp::create(rewriter, loc, result.getType(), buffer, 0);
  rewriter.replaceAllUsesWith(result, last.getResult());
}

/// The chains of one function, and the buffers they may keep.
class ChainBudget {
public:
  ChainBudget(tt::FuncOp function, int64_t maxBuffers)
      : function(function), maxBuffers(maxBuffers) {}

  /// Whether the function's buffers still fit `maxBuffers` with the
  /// buffers of `carry` merged into `chain`, which keeps a buffer of its
  /// own, as do the chains made before.
  bool admits(PushedCarry &carry, cb::AllocOp chain) {
    // The buffers to merge count as buffers of their own, less the merges.
    DenseSet<Operation *> own(chains.begin(), chains.end());
    own.insert(chain);
    int64_t merges = 0;
    for (cb::AllocOp merged : carry.getPageBuffers())
      if (merged != chain && own.insert(merged).second)
        ++merges;
    return countLeastBuffers(function, own) - merges <= maxBuffers;
  }

  void add(cb::AllocOp chain) { chains.insert(chain); }

private:
  tt::FuncOp function;
  int64_t maxBuffers;
  DenseSet<Operation *> chains;
};

void carryInPushedPages(scf::ForOp loop, ChainBudget &budget) {
  IRRewriter rewriter(loop);
  llvm::SmallBitVector dropped(loop.getNumRegionIterArgs());
  for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
    std::optional<PushedCarry> carry = findPushedCarry(loop, index);
    if (!carry)
      continue;
    std::optional<cb::AllocOp> chain = getChainBuffer(*carry);
    if (!chain || !budget.admits(*carry, *chain))
      continue;
    carryInPushedPages(rewriter, loop, *carry, *chain);
    budget.add(*chain);
    dropped.set(index);
  }
  if (dropped.any())
    dropIterArgs(rewriter, loop, dropped);
}

struct CarryInPushedPagesPass
    : public mtia::impl::CarryInPushedPagesBase<CarryInPushedPagesPass> {
  using CarryInPushedPagesBase::CarryInPushedPagesBase;

  void runOnOperation() override {
    FailureOr<int64_t> maxBuffers =
        getDataMovementBuffers(getOperation(), reservedBuffers);
    if (failed(maxBuffers))
      return signalPassFailure();
    getOperation().walk([&](tt::FuncOp function) {
      // Outer and earlier loops first: a loop that starts from another's
      // result finds its initial tile read in the chain's buffer.
      SmallVector<scf::ForOp> loops;
      function.walk<WalkOrder::PreOrder>(
          [&](scf::ForOp loop) { loops.push_back(loop); });
      ChainBudget budget(function, *maxBuffers);
      for (scf::ForOp loop : loops)
        carryInPushedPages(loop, budget);
    });
  }
};

} // namespace
