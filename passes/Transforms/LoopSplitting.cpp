//===- LoopSplitting.cpp - One loop split into two ------------------------===//

#include "passes/Transforms/LoopSplitting.h"

using namespace mlir;

scf::ForOp mtia::splitLoopAt(OpBuilder &builder, scf::ForOp loop, Value point,
                             IRMapping &mapping) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfter(loop);
  auto rest = cast<scf::ForOp>(builder.clone(*loop, mapping));
  rest.getLowerBoundMutable().assign(point);
  rest.getInitArgsMutable().assign(loop.getResults());
  for (auto [result, restResult] :
       llvm::zip_equal(loop.getResults(), rest.getResults()))
    result.replaceUsesWithIf(restResult, [&](OpOperand &use) {
      return use.getOwner() != rest;
    });
  loop.getUpperBoundMutable().assign(point);
  return rest;
}
