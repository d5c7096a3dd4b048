//===- SplitMaskedLoops.cpp - Iterations whose masks hold run without them -===//
//
// A loop over blocks often selects with a mask that holds for every element
// of the block in all but its last iterations: the keys of a block are
// below the sequence length except in the last block, and below a causal
// attention's queries except in the blocks on the diagonal. Such a
// comparison `L pred R` of affine index tensors holds for the whole block
// when the extreme of `L - R` over the block does, a condition linear in the
// induction variable; where it decreases as the variable grows, it holds for
// every iteration up to a bound computed before the loop. The loop is split
// there into two loops over consecutive iterations: the first runs with the
// comparisons replaced by true (canonicalization then drops the selects and
// the `and`s they fed), the second is the loop as it was. The second loop
// needs buffers of its own, which can cost the loads' prefetch depth, so a
// loop is split only when the masks' work bounds it: when it has no loop
// inside and its estimated initiation interval without them is shorter
// (passes/Analysis/LoopSchedule.h), as in attention with 64-wide heads,
// whose softmax keeps the SIMD engine about as busy as the products keep
// the DPE; with 128-wide heads the DPE bounds it, and the masks cost
// nothing the split would save.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LoopSchedule.h"
#include "passes/Analysis/PointerAnalysis.h"
#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"
#include "passes/Transforms/LoopSplitting.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mtia {
#define GEN_PASS_DEF_SPLITMASKEDLOOPS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// A comparison in a loop that holds for the whole block while
/// `ivCoefficient * iv + rest >= 0`, with a negative coefficient and `rest`
/// invariant in the loop.
struct BlockCondition {
  arith::CmpIOp compare;
  int64_t ivCoefficient;
  LinearExpr rest;
};

/// Returns whether `mask`, an i1 tensor, decides a select, directly or
/// through `and`s and changes of shape.
bool decidesSelect(Value mask) {
  for (Operation *user : mask.getUsers()) {
    if (auto select = dyn_cast<arith::SelectOp>(user);
        select && select.getCondition() == mask)
      return true;
    if (isa<arith::AndIOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp,
            tt::ReshapeOp>(user) &&
        decidesSelect(user->getResult(0)))
      return true;
  }
  return false;
}

/// Adds to `maskOps` the operations that compute with `mask`, an i1
/// tensor that becomes true: its changes of shape, the `and`s it feeds and
/// the selects it decides, which canonicalization then drops.
void collectMaskOps(Value mask, llvm::SmallPtrSetImpl<Operation *> &maskOps) {
  for (Operation *user : mask.getUsers()) {
    if (auto select = dyn_cast<arith::SelectOp>(user)) {
      if (select.getCondition() == mask)
        maskOps.insert(select);
      continue;
    }
    if (isa<arith::AndIOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp,
            tt::ReshapeOp>(user) &&
        maskOps.insert(user).second)
      collectMaskOps(user->getResult(0), maskOps);
  }
}

/// Whether running `loop` without the comparisons of `conditions` would
/// shorten its initiation interval on `target`. A loop with loops inside
/// (the strips of a large block around a matmul's loop over K) spends its
/// time in them, as many times over as they iterate: its own masks do not
/// bound it.
bool masksBoundLoop(scf::ForOp loop, ArrayRef<BlockCondition> conditions,
                    const TargetDesc &target) {
  bool hasInnerLoops = false;
  loop.getBody()->walk([&](LoopLikeOpInterface) { hasInnerLoops = true; });
  if (hasInnerLoops)
    return false;
  llvm::SmallPtrSet<Operation *, 16> maskOps;
  for (BlockCondition condition : conditions) {
    maskOps.insert(condition.compare);
    collectMaskOps(condition.compare.getResult(), maskOps);
  }
  double masked =
      estimateLoopSchedule(*loop.getBody(), target).initiationInterval;
  double unmasked =
      estimateLoopSchedule(*loop.getBody(), target, [&](Operation *op) {
        return maskOps.contains(op);
      }).initiationInterval;
  return unmasked < masked;
}

/// Returns whether every atom of `expr` is invariant in `loop`.
bool isInvariant(const LinearExpr &expr, PointerAnalysis &analysis,
                 scf::ForOp loop) {
  for (const auto &[monomial, coefficient] : expr.getTerms())
    for (unsigned index : monomial) {
      Atom atom = analysis.getAtom(index);
      if (atom.iterationOf || loop.getBodyRegion().isAncestor(
                                  atom.value.getParentRegion()))
        return false;
    }
  return true;
}

/// The condition under which `compare`, a comparison of tensors in `loop`,
/// holds for every element, if it is linear in the induction variable and
/// holds for the iterations up to a bound.
std::optional<BlockCondition> analyzeCompare(arith::CmpIOp compare,
                                             scf::ForOp loop,
                                             PointerAnalysis &analysis) {
  auto type = dyn_cast<RankedTensorType>(compare.getLhs().getType());
  if (!type)
    return std::nullopt;
  std::optional<AffineTensor> lhs = analysis.analyzeInteger(compare.getLhs());
  if (!lhs || !lhs->assumptions.empty())
    return std::nullopt;
  std::optional<AffineTensor> rhs = analysis.analyzeInteger(compare.getRhs());
  if (!rhs || !rhs->assumptions.empty())
    return std::nullopt;
  // The difference lhs - rhs = offset + sum_d stride_d * i_d over the block,
  // and its largest and smallest elements.
  LinearExpr largest = lhs->offset - rhs->offset;
  LinearExpr smallest = largest;
  for (auto [dim, length] : llvm::enumerate(type.getShape())) {
    std::optional<int64_t> stride =
        (lhs->strides[dim] - rhs->strides[dim]).getConstant();
    if (!stride)
      return std::nullopt;
    int64_t span = *stride * (length - 1);
    if (span > 0)
      largest = largest + LinearExpr::constant(span);
    else
      smallest = smallest + LinearExpr::constant(span);
  }
  // Each predicate as `condition >= 0`.
  LinearExpr condition;
  switch (compare.getPredicate()) {
  case arith::CmpIPredicate::slt:
    condition = LinearExpr::constant(-1) - largest;
    break;
  case arith::CmpIPredicate::sle:
    condition = LinearExpr() - largest;
    break;
  case arith::CmpIPredicate::sgt:
    condition = smallest - LinearExpr::constant(1);
    break;
  case arith::CmpIPredicate::sge:
    condition = smallest;
    break;
  default:
    return std::nullopt;
  }
  // condition = coefficient * iv + rest, with iv in no other term.
  unsigned iv = analysis.analyzeScalar(loop.getInductionVar())
                    .getTerms()
                    .front()
                    .first.front();
  BlockCondition result{compare, 0, LinearExpr()};
  for (const auto &[monomial, coefficient] : condition.getTerms()) {
    if (llvm::is_contained(monomial, iv)) {
      if (monomial.size() != 1)
        return std::nullopt;
      result.ivCoefficient = coefficient;
      continue;
    }
    LinearExpr term = LinearExpr::constant(coefficient);
    for (unsigned index : monomial)
      term = term * LinearExpr::atom(index);
    result.rest = result.rest + term;
  }
  if (result.ivCoefficient >= 0 || !isInvariant(result.rest, analysis, loop))
    return std::nullopt;
  return result;
}

/// Replaces `mask`, an i1 tensor, by a constant true, and so the changes
/// of shape of it (which have no folders), so that canonicalization drops
/// the `and`s and selects it decides.
void replaceByTrue(Value mask) {
  for (Operation *user : llvm::make_early_inc_range(mask.getUsers()))
    if (isa<tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp, tt::ReshapeOp>(
            user))
      replaceByTrue(user->getResult(0));
  OpBuilder builder(mask.getContext());
  builder.setInsertionPointAfterValue(mask);
  auto type = cast<RankedTensorType>(mask.getType());
  Value allTrue = arith::ConstantOp::create(
      builder, mask.getLoc(),
      DenseElementsAttr::get(type, builder.getBoolAttr(true)));
  mask.replaceAllUsesWith(allTrue);
  mask.getDefiningOp()->erase();
}

/// Returns `value` (an integer) as i64.
Value toI64(OpBuilder &builder, Location loc, Value value) {
  Type i64 = builder.getI64Type();
  if (value.getType() == i64)
    return value;
  return arith::ExtSIOp::create(builder, loc, i64, value);
}

/// Splits `loop` where the first of `conditions` stops holding: the
/// iterations before run the loop with the comparisons true, the rest a
/// copy of it as it was.
void splitLoop(scf::ForOp loop, int64_t step,
               ArrayRef<BlockCondition> conditions, PointerAnalysis &analysis) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i64, value);
  };
  Value lower = toI64(builder, loc, loop.getLowerBound());
  Value upper = toI64(builder, loc, loop.getUpperBound());
  // A condition `c * iv + rest >= 0` (c < 0) holds in iteration k, where
  // iv = lower + k * step, while k <= (rest + c * lower) / (-c * step): in
  // the first (rest + c * lower) / (-c * step) + 1 iterations if the
  // numerator is not negative, in none otherwise. The divisor is a positive
  // constant, so truncating division is floor division here.
  Value count;
  for (const BlockCondition &condition : conditions) {
    Value rest = analysis.materialize(condition.rest, builder, loc, i64);
    Value numerator = arith::AddIOp::create(
        builder, loc, rest,
        arith::MulIOp::create(builder, loc, lower,
                              constant(condition.ivCoefficient)));
    Value iterations = arith::AddIOp::create(
        builder, loc,
        arith::DivSIOp::create(builder, loc, numerator,
                               constant(-condition.ivCoefficient * step)),
        constant(1));
    Value reached = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, numerator, constant(0));
    iterations =
        arith::SelectOp::create(builder, loc, reached, iterations, constant(0));
    count = count ? arith::MinSIOp::create(builder, loc, count, iterations)
                  : iterations;
  }
  Value split = arith::AddIOp::create(
      builder, loc, lower,
      arith::MulIOp::create(builder, loc, count, constant(step)));
  split = arith::MinSIOp::create(builder, loc, split, upper);
  if (split.getType() != loop.getUpperBound().getType())
    split = arith::TruncIOp::create(builder, loc,
                                    loop.getUpperBound().getType(), split);

  IRMapping mapping;
  splitLoopAt(builder, loop, split, mapping);
  for (BlockCondition condition : conditions)
    replaceByTrue(condition.compare.getResult());
}

struct SplitMaskedLoopsPass
    : public mtia::impl::SplitMaskedLoopsBase<SplitMaskedLoopsPass> {
  void runOnOperation() override {
    FailureOr<TargetDesc> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (!isa<IntegerType>(loop.getInductionVar().getType()) ||
          loop.getUnsignedCmp())
        continue;
      APInt step;
      if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
          !step.isStrictlyPositive())
        continue;
      PointerAnalysis analysis;
      SmallVector<BlockCondition> conditions;
      loop.getBody()->walk([&](arith::CmpIOp compare) {
        if (!decidesSelect(compare.getResult()))
          return;
        if (std::optional<BlockCondition> condition =
                analyzeCompare(compare, loop, analysis))
          conditions.push_back(*condition);
      });
      if (!conditions.empty() && masksBoundLoop(loop, conditions, *target))
        splitLoop(loop, step.getSExtValue(), conditions, analysis);
    }
  }
};

} // namespace
