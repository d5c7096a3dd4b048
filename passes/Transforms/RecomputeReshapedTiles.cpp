//===- RecomputeReshapedTiles.cpp - Index tiles computed in their new shape ===//
//
// `tt.expand_dims` and `tt.reshape` become `tile.reshape`, a copy on the
// memory-layout unit. For an index or mask tile (a causal attention's key
// coordinates `keys[None, :]`, compared with the sequence length) that copy
// costs two trips through circular buffers, from the SIMD engine to the MLU
// and back, and it waits behind whatever the MLU does before it in program
// order (the transpose of the next key block). A reshape keeps the row-major
// order of the elements, and iotas, splats, constants and elementwise
// operations do not depend on the shape beyond it, so this pass computes the
// reshaped tile anew in its new shape on the SIMD engine instead.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Transforms/RecomputableTiles.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"

namespace mtia {
#define GEN_PASS_DEF_RECOMPUTERESHAPEDTILES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Clones `ops` (an index or mask computation, in definition order) before
/// `reshape` in the reshape's shape and returns the clone of its source, or
/// null, cloning nothing, when a constant of `ops` is not dense.
Value cloneInShape(tile::ReshapeOp reshape, const SetVector<Operation *> &ops) {
  for (Operation *op : ops)
    if (auto constant = dyn_cast<tile::ConstantOp>(op);
        constant && !isa<DenseElementsAttr>(constant.getValue()))
      return {};
  ArrayRef<int64_t> shape =
      cast<tile::TileType>(reshape.getType()).getShape();
  OpBuilder builder(reshape);
  IRMapping mapping;
  for (Operation *op : ops) {
    Operation *clone = builder.clone(*op, mapping);
    Value result = clone->getResult(0);
    auto type = cast<tile::TileType>(result.getType()).withShape(shape);
    result.setType(type);
    if (auto constant = dyn_cast<tile::ConstantOp>(clone))
      constant.setValueAttr(cast<DenseElementsAttr>(constant.getValue())
                                .reshape(RankedTensorType::get(
                                    shape, type.getElementType())));
  }
  return mapping.lookup(reshape.getSource());
}

struct RecomputeReshapedTilesPass
    : public mtia::impl::RecomputeReshapedTilesBase<
          RecomputeReshapedTilesPass> {
  void runOnOperation() override {
    SmallVector<tile::ReshapeOp> reshapes;
    getOperation().walk(
        [&](tile::ReshapeOp reshape) { reshapes.push_back(reshape); });
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
};

} // namespace
