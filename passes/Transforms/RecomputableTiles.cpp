//===- RecomputableTiles.cpp - Tiles the SIMD engine can compute anew -----===//
//
// The test that `mtia-rematerialize-tiles` and `mtia-recompute-reshaped-tiles`
// share (RecomputableTiles.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/RecomputableTiles.h"

#include "dialects/Tile/TileDialect.h"

using namespace mlir;
using namespace mtia;

bool mtia::collectRecomputable(Value value, SetVector<Operation *> &ops) {
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
