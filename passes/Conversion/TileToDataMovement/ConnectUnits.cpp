//===- ConnectUnits.cpp - Circular buffers between units ------------------===//
//
// Inserts a circular buffer wherever a tile computed by one unit is used by
// another, and frees every page read after the last use of its tile. This
// is the last phase of `mtia-lower-memory-accesses` rather than a pass of its
// own: until it has run, a page the lowering reads may be used by several
// units, which the `cb` dialect rejects.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LastUse.h"
#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mtia;

namespace {

/// Connects the units of one kernel. The pages read before it runs, which
/// have no pops yet, are freed with those of the buffers it inserts.
class UnitConnector {
public:
  UnitConnector(tt::FuncOp function, UnitAssignment &units)
      : function(function), units(units), buffers(function) {
    function.walk([&](cb::ReadFrontOp read) {
      if (!hasPop(read))
        reads.push_back(read);
    });
  }

  /// Inserts a circular buffer wherever a tile is used by a unit other than
  /// the one that holds it.
  void run() {
    SmallVector<scf::ForOp> loops;
    function.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      for (BlockArgument argument : loop.getRegionIterArgs())
        if (isa<tile::TileType>(argument.getType()))
          carryThroughBuffer(loop, argument);
    SmallVector<Value> tiles;
    function.walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (isa<tile::TileType>(result.getType()))
          tiles.push_back(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (isa<tile::TileType>(argument.getType()))
              tiles.push_back(argument);
    });
    for (Value tileValue : tiles)
      connect(tileValue);
    insertPops();
  }

private:
  /// Whether a `cb.pop_front` of the buffer of `read` follows it in its
  /// block.
  static bool hasPop(cb::ReadFrontOp read) {
    for (Operation *op = read->getNextNode(); op; op = op->getNextNode())
      if (auto pop = dyn_cast<cb::PopFrontOp>(op);
          pop && pop.getCb() == read.getCb())
        return true;
    return false;
  }

  /// Passes a tile a loop carries through a circular buffer, when one unit
  /// computes it (before the loop and in the body) and another uses it (in
  /// the body and after the loop): attention's accumulator, which the DPE
  /// computes and the SIMD engine rescales. The producer writes the next
  /// iteration's tile into the buffer where it computes it, instead of
  /// copying the carried tile into the buffer at the start of every
  /// iteration; the carried argument is then unused, and canonicalization
  /// removes it. One page serves: program order reads each tile before the
  /// next is written.
  ///
  /// When the next tile does not depend on the current one (attention's
  /// scores computed two iterations ahead, which the DPE passes to the
  /// reduction engine), the buffer has a second page, which the program
  /// stage may take back when memory is short: the producer computes the
  /// next tile while the consumer still reads the current one.
  ///
  /// When the body computes the next tile before the consumer is done with
  /// the current one (the copy of the next scores that the reduction engine
  /// makes as soon as the DPE has them, `mtia-relay-shared-products`), the
  /// producer computes it straight into a second page, reserved where it
  /// computes it: the page of the current tile is the only other one not
  /// yet freed then, so the reserve never waits for a later pop.
  ///
  /// When the loop's result only starts another such loop that follows it
  /// (the two loops `mtia-split-masked-loops` makes of one), the chain of
  /// loops shares the buffer: the tile stays in its page from one loop to
  /// the next rather than being copied out of the producer's storage.
  void carryThroughBuffer(scf::ForOp loop, BlockArgument argument) {
    tile::Unit owner = units.getOwner(argument);
    Value init = loop.getTiedLoopInit(argument)->get();
    // The DPE clears an initial accumulator of zeros itself (see connect).
    bool clearsInit = units.getOwner(init) != owner;
    if (clearsInit && (owner != tile::Unit::DPE || !isZeroAccumulator(init)))
      return;
    std::optional<tile::Unit> consumer;
    SmallVector<std::pair<scf::ForOp, BlockArgument>> chain;
    for (;;) {
      if (units.getOwner(loop.getTiedLoopYieldedValue(argument)->get()) !=
              owner ||
          argument.use_empty() ||
          !usedOnlyBy(argument, loop.getBody(), owner, consumer))
        return;
      chain.emplace_back(loop, argument);
      OpResult result = loop.getTiedLoopResult(argument);
      std::optional<std::pair<scf::ForOp, BlockArgument>> next =
          getChainedLoop(loop, result);
      if (!next)
        break;
      std::tie(loop, argument) = *next;
    }
    // The loop `mtia-pipeline-dots` makes of a pipelined loop's last
    // iteration reads in its body what the pipelined loop carries out (the
    // reduction engine's copy of the scores, `mtia-relay-shared-products`).
    // A DPE product it carries stays out of the buffer: the DPE would copy
    // into the page the first product, which the pipelined loop's prologue
    // computes in a conditional, and it is the unit such kernels are bound
    // by.
    OpResult result = loop.getTiedLoopResult(argument);
    if (!usedOnlyBy(result, loop->getBlock(), owner, consumer,
                    /*nested=*/owner != tile::Unit::DPE))
      return;
    Location loc = argument.getLoc();
    auto pageType = cast<tile::TileType>(argument.getType());
    SmallVector<Operation *> earlyProducers =
        llvm::map_to_vector(chain, [](auto link) {
          return getEarlyProducer(link.first, link.second);
        });
    bool producesEarly = llvm::any_of(
        earlyProducers, [](Operation *producer) { return producer; });
    bool runsAhead = llvm::none_of(chain, [](auto link) {
      return dependsOnArgument(link.first, link.second);
    });
    cb::AllocOp buffer = buffers.allocate(
        "carried", pageType, cb::getEndpoint(owner),
        cb::getEndpoint(*consumer), loc, producesEarly || runsAhead ? 2 : 1,
        producesEarly || !runsAhead ? 0 : 1);
    OpBuilder beforeLoop(chain.front().first);
    if (clearsInit)
      init = tile::ZerosOp::create(beforeLoop, loc, pageType);
    BufferBuilder::produce(buffer, init, beforeLoop, loc);
    for (auto [link, producer] : llvm::zip_equal(chain, earlyProducers)) {
      auto [chained, carried] = link;
      Value next = chained.getTiedLoopYieldedValue(carried)->get();
      if (producer) {
        OpBuilder builder(producer);
        cb::ReserveBackOp::create(builder, loc, buffer, 1);
        builder.setInsertionPointAfter(producer);
        cb::WriteBackOp::create(builder, loc, next, buffer,
                                static_cast<uint64_t>(0));
        cb::PushBackOp::create(builder, loc, buffer, 1);
      } else {
        OpBuilder endOfBody(chained.getBody()->getTerminator());
        BufferBuilder::produce(buffer, next, endOfBody, loc);
      }
      consumeCarried(buffer, carried, chained.getBody(), nullptr);
    }
    consumeCarried(buffer, result, loop->getBlock(), loop);
  }

  /// Whether every use of `value` in `block` (and none elsewhere) is by one
  /// compute unit other than `owner`, the same as `consumer` if that is
  /// set; sets `consumer` to it. With `nested`, uses in the regions of the
  /// block's operations count as uses in the block.
  bool usedOnlyBy(Value value, Block *block, tile::Unit owner,
                  std::optional<tile::Unit> &consumer, bool nested = false) {
    for (OpOperand &use : value.getUses()) {
      std::optional<tile::Unit> user = units.getUser(use);
      Operation *ancestor = nested
                                ? block->findAncestorOpInBlock(*use.getOwner())
                                : use.getOwner();
      if (!user || *user == owner || *user == tile::Unit::DMA || !ancestor ||
          ancestor->getBlock() != block ||
          (consumer && *consumer != *user))
        return false;
      consumer = *user;
    }
    return true;
  }

  /// The operation of `loop`'s body that computes the next value of the
  /// carried `argument`, when it does so before a use of the argument in
  /// the body.
  static Operation *getEarlyProducer(scf::ForOp loop, BlockArgument argument) {
    Operation *producer =
        loop.getTiedLoopYieldedValue(argument)->get().getDefiningOp();
    Block *body = loop.getBody();
    if (!producer || producer->getBlock() != body)
      return nullptr;
    for (Operation *user : argument.getUsers())
      if (producer->isBeforeInBlock(body->findAncestorOpInBlock(*user)))
        return producer;
    return nullptr;
  }

  /// Whether what `loop`'s body yields for the carried `argument` is
  /// computed from the argument.
  static bool dependsOnArgument(scf::ForOp loop, BlockArgument argument) {
    Block *body = loop.getBody();
    SmallVector<Value> worklist = {
        loop.getTiedLoopYieldedValue(argument)->get()};
    DenseSet<Operation *> visited;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (value == argument)
        return true;
      Operation *producer = value.getDefiningOp();
      if (!producer || !body->findAncestorOpInBlock(*producer) ||
          !visited.insert(producer).second)
        continue;
      // The operands of the operations nested in a producer count too.
      producer->walk([&](Operation *nested) {
        llvm::append_range(worklist, nested->getOperands());
      });
    }
    return false;
  }

  /// The loop `result` starts, and its argument, when the result's one use
  /// is the initial value of an argument of a loop later in its block.
  static std::optional<std::pair<scf::ForOp, BlockArgument>>
  getChainedLoop(scf::ForOp loop, OpResult result) {
    if (!result.hasOneUse())
      return std::nullopt;
    OpOperand &use = *result.getUses().begin();
    auto next = dyn_cast<scf::ForOp>(use.getOwner());
    if (!next || next->getBlock() != loop->getBlock())
      return std::nullopt;
    BlockArgument argument = next.getTiedLoopRegionIterArg(&use);
    if (!argument)
      return std::nullopt;
    return std::make_pair(next, argument);
  }

  /// Reads `buffer`'s front page for the uses of `carried` in `block`,
  /// before the first one (or after `after` when there is none).
  void consumeCarried(cb::AllocOp buffer, Value carried, Block *block,
                      Operation *after) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        carried.getUses(), [](OpOperand &use) { return &use; });
    OpBuilder consumer(carried.getContext());
    if (!uses.empty())
      consumer.setInsertionPoint(getFirstUse(uses, block));
    else
      consumer.setInsertionPointAfter(after);
    Value copy = BufferBuilder::consume(
        buffer, consumer, carried.getLoc(), [&](Value copy) {
          for (OpOperand *use : uses)
            use->set(copy);
        });
    reads.push_back(copy.getDefiningOp<cb::ReadFrontOp>());
  }

  /// Frees the page of every `cb.read_front` after the last use of its tile.
  /// A tile that a region yields leaves it: the program stage copies it
  /// into the storage of the result at the yield, before the pops right
  /// before the yield (docs/program-stage.md), so its page is freed there.
  void insertPops() {
    for (cb::ReadFrontOp read : reads) {
      Operation *last = findLastUse(read.getResult(), read->getBlock());
      OpBuilder builder(read.getContext());
      if (isa_and_nonnull<scf::YieldOp>(last))
        builder.setInsertionPoint(last);
      else
        builder.setInsertionPointAfter(last ? last : read.getOperation());
      cb::PopFrontOp::create(builder, read.getLoc(), read.getCb(), 1);
    }
  }

  /// The first operation of `block` that is or contains one of `uses`.
  static Operation *getFirstUse(ArrayRef<OpOperand *> uses, Block *block) {
    Operation *first = nullptr;
    for (OpOperand *use : uses) {
      Operation *ancestor = block->findAncestorOpInBlock(*use->getOwner());
      if (!first || ancestor->isBeforeInBlock(first))
        first = ancestor;
    }
    return first;
  }

  /// The `scf.if` of the same condition as `branch`, after it in its block,
  /// in whose first branch all of `uses` lie, if there is one.
  static scf::IfOp getReaderOfSameCondition(scf::IfOp branch,
                                            ArrayRef<OpOperand *> uses) {
    Block *block = branch->getBlock();
    scf::IfOp reader;
    for (OpOperand *use : uses) {
      Operation *ancestor = block->findAncestorOpInBlock(*use->getOwner());
      auto guard = dyn_cast<scf::IfOp>(ancestor);
      if (!guard || (reader && guard != reader) ||
          guard.getCondition() != branch.getCondition() ||
          !guard.getThenRegion().isAncestor(use->getOwner()->getParentRegion()))
        return nullptr;
      reader = guard;
    }
    return reader;
  }

  /// Whether `tileValue` is a `tile.constant` of +0.0 (f32) or 0 (i32), an
  /// accumulator the DPE can clear itself.
  static bool isZeroAccumulator(Value tileValue) {
    auto constant = tileValue.getDefiningOp<tile::ConstantOp>();
    if (!constant)
      return false;
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!elements || !elements.isSplat())
      return false;
    Type elementType = elements.getElementType();
    if (elementType.isF32())
      return elements.getSplatValue<APFloat>().isPosZero();
    return elementType.isInteger(32) &&
           elements.getSplatValue<APInt>().isZero();
  }

  void connect(Value tileValue) {
    tile::Unit owner = units.getOwner(tileValue);
    // The uses of other units, by unit (for the DMA engine, by the queue of
    // the transfer) and by the block of the value's region they lie in (the
    // block of the value, or another block of a region with several, which
    // the value dominates).
    Block *block = tileValue.getParentBlock();
    Region *region = block->getParent();
    llvm::MapVector<std::pair<cb::Endpoint, Block *>, SmallVector<OpOperand *>>
        foreignUses;
    for (OpOperand &use : tileValue.getUses()) {
      std::optional<tile::Unit> user = units.getUser(use);
      if (!user || *user == owner)
        continue;
      cb::Endpoint endpoint = *user == tile::Unit::DMA
                                  ? *cb::getEndpointOf(use.getOwner())
                                  : cb::getEndpoint(*user);
      Operation *ancestor = region->findAncestorOpInRegion(*use.getOwner());
      foreignUses[{endpoint, ancestor->getBlock()}].push_back(&use);
    }
    Location loc = tileValue.getLoc();
    auto pageType = cast<tile::TileType>(tileValue.getType());
    for (auto &[key, uses] : foreignUses) {
      auto [endpoint, useBlock] = key;
      // The consumer reads the tile before the first operation of the block
      // that uses it.
      Operation *first = getFirstUse(uses, useBlock);
      // The DPE clears an accumulator itself rather than receiving zeros.
      if (endpoint == cb::Endpoint::DPE && isZeroAccumulator(tileValue)) {
        OpBuilder builder(first);
        auto zeros = tile::ZerosOp::create(builder, loc, pageType);
        for (OpOperand *use : uses)
          use->set(zeros.getResult());
        continue;
      }
      // In the value's block the producer passes it on as soon as it is
      // computed: for the result of an `scf.if`, in each branch, where the
      // producer computes it straight into the page rather than into
      // storage of its own that it then copies; in another block (reached
      // on some paths only) right before its use there, so that every push
      // meets its pop.
      cb::AllocOp buffer =
          buffers.allocate("forward", pageType, cb::getEndpoint(owner),
                           endpoint, loc, kForwardPages);
      auto branch = useBlock == block
                        ? dyn_cast_or_null<scf::IfOp>(tileValue.getDefiningOp())
                        : nullptr;
      if (branch && branch.elseBlock()) {
        unsigned result = cast<OpResult>(tileValue).getResultNumber();
        // When every use lies in the first branch of a later `scf.if` of
        // the same condition (what `mtia-pipeline-dots` computes from the
        // products of a loop's first iteration), only the first branches
        // pass the tile on: when the condition does not hold, neither unit
        // touches the buffer.
        scf::IfOp reader = getReaderOfSameCondition(branch, uses);
        for (Block *branchBlock : {branch.thenBlock(), branch.elseBlock()}) {
          if (reader && branchBlock == branch.elseBlock())
            continue;
          Operation *yield = branchBlock->getTerminator();
          OpBuilder producer(yield);
          BufferBuilder::produce(buffer, yield->getOperand(result), producer,
                                 loc);
        }
        if (reader)
          first = getFirstUse(uses, reader.thenBlock());
      } else {
        OpBuilder producer(tileValue.getContext());
        if (useBlock != block)
          producer.setInsertionPoint(first);
        else if (isa<BlockArgument>(tileValue))
          producer.setInsertionPointToStart(block);
        else
          producer.setInsertionPointAfter(tileValue.getDefiningOp());
        BufferBuilder::produce(buffer, tileValue, producer, loc);
      }
      OpBuilder consumer(first);
      Value copy =
          BufferBuilder::consume(buffer, consumer, loc, [&](Value copy) {
            for (OpOperand *use : uses)
              use->set(copy);
          });
      reads.push_back(copy.getDefiningOp<cb::ReadFrontOp>());
    }
  }

  tt::FuncOp function;
  UnitAssignment &units;
  BufferBuilder buffers;
  /// The pages to free, in the order they were read.
  SmallVector<cb::ReadFrontOp> reads;
};

} // namespace

void mtia::connectUnits(tt::FuncOp function, UnitAssignment &units) {
  UnitConnector(function, units).run();
}
