//===- PipelineStages.cpp - How many stages a loop is pipelined in --------===//

#include "passes/Analysis/PipelineStages.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include <algorithm>

using namespace mlir;
using namespace mtia;

LogicalResult mtia::attachNumStages(ModuleOp module, int64_t numStages) {
  if (numStages < 1)
    return module.emitError("num_stages must be at least 1, got ") << numStages;
  module->setAttr(kModuleStagesAttrName,
                  Builder(module.getContext()).getI32IntegerAttr(numStages));
  return success();
}

int64_t mtia::getNumStages(Operation *loop) {
  if (auto stages = loop->getAttrOfType<IntegerAttr>(kLoopStagesAttrName))
    return std::max<int64_t>(stages.getInt(), 1);
  auto module = loop->getParentOfType<ModuleOp>();
  if (!module)
    return kDefaultNumStages;
  if (auto stages = module->getAttrOfType<IntegerAttr>(kModuleStagesAttrName))
    return std::max<int64_t>(stages.getInt(), 1);
  return kDefaultNumStages;
}

int64_t mtia::getLoopLoadPages(Operation *loop, int64_t pageBytes) {
  int64_t fitting = kLoopLoadBytes / std::max<int64_t>(pageBytes, 1);
  int64_t latencyPages = std::clamp(fitting, kTransferPages, kLoopLoadPages);
  return std::max(latencyPages, getNumStages(loop));
}
