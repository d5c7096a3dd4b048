//===- LastUse.cpp - Where a tile stops being used ------------------------===//

#include "passes/Analysis/LastUse.h"

#include "dialects/Tile/TileDialect.h"

using namespace mlir;

Operation *mtia::findLastUse(Value tileValue, Block *block) {
  Operation *last = nullptr;
  auto consider = [&](Operation *user) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
      last = ancestor;
  };
  for (Operation *user : tileValue.getUsers()) {
    consider(user);
    // Elementwise SIMD operations read the source of a splat or broadcast
    // through it (the program stage folds the two).
    if (isa<tile::SplatElementOp, tile::BroadcastOp>(user))
      for (Operation *reader : user->getResult(0).getUsers())
        consider(reader);
  }
  return last;
}
