//===- NarrowMaskedDimensions.cpp - Blocks cut to what their masks allow --===//
//
// Triton's blocks have power-of-two sizes, so a dimension that is not one (a
// head dimension of 80, 96 or 112; a hidden size of 768 in blocks of 1024)
// is padded: `tl.arange(0, BLOCK_D)` with `BLOCK_D = next_power_of_2(D)`,
// and every load and store masked by `offs_d < D`. The padding costs the
// units as much as the data: a dot over 128 columns of which 80 hold data
// takes the DPE 128 columns' time.
//
// This pass narrows such a dimension to its bound when the kernel never
// looks at the padding: every load and store along the axis (the class of
// tensor dimensions the operations keep in step, passes/Analysis/
// AxisAnalysis.h) is masked by a comparison of the axis's range with a
// constant, nothing scans over it, a reduction over it combines padding
// that holds the combine's neutral element (the zeros a load puts there for
// a sum, the -inf a select puts there for a maximum), and a dot that
// contracts over it multiplies operands that are zero past the bound (loaded
// or selected so)
// (so the padding adds nothing to its sums). The axes a dot contracts together
// are narrowed together, to the largest of their bounds. Every tensor on the
// axis then has the bound's length there: the ranges end at it, splat constants
// are resized, and the comparisons that bounded the masks hold everywhere.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/AxisAnalysis.h"
#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

namespace mtia {
#define GEN_PASS_DEF_NARROWMASKEDDIMENSIONS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The integer every element of `value` holds, if it is a constant.
std::optional<int64_t> getSplatInteger(Value value) {
  if (auto splat = value.getDefiningOp<tt::SplatOp>())
    value = splat.getSrc();
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant.getSExtValue();
}

/// The range from 0 that `value` is, seen through new and broadcast
/// dimensions.
tt::MakeRangeOp getRangeFromZero(Value value) {
  while (Operation *producer = value.getDefiningOp()) {
    if (auto range = dyn_cast<tt::MakeRangeOp>(producer))
      return range.getStart() == 0 ? range : nullptr;
    if (!isa<tt::BroadcastOp, tt::ExpandDimsOp>(producer))
      return nullptr;
    value = producer->getOperand(0);
  }
  return nullptr;
}

/// A comparison that bounds a mask: the range it compares, on the axis, is
/// below `bound`.
struct Bound {
  arith::CmpIOp comparison;
  tt::MakeRangeOp range;
  int64_t bound;
};

/// The comparisons that bound `mask` along `axis`: conjuncts of the mask
/// that compare the axis's range from 0 with a constant. Empty when the
/// mask does not bound the axis.
SmallVector<Bound> getBounds(Value mask, unsigned axis,
                             const AxisAnalysis &axes) {
  if (!axes.getDimOnAxis(mask, axis))
    return {};
  Operation *producer = mask.getDefiningOp();
  if (!producer)
    return {};
  if (isa<tt::BroadcastOp, tt::ExpandDimsOp>(producer))
    return getBounds(producer->getOperand(0), axis, axes);
  if (auto conjunction = dyn_cast<arith::AndIOp>(producer)) {
    SmallVector<Bound> bounds = getBounds(conjunction.getLhs(), axis, axes);
    llvm::append_range(bounds, getBounds(conjunction.getRhs(), axis, axes));
    return bounds;
  }
  auto comparison = dyn_cast<arith::CmpIOp>(producer);
  if (!comparison)
    return {};
  Value index = comparison.getLhs(), limit = comparison.getRhs();
  switch (comparison.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    std::swap(index, limit);
    break;
  default:
    return {};
  }
  tt::MakeRangeOp range = getRangeFromZero(index);
  std::optional<int64_t> bound = getSplatInteger(limit);
  if (!range || !bound || *bound < 1 ||
      !axes.getDimOnAxis(range.getResult(), axis))
    return {};
  return {Bound{comparison, range, *bound}};
}

/// Whether `function` compares a range from 0 with a constant below its
/// end: the only masks that can bound an axis.
bool hasConstantRangeBounds(tt::FuncOp function) {
  WalkResult result = function.walk([](arith::CmpIOp comparison) {
    for (auto [index, limit] :
         {std::pair(comparison.getLhs(), comparison.getRhs()),
          std::pair(comparison.getRhs(), comparison.getLhs())}) {
      tt::MakeRangeOp range = getRangeFromZero(index);
      std::optional<int64_t> bound = getSplatInteger(limit);
      if (range && bound && *bound < range.getEnd())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The constant that every element of `value` past the bound of `axis`
/// holds, if it is known: what a load puts there (`other`), what a select on
/// the bounding mask picks there, a splat constant's value, seen through
/// layout changes and conversions between float types (which keep zeros,
/// ones and infinities).
std::optional<TypedAttr> getPadding(Value value, unsigned axis,
                                    const AxisAnalysis &axes) {
  if (auto splat = value.getDefiningOp<tt::SplatOp>())
    return getPadding(splat.getSrc(), axis, axes);
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant))) {
    if (auto splat = dyn_cast<SplatElementsAttr>(constant))
      return splat.getSplatValue<TypedAttr>();
    if (auto scalar = dyn_cast<TypedAttr>(constant))
      return scalar;
    return std::nullopt;
  }
  Operation *producer = value.getDefiningOp();
  if (auto load = dyn_cast_or_null<tt::LoadOp>(producer)) {
    if (!load.getOther() || getBounds(load.getMask(), axis, axes).empty())
      return std::nullopt;
    return getPadding(load.getOther(), axis, axes);
  }
  if (auto select = dyn_cast_or_null<arith::SelectOp>(producer)) {
    if (getBounds(select.getCondition(), axis, axes).empty())
      return std::nullopt;
    return getPadding(select.getFalseValue(), axis, axes);
  }
  if (isa_and_nonnull<tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp,
                      tt::FpToFpOp, arith::ExtFOp, arith::TruncFOp>(producer) &&
      axes.getDimOnAxis(producer->getOperand(0), axis))
    return getPadding(producer->getOperand(0), axis, axes);
  return std::nullopt;
}

/// Whether `value`, past the bound of `axis`, is zero: a dot over the axis
/// then adds nothing for the padding.
bool isZeroPadded(Value value, unsigned axis, const AxisAnalysis &axes) {
  std::optional<TypedAttr> padding = getPadding(value, axis, axes);
  if (!padding)
    return false;
  if (auto number = dyn_cast<FloatAttr>(*padding))
    return number.getValue().isZero();
  auto integer = dyn_cast<IntegerAttr>(*padding);
  return integer && integer.getValue().isZero();
}

/// Whether `padding` leaves any other operand of `combine` as it is: zero
/// for sums and disjunctions, one for products, the lowest value for
/// maxima and the highest for minima.
bool isNeutral(Operation &combine, TypedAttr padding) {
  if (auto number = dyn_cast<FloatAttr>(padding)) {
    const APFloat &value = number.getValue();
    if (isa<arith::AddFOp>(combine))
      return value.isZero();
    if (isa<arith::MulFOp>(combine))
      return value.isExactlyValue(1.0);
    if (isa<arith::MaxNumFOp, arith::MaximumFOp>(combine))
      return value.isInfinity() && value.isNegative();
    if (isa<arith::MinNumFOp, arith::MinimumFOp>(combine))
      return value.isInfinity() && !value.isNegative();
    return false;
  }
  auto integer = dyn_cast<IntegerAttr>(padding);
  if (!integer)
    return false;
  const APInt &value = integer.getValue();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(combine))
    return value.isZero();
  if (isa<arith::MulIOp>(combine))
    return value.isOne();
  if (isa<arith::AndIOp, arith::MinUIOp>(combine))
    return value.isAllOnes();
  if (isa<arith::MaxSIOp>(combine))
    return value.isMinSignedValue();
  if (isa<arith::MinSIOp>(combine))
    return value.isMaxSignedValue();
  return false;
}

/// Whether `reduce`, over `axis`, gives what it gives without the padding:
/// one operand, combined by one arithmetic operation of its two arguments,
/// and a padding that this operation leaves the other operand alone with.
bool reducesPaddingAway(tt::ReduceOp reduce, unsigned axis,
                        const AxisAnalysis &axes) {
  if (reduce.getSrcs().size() != 1)
    return false;
  Block &combine = reduce.getCombineOp().front();
  if (!llvm::hasSingleElement(combine.without_terminator()))
    return false;
  Operation &op = combine.front();
  if (op.getNumOperands() != 2 ||
      !llvm::all_of(op.getOperands(), [&](Value operand) {
        return isa<BlockArgument>(operand) &&
               cast<BlockArgument>(operand).getOwner() == &combine;
      }))
    return false;
  std::optional<TypedAttr> padding =
      getPadding(reduce.getSrcs().front(), axis, axes);
  return padding && isNeutral(op, *padding);
}

/// Whether `op`, which has tensors on an axis, computes each element from
/// the same elements of its operands, or moves dimensions without mixing
/// them, or carries them: what the narrowing needs no more than new types
/// for.
bool keepsElementsApart(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return !isa<arith::ConstantOp>(op) ||
           isa<SplatElementsAttr>(cast<arith::ConstantOp>(op).getValue());
  return isa<tt::MakeRangeOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp,
             tt::TransOp, tt::AddPtrOp, tt::FpToFpOp, tt::BitcastOp,
             tt::IntToPtrOp, tt::PtrToIntOp, tt::ClampFOp, tt::PreciseSqrtOp,
             tt::PreciseDivFOp, tt::MulhiUIOp, tt::ExternElementwiseOp,
             scf::ForOp, scf::IfOp, scf::YieldOp>(op);
}

/// An axis the kernel may be narrowed along, and to what.
struct Narrowing {
  /// The largest bound of the masks of the axis's loads and stores.
  int64_t bound = 0;
  /// The axes that dots contract together with this one.
  SmallVector<unsigned> contractedWith;
  /// The comparisons that bound the masks.
  SmallVector<Bound> bounds;
};

/// How the kernel `function` may be narrowed along `axis` of `length`, if
/// it may: see the file comment.
std::optional<Narrowing> getNarrowing(tt::FuncOp function, unsigned axis,
                                      int64_t length,
                                      const AxisAnalysis &axes) {
  Narrowing narrowing;
  auto boundedBy = [&](Value mask) {
    SmallVector<Bound> bounds =
        mask ? getBounds(mask, axis, axes) : SmallVector<Bound>();
    if (bounds.empty())
      return false;
    for (const Bound &bound : bounds)
      narrowing.bound = std::max(narrowing.bound, bound.bound);
    llvm::append_range(narrowing.bounds, bounds);
    return true;
  };
  WalkResult result = function.walk([&](Operation *op) {
    bool touches = false;
    for (Value operand : op->getOperands())
      touches |= axes.getDimOnAxis(operand, axis).has_value();
    for (Value value : op->getResults())
      touches |= axes.getDimOnAxis(value, axis).has_value();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value argument : block.getArguments())
          touches |= axes.getDimOnAxis(argument, axis).has_value();
    if (!touches)
      return WalkResult::advance();
    // A tensor with two dimensions on the axis pairs them (an outer
    // product of the axis with itself).
    auto twice = [&](Value value) {
      RankedTensorType type = getTensorType(value);
      if (!type)
        return false;
      int count = 0;
      for (unsigned dim = 0; dim < type.getRank(); ++dim)
        count += axes.getAxis(value, dim) == axis;
      return count > 1;
    };
    if (llvm::any_of(op->getResults(), twice))
      return WalkResult::interrupt();
    if (auto load = dyn_cast<tt::LoadOp>(op))
      return boundedBy(load.getMask()) ? WalkResult::advance()
                                       : WalkResult::interrupt();
    if (auto store = dyn_cast<tt::StoreOp>(op))
      return boundedBy(store.getMask()) ? WalkResult::advance()
                                        : WalkResult::interrupt();
    if (auto range = dyn_cast<tt::MakeRangeOp>(op))
      return range.getStart() == 0 ? WalkResult::advance()
                                   : WalkResult::interrupt();
    if (auto reduce = dyn_cast<tt::ReduceOp>(op))
      return axes.getAxis(reduce.getSrcs().front(), reduce.getAxis()) != axis ||
                     reducesPaddingAway(reduce, axis, axes)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (auto dot = dyn_cast<tt::DotOp>(op)) {
      unsigned rank = getTensorType(dot.getD()).getRank();
      std::optional<unsigned> contractedA = axes.getAxis(dot.getA(), rank - 1);
      std::optional<unsigned> contractedB = axes.getAxis(dot.getB(), rank - 2);
      if (contractedA != axis && contractedB != axis)
        return WalkResult::advance();
      if (!contractedA || !contractedB ||
          !isZeroPadded(dot.getA(), *contractedA, axes) ||
          !isZeroPadded(dot.getB(), *contractedB, axes))
        return WalkResult::interrupt();
      narrowing.contractedWith.push_back(contractedA == axis ? *contractedB
                                                             : *contractedA);
      return WalkResult::advance();
    }
    if (isa<tt::ReduceReturnOp>(op) || keepsElementsApart(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted() || narrowing.bound == 0 ||
      narrowing.bound >= length)
    return std::nullopt;
  return narrowing;
}

/// Gives every tensor of `function` with a dimension on an axis of
/// `lengths` that length there, and the ranges, splat constants and
/// bounding comparisons of those axes what follows from it.
void narrow(tt::FuncOp function, const AxisAnalysis &axes,
            const llvm::DenseMap<unsigned, int64_t> &lengths,
            ArrayRef<Bound> bounds) {
  auto retype = [&](Value value) {
    RankedTensorType type = getTensorType(value);
    if (!type)
      return;
    SmallVector<int64_t> shape(type.getShape());
    bool changed = false;
    for (unsigned dim = 0; dim < type.getRank(); ++dim)
      if (std::optional<unsigned> axis = axes.getAxis(value, dim))
        if (auto it = lengths.find(*axis); it != lengths.end()) {
          shape[dim] = it->second;
          changed = true;
        }
    if (changed)
      value.setType(type.clone(shape));
  };
  function.walk([&](Operation *op) { forEachDefinedValue(op, retype); });
  function.walk([&](Operation *op) {
    if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
      auto type = cast<RankedTensorType>(range.getType());
      range.setEndAttr(
          IntegerAttr::get(range.getEndAttr().getType(), type.getDimSize(0)));
      return;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
          splat && splat.getType() != constant.getType())
        constant.setValueAttr(
            splat.resizeSplat(cast<ShapedType>(constant.getType())));
  });
  // The comparisons that bounded the masks now hold for the whole range.
  llvm::SmallPtrSet<Operation *, 8> replaced;
  for (Bound bound : bounds) {
    if (!replaced.insert(bound.comparison).second)
      continue;
    auto type = cast<RankedTensorType>(bound.range.getType());
    if (type.getDimSize(0) > bound.bound)
      continue;
    OpBuilder builder(bound.comparison);
    auto resultType = cast<ShapedType>(bound.comparison.getType());
    Value always =
        arith::ConstantOp::create(builder, bound.comparison.getLoc(),
                                  DenseElementsAttr::get(resultType, true));
    bound.comparison.replaceAllUsesWith(always);
    bound.comparison.erase();
  }
}

struct NarrowMaskedDimensionsPass
    : public mtia::impl::NarrowMaskedDimensionsBase<
          NarrowMaskedDimensionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](tt::FuncOp function) {
      if (!hasConstantRangeBounds(function))
        return;
      // Each use of an index gets its own computation, so that a range
      // that common-subexpression elimination shares between two axes
      // (the rows and the columns of blocks of one size) ties neither to
      // the other; they are shared again at the end.
      separateIndexUses(function);
      narrowFunction(function);
      DominanceInfo dominance(function);
      eliminateCommonSubExpressions(rewriter, dominance, function);
    });
  }

  void narrowFunction(tt::FuncOp function) {
    AxisAnalysis axes(function);
    if (axes.hasOpaqueOperations())
      return;
    // The axes of the ranges from 0, with their lengths: a mask bounds an
    // axis only by comparing such a range.
    llvm::DenseMap<unsigned, int64_t> axisLengths;
    function.walk([&](tt::MakeRangeOp range) {
      if (range.getStart() != 0)
        return;
      if (std::optional<unsigned> axis = axes.getAxis(range.getResult(), 0))
        axisLengths.try_emplace(*axis, range.getEnd());
    });
    llvm::DenseMap<unsigned, Narrowing> narrowings;
    for (auto [axis, length] : axisLengths)
      if (std::optional<Narrowing> narrowing =
              getNarrowing(function, axis, length, axes))
        narrowings.try_emplace(axis, std::move(*narrowing));
    // Axes a dot contracts together take one length: the largest of
    // their bounds, if all of them may be narrowed.
    llvm::EquivalenceClasses<unsigned> contracted;
    for (auto &[axis, narrowing] : narrowings) {
      contracted.insert(axis);
      for (unsigned other : narrowing.contractedWith)
        contracted.unionSets(axis, other);
    }
    llvm::DenseMap<unsigned, int64_t> lengths;
    SmallVector<Bound> bounds;
    for (const auto *leader : contracted) {
      if (!leader->isLeader())
        continue;
      SmallVector<unsigned> members(contracted.member_begin(*leader),
                                    contracted.member_end());
      if (!llvm::all_of(members,
                        [&](unsigned axis) { return narrowings.count(axis); }))
        continue;
      int64_t bound = 0;
      for (unsigned axis : members)
        bound = std::max(bound, narrowings.lookup(axis).bound);
      for (unsigned axis : members) {
        lengths[axis] = bound;
        llvm::append_range(bounds, narrowings.lookup(axis).bounds);
      }
    }
    if (!lengths.empty())
      narrow(function, axes, lengths, bounds);
  }
};

} // namespace
