//===- LastUse.cpp - Where a tile stops being used ------------------------===//

#include "passes/Analysis/LastUse.h"

#include "dialects/Tile/TileDialect.h"

using namespace mlir;

SmallVector<Operation *> mtia::getTileReaders(Value tileValue) {
  SmallVector<Operation *> readers;
  for (Operation *user : tileValue.getUsers()) {
    readers.push_back(user);
    // Elementwise SIMD operations read the source of a splat or broadcast
    // through it (the program stage folds the two).
    if (isa<tile::SplatElementOp, tile::BroadcastOp>(user))
      llvm::append_range(readers, user->getResult(0).getUsers());
  }
  return readers;
}

Operation *mtia::findLastUse(Value tileValue, Block *block) {
  Operation *last = nullptr;
  for (Operation *reader : getTileReaders(tileValue)) {
    Operation *ancestor = block->findAncestorOpInBlock(*reader);
    if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
      last = ancestor;
  }
  return last;
}
