//===- StripMineBlocks.cpp - Blocks larger than local memory in strips ----===//
//
// A program whose block is larger than a PE's local memory computes it in
// strips along the axes of the block (AxisSplit.cpp: what can run in strips,
// and how). This pass decides whether a kernel runs in strips, along which
// axes (one after another, or two together in tiles) and in strips of which
// size, from the estimated peak of the data live at once. Blocks that no
// axis could split go another way first: a descriptor's block through
// pointers (DescriptorAccesses.cpp), a reshape's, a concatenation's or a
// gather's through scratch memory (ScratchSpills.cpp). A kernel that no
// split fits (every axis reduced, as in `tl.sort`'s network) runs its work
// through scratch memory instead, in loops over flat strips.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/AxisAnalysis.h"
#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"
#include "passes/Transforms/AxisSplit.h"
#include "passes/Transforms/DescriptorAccesses.h"
#include "passes/Transforms/ScratchSpills.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Transforms/CSE.h"

#include <limits>

namespace mtia {
#define GEN_PASS_DEF_STRIPMINEBLOCKS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// How a kernel runs in strips of one axis, or in tiles of two.
struct StripPlan {
  SmallVector<unsigned> axes;
  SmallVector<int64_t> stripSizes;
  bool reduces;
};

/// Returns the innermost block of `function` that holds every reduction and
/// scan over `splitAxes` and every effect on them, where the strips run.
Block &findHomeBlock(tt::FuncOp function, const AxisAnalysis &axes,
                     ArrayRef<unsigned> splitAxes) {
  SmallVector<Operation *> anchors;
  for (unsigned axis : splitAxes) {
    llvm::append_range(anchors, axes.getReductions(axis));
    llvm::append_range(anchors, axes.getScans(axis));
  }
  function.walk([&](Operation *op) {
    if (op->getNumRegions() == 0 && hasSideEffects(op) &&
        llvm::any_of(splitAxes,
                     [&](unsigned axis) { return axes.touchesAxis(op, axis); }))
      anchors.push_back(op);
  });
  Block &kernelBody = function.getBody().front();
  if (anchors.empty())
    return kernelBody;
  for (Block *block = anchors.front()->getBlock(); block != &kernelBody;
       block = block->getParentOp()->getBlock())
    if (llvm::all_of(anchors, [&](Operation *anchor) {
          return block->findAncestorOpInBlock(*anchor) != nullptr;
        }))
      return *block;
  return kernelBody;
}

/// Returns the next strip below `strip` on an axis of `length`: the largest
/// power of two dividing the length below it, halved from there on.
int64_t getSmallerStrip(int64_t strip, int64_t length) {
  int64_t divisor = length & -length;
  return strip == length && divisor != length ? divisor : strip / 2;
}

/// Returns the largest strip, a power of two dividing `length` below it,
/// whose estimated peak fits `budget`. When none does, because what other
/// axes hold meanwhile exceeds it (until their own strips), the strips'
/// data fit `budget` on top of that.
int64_t chooseStripSize(const AxisSplit &split, int64_t length,
                        int64_t budget) {
  int64_t floor = split.estimatePeakBytes({1}, false);
  int64_t limit = floor > budget ? floor + budget : budget;
  int64_t strip = getSmallerStrip(length, length);
  while (strip > 1 && split.estimatePeakBytes({strip}, false) > limit)
    strip /= 2;
  return strip;
}

/// Returns how `function` runs in strips when its data's estimated peak
/// (with `countPrefetch`, with the pages its loops' loads prefetch) exceeds
/// `trigger` bytes. Of the axes that can be split, the best is the
/// one whose strips fit `budget`, without reductions over it (one loop runs
/// the kernel once) and with the largest strip; or else the one that brings
/// the peak lowest. With `jointAxes`, or when no axis alone fits `budget`,
/// the two best axes without reductions or scans over them are split
/// together into tiles, the larger strip halved until the tiles fit.
std::optional<StripPlan> planStrips(tt::FuncOp function,
                                    const AxisAnalysis &axes, int64_t trigger,
                                    int64_t budget, bool countPrefetch,
                                    bool jointAxes) {
  SmallVector<std::pair<StripPlan, int64_t>> candidates;
  for (unsigned axis : axes.getSplittableAxes()) {
    AxisSplit split(function, findHomeBlock(function, axes, axis), axes,
                    {axis});
    if (!split.isLegal() || (jointAxes && split.reduces()))
      continue;
    // An axis whose block fits as it is, with the pages its loops' loads
    // prefetch (one already in strips, or one whose own block is small),
    // needs no split.
    int64_t length = axes.getLength(axis);
    if (split.estimatePeakBytes({length}, countPrefetch) <= trigger)
      continue;
    int64_t strip = chooseStripSize(split, length, budget);
    candidates.push_back({StripPlan{{axis}, {strip}, split.reduces()},
                          split.estimatePeakBytes({strip}, false)});
  }
  llvm::stable_sort(candidates, [&](const auto &lhs, const auto &rhs) {
    const auto &[left, leftPeak] = lhs;
    const auto &[right, rightPeak] = rhs;
    bool leftFits = leftPeak <= budget, rightFits = rightPeak <= budget;
    if (leftFits != rightFits)
      return leftFits;
    if (!leftFits)
      return leftPeak < rightPeak;
    if (left.reduces != right.reduces)
      return !left.reduces;
    return left.stripSizes.front() > right.stripSizes.front();
  });
  if (candidates.empty())
    return std::nullopt;
  std::optional<StripPlan> single;
  if (!jointAxes)
    single = candidates.front().first;
  // When no axis alone fits (a matmul whose strips of rows still read all of
  // one operand's block), two axes without reductions split together may.
  SmallVector<unsigned> pair;
  for (const auto &[candidate, peak] : candidates)
    if (!candidate.reduces && pair.size() < 2)
      pair.push_back(candidate.axes.front());
  if (pair.size() < 2 || (single && candidates.front().second <= budget))
    return single;
  AxisSplit split(function, findHomeBlock(function, axes, pair), axes, pair);
  if (!split.isLegal())
    return single;
  SmallVector<int64_t> lengths = {axes.getLength(pair[0]),
                                  axes.getLength(pair[1])};
  SmallVector<int64_t> strips = lengths;
  while (split.estimatePeakBytes(strips, false) > budget &&
         (strips[0] > 1 || strips[1] > 1)) {
    unsigned larger = strips[1] > strips[0] ? 1 : 0;
    strips[larger] = getSmallerStrip(strips[larger], lengths[larger]);
  }
  // Tiles whose data fits whole need no split.
  if (strips == lengths)
    return single;
  return StripPlan{pair, strips, false};
}

/// How many axes one kernel is split along, one after another, at most.
constexpr unsigned kMaxSplitRounds = 4;

struct StripMineBlocksPass
    : public mtia::impl::StripMineBlocksBase<StripMineBlocksPass> {
  using StripMineBlocksBase::StripMineBlocksBase;

  void runOnOperation() override {
    FailureOr<TargetDesc> desc = getTargetDescription(getOperation());
    if (failed(desc))
      return signalPassFailure();
    auto localBytes = static_cast<int64_t>(desc->localMemoryBytes);
    // By default a kernel whose data, with the pages its loops' loads
    // prefetch, fits in local memory stays whole, and one that does not runs
    // in strips whose data takes at most a quarter of it, so that the
    // buffers of the transfers fit beside them. With a
    // divisor d, a kernel whose data exceeds 1/d of local memory runs in
    // strips whose data takes at most 1/d.
    int64_t trigger = budgetDivisor ? localBytes / budgetDivisor : localBytes;
    int64_t budget = budgetDivisor ? trigger : localBytes / 4;
    getOperation().walk([&](tt::FuncOp function) {
      if (!function.getBody().hasOneBlock())
        return;
      // A kernel whose data fits stays as it is.
      if (AxisSplit(function, function.getBody().front(),
                    AxisAnalysis(function), {})
              .estimatePeakBytes({}, true) <= trigger)
        return;
      // Blocks that a quarter of local memory holds stay as they are until
      // the compiler's last attempts, in one pipeline stage, which fit them
      // better than pointers in strips or a trip through scratch would.
      auto maxStages =
          getOperation()->getAttrOfType<IntegerAttr>(kModuleMaxStagesAttrName);
      int64_t rewriteLimit =
          maxStages && maxStages.getInt() == 1 ? budget : localBytes / 4;
      // The kernel as it is, should no split fit it.
      OwningOpRef<tt::FuncOp> whole = function.clone();
      rewriteLargeDescriptorAccesses(function, rewriteLimit);
      spillThroughScratch(function, rewriteLimit);
      expandRangeReshapes(function);
      separateIndexUses(function);
      // Axes that are split in blocks of their own (the blocks of two loops
      // over a row) are split one after another, each as the best left,
      // until the data fits or a split no longer lowers its peak.
      int64_t peak = std::numeric_limits<int64_t>::max();
      for (unsigned round = 0; round < kMaxSplitRounds; ++round) {
        AxisAnalysis axes(function);
        if (axes.hasOpaqueOperations())
          break;
        // Whether the kernel runs in strips is decided with the pages its
        // loops' loads prefetch; whether strips need splitting again, on
        // their data alone, within the budget they were chosen for.
        std::optional<StripPlan> plan =
            planStrips(function, axes, trigger, budget,
                       /*countPrefetch=*/round == 0, jointAxes);
        if (!plan)
          break;
        AxisSplit split(function, findHomeBlock(function, axes, plan->axes),
                        axes, plan->axes);
        (void)split.isLegal();
        split.apply(plan->stripSizes);
        int64_t now = AxisSplit(function, function.getBody().front(),
                                AxisAnalysis(function), {})
                          .estimatePeakBytes({}, false);
        // A split that leaves the peak where it was may have split one of
        // several blocks that run one after another (the sides of a
        // reshape through scratch memory); one that raises it ends.
        if (now <= trigger || now > peak)
          break;
        peak = now;
      }
      // A kernel that no split fits runs its work on large blocks in loops
      // over flat strips, through scratch memory, where it can.
      if (AxisSplit(function, function.getBody().front(),
                    AxisAnalysis(function), {})
                  .estimatePeakBytes({}, false) > trigger &&
          succeeded(runThroughScratch(*whole, budget)))
        function.getBody().takeBody(whole->getBody());
      // The uses of indices share their computations again.
      IRRewriter rewriter(function.getContext());
      DominanceInfo dominance(function);
      eliminateCommonSubExpressions(rewriter, dominance, function);
    });
  }
};

} // namespace
