//===- PipelineStages.cpp - How many stages a loop is pipelined in --------===//

#include "passes/Analysis/PipelineStages.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include <algorithm>

using namespace mlir;
using namespace mtia;

LogicalResult mtia::attachNumStages(ModuleOp module, int64_t numStages,
                                    int64_t maxStages) {
  if (numStages < 1)
    return module.emitError("num_stages must be at least 1, got ") << numStages;
  if (maxStages < 0)
    return module.emitError("max-stages must be at least 0, got ") << maxStages;
  Builder builder(module.getContext());
  module->setAttr(kModuleStagesAttrName, builder.getI32IntegerAttr(numStages));
  if (maxStages != 0)
    module->setAttr(kModuleMaxStagesAttrName,
                    builder.getI32IntegerAttr(maxStages));
  return success();
}

/// The stages `loop` asks for: its own, else its module's, else Triton's
/// default.
static int64_t getRequestedStages(Operation *loop, ModuleOp module) {
  if (auto stages = loop->getAttrOfType<IntegerAttr>(kLoopStagesAttrName))
    return stages.getInt();
  if (!module)
    return kDefaultNumStages;
  if (auto stages = module->getAttrOfType<IntegerAttr>(kModuleStagesAttrName))
    return stages.getInt();
  return kDefaultNumStages;
}

int64_t mtia::getNumStages(Operation *loop) {
  auto module = loop->getParentOfType<ModuleOp>();
  int64_t stages = std::max<int64_t>(getRequestedStages(loop, module), 1);
  if (!module)
    return stages;
  if (auto bound = module->getAttrOfType<IntegerAttr>(kModuleMaxStagesAttrName))
    return std::min(stages, std::max<int64_t>(bound.getInt(), 1));
  return stages;
}

int64_t mtia::getLoopLoadPages(Operation *loop, int64_t pageBytes) {
  int64_t fitting = kLoopLoadBytes / std::max<int64_t>(pageBytes, 1);
  int64_t latencyPages = std::clamp(fitting, kTransferPages, kLoopLoadPages);
  return std::max(latencyPages, getNumStages(loop));
}
