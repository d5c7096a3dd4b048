//===- AxisSplit.cpp - Tensor work in strips of an axis -------------------===//
//
// A program whose block is larger than a PE's local memory computes it in
// strips along one axis of the block. An axis is a set of tensor dimensions
// that the kernel's operations keep in step: an elementwise operation ties
// the dimensions of its operands and results, `tt.expand_dims`,
// `tt.broadcast` and `tt.trans` tie the dimensions they move, a dot ties
// the rows of its left operand to those of its result and the columns of its
// right operand to those of its result, and loops tie their carried values.
// Along an axis that no operation mixes (no reshape, gather or dot over
// it), element i of every tensor depends only on element i of the others,
// so the kernel's tensor work can run on strips of the axis: each
// `tt.make_range` of the axis becomes the strip's slice of the range and
// every other operation is the same on strips. Reductions over the axis
// become loops over strips at their place, which combine the strips'
// partial results with the reductions' combine regions; scans over the axis
// carry their last results from strip to strip; the stores run in a last
// loop over strips at the end of the kernel, which recomputes from the loads
// what they need.
//
// The strips run in the innermost block that holds every reduction, scan
// and effect on the axis: the kernel's body, or the body of a loop over
// rows (a persistent kernel). Index computations on the axis outside that
// block (a range and its mask before the loop) are recomputed in each
// strip. Axes whose reductions, scans and effects lie in different blocks
// (two loops over a row, each over blocks of its own, as Liger-Kernel's
// cross entropy has) are split one after another, each in its own block,
// until the data fits.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/AxisSplit.h"
#include "passes/Analysis/LiveBytes.h"
#include "passes/Analysis/PointerAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mtia;

namespace mtia {

/// A loop over the strips of an axis (the innermost of a nest over the
/// tiles of several), as it is being built.
struct StripLoop {
  scf::ForOp loop;
  /// The first index of the strip on each axis.
  llvm::SmallVector<mlir::Value> stripStarts;
  /// Whether the strip is the first the loop runs.
  mlir::Value isFirst;
  /// The iteration arguments that carry, for each scan over the axis in the
  /// loop's strips (in order), the scan's results up to the strip.
  llvm::DenseMap<mlir::Operation *, unsigned> scanCarries;
  /// What the loop's iteration yields for the scans.
  llvm::SmallVector<mlir::Value> nextScanCarries;
};

} // namespace mtia

bool AxisSplit::isLegal() {
  for (Operation &op : body.without_terminator())
    if (llvm::any_of(splitAxes, [&](unsigned axis) {
          return axes.touchesAxis(&op, axis);
        })) {
      ops.push_back(&op);
      onAxisOps.insert(&op);
    }
  for (unsigned axis : splitAxes) {
    llvm::append_range(reductions, axes.getReductions(axis));
    llvm::append_range(scans, axes.getScans(axis));
  }
  if (splitAxes.size() > 1 && reduces())
    return false;
  if (!collectOuterOps())
    return false;
  for (tt::ReduceOp reduce : reductions)
    if (reduce->getBlock() != &body)
      return false;
  // Scans over the axis carry their results from strip to strip, in one
  // direction for all.
  for (tt::ScanOp scan : scans)
    if (scan->getBlock() != &body ||
        scan.getReverse() != scans.front().getReverse())
      return false;
  reversed = !scans.empty() && scans.front().getReverse();
  // Only the reductions' results leave the strips.
  for (Operation *op : ops) {
    if (isReductionOverAxis(op))
      continue;
    for (Operation *user : op->getUsers())
      if (!onAxis(body.findAncestorOpInBlock(*user)))
        return false;
  }
  // An effect in a loop over the axis must be on the axis: the strips
  // repeat the loop. An assertion may run again.
  for (Operation *op : ops) {
    bool repeatedEffect = false;
    op->walk([&](Operation *nested) {
      if (nested != op && nested->getNumRegions() == 0 &&
          hasSideEffects(nested) && !touchesAll(nested) &&
          !isa<tt::AssertOp>(nested))
        repeatedEffect = true;
    });
    if (repeatedEffect)
      return false;
    if (hasSideEffects(op)) {
      if (!touchesAll(op))
        return false;
      sinks.push_back(op);
    }
  }
  // An effect in what a reduction over the axis reads (a loop that stores
  // each block of a row as it sums it) runs in the reduction's strips, at
  // its place; stores and assertions only, which a strip may repeat
  // unchanged should two reductions' strips compute it. The other effects
  // run in a last loop, after the last reduction.
  SmallVector<Operation *> reduced;
  if (!reductions.empty())
    reduced = getSlice(llvm::map_to_vector(
        reductions, [](tt::ReduceOp reduce) -> Operation * { return reduce; }));
  SmallVector<Operation *> lastSinks;
  for (Operation *sink : sinks) {
    if (!llvm::is_contained(reduced, sink)) {
      lastSinks.push_back(sink);
      continue;
    }
    WalkResult repeatable = sink->walk([](Operation *nested) {
      return nested->getNumRegions() == 0 && hasSideEffects(nested) &&
                     !isa<tt::StoreOp, tt::AssertOp>(nested)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (repeatable.wasInterrupted())
      return false;
  }
  sinks = std::move(lastSinks);
  if (!reductions.empty() && !sinks.empty() &&
      sinks.front()->isBeforeInBlock(reductions.back()))
    return false;
  if (reductions.empty() && sinks.empty())
    return false;
  return !passesConflictingAccesses();
}

bool AxisSplit::passesConflictingAccesses() const {
  // The strips run at the last effect, or at the last reduction.
  Operation *last = sinks.empty() ? nullptr : sinks.back();
  if (!reductions.empty() &&
      (!last || last->isBeforeInBlock(reductions.back())))
    last = reductions.back();
  if (!last)
    return false;
  // Accesses on the axis and off it, each with its operation in the body.
  SmallVector<std::pair<Operation *, Operation *>> onAxisAccesses, passed;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      if (isGlobalMemoryAccess(nested))
        onAxisAccesses.push_back({nested, op});
    });
  for (Operation *op = ops.front(); op != last; op = op->getNextNode())
    if (!onAxis(op))
      op->walk([&](Operation *nested) {
        if (isGlobalMemoryAccess(nested))
          passed.push_back({nested, op});
      });
  return llvm::any_of(passed, [&](auto off) {
    return llvm::any_of(onAxisAccesses, [&](auto on) {
      return on.second->isBeforeInBlock(off.second) &&
             mayConflict(on.first, off.first);
    });
  });
}

/// Returns the operations on the axis (in order) that `roots` need: what a
/// strip computes for them. Reductions other than the roots end the slice:
/// their results come from their own loops.
SmallVector<Operation *>
AxisSplit::getSlice(ArrayRef<Operation *> roots) const {
  DenseSet<Operation *> needed(roots.begin(), roots.end());
  for (Operation *op : llvm::reverse(ops)) {
    if (!needed.contains(op))
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || producer->getBlock() != &body || !onAxis(producer))
          continue;
        if (isReductionOverAxis(producer) &&
            !llvm::is_contained(roots, producer))
          continue;
        needed.insert(producer);
      }
    });
  }
  // What the needed operations use from outside the body on the axis.
  for (Operation *op : llvm::reverse(outerOps)) {
    bool used = llvm::any_of(op->getUsers(), [&](Operation *user) {
      Operation *ancestor = body.findAncestorOpInBlock(*user);
      return needed.contains(ancestor ? ancestor : user);
    });
    if (used)
      needed.insert(op);
  }
  SmallVector<Operation *> slice = llvm::filter_to_vector(
      outerOps, [&](Operation *op) { return needed.contains(op); });
  for (Operation *op : ops)
    if (needed.contains(op))
      slice.push_back(op);
  return slice;
}

/// Collects into `outerOps` the operations outside the body that compute
/// the values on the axis its operations use, and returns whether each of
/// them can be computed again in a strip: it has no regions and no memory
/// effects (a range, a splat, a comparison for a mask).
bool AxisSplit::collectOuterOps() {
  DenseSet<Operation *> collected;
  bool recomputable = true;
  // Depth first, each operation after the operations it uses.
  std::function<void(Value)> collect = [&](Value value) {
    if (!recomputable ||
        body.getParent()->isAncestor(value.getParentRegion()) ||
        llvm::none_of(splitAxes, [&](unsigned axis) {
          return axes.getDimOnAxis(value, axis).has_value();
        }))
      return;
    Operation *producer = value.getDefiningOp();
    if (!producer || producer->getNumRegions() != 0 ||
        !isMemoryEffectFree(producer)) {
      recomputable = false;
      return;
    }
    if (!collected.insert(producer).second)
      return;
    for (Value operand : producer->getOperands())
      collect(operand);
    outerOps.push_back(producer);
  };
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        collect(operand);
    });
  return recomputable;
}

Type AxisSplit::getStripType(Value original,
                             ArrayRef<int64_t> stripSizes) const {
  auto type = dyn_cast<RankedTensorType>(original.getType());
  if (!type)
    return original.getType();
  SmallVector<int64_t> shape(type.getShape());
  for (auto [axis, stripSize] : llvm::zip(splitAxes, stripSizes))
    if (std::optional<unsigned> dim = axes.getDimOnAxis(original, axis))
      shape[*dim] = stripSize;
  return type.clone(shape);
}

/// Clones `ops` for the strip of `stripSize` from `stripStart`: a range on
/// the axis becomes the strip's slice of it, splat constants take the
/// strip's shape, and every other operation is the same on strips.
void AxisSplit::cloneStrip(ArrayRef<Operation *> ops, StripLoop &strips,
                           ArrayRef<int64_t> stripSizes, OpBuilder &builder,
                           IRMapping &mapping) const {
  Type i32 = builder.getI32Type();
  // The position among the split axes of the axis `value` lies on.
  auto getSplitIndex = [&](Value value) -> unsigned {
    return llvm::find_if(splitAxes,
                         [&](unsigned axis) {
                           return axes.getDimOnAxis(value, axis).has_value();
                         }) -
           splitAxes.begin();
  };
  auto sliceRange = [&](tt::MakeRangeOp range, OpBuilder &at) -> Value {
    Location loc = range.getLoc();
    unsigned index = getSplitIndex(range);
    int64_t stripSize = stripSizes[index];
    Value stripStart = strips.stripStarts[index];
    auto type = RankedTensorType::get({stripSize}, i32);
    Value offsets = tt::MakeRangeOp::create(at, loc, type, 0, stripSize);
    Value first = stripStart;
    if (int64_t start = range.getStart())
      first = arith::AddIOp::create(
          at, loc, stripStart,
          arith::ConstantIntOp::create(at, loc, i32, start));
    Value firsts = tt::SplatOp::create(at, loc, type, first);
    return arith::AddIOp::create(at, loc, offsets, firsts);
  };
  auto resizeConstant = [&](arith::ConstantOp constant, OpBuilder &at) {
    auto value = cast<SplatElementsAttr>(constant.getValue());
    auto type = cast<ShapedType>(getStripType(constant, stripSizes));
    return arith::ConstantOp::create(at, constant.getLoc(),
                                     value.resizeSplat(type))
        .getResult();
  };
  // A strip of a histogram's bins counts the values shifted to its first
  // bin (those outside its bins are dropped).
  auto shiftToStrip = [&](tt::HistogramOp original, tt::HistogramOp clone) {
    unsigned index = getSplitIndex(original);
    OpBuilder at(clone);
    Location loc = clone.getLoc();
    // The strip's first bin, in the type of the values (32-bit integers as
    // Triton writes them).
    Value source = clone.getSrc();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Value first = arith::IndexCastOp::create(
        at, loc, sourceType.getElementType(),
        arith::IndexCastOp::create(at, loc, at.getIndexType(),
                                   strips.stripStarts[index]));
    Value shifted = arith::SubIOp::create(
        at, loc, source, tt::SplatOp::create(at, loc, sourceType, first));
    clone.getSrcMutable().assign(shifted);
  };
  for (Operation *op : ops) {
    if (auto scan = dyn_cast<tt::ScanOp>(op);
        scan && strips.scanCarries.contains(op)) {
      cloneScanStrip(scan, strips, stripSizes, builder, mapping);
      continue;
    }
    Operation *clone = builder.clone(*op, mapping);
    forEachDefinedValue(op, [&](Value original) {
      mapping.lookup(original).setType(getStripType(original, stripSizes));
    });
    if (auto histogram = dyn_cast<tt::HistogramOp>(op);
        histogram && clone->getResult(0).getType() != histogram.getType())
      shiftToStrip(histogram, cast<tt::HistogramOp>(clone));
    // Ranges and constants on the axis, wherever they are in the clone,
    // take the strip's shape.
    op->walk([&](Operation *nested) {
      auto range = dyn_cast<tt::MakeRangeOp>(nested);
      auto constant = dyn_cast<arith::ConstantOp>(nested);
      if ((!range && !constant) ||
          getStripType(nested->getResult(0), stripSizes) ==
              nested->getResult(0).getType())
        return;
      Operation *cloned = mapping.lookup(nested->getResult(0)).getDefiningOp();
      OpBuilder at(cloned);
      Value replacement =
          range ? sliceRange(range, at) : resizeConstant(constant, at);
      cloned->getResult(0).replaceAllUsesWith(replacement);
      mapping.map(nested->getResult(0), replacement);
      cloned->erase();
    });
  }
}

/// Creates, at `builder`'s place, a loop over the strips of the axis that
/// carries `initial` and, for each scan over the axis in `slice`, the scan's
/// results up to the strip (zeros before the first); leaves `builder` in its
/// body. Axes split together get a nest of loops, the first axis outermost
/// (they carry nothing).
StripLoop AxisSplit::createStripLoop(OpBuilder &builder, Location loc,
                                     ArrayRef<Operation *> slice,
                                     ValueRange initial,
                                     ArrayRef<int64_t> stripSizes) const {
  Type i32 = builder.getI32Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i32, value);
  };
  StripLoop strips;
  SmallVector<Value> carried(initial);
  for (Operation *op : slice) {
    auto scan = dyn_cast<tt::ScanOp>(op);
    if (!scan || !llvm::is_contained(scans, scan))
      continue;
    strips.scanCarries[op] = carried.size();
    for (Value result : scan.getResults()) {
      auto type = cast<RankedTensorType>(result.getType());
      Type carry = type.getElementType();
      if (type.getRank() > 1) {
        SmallVector<int64_t> shape(type.getShape());
        shape.erase(shape.begin() + scan.getAxis());
        carry = type.clone(shape);
      }
      carried.push_back(arith::ConstantOp::create(
          builder, loc, cast<TypedAttr>(builder.getZeroAttr(carry))));
    }
  }
  Value zero = constant(0);
  for (auto [axis, stripSize] : llvm::zip(splitAxes, stripSizes)) {
    int64_t length = axes.getLength(axis);
    Value lastStart = reversed ? constant(length - stripSize) : Value();
    bool innermost = axis == splitAxes.back();
    strips.loop = scf::ForOp::create(
        builder, loc, zero, constant(length), constant(stripSize),
        innermost ? ValueRange(carried) : ValueRange());
    builder.setInsertionPointToStart(strips.loop.getBody());
    Value index = strips.loop.getInductionVar();
    strips.stripStarts.push_back(
        reversed
            ? arith::SubIOp::create(builder, loc, lastStart, index).getResult()
            : index);
  }
  strips.isFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         strips.loop.getInductionVar(), zero);
  return strips;
}

/// Ends the body of `strips` with `yielded` and the scans' carried values.
void AxisSplit::finishStripLoop(OpBuilder &builder, Location loc,
                                StripLoop &strips, ValueRange yielded) const {
  Block *body = strips.loop.getBody();
  if (body->mightHaveTerminator())
    return;
  SmallVector<Value> values(yielded);
  llvm::append_range(values, strips.nextScanCarries);
  builder.setInsertionPointToEnd(body);
  scf::YieldOp::create(builder, loc, values);
}

/// Returns `value` where `isFirst` holds, else `otherwise` (element by
/// element for tensors).
static Value selectFirst(OpBuilder &builder, Location loc, Value isFirst,
                         Value value, Value otherwise) {
  if (RankedTensorType type = getTensorType(value))
    isFirst = tt::SplatOp::create(builder, loc, type.clone(builder.getI1Type()),
                                  isFirst);
  return arith::SelectOp::create(builder, loc, isFirst, value, otherwise);
}

/// Applies `combine`, a combine region of a reduction or scan, element by
/// element to `operands` (the accumulated values, then the new ones), in a
/// `tt.map_elementwise` whose results have `types`.
static ValueRange combineElementwise(OpBuilder &builder, Location loc,
                                     Region &combine, TypeRange types,
                                     ValueRange operands) {
  auto map = tt::MapElementwiseOp::create(builder, loc, types, operands,
                                          builder.getI32IntegerAttr(1));
  IRMapping regionMapping;
  combine.cloneInto(&map.getScalarOp(), regionMapping);
  Operation *terminator = map.getScalarOp().front().getTerminator();
  OpBuilder atEnd(terminator);
  tt::MapElementwiseReturnOp::create(atEnd, terminator->getLoc(),
                                     terminator->getOperands());
  terminator->erase();
  return map.getResults();
}

/// Clones `scan` for a strip: the strip's scan, combined element by element
/// with the results carried from the strips before (except in the first);
/// the strip's last results (first, for a reverse scan) are carried on.
void AxisSplit::cloneScanStrip(tt::ScanOp scan, StripLoop &strips,
                               ArrayRef<int64_t> stripSizes, OpBuilder &builder,
                               IRMapping &mapping) const {
  Location loc = scan.getLoc();
  Operation *cloned = builder.clone(*scan, mapping);
  for (auto [original, result] :
       llvm::zip(scan.getResults(), cloned->getResults()))
    result.setType(getStripType(original, stripSizes));
  unsigned axisDim = scan.getAxis();
  unsigned count = scan.getNumResults();
  ValueRange carries = strips.loop.getRegionIterArgs().slice(
      strips.scanCarries.lookup(scan), count);
  SmallVector<Value> operands;
  for (auto [carry, result] : llvm::zip(carries, cloned->getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (!getTensorType(carry)) {
      operands.push_back(tt::SplatOp::create(builder, loc, type, carry));
      continue;
    }
    SmallVector<int64_t> shape(type.getShape());
    shape[axisDim] = 1;
    Value expanded = tt::ExpandDimsOp::create(builder, loc, type.clone(shape),
                                              carry, axisDim);
    operands.push_back(tt::BroadcastOp::create(builder, loc, type, expanded));
  }
  llvm::append_range(operands, cloned->getResults());
  ValueRange combined = combineElementwise(builder, loc, scan.getCombineOp(),
                                           cloned->getResultTypes(), operands);
  SmallVector<Value> strip;
  for (auto [original, own, withCarry] :
       llvm::zip(scan.getResults(), cloned->getResults(), combined)) {
    strip.push_back(selectFirst(builder, loc, strips.isFirst, own, withCarry));
    mapping.map(original, strip.back());
  }
  // The last element along the axis: a reduction that keeps the later of
  // every two (the earlier, for a reverse scan).
  SmallVector<Type> carryTypes =
      llvm::map_to_vector(carries, [](Value carry) { return carry.getType(); });
  auto last = tt::ReduceOp::create(builder, loc, carryTypes, strip, axisDim);
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Type> argumentTypes;
    for (int copy = 0; copy < 2; ++copy)
      for (Value value : strip)
        argumentTypes.push_back(getElementTypeOrSelf(value.getType()));
    Block *block =
        builder.createBlock(&last.getCombineOp(), {}, argumentTypes,
                            SmallVector<Location>(argumentTypes.size(), loc));
    ValueRange kept = block->getArguments().slice(reversed ? 0 : count, count);
    tt::ReduceReturnOp::create(builder, loc, kept);
  }
  llvm::append_range(strips.nextScanCarries, last.getResults());
}

/// Replaces `group`, reductions over the axis in one loop over strips, at
/// the place of the first: the loop takes the first strip's partial results
/// and combines every later strip's with them through each reduction's
/// combine region (applied element by element to partial results that are
/// tensors).
void AxisSplit::stripMineReductions(MutableArrayRef<tt::ReduceOp> group,
                                    ArrayRef<int64_t> stripSizes) {
  SmallVector<Operation *> roots = llvm::map_to_vector(
      group, [](tt::ReduceOp reduce) -> Operation * { return reduce; });
  SmallVector<Operation *> slice = getSlice(roots);
  Location loc = group.front().getLoc();
  OpBuilder builder(group.front());
  // The carried values start as zeros that no strip combines with: the
  // first strip's partial results are taken as they are, so that argmax and
  // other combines need no identity, and the loop holds one copy of the
  // strip's work.
  SmallVector<Value> initial;
  for (tt::ReduceOp reduce : group)
    for (Type type : reduce.getResultTypes())
      initial.push_back(arith::ConstantOp::create(
          builder, loc, cast<TypedAttr>(builder.getZeroAttr(type))));
  StripLoop strips = createStripLoop(builder, loc, slice, initial, stripSizes);
  scf::ForOp loop = strips.loop;
  IRMapping strip;
  cloneStrip(slice, strips, stripSizes, builder, strip);
  SmallVector<Value> combinedValues;
  unsigned carried = 0;
  for (tt::ReduceOp reduce : group) {
    size_t count = reduce.getNumResults();
    SmallVector<Value> operands(loop.getRegionIterArgs().slice(carried, count));
    for (Value result : reduce.getResults())
      operands.push_back(strip.lookup(result));
    carried += count;
    Block &combine = reduce.getCombineOp().front();
    if (!getTensorType(operands.front())) {
      IRMapping combined;
      for (auto [argument, operand] :
           llvm::zip(combine.getArguments(), operands))
        combined.map(argument, operand);
      for (Operation &op : combine.without_terminator())
        builder.clone(op, combined);
      for (Value value : combine.getTerminator()->getOperands())
        combinedValues.push_back(combined.lookupOrDefault(value));
      continue;
    }
    // Partial results that are tensors combine element by element.
    llvm::append_range(combinedValues,
                       combineElementwise(builder, reduce.getLoc(),
                                          reduce.getCombineOp(),
                                          reduce.getResultTypes(), operands));
  }
  SmallVector<Value> yielded;
  SmallVector<Value> stripPartials;
  for (tt::ReduceOp reduce : group)
    for (Value result : reduce.getResults())
      stripPartials.push_back(strip.lookup(result));
  for (auto [partial, combinedValue] : llvm::zip(stripPartials, combinedValues))
    yielded.push_back(
        selectFirst(builder, loc, strips.isFirst, partial, combinedValue));
  finishStripLoop(builder, loc, strips, yielded);
  carried = 0;
  for (tt::ReduceOp reduce : group) {
    reduce->replaceAllUsesWith(
        loop.getResults().slice(carried, reduce.getNumResults()));
    carried += reduce.getNumResults();
  }
}

void AxisSplit::apply(ArrayRef<int64_t> stripSizes) {
  // Reductions share a loop when none needs another's result and what
  // they need from outside the strips is there at the first of them.
  SmallVector<SmallVector<tt::ReduceOp>> groups;
  for (tt::ReduceOp reduce : reductions) {
    bool joins = !groups.empty();
    if (joins) {
      Operation *start = groups.back().front();
      for (Operation *op : getSlice({reduce.getOperation()}))
        op->walk([&](Operation *nested) {
          for (Value operand : nested->getOperands()) {
            Operation *producer = operand.getDefiningOp();
            if (!producer || producer->getBlock() != &body)
              continue;
            if (!onAxis(producer))
              joins &= producer->isBeforeInBlock(start);
            else if (isReductionOverAxis(producer))
              joins &= llvm::none_of(groups.back(), [&](tt::ReduceOp member) {
                return member.getOperation() == producer;
              });
          }
        });
    }
    if (joins)
      groups.back().push_back(reduce);
    else
      groups.push_back({reduce});
  }
  for (MutableArrayRef<tt::ReduceOp> group : groups)
    stripMineReductions(group, stripSizes);
  if (!sinks.empty()) {
    Location loc = sinks.front()->getLoc();
    // The loop runs where the last effect did, before the effects of other
    // axes that follow it (the loads of what a spill stored).
    OpBuilder builder(sinks.back()->getNextNode());
    SmallVector<Operation *> slice = getSlice(sinks);
    // Without carried values, the loop's body has its terminator already,
    // and the builder inserts before it.
    StripLoop strips = createStripLoop(builder, loc, slice, {}, stripSizes);
    IRMapping mapping;
    cloneStrip(slice, strips, stripSizes, builder, mapping);
    finishStripLoop(builder, loc, strips, {});
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  for (Operation *op : llvm::reverse(outerOps))
    if (op->use_empty())
      op->erase();
}

int64_t AxisSplit::estimatePeakBytes(ArrayRef<int64_t> stripSizes,
                                     bool countPrefetch) const {
  // Ranges, splats, constants and what is computed from nothing else are
  // indices and masks; what an operation reads from memory (a load, a
  // descriptor's block) is data.
  DenseSet<Value> indexValues;
  DenseMap<Value, bool> known;
  kernelBody.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isIndex(result, known))
        indexValues.insert(result);
  });
  // A device assertion or print reads its operands whole, so the SIMD
  // engine computes them, indices too, and holds what they are computed
  // from.
  SmallVector<Value> computed;
  kernelBody.walk([&](Operation *op) {
    if (isa<tt::AssertOp, tt::PrintOp>(op))
      llvm::append_range(computed, op->getOperands());
  });
  while (!computed.empty()) {
    Value value = computed.pop_back_val();
    if (!indexValues.erase(value))
      continue;
    if (Operation *producer = value.getDefiningOp())
      llvm::append_range(computed, producer->getOperands());
  }
  // Where no operation works on the axes, their strips change nothing: the
  // peak that matters is the one between the first and the last of those
  // operations (a kernel that stores a block to scratch and loads it
  // reshaped has one peak for each side). Indices computed early (the
  // strips compute them again) do not start it.
  auto computesData = [&](Operation *op) {
    return llvm::any_of(
               op->getResults(),
               [&](Value result) { return !indexValues.contains(result); }) ||
           op->getNumResults() == 0;
  };
  auto first = llvm::find_if(ops, computesData);
  return estimatePeakLiveBytes(
      body, [&](Value value) { return getStripType(value, stripSizes); },
      indexValues, countPrefetch,
      first != ops.end() ? *first : (ops.empty() ? nullptr : ops.front()),
      ops.empty() ? nullptr : ops.back());
}
