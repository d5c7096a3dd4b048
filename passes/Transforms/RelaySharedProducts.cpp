//===- RelaySharedProducts.cpp - DPE products relayed by the RE -----------===//
//
// Every page of a circular buffer has one consumer unit. When the reduction
// engine and another unit both read a product of the DPE (attention's scores
// `qk`, written the way Triton's tutorial writes it: the reduction engine
// takes their row maximum and the SIMD engine computes
// `exp2(qk * scale - m)`), the DPE would write its product twice, the second
// time as a copy that costs it a pass of its own rate. The DPE is what a
// matmul-heavy kernel is bound by; the reduction engine reads the product
// anyway and has cycles to spare. So this pass makes the reduction engine
// copy the product for the other readers (`tile.reduce_copy`).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Analysis/UnitAssignment.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mtia {
#define GEN_PASS_DEF_RELAYSHAREDPRODUCTS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The units that read a tile value, following it through the loops and
/// conditionals that carry it. `known` is false when some reader is not a
/// unit operation (a store's cast to a tensor, a `scf.while`).
struct Readers {
  SmallVector<tile::Unit> units;
  bool known = true;

  bool contains(tile::Unit unit) const { return llvm::is_contained(units, unit); }
};

class ReaderCollector {
public:
  /// Adds the readers of `value` to `readers`.
  void collect(Value value, Readers &readers) {
    if (!visited.insert(value).second)
      return;
    for (OpOperand &use : value.getUses())
      collect(use, readers);
  }

  /// Adds the readers of the value at `use` to `readers`.
  void collect(OpOperand &use, Readers &readers) {
    Operation *user = use.getOwner();
    if (auto unitOp = dyn_cast<tile::UnitOpInterface>(user)) {
      readers.units.push_back(unitOp.getUnit());
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(user)) {
      // The initial value of a loop-carried tile.
      BlockArgument argument = loop.getTiedLoopRegionIterArg(&use);
      if (!argument) {
        readers.known = false;
        return;
      }
      collectCarried(loop, argument, readers);
      return;
    }
    auto yield = dyn_cast<scf::YieldOp>(user);
    if (!yield) {
      readers.known = false;
      return;
    }
    Operation *parent = yield->getParentOp();
    unsigned index = use.getOperandNumber();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      collectCarried(loop, loop.getRegionIterArgs()[index], readers);
      return;
    }
    if (isa<scf::IfOp>(parent)) {
      collect(parent->getResult(index), readers);
      return;
    }
    readers.known = false;
  }

private:
  /// Adds the readers of what `loop` carries in `argument`: in the body
  /// and after the loop.
  void collectCarried(scf::ForOp loop, BlockArgument argument,
                      Readers &readers) {
    collect(argument, readers);
    collect(loop.getTiedLoopResult(argument), readers);
  }

  llvm::SmallPtrSet<Value, 8> visited;
};

/// The uses of `product` that the reduction engine should serve with its
/// copy: those of units other than the DPE and the reduction engine, read
/// there or wherever a loop or conditional carries the product, when no
/// reader there is the DPE itself (an accumulator it keeps).
SmallVector<OpOperand *> getRelayedUses(Value product) {
  SmallVector<OpOperand *> relayed;
  for (OpOperand &use : product.getUses()) {
    Readers readers;
    ReaderCollector().collect(use, readers);
    if (!readers.known || readers.contains(tile::Unit::DPE))
      continue;
    if (llvm::any_of(readers.units, [](tile::Unit unit) {
          return unit != tile::Unit::Reduce;
        }))
      relayed.push_back(&use);
  }
  return relayed;
}

/// The first operation that can read `product` in its block: the one after
/// the operation computing it, or the block's first for a loop-carried
/// product.
Operation *getFirstReader(Value product) {
  if (Operation *definition = product.getDefiningOp())
    return definition->getNextNode();
  return &product.getParentBlock()->front();
}

/// The reduction-engine operations that read `product`.
SmallVector<Operation *> getReduceReaders(Value product) {
  SmallVector<Operation *> readers;
  for (Operation *user : product.getUsers()) {
    auto unitOp = dyn_cast<tile::UnitOpInterface>(user);
    if (unitOp && unitOp.getUnit() == tile::Unit::Reduce &&
        !llvm::is_contained(readers, user))
      readers.push_back(user);
  }
  return readers;
}

/// The reduction-engine `readers` of the product that could run right
/// before `first` (the first operation that can read it), in program
/// order: in its block, free of memory effects (collectives stay where they
/// are), with every other operand defined before `first`.
SmallVector<Operation *> getHoistable(ArrayRef<Operation *> readers,
                                      Operation *first) {
  Block *block = first->getBlock();
  SmallVector<Operation *> hoistable;
  for (Operation *reader : readers) {
    if (reader->getBlock() != block || !isMemoryEffectFree(reader))
      continue;
    if (llvm::all_of(reader->getOperands(), [&](Value operand) {
          Operation *producer = operand.getDefiningOp();
          return !producer || producer->getBlock() != block ||
                 producer->isBeforeInBlock(first);
        }))
      hoistable.push_back(reader);
  }
  llvm::sort(hoistable, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return hoistable;
}

/// Moves the reduction engine's `hoistable` readers of `product` up to
/// where it is computed, and makes the reduction engine copy the product
/// right after them for the uses `relayed`. The reduction engine runs its
/// instructions in program order: so it reduces and copies the product as
/// soon as the DPE has it, not behind work that waits for other units (in
/// a loop that `mtia-pipeline-dots` pipelines, the row sum of this
/// iteration, which waits for the SIMD engine, while the next iteration's
/// product is ready).
void relay(Value product, ArrayRef<Operation *> hoistable,
           ArrayRef<OpOperand *> relayed) {
  Operation *next = getFirstReader(product);
  for (Operation *reader : hoistable) {
    if (reader == next)
      next = next->getNextNode();
    else
      reader->moveBefore(next);
  }
  OpBuilder builder(next);
  tile::ReduceCopyOp copy;
  for (OpOperand *use : relayed) {
    // A loop that yields the product it did not compute (the last
    // iteration of a pipelined loop passing on the scores computed ahead
    // for the next loop) carries it in a page each iteration writes: the
    // copy is made there, at the start of the body, straight into that
    // page, rather than once before the loop and then copied again into
    // the page at the yield.
    auto yield = dyn_cast<scf::YieldOp>(use->getOwner());
    auto loop = yield ? dyn_cast<scf::ForOp>(yield->getParentOp()) : nullptr;
    if (loop && loop.isDefinedOutsideOfLoop(product)) {
      OpBuilder inBody = OpBuilder::atBlockBegin(loop.getBody());
      use->set(tile::ReduceCopyOp::create(inBody, product.getLoc(), product));
      continue;
    }
    if (!copy)
      copy = tile::ReduceCopyOp::create(builder, product.getLoc(), product);
    use->set(copy.getResult());
  }
}

/// The tiles the DPE may hold: its products, and what loops and
/// conditionals carry.
SmallVector<Value> getCandidates(Operation *root) {
  SmallVector<Value> candidates;
  root->walk([&](Operation *op) {
    if (isa<tile::MatmulOp, scf::IfOp, scf::ForOp>(op))
      llvm::append_range(candidates, op->getResults());
    if (auto loop = dyn_cast<scf::ForOp>(op))
      llvm::append_range(candidates, loop.getRegionIterArgs());
  });
  return llvm::filter_to_vector(candidates, [](Value value) {
    return isa<tile::TileType>(value.getType());
  });
}

struct RelaySharedProductsPass
    : public mtia::impl::RelaySharedProductsBase<RelaySharedProductsPass> {
  void runOnOperation() override {
    for (Value candidate : getCandidates(getOperation())) {
      // Relaying changes which unit holds what the relayed uses carry, so
      // each candidate is asked anew.
      if (UnitAssignment().getOwner(candidate) != tile::Unit::DPE)
        continue;
      SmallVector<Operation *> readers = getReduceReaders(candidate);
      if (readers.empty())
        continue;
      SmallVector<OpOperand *> relayed = getRelayedUses(candidate);
      if (relayed.empty())
        continue;
      relay(candidate, getHoistable(readers, getFirstReader(candidate)),
            relayed);
    }
  }
};

} // namespace
