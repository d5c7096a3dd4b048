//===- RematerializeTiles.cpp - Recompute cheap tiles inside loops --------===//
//
// Index and mask tiles (coordinates from `tile.iota`, offsets and bounds from
// splats and elementwise arithmetic) are cheap for the SIMD engine to
// compute and expensive to keep: a tile defined before a loop and read in
// it holds local memory for the whole loop. CSE creates such tiles when it
// merges a computation inside a loop (the bound mask of a gather that runs
// only when the strided transfer cannot) with an equal one before it. This
// pass clones those computations into the block of the loop that uses them.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Transforms/RecomputableTiles.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mtia {
#define GEN_PASS_DEF_REMATERIALIZETILES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The outermost loop that contains `user` but not `def`, if any.
Operation *getOutermostLoopBetween(Operation *def, Operation *user) {
  Operation *outermost = nullptr;
  for (Operation *parent = user->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (parent->isAncestor(def))
      break;
    if (isa<scf::ForOp, scf::WhileOp>(parent))
      outermost = parent;
  }
  return outermost;
}

struct RematerializeTilesPass
    : public mtia::impl::RematerializeTilesBase<RematerializeTilesPass> {
  void runOnOperation() override {
    SmallVector<OpOperand *> uses;
    getOperation().walk([&](Operation *user) {
      for (OpOperand &use : user->getOpOperands()) {
        Operation *def = use.get().getDefiningOp();
        if (def && isa<tile::TileDialect>(def->getDialect()) &&
            getOutermostLoopBetween(def, user))
          uses.push_back(&use);
      }
    });
    // One clone per value and block of a use: the block's first use of it.
    DenseMap<std::pair<Value, Block *>, Value> clones;
    SetVector<Operation *> originals;
    for (OpOperand *use : uses) {
      Value value = use->get();
      SetVector<Operation *> ops;
      if (!collectRecomputable(value, ops))
        continue;
      Operation *user = use->getOwner();
      Value &clone = clones[{value, user->getBlock()}];
      if (!clone) {
        OpBuilder builder(user);
        IRMapping mapping;
        for (Operation *op : ops)
          builder.clone(*op, mapping);
        clone = mapping.lookup(value);
      }
      use->set(clone);
      originals.insert(ops.begin(), ops.end());
    }
    // The originals that nothing reads any more, users before definitions.
    bool erased = true;
    while (erased) {
      erased = false;
      SmallVector<Operation *> candidates = originals.takeVector();
      for (Operation *op : llvm::reverse(candidates)) {
        if (op->use_empty()) {
          op->erase();
          erased = true;
          continue;
        }
        originals.insert(op);
      }
    }
  }
};

} // namespace
