//===- LowerDataMovement.cpp - The data-movement stage --------------------===//
//
// The stage's entry, `mtia-lower-data-movement`: runs the passes of the
// data-movement stage in order on the module.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/DMA/DMADialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mtia {
#define GEN_PASS_DEF_LOWERDATAMOVEMENT
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

struct LowerDataMovementPass
    : public mtia::impl::LowerDataMovementBase<LowerDataMovementPass> {
  using LowerDataMovementBase::LowerDataMovementBase;

  void runOnOperation() override {
    OpPassManager pipeline(ModuleOp::getOperationName());
    LowerMemoryAccessesOptions lowering;
    lowering.cbMultiplier = cbMultiplier;
    ShareBuffersOptions sharing;
    sharing.reservedBuffers = reservedBuffers;
    pipeline.addPass(createLowerMemoryAccesses(lowering));
    CarryInPushedPagesOptions carrying;
    carrying.reservedBuffers = reservedBuffers;
    pipeline.addPass(createCarryInPushedPages(carrying));
    pipeline.addPass(createShareBuffers(sharing));
    pipeline.addPass(createCarryInBuffers());
    pipeline.addPass(createReserveWhereProduced());
    pipeline.addPass(createOrderMemoryAccesses());
    pipeline.addPass(createReleaseLoopCarriedPointers());
    if (failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }
};

} // namespace
