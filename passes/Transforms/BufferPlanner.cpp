//===- BufferPlanner.cpp - Circular buffers that share --------------------===//
//
// Groups the circular buffers of a kernel whose transfers follow one another
// between the same two units into one buffer. A group of buffers between two
// units becomes a first-in first-out buffer whose pages cover the tiles held
// at once, plus one in a loop for the producer to run ahead; buffers the DMA
// engine fills or drains share only when one transfer ends before the next
// begins. Then the buffers of blocks that run one after the other share.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/BufferPlanner.h"
#include "passes/Analysis/LastUse.h"

#include "dialects/CB/CBDialect.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

#include <limits>

using namespace mlir;
using namespace mtia;

namespace {

class BufferPlanner {
public:
  /// The last allowance of extra bytes a join may cost (see run).
  static constexpr int64_t kUnlimitedAllowance =
      std::numeric_limits<int64_t>::max() / 4;

  BufferPlanner(FunctionOpInterface function, int64_t maxBuffers)
      : function(function), maxBuffers(maxBuffers) {}

  /// One use of a buffer: its operations, all in one block.
  struct Span {
    cb::AllocOp buffer;
    Block *block;
    Operation *first, *last;
    /// For a buffer between two units (one tile written by one, read by the
    /// other): its reserve, push, wait, read and pop, and the last operation
    /// of the block that uses the tile read.
    cb::ReserveBackOp reserve;
    cb::PushBackOp push;
    cb::WaitFrontOp wait;
    cb::ReadFrontOp read;
    cb::PopFrontOp pop;
    Operation *lastUse = nullptr;

    bool isForward() const { return reserve && push && wait && read && pop; }
    int64_t getPageBytes() {
      return buffer.getType().getPageType().getSizeInBytes();
    }
  };

  /// A group of forward spans sharing one buffer: where their pops go and
  /// what the buffer needs, computed on positions in the block.
  struct FifoPlan {
    /// Per span, in push order: the operation its pop moves after (none: it
    /// stays), and the page its read finds the tile at.
    SmallVector<Operation *> popAfter;
    SmallVector<int64_t> readPage;
    int64_t pages = 1;
    int64_t pageBytes = 0;

    int64_t getBytes() const { return pages * pageBytes; }
  };

  /// Pops free pages in push order, and never while a tile read from a page
  /// behind them is in use: a page is addressed relative to the read
  /// pointer, so a pop would move the tiles held behind it; such a pop moves
  /// after the last use of that tile. Then a read finds its tile behind the
  /// pages still held, and a reserve needs a page besides them.
  FifoPlan planFifo(ArrayRef<Span> group) {
    auto position = [&](Operation *op) -> double {
      return static_cast<double>(blockPositions.lookup(op));
    };
    // Keys order the pops among the block's operations: an operation's
    // position, plus a half to follow an operation, plus a little to follow
    // another pop placed there. Keys only grow, so this reaches a fixed
    // point.
    constexpr double kAfter = 0.5, kNextPop = 1e-6;
    size_t count = group.size();
    FifoPlan plan;
    plan.popAfter.assign(count, nullptr);
    SmallVector<double> key;
    for (const Span &span : group) {
      key.push_back(position(span.pop));
      plan.pageBytes =
          std::max(plan.pageBytes, const_cast<Span &>(span).getPageBytes());
    }
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j = 0; j < count; ++j) {
        if (j > 0 && key[j] <= key[j - 1]) {
          key[j] = key[j - 1] + kNextPop;
          plan.popAfter[j] = group[j - 1].pop;
          moved = true;
        }
        for (size_t i = j + 1; i < count; ++i) {
          double lastUse = position(group[i].lastUse);
          if (position(group[i].read) < key[j] && key[j] < lastUse) {
            key[j] = lastUse + kAfter;
            plan.popAfter[j] = group[i].lastUse;
            moved = true;
          }
        }
      }
    }
    // Sweep the block in order: 0 reserve, 1 push, 2 read, 3 pop.
    SmallVector<std::tuple<double, int, size_t>> events;
    for (auto [index, span] : llvm::enumerate(group)) {
      events.emplace_back(position(span.reserve), 0, index);
      events.emplace_back(position(span.push), 1, index);
      events.emplace_back(position(span.read), 2, index);
      events.emplace_back(key[index], 3, index);
    }
    llvm::sort(events);
    plan.readPage.assign(count, 0);
    int64_t pushed = 0, popped = 0;
    for (auto [at, kind, index] : events) {
      if (kind == 0)
        plan.pages = std::max(plan.pages, pushed - popped + 1);
      else if (kind == 1)
        ++pushed;
      else if (kind == 2)
        plan.readPage[index] = static_cast<int64_t>(index) - popped;
      else
        ++popped;
    }
    return plan;
  }

  /// The spans of the function's buffers used in one block, in order,
  /// leaving out those in `own`; counts those and the buffers used in
  /// several blocks, which do not share, in `unshared` if given.
  SmallVector<Span> collectSpans(const DenseSet<Operation *> &own,
                                 int64_t *unshared = nullptr) {
    SmallVector<Span> spans;
    auto countUnshared = [&] {
      if (unshared)
        ++*unshared;
    };
    function->walk([&](cb::AllocOp alloc) {
      Span span{alloc, nullptr, nullptr, nullptr};
      if (own.contains(alloc)) {
        countUnshared();
        return;
      }
      for (Operation *user : alloc->getUsers()) {
        if (span.block && user->getBlock() != span.block) {
          countUnshared();
          return;
        }
        span.block = user->getBlock();
        if (!span.first || user->isBeforeInBlock(span.first))
          span.first = user;
        if (!span.last || span.last->isBeforeInBlock(user))
          span.last = user;
      }
      // The one user of each kind, if there is exactly one.
      auto onlyUser = [&](auto kind) -> decltype(kind) {
        using OpT = decltype(kind);
        OpT found;
        for (Operation *user : alloc->getUsers()) {
          if (!isa<OpT>(user))
            continue;
          if (found)
            return OpT();
          found = cast<OpT>(user);
        }
        return found;
      };
      if (llvm::any_of(alloc->getUsers(), llvm::IsaPred<cb::WriteBackOp>)) {
        span.reserve = onlyUser(cb::ReserveBackOp());
        span.push = onlyUser(cb::PushBackOp());
        span.wait = onlyUser(cb::WaitFrontOp());
        span.read = onlyUser(cb::ReadFrontOp());
        span.pop = onlyUser(cb::PopFrontOp());
        if (span.read)
          span.lastUse = findLastUse(span.read.getResult(), span.block);
        if (!span.lastUse)
          span.lastUse = span.read;
      }
      if (span.block)
        spans.push_back(span);
    });
    llvm::sort(spans, [](const Span &a, const Span &b) {
      return a.block == b.block ? a.first->isBeforeInBlock(b.first)
                                : a.block < b.block;
    });
    for (const Span &span : spans)
      if (!blockPositions.count(&span.block->front()))
        for (auto [index, op] : llvm::enumerate(*span.block))
          blockPositions[&op] = index;
    return spans;
  }

  /// Lets buffers of one producer and consumer (endpoints, so a queue of the
  /// DMA engine shares only with itself) carry their transfers one after
  /// another, which keeps the plan within the command processor's
  /// buffer count. Every operation of a buffer must lie in one block.
  ///
  /// A buffer between two compute units (or from one to the DMA engine)
  /// joins a first-in first-out group when its tile is pushed after, and
  /// read after, every tile of the group (see planFifo): the buffer gets as
  /// many pages as are ever held at a reserve, plus one (and in a loop one
  /// more, which the local-memory plan may take back), and each page
  /// access views the largest page of the group as its own tile. Program
  /// order stays a valid schedule, so the units cannot deadlock. A span
  /// joins a group only if that costs no more local memory than a buffer of
  /// its own, unless the buffers would then exceed `maxBuffers` (counted
  /// after the groups of blocks that run one after the other share, see
  /// shareAcrossBlocks, and with the buffers used in several blocks, which
  /// do not share): then it may cost more, up to a growing allowance.
  ///
  /// Buffers the DMA engine fills or drains share only with buffers of
  /// their page type (the transfer's shape is the page's), when the first
  /// transfer ends before the next begins.
  void run() {
    int64_t unshared = 0;
    SmallVector<Span> spans = collectSpans({}, &unshared);
    // Growing allowances of extra bytes a join may cost, until the buffers,
    // with those used in several blocks, fit the command processor.
    const int64_t allowances[] = {0, 16 * 1024, 64 * 1024,
                                  kUnlimitedAllowance};
    SmallVector<SmallVector<Span>> groups;
    for (int64_t allowance : allowances) {
      groups = groupSpans(spans, allowance);
      if (unshared + countSharedAcrossBlocks(groups) <= maxBuffers)
        break;
    }
    for (SmallVector<Span> &group : groups)
      mergeGroup(group);
    shareAcrossBlocks(groups);
  }

  /// The fewest buffers the function keeps when its buffers of one producer
  /// and consumer share at any cost of local memory (see run), the buffers
  /// in `own` left out of the sharing.
  int64_t countLeastBuffers(const DenseSet<Operation *> &own) {
    int64_t unshared = 0;
    SmallVector<Span> spans = collectSpans(own, &unshared);
    SmallVector<SmallVector<Span>> groups =
        groupSpans(spans, kUnlimitedAllowance);
    return unshared + countSharedAcrossBlocks(groups);
  }

  /// The buffers `groups` keep once those of blocks that run one after the
  /// other share (see shareAcrossBlocks).
  int64_t countSharedAcrossBlocks(MutableArrayRef<SmallVector<Span>> groups) {
    // A group's buffer gets the largest page of its spans.
    SmallVector<GroupKey> keys = llvm::map_to_vector(
        groups, [](SmallVector<Span> &group) {
          cb::CircularBufferType type = group.front().buffer.getType();
          for (Span &span : group)
            type = getLargerPages(type, span.buffer.getType());
          return GroupKey{group.front().buffer, group.front().block,
                          type.getPageType()};
        });
    return static_cast<int64_t>(assignChains(keys).size());
  }

  /// Whether every operation of block `a` runs before every operation of
  /// block `b`: they are nested in two operations of one block, the first
  /// before the second (the two loops `mtia-split-masked-loops` makes of
  /// one).
  static bool runsBefore(Block *a, Block *b) {
    for (Operation *outerA = a->getParentOp(); outerA;) {
      Block *common = outerA->getBlock();
      if (!common)
        return false;
      if (Operation *outerB = common->findAncestorOpInBlock(*b->getParentOp()))
        return outerA != outerB && outerA->isBeforeInBlock(outerB);
      outerA = common->getParentOp();
    }
    return false;
  }

  /// What decides whether groups of buffers share across blocks: the first
  /// buffer, the block and the page type of a group.
  struct GroupKey {
    cb::AllocOp buffer;
    Block *block;
    Type pageType;
  };

  /// Lets the buffers of groups in blocks that run one after the other be
  /// one buffer, when they have one producer and consumer and one page
  /// type: every tile a group's block pushes it also pops, so each block
  /// finds the buffer empty, as if it were its own, and each unit reaches
  /// one block's operations on it after the other's. The buffer gets the
  /// most pages any block needs and the most run-ahead pages of any.
  void shareAcrossBlocks(ArrayRef<SmallVector<Span>> groups) {
    SmallVector<GroupKey> keys =
        llvm::map_to_vector(groups, [](const SmallVector<Span> &group) {
          cb::AllocOp buffer = group.front().buffer;
          return GroupKey{buffer, group.front().block,
                          buffer.getType().getPageType()};
        });
    for (ArrayRef<unsigned> chain : assignChains(keys)) {
      cb::AllocOp kept = keys[chain.front()].buffer;
      int64_t runAheadPages = static_cast<int64_t>(kept.getRunAheadPages());
      int64_t neededPages = kept.getType().getNumPages() - runAheadPages;
      for (unsigned index : chain.drop_front()) {
        cb::AllocOp buffer = keys[index].buffer;
        cb::CircularBufferType type = buffer.getType();
        int64_t runAhead = static_cast<int64_t>(buffer.getRunAheadPages());
        neededPages = std::max(neededPages, type.getNumPages() - runAhead);
        runAheadPages = std::max(runAheadPages, runAhead);
        buffer.getResult().replaceAllUsesWith(kept.getResult());
        buffer.erase();
        kept.getResult().setType(cb::CircularBufferType::get(
            type.getPageType(), neededPages + runAheadPages));
        kept.setRunAheadPages(runAheadPages);
      }
    }
  }

  /// The chains of groups that share one buffer across blocks (see
  /// shareAcrossBlocks): groups of one producer, consumer and page type
  /// whose blocks run one after the other, taken in the order of their
  /// buffers' allocations, so that the first buffer of a chain is the one
  /// that stays. Each chain lists indices of `keys`.
  SmallVector<SmallVector<unsigned>> assignChains(ArrayRef<GroupKey> keys) {
    DenseMap<Operation *, int64_t> order;
    int64_t next = 0;
    function->walk([&](cb::AllocOp alloc) { order[alloc] = next++; });
    SmallVector<unsigned> indices =
        llvm::to_vector(llvm::seq<unsigned>(0, keys.size()));
    llvm::sort(indices, [&](unsigned a, unsigned b) {
      return order.lookup(keys[a].buffer) < order.lookup(keys[b].buffer);
    });
    SmallVector<SmallVector<unsigned>> chains;
    for (unsigned index : indices) {
      GroupKey key = keys[index];
      auto chain = llvm::find_if(chains, [&](ArrayRef<unsigned> members) {
        GroupKey first = keys[members.front()];
        return first.buffer.getProducer() == key.buffer.getProducer() &&
               first.buffer.getConsumer() == key.buffer.getConsumer() &&
               first.pageType == key.pageType &&
               llvm::all_of(members, [&](unsigned other) {
                 return runsBefore(keys[other].block, key.block) ||
                        runsBefore(key.block, keys[other].block);
               });
      });
      if (chain == chains.end())
        chains.push_back({index});
      else
        chain->push_back(index);
    }
    return chains;
  }

  /// Groups `spans` (see shareBuffers), each join costing at most
  /// `allowance` more bytes than a buffer of the span's own.
  SmallVector<SmallVector<Span>> groupSpans(ArrayRef<Span> spans,
                                            int64_t allowance) {
    SmallVector<SmallVector<Span>> groups;
    SmallVector<int64_t> groupBytes;
    for (const Span &candidate : spans) {
      Span span = candidate;
      bool joined = false;
      for (auto [group, bytes] : llvm::zip_equal(groups, groupBytes)) {
        Span &head = group.front(), &tail = group.back();
        if (tail.block != span.block ||
            head.buffer.getProducer() != span.buffer.getProducer() ||
            head.buffer.getConsumer() != span.buffer.getConsumer())
          continue;
        if (!head.isForward() || !span.isForward()) {
          if (head.isForward() || span.isForward() ||
              head.buffer.getType() != span.buffer.getType() ||
              !tail.last->isBeforeInBlock(span.first))
            continue;
          group.push_back(span);
          joined = true;
          break;
        }
        if (!tail.push->isBeforeInBlock(span.push) ||
            !tail.read->isBeforeInBlock(span.read))
          continue;
        group.push_back(span);
        int64_t joinedBytes = planFifo(group).getBytes();
        if (joinedBytes - bytes <= span.getPageBytes() + allowance) {
          bytes = joinedBytes;
          joined = true;
          break;
        }
        group.pop_back();
      }
      if (joined)
        continue;
      groups.push_back({span});
      groupBytes.push_back(span.isForward() ? planFifo(groups.back()).getBytes()
                                            : 0);
    }
    return groups;
  }

  /// Makes the buffers of `group` one: the first span's.
  void mergeGroup(MutableArrayRef<Span> group) {
    cb::AllocOp buffer = group.front().buffer;
    cb::CircularBufferType type = buffer.getType();
    std::optional<FifoPlan> plan;
    if (group.front().isForward())
      plan = planFifo(group);
    for (Span &span : group.drop_front()) {
      type = getLargerPages(type, span.buffer.getType());
      span.buffer.getResult().replaceAllUsesWith(buffer.getResult());
      span.buffer.erase();
    }
    if (!plan) {
      buffer.getResult().setType(type);
      return;
    }
    for (auto [span, after, page] :
         llvm::zip_equal(group, plan->popAfter, plan->readPage)) {
      if (after)
        span.pop->moveAfter(after);
      span.read.setPage(page);
      span.wait.setPages(page + 1);
    }
    // In a loop, one page more lets the producer compute the next
    // iteration's tile while the consumer still works on this one.
    int64_t runAhead =
        isa<LoopLikeOpInterface>(group.front().block->getParentOp()) ? 1 : 0;
    buffer.getResult().setType(cb::CircularBufferType::get(
        type.getPageType(), plan->pages + runAhead));
    buffer.setRunAheadPages(runAhead);
  }

  static cb::CircularBufferType getLargerPages(cb::CircularBufferType a,
                                               cb::CircularBufferType b) {
    return b.getPageType().getSizeInBytes() > a.getPageType().getSizeInBytes()
               ? b
               : a;
  }

private:
  FunctionOpInterface function;
  /// The buffers `run` aims to stay within.
  int64_t maxBuffers;
  /// The positions of the operations in the blocks of shared buffers.
  DenseMap<Operation *, int64_t> blockPositions;
};

} // namespace

void mtia::shareBuffers(FunctionOpInterface function, int64_t maxBuffers) {
  BufferPlanner(function, maxBuffers).run();
}

int64_t mtia::countLeastBuffers(FunctionOpInterface function,
                                const DenseSet<Operation *> &own) {
  return BufferPlanner(function, 0).countLeastBuffers(own);
}
