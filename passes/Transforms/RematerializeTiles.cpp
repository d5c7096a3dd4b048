//===- RematerializeTiles.cpp - Cheap tiles computed where they are used --===//
//
// Index and mask tiles (coordinates from `tile.iota`, offsets and bounds from
// splats and elementwise arithmetic) cost the SIMD engine one pass per
// operation of their computation, and nothing else. Keeping one costs more
// in two places, where this pass computes it again instead:
//
// - Read through a reshape (`tt.expand_dims` and `tt.reshape` become
//   `tile.reshape`, a copy on the memory-layout unit): the copy costs two
//   trips through circular buffers, from the SIMD engine to the MLU and
//   back, and waits behind whatever the MLU does before it in program order
//   (a causal attention's key coordinates `keys[None, :]` behind the
//   transpose of the next key block). A reshape keeps the row-major order
//   of the elements, and iotas, splats, constants and elementwise
//   operations do not depend on the shape beyond it, so the reshaped tile
//   is computed anew in its new shape. Rank-0 reshapes, which hand an
//   element to the control core, stay.
// - Read in a loop that does not contain it: the tile holds local memory
//   for the whole loop. Common-subexpression elimination makes such tiles
//   when it merges a computation inside a loop (the bound mask of a gather
//   that runs only when the strided transfer cannot) with an equal one
//   before it. The computation is cloned into the block of the loop that
//   reads it (once per block), and the originals go once unused.
//
// Tiles that carry anything else (data read from memory, results of other
// units) are left alone.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

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

/// Whether the SIMD engine computes `value` from iotas, splats and constants
/// only, through elementwise operations; collects those operations in
/// definition order.
bool collectRecomputable(Value value, SetVector<Operation *> &ops) {
  Operation *def = value.getDefiningOp();
  if (!def || !isa<tile::TileType>(value.getType()))
    return false;
  if (ops.contains(def))
    return true;
  if (!isa<tile::IotaOp, tile::SplatOp, tile::ConstantOp, tile::BinaryOp,
           tile::CmpIOp, tile::CmpFOp, tile::SelectOp, tile::CastOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (isa<tile::TileType>(operand.getType()) &&
        !collectRecomputable(operand, ops))
      return false;
  ops.insert(def);
  return true;
}

/// Clones `ops` (an index or mask computation, in definition order) before
/// `reshape` in the reshape's shape and returns the clone of its source, or
/// null, cloning nothing, when a constant of `ops` is not dense.
Value cloneInShape(tile::ReshapeOp reshape, const SetVector<Operation *> &ops) {
  for (Operation *op : ops)
    if (auto constant = dyn_cast<tile::ConstantOp>(op);
        constant && !isa<DenseElementsAttr>(constant.getValue()))
      return {};
  ArrayRef<int64_t> shape = cast<tile::TileType>(reshape.getType()).getShape();
  OpBuilder builder(reshape);
  IRMapping mapping;
  for (Operation *op : ops) {
    Operation *clone = builder.clone(*op, mapping);
    Value result = clone->getResult(0);
    auto type = cast<tile::TileType>(result.getType()).withShape(shape);
    result.setType(type);
    if (auto constant = dyn_cast<tile::ConstantOp>(clone))
      constant.setValueAttr(
          cast<DenseElementsAttr>(constant.getValue())
              .reshape(RankedTensorType::get(shape, type.getElementType())));
  }
  return mapping.lookup(reshape.getSource());
}

/// Computes the recomputable sources of reshapes in the reshaped shape.
void recomputeReshapes(Operation *root) {
  SmallVector<tile::ReshapeOp> reshapes;
  root->walk([&](tile::ReshapeOp reshape) { reshapes.push_back(reshape); });
  for (tile::ReshapeOp reshape : reshapes) {
    // A rank-0 reshape hands one element to the control core.
    if (cast<tile::TileType>(reshape.getType()).getRank() == 0)
      continue;
    SetVector<Operation *> ops;
    if (!collectRecomputable(reshape.getSource(), ops))
      continue;
    Value recomputed = cloneInShape(reshape, ops);
    if (!recomputed)
      continue;
    reshape.replaceAllUsesWith(recomputed);
    reshape.erase();
  }
}

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

/// Computes the recomputable tiles read in loops that do not contain them
/// in the blocks that read them.
void recomputeInLoops(Operation *root) {
  SmallVector<OpOperand *> uses;
  root->walk([&](Operation *user) {
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

struct RematerializeTilesPass
    : public mtia::impl::RematerializeTilesBase<RematerializeTilesPass> {
  void runOnOperation() override {
    recomputeReshapes(getOperation());
    recomputeInLoops(getOperation());
  }
};

} // namespace
