//===- LoopSchedule.cpp - A loop body's modulo schedule, estimated --------===//

#include "passes/Analysis/LoopSchedule.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mtia;

namespace {

enum class Unit { DPE, SIMD, Reduce };

/// What one operation keeps its unit busy for, and how long its result
/// takes to follow (the unit's latency on top).
struct UnitCost {
  Unit unit;
  double busyCycles;
  double latencyCycles;
};

/// The elements of the tensor `type`, or 0 for any other type.
int64_t getElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor.getNumElements() : 0;
}

/// The chip-wide DPE rate (TOPS) for operands of `element`.
double getDotTops(Type element, const TargetDesc &target) {
  if (element.isF32())
    return target.dpeTopsF32;
  if (element.isBF16())
    return target.dpeTopsBF16;
  if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 8)
    return target.dpeTopsI8;
  return target.dpeTopsF16;
}

/// The chip-wide SIMD rate (TOPS) for elements of `element`.
double getSimdTops(Type element, const TargetDesc &target) {
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 32;
  if (element.isF64() || element.isInteger(64))
    return target.simdTopsF64;
  if (element.isBF16())
    return target.simdTopsBF16;
  if (bits == 16)
    return target.simdTopsF16;
  if (bits <= 8)
    return target.simdTopsI8;
  return target.simdTopsF32;
}

/// Whether `op`, a `math` operation, runs on the special-function tables:
/// all but the ones the SIMD engine computes as plain arithmetic.
bool runsOnSpecialFunctionTables(Operation *op) {
  return !isa<math::FmaOp, math::AbsFOp, math::AbsIOp, math::FloorOp,
              math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp,
              math::CopySignOp>(op);
}

std::optional<UnitCost> getUnitCost(Operation *op, const TargetDesc &target) {
  if (auto dot = dyn_cast<tt::DotOp>(op)) {
    auto a = cast<RankedTensorType>(dot.getA().getType());
    int64_t macs = getElements(dot.getType()) * a.getShape().back();
    double rate =
        target.macsPerCyclePerPE(getDotTops(a.getElementType(), target));
    return UnitCost{Unit::DPE, rate > 0 ? macs / rate : 0,
                    static_cast<double>(target.dpeLatencyCycles)};
  }
  if (isa<tt::ReduceOp>(op)) {
    int64_t elements = getElements(op->getOperand(0).getType());
    double rate = target.reduceElementsPerCycle;
    return UnitCost{Unit::Reduce, rate > 0 ? elements / rate : 0,
                    static_cast<double>(target.reduceLatencyCycles)};
  }
  Dialect *dialect = op->getDialect();
  bool arithmetic =
      isa_and_nonnull<arith::ArithDialect, math::MathDialect>(dialect);
  if (!arithmetic || isa<arith::ConstantOp>(op) || op->getNumResults() != 1)
    return std::nullopt;
  Type type = op->getResult(0).getType();
  int64_t elements = getElements(type);
  if (!elements)
    return std::nullopt;
  double rate = target.simdOpsPerCyclePerPE(
      getSimdTops(cast<RankedTensorType>(type).getElementType(), target));
  if (isa<math::MathDialect>(dialect) && runsOnSpecialFunctionTables(op))
    rate *= target.sfuFraction;
  return UnitCost{Unit::SIMD, rate > 0 ? elements / rate : 0,
                  static_cast<double>(target.simdLatencyCycles)};
}

} // namespace

int64_t LoopSchedule::getStages() const {
  if (initiationInterval <= 0)
    return 1;
  return std::max<int64_t>(
      1, static_cast<int64_t>(std::ceil(criticalPath / initiationInterval)));
}

LoopSchedule
mtia::estimateLoopSchedule(Block &body, const TargetDesc &target,
                           llvm::function_ref<bool(Operation *)> isLeftOut) {
  double busy[3] = {0, 0, 0};
  // When each operation's result is ready, from the start of the iteration.
  llvm::DenseMap<Operation *, double> ready;
  double criticalPath = 0;
  for (Operation &op : body) {
    double start = 0;
    // Operands defined in the body, also through nested regions' uses.
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          if (auto it = ready.find(producer); it != ready.end())
            start = std::max(start, it->second);
    });
    // An operation with regions (a conditional, an inner loop) takes what
    // its nested operations take, one after another; the scalar operations
    // of a reduction's combine region take nothing beside the reduction.
    double cycles = 0;
    op.walk([&](Operation *nested) {
      if (isLeftOut && isLeftOut(nested))
        return;
      if (std::optional<UnitCost> cost = getUnitCost(nested, target)) {
        busy[static_cast<int>(cost->unit)] += cost->busyCycles;
        cycles += cost->busyCycles + cost->latencyCycles;
      }
    });
    ready[&op] = start + cycles;
    criticalPath = std::max(criticalPath, start + cycles);
  }
  return LoopSchedule{*std::max_element(std::begin(busy), std::end(busy)),
                      criticalPath};
}
