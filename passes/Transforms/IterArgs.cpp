//===- IterArgs.cpp - Iteration arguments a loop no longer needs ----------===//

#include "passes/Transforms/IterArgs.h"

using namespace mlir;

void mtia::dropIterArgs(RewriterBase &rewriter, scf::ForOp loop,
                        const llvm::SmallBitVector &dropped) {
  SmallVector<Value> inits;
  for (auto [index, init] : llvm::enumerate(loop.getInitArgs()))
    if (!dropped.test(index))
      inits.push_back(init);
  rewriter.setInsertionPoint(loop);
  auto newLoop = scf::ForOp::create(
      rewriter, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits, /*bodyBuilder=*/nullptr, loop.getUnsignedCmp());
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *oldBody = loop.getBody();
  Block *newBody = newLoop.getBody();
  // The old body's arguments: the induction variable, then the iteration
  // arguments kept, in order; the dropped ones are unused.
  SmallVector<Value> replacements = {newLoop.getInductionVar()};
  unsigned kept = 0;
  for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index)
    replacements.push_back(dropped.test(index)
                               ? Value()
                               : newLoop.getRegionIterArg(kept++));
  if (!newBody->empty())
    rewriter.eraseOp(newBody->getTerminator());
  rewriter.mergeBlocks(oldBody, newBody, replacements);
  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  SmallVector<Value> yielded;
  for (auto [index, value] : llvm::enumerate(yield.getOperands()))
    if (!dropped.test(index))
      yielded.push_back(value);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yielded);
  kept = 0;
  for (unsigned index = 0; index < loop.getNumResults(); ++index)
    if (!dropped.test(index))
      rewriter.replaceAllUsesWith(loop.getResult(index),
                                  newLoop.getResult(kept++));
  rewriter.eraseOp(loop);
}
