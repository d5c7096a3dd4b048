//===- SubstituteInductionVariables.cpp - Carried steps as functions of iv ===//
//
// Kernels often advance pointers or offsets by a loop-invariant step in each
// iteration (`k_ptrs += BLOCK_N * stride`, `offs += BLOCK`): the loop
// carries a value that is a function of the induction variable, its initial
// value plus as many steps as iterations ran. Carried, it ties each
// iteration to the last, so passes that move work between iterations (the
// software pipelining of loops) cannot compute it for an iteration ahead,
// and the data-movement lowering must follow it through the loop. This pass
// substitutes it: in the body, the value of iteration i is
// `init + ((iv - lower) / step) * increment`, and after the loop
// `init + trips * increment`, with the pointer offsets computed in 64 bits
// (integers wrap as the carried sums did). The loop then yields the
// argument unchanged, and the loop's canonicalization patterns drop it.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mtia {
#define GEN_PASS_DEF_SUBSTITUTEINDUCTIONVARIABLES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether `value` is the same in every iteration of `loop`: defined outside
/// it, or computed in its body without memory effects from such values
/// (Triton computes `BLOCK * stride` in the body).
bool isInvariant(scf::ForOp loop, Value value) {
  if (loop.isDefinedOutsideOfLoop(value))
    return true;
  Operation *producer = value.getDefiningOp();
  return producer && producer->getBlock() == loop.getBody() &&
         producer->getNumRegions() == 0 && isMemoryEffectFree(producer) &&
         llvm::all_of(producer->getOperands(), [&](Value operand) {
           return isInvariant(loop, operand);
         });
}

/// `value`, invariant in `loop`, as a value defined before it: what the
/// body computes is computed again at `before`.
Value hoist(OpBuilder &before, scf::ForOp loop, Value value) {
  if (loop.isDefinedOutsideOfLoop(value))
    return value;
  Operation *producer = value.getDefiningOp();
  IRMapping mapping;
  for (Value operand : producer->getOperands())
    mapping.map(operand, hoist(before, loop, operand));
  Operation *copy = before.clone(*producer, mapping);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// The loop-invariant increment by which `loop` advances its iteration
/// argument `argument` in each iteration, if it does: the value it yields
/// for it is `argument` plus an invariant value.
Value getIncrement(scf::ForOp loop, BlockArgument argument) {
  Value yielded = loop.getTiedLoopYieldedValue(argument)->get();
  if (auto advance = yielded.getDefiningOp<tt::AddPtrOp>())
    if (advance.getPtr() == argument && isInvariant(loop, advance.getOffset()))
      return advance.getOffset();
  if (auto sum = yielded.getDefiningOp<arith::AddIOp>()) {
    if (sum.getLhs() == argument && isInvariant(loop, sum.getRhs()))
      return sum.getRhs();
    if (sum.getRhs() == argument && isInvariant(loop, sum.getLhs()))
      return sum.getLhs();
  }
  return nullptr;
}

/// `value` (an integer or a tensor of them) sign-extended or truncated to
/// elements of `element`.
Value castElements(OpBuilder &builder, Location loc, Value value,
                   Type element) {
  Type type = value.getType();
  unsigned from = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  unsigned to = element.getIntOrFloatBitWidth();
  if (from == to)
    return value;
  auto tensor = dyn_cast<RankedTensorType>(type);
  Type result = tensor ? Type(tensor.clone(element)) : element;
  if (from < to)
    return arith::ExtSIOp::create(builder, loc, result, value);
  return arith::TruncIOp::create(builder, loc, result, value);
}

/// A loop-invariant step, computed before the loop in the width its sums
/// take: the scalar a splat step splats (so that the scaling stays scalar
/// arithmetic), or the tensor.
Value widenStep(OpBuilder &before, Location loc, Value increment,
                Type element) {
  if (auto splat = increment.getDefiningOp<tt::SplatOp>())
    return castElements(before, loc, splat.getSrc(), element);
  SplatElementsAttr constant;
  if (matchPattern(increment, m_Constant(&constant))) {
    auto value = constant.getSplatValue<APInt>().sextOrTrunc(
        element.getIntOrFloatBitWidth());
    return arith::ConstantOp::create(before, loc,
                                     before.getIntegerAttr(element, value));
  }
  return castElements(before, loc, increment, element);
}

/// `init` advanced by `count` (a scalar) times `step` (from `widenStep`): a
/// pointer by 64-bit offsets, an integer in its own width.
Value advance(OpBuilder &builder, Location loc, Value init, Value count,
              Value step) {
  Type element = getElementTypeOrSelf(step.getType());
  Value offset = castElements(builder, loc, count, element);
  // A scalar step scales the count before it is splat, a tensor one after.
  bool scalarStep = !isa<RankedTensorType>(step.getType());
  if (scalarStep)
    offset = arith::MulIOp::create(builder, loc, offset, step);
  if (auto tensor = dyn_cast<RankedTensorType>(init.getType()))
    offset = tt::SplatOp::create(builder, loc, tensor.clone(element), offset);
  if (!scalarStep)
    offset = arith::MulIOp::create(builder, loc, offset, step);
  if (isa<tt::PointerType>(getElementTypeOrSelf(init.getType())))
    return tt::AddPtrOp::create(builder, loc, init.getType(), init, offset);
  return arith::AddIOp::create(builder, loc, init, offset);
}

/// Substitutes the values `loop` advances by invariant steps; returns
/// whether there were any.
bool substituteInductionVariables(scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound(),
        step = loop.getStep();
  Value iterations, trips;
  for (BlockArgument argument : loop.getRegionIterArgs()) {
    Value increment = getIncrement(loop, argument);
    if (!increment)
      continue;
    Value init = loop.getTiedLoopInit(argument)->get();
    if (!iterations) {
      // The iterations before this one, and how many the loop runs.
      OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
      Value span =
          arith::SubIOp::create(body, loc, loop.getInductionVar(), lower);
      iterations = arith::DivSIOp::create(body, loc, span, step);
      OpBuilder after(loop->getContext());
      after.setInsertionPointAfter(loop);
      // ceil(range / step), none for an empty range (which is all a loop
      // of a negative step runs: `scf.for` continues while iv < upper).
      Value one = arith::ConstantOp::create(
          after, loc, after.getIntegerAttr(step.getType(), 1));
      Value zero = arith::ConstantOp::create(
          after, loc, after.getIntegerAttr(step.getType(), 0));
      Value range = arith::SubIOp::create(after, loc, upper, lower);
      Value rounded = arith::AddIOp::create(
          after, loc, range, arith::SubIOp::create(after, loc, step, one));
      Value runs = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::sgt,
                                         range, zero);
      trips = arith::SelectOp::create(
          after, loc, runs, arith::DivSIOp::create(after, loc, rounded, step),
          zero);
    }
    OpBuilder before(loop);
    Type element = isa<tt::PointerType>(getElementTypeOrSelf(init.getType()))
                       ? before.getI64Type()
                       : getElementTypeOrSelf(init.getType());
    Value wideStep =
        widenStep(before, loc, hoist(before, loop, increment), element);
    OpBuilder body(loop->getContext());
    body.setInsertionPointAfter(iterations.getDefiningOp());
    Value current = advance(body, loc, init, iterations, wideStep);
    argument.replaceAllUsesWith(current);
    Value result = loop.getTiedLoopResult(argument);
    if (!result.use_empty()) {
      OpBuilder after(loop->getContext());
      after.setInsertionPointAfter(trips.getDefiningOp());
      result.replaceAllUsesWith(advance(after, loc, init, trips, wideStep));
    }
    // The loop yields the argument unchanged: its canonicalization drops it.
    loop.getTiedLoopYieldedValue(argument)->set(argument);
  }
  return iterations != nullptr;
}

struct SubstituteInductionVariablesPass
    : public mtia::impl::SubstituteInductionVariablesBase<
          SubstituteInductionVariablesPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet patterns(context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    loopPatterns =
        std::make_shared<FrozenRewritePatternSet>(std::move(patterns));
    return success();
  }

  void runOnOperation() override {
    bool substituted = false;
    getOperation().walk([&](scf::ForOp loop) {
      if (isa<IntegerType>(loop.getStep().getType()) && !loop.getUnsignedCmp())
        substituted |= substituteInductionVariables(loop);
    });
    // The loops drop the arguments they yield unchanged, and the computations
    // of the steps they no longer carry go, without a whole canonicalization.
    if (substituted)
      (void)applyPatternsGreedily(getOperation(), *loopPatterns);
  }

  std::shared_ptr<FrozenRewritePatternSet> loopPatterns;
};

} // namespace
