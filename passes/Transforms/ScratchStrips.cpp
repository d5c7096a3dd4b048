//===- ScratchStrips.cpp - A kernel's work in loops through scratch ------===//
//
// The plan of `runThroughScratch` (ScratchSpills.h), and its loops over the
// elements of runs of element-by-element operations.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ScratchStrips.h"
#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/PointerAnalysis.h"
#include "passes/Transforms/ScratchSpills.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mtia;

/// Returns `positions` (an i32 tensor) divided by `divisor` and wrapped to
/// `modulus` (0: unwrapped), by shifts and masks where they are powers of
/// two.
Value mtia::divideAndWrap(OpBuilder &builder, Location loc, Value positions,
                          int64_t divisor, int64_t modulus) {
  auto type = cast<RankedTensorType>(positions.getType());
  auto constant = [&](int64_t value) {
    return createSplatConstant(builder, loc, type, value);
  };
  Value result = positions;
  if (divisor != 1)
    result = llvm::isPowerOf2_64(divisor)
                 ? Value(arith::ShRUIOp::create(
                       builder, loc, result, constant(llvm::Log2_64(divisor))))
                 : Value(arith::DivUIOp::create(builder, loc, result,
                                                constant(divisor)));
  if (modulus)
    result = llvm::isPowerOf2_64(modulus)
                 ? Value(arith::AndIOp::create(builder, loc, result,
                                               constant(modulus - 1)))
                 : Value(arith::RemUIOp::create(builder, loc, result,
                                                constant(modulus)));
  return result;
}

namespace {

/// Returns the bytes an element of `type` takes in local memory (a pointer
/// takes 8, a mask 1).
int64_t getElementBytes(Type type) {
  if (isa<tt::PointerType>(type))
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Whether a strip computes `op` element by element, on flat strips of its
/// tensors (which all have one shape).
bool isFlatElementwise(Operation *op) {
  if (isa<arith::ConstantOp>(op) || op->getNumRegions() != 0)
    return false;
  return isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op->getDialect()) ||
         isa<tt::AddPtrOp, tt::LoadOp, tt::StoreOp, tt::IntToPtrOp,
             tt::PtrToIntOp, tt::BitcastOp, tt::FpToFpOp, tt::ClampFOp,
             tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::MulhiUIOp,
             tt::ExternElementwiseOp, tt::AssertOp>(op);
}

/// Returns the row-major positions in a tensor of shape `source` of the
/// elements that a broadcast to `result` places at row-major `positions`.
Value mapBroadcastPositions(OpBuilder &builder, Location loc, Value positions,
                            ArrayRef<int64_t> result,
                            ArrayRef<int64_t> source) {
  auto type = cast<RankedTensorType>(positions.getType());
  Value mapped;
  int64_t resultStride = 1, sourceStride = 1;
  for (int64_t dim = result.size() - 1; dim >= 0;) {
    // A run of dimensions the broadcast keeps maps as one.
    if (source[dim] != result[dim] || result[dim] == 1) {
      resultStride *= result[dim];
      sourceStride *= source[dim];
      --dim;
      continue;
    }
    int64_t length = 1, firstResultStride = resultStride,
            firstSourceStride = sourceStride;
    for (; dim >= 0 && source[dim] == result[dim]; --dim) {
      length *= result[dim];
      resultStride *= result[dim];
      sourceStride *= source[dim];
    }
    Value term =
        divideAndWrap(builder, loc, positions, firstResultStride, length);
    if (firstSourceStride != 1)
      term = arith::MulIOp::create(
          builder, loc, term,
          createSplatConstant(builder, loc, type, firstSourceStride));
    mapped = mapped ? Value(arith::AddIOp::create(builder, loc, mapped, term))
                    : term;
  }
  return mapped ? mapped : createSplatConstant(builder, loc, type, 0);
}

/// The rows a strip of a reduction's or scan's chunks (see Segment) leaves
/// room for.
constexpr int64_t kChunkRows = 4;

} // namespace

bool ScratchStrips::canRecompute(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<tt::MakeRangeOp, tt::SplatOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    return elements && (elements.isSplat() || !isLarge(value));
  }
  if (!isa<tt::ReshapeOp, tt::ExpandDimsOp, tt::BroadcastOp>(op) &&
      !isFlatElementwise(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) || canRecompute(operand);
  });
}

LogicalResult ScratchStrips::addOperation(Operation *op, int &current) {
  // Reshapes read their operand in its order; indices are computed again
  // wherever a strip uses them.
  if (isa<tt::ReshapeOp, tt::ExpandDimsOp>(op))
    return success();
  if (op->getNumResults() == 1 && isIndexValue(op->getResult(0)))
    return success(canRecompute(op->getResult(0)));
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    current = -1;
    return addAxisOperation(op, reduce.getSrcs(), reduce.getAxis(),
                            Segment::Kind::Reduction);
  }
  if (auto scan = dyn_cast<tt::ScanOp>(op)) {
    current = -1;
    return addAxisOperation(op, scan.getSrcs(), scan.getAxis(),
                            Segment::Kind::Scan);
  }
  auto gather = dyn_cast<tt::GatherOp>(op);
  if (!isFlatElementwise(op) && !isa<tt::BroadcastOp>(op) && !gather)
    return failure();
  // A gather reads its source anywhere: it starts a loop after the one
  // that computes the source.
  if (gather && isa<tt::PointerType>(getElementTypeOrSelf(gather.getType())))
    return failure();
  if (gather)
    current = -1;
  // The indices it reads are computed again in its loop.
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()) && isIndexValue(operand) &&
        !canRecompute(operand))
      return failure();
  Value block = op->getNumResults() ? op->getResult(0) : op->getOperand(1);
  int64_t elements = cast<RankedTensorType>(block.getType()).getNumElements();
  // An access that may touch what an earlier one of the run touches, one
  // writing, waits for that whole loop.
  bool conflicts =
      current >= 0 && isGlobalMemoryAccess(op) &&
      llvm::any_of(segments[current].ops, [&](Operation *earlier) {
        return isGlobalMemoryAccess(earlier) && mayConflict(earlier, op);
      });
  if (current < 0 || segments[current].elements != elements || conflicts) {
    segments.push_back({{}, elements, Segment::Kind::Run});
    current = segments.size() - 1;
  }
  segments[current].ops.push_back(op);
  return success();
}

LogicalResult ScratchStrips::addAxisOperation(Operation *op, ValueRange sources,
                                              unsigned axis,
                                              Segment::Kind kind) {
  auto type = cast<RankedTensorType>(sources.front().getType());
  int64_t bytes = 0;
  for (Value source : sources) {
    // Indices reduced (the positions that Inductor's sort carries beside
    // the values) are computed in the loop like any others.
    if ((isIndexValue(source) && !canRecompute(source)) ||
        isa<tt::PointerType>(getElementTypeOrSelf(source.getType())))
      return failure();
    bytes += getElementBytes(getElementTypeOrSelf(source.getType()));
  }
  // An axis too long for a strip runs in chunks of a power of two that
  // leave room for a few rows and their offsets.
  int64_t length = type.getDimSize(axis);
  int64_t chunk = length;
  if (length * bytes > budget)
    for (chunk = 1; length % (2 * chunk) == 0 &&
                    2 * chunk * (bytes + 4) * kChunkRows <= budget;)
      chunk *= 2;
  segments.push_back(
      {{op}, type.getNumElements() / length, kind, length, chunk});
  return success();
}

Block *ScratchStrips::findBlock() {
  // Every operation on a large block but those computing indices (which
  // each loop computes again) must lie in one block: the kernel's, or a
  // loop's body (a persistent kernel's loop over rows).
  Block *found = nullptr;
  WalkResult walk = function.walk([&](Operation *op) {
    if (!touchesLarge(op) ||
        (op->getNumResults() == 1 && isIndexValue(op->getResult(0))))
      return WalkResult::advance();
    if (found && found != op->getBlock())
      return WalkResult::interrupt();
    found = op->getBlock();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !found ||
      !isa<tt::FuncOp, scf::ForOp>(found->getParentOp()))
    return nullptr;
  return found;
}

LogicalResult ScratchStrips::plan() {
  Block *block = findBlock();
  if (!block)
    return failure();
  Block &body = *block;
  // A function that returns a large block, or a loop that carries one,
  // keeps it whole.
  if (touchesLarge(body.getTerminator()))
    return failure();
  int current = -1;
  for (Operation &op : body.without_terminator()) {
    if (!touchesLarge(&op)) {
      // A large block used in a region stays there.
      WalkResult nested = op.walk([&](Operation *inner) {
        return llvm::any_of(
                   inner->getOperands(),
                   [&](Value operand) {
                     return isLarge(operand) &&
                            !op.isAncestor(
                                operand.getParentBlock()->getParentOp());
                   })
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (nested.wasInterrupted())
        return failure();
      // Memory accesses keep their order with the loops around them.
      if (!isMemoryEffectFree(&op))
        current = -1;
      continue;
    }
    if (op.getNumRegions() != 0 && !isa<tt::ReduceOp, tt::ScanOp>(op))
      return failure();
    if (failed(addOperation(&op, current)))
      return failure();
    replaced.push_back(&op);
  }
  // What a loop reads that another computes passes through scratch memory,
  // and so does every reduction's result, until the last segment that reads
  // it.
  DenseMap<Value, unsigned> lastReader;
  for (auto [index, segment] : llvm::enumerate(segments))
    for (Operation *op : segment.ops)
      for (Value result : op->getResults())
        segmentOf[result] = index;
  for (auto [index, segment] : llvm::enumerate(segments)) {
    for (Operation *op : segment.ops) {
      if (!segment.isRun()) {
        for (Value result : op->getResults()) {
          materialized.insert(result);
          lastReader[result] = index;
        }
      }
      for (Value operand : op->getOperands()) {
        if (!isLarge(operand) || isIndexValue(operand))
          continue;
        Value root = getRoot(operand);
        auto producer = segmentOf.find(root);
        if (producer == segmentOf.end())
          return failure();
        if (producer->second == index && segment.isRun())
          continue;
        materialized.insert(root);
        lastReader[root] = std::max<unsigned>(lastReader[root], index);
      }
    }
  }
  for (Value root : materialized)
    lastRead[lastReader.lookup(root)].push_back(root);
  return success(
      !segments.empty() && llvm::none_of(materialized, [](Value value) {
        return isa<tt::PointerType>(getElementTypeOrSelf(value.getType()));
      }));
}

Value ScratchStrips::createRegion(OpBuilder &builder, Location loc,
                                  Value root) {
  // A reduction of a 1-d block gives a scalar, held as one element.
  auto type = dyn_cast<RankedTensorType>(root.getType());
  Type element = type ? type.getElementType() : root.getType();
  if (element.isInteger(1))
    element = builder.getI8Type();
  auto pointerType = tt::PointerType::get(element);
  int64_t bytes = (type ? type.getNumElements() : 1) * getElementBytes(element);
  // A region whose block is no longer read takes the next of its type and
  // size (the ordering of memory accesses makes its writes wait for those
  // reads).
  regionKinds[root] = {pointerType, bytes};
  SmallVector<Value> &free = freeRegions[{pointerType, bytes}];
  Value region =
      free.empty()
          ? Value(dma::ScratchOp::create(builder, loc, pointerType, bytes))
          : free.pop_back_val();
  regions[root] = region;
  return region;
}

Value ScratchStrips::loadRegion(OpBuilder &builder, Location loc, Value root,
                                Value offsets, RankedTensorType type) {
  Value region = regions.lookup(root);
  Type element = cast<tt::PointerType>(region.getType()).getPointeeType();
  Value loaded = createLoad(builder, loc, type.clone(element),
                            createPointers(builder, loc, region, offsets));
  if (type.getElementType().isInteger(1))
    loaded = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne, loaded,
        createSplatConstant(builder, loc,
                            cast<RankedTensorType>(loaded.getType()), 0));
  return loaded;
}

void ScratchStrips::storeRegion(OpBuilder &builder, Location loc, Value root,
                                Value offsets, Value strip) {
  Value region = regions.lookup(root);
  auto type = cast<RankedTensorType>(strip.getType());
  if (type.getElementType().isInteger(1))
    strip = arith::ExtUIOp::create(builder, loc,
                                   type.clone(builder.getI8Type()), strip);
  tt::StoreOp::create(builder, loc,
                      createPointers(builder, loc, region, offsets), strip,
                      /*mask=*/Value(), ArrayRef<int32_t>{},
                      /*cachePolicy=*/nullptr);
}

Value ScratchStrips::gatherSmall(OpBuilder &builder, Value value,
                                 Value positions) {
  auto type = cast<RankedTensorType>(value.getType());
  Value flat = flattened.lookup(value);
  if (!flat) {
    OpBuilder outside(loopPoint);
    flat = tt::ReshapeOp::create(
        outside, value.getLoc(),
        RankedTensorType::get({type.getNumElements()}, type.getElementType()),
        value, /*allow_reorder=*/false, /*efficient_layout=*/false);
    flattened[value] = flat;
  }
  auto positionType = cast<RankedTensorType>(positions.getType());
  Location loc = value.getLoc();
  Type element = type.getElementType();
  // A gather takes indices of its source's rank: a tile of positions is
  // taken flat.
  auto flatType = RankedTensorType::get({positionType.getNumElements()},
                                        positionType.getElementType());
  Value flatPositions = positions;
  if (positionType.getRank() != 1)
    flatPositions = tt::ReshapeOp::create(builder, loc, flatType, positions,
                                          /*allow_reorder=*/false,
                                          /*efficient_layout=*/false);
  Value picked =
      type.getNumElements() == 1
          ? Value(tt::BroadcastOp::create(builder, loc, flatType.clone(element),
                                          flat))
          : Value(tt::GatherOp::create(builder, loc, flatType.clone(element),
                                       flat, flatPositions, /*axis=*/0,
                                       /*efficient_layout=*/false));
  if (positionType.getRank() != 1)
    picked = tt::ReshapeOp::create(builder, loc, positionType.clone(element),
                                   picked, /*allow_reorder=*/false,
                                   /*efficient_layout=*/false);
  return picked;
}

Value ScratchStrips::recompute(OpBuilder &builder, Value value,
                               Value positions) {
  Operation *op = value.getDefiningOp();
  Location loc = op->getLoc();
  auto positionType = cast<RankedTensorType>(positions.getType());
  Type element = getElementTypeOrSelf(value.getType());
  if (auto range = dyn_cast<tt::MakeRangeOp>(op))
    return range.getStart() == 0
               ? positions
               : Value(arith::AddIOp::create(
                     builder, loc, positions,
                     createSplatConstant(builder, loc, positionType,
                                         range.getStart())));
  if (auto splat = dyn_cast<tt::SplatOp>(op))
    return tt::SplatOp::create(builder, loc, positionType.clone(element),
                               splat.getSrc());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = cast<DenseElementsAttr>(constant.getValue());
    if (!elements.isSplat())
      return gatherSmall(builder, value, positions);
    return arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(positionType.clone(element),
                               elements.getSplatValue<Attribute>()));
  }
  if (isa<tt::ReshapeOp, tt::ExpandDimsOp>(op))
    return getStrip(builder, op->getOperand(0), positions);
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(op))
    return getBroadcastStrip(builder, broadcast, positions);
  return cloneAtPositions(builder, op, positions)
      ->getResult(cast<OpResult>(value).getResultNumber());
}

Value ScratchStrips::getBroadcastStrip(OpBuilder &builder,
                                       tt::BroadcastOp broadcast,
                                       Value positions) {
  auto source = cast<RankedTensorType>(broadcast.getSrc().getType());
  auto result = cast<RankedTensorType>(broadcast.getType());
  return getStrip(builder, broadcast.getSrc(),
                  source.getNumElements() == result.getNumElements()
                      ? positions
                      : mapBroadcastPositions(builder, broadcast.getLoc(),
                                              positions, result.getShape(),
                                              source.getShape()));
}

Value ScratchStrips::getGatherStrip(OpBuilder &builder, tt::GatherOp gather,
                                    Value positions) {
  Location loc = gather.getLoc();
  auto source = cast<RankedTensorType>(gather.getSrc().getType());
  auto result = cast<RankedTensorType>(gather.getType());
  unsigned axis = gather.getAxis();
  Value indices = checkGatherIndices(
      builder, loc, getStrip(builder, gather.getIndices(), positions),
      source.getDimSize(axis));
  auto positionType = cast<RankedTensorType>(positions.getType());
  // The source's row-major position of each result position: its
  // coordinates, but the index along the axis.
  SmallVector<int64_t> resultStrides(result.getRank(), 1),
      sourceStrides(source.getRank(), 1);
  for (int64_t dim = result.getRank() - 2; dim >= 0; --dim) {
    resultStrides[dim] = resultStrides[dim + 1] * result.getDimSize(dim + 1);
    sourceStrides[dim] = sourceStrides[dim + 1] * source.getDimSize(dim + 1);
  }
  Value offsets = arith::MulIOp::create(
      builder, loc, indices,
      createSplatConstant(builder, loc, positionType, sourceStrides[axis]));
  for (int64_t dim = 0; dim < result.getRank(); ++dim) {
    if (dim == axis)
      continue;
    Value coordinate = divideAndWrap(
        builder, loc, positions, resultStrides[dim], result.getDimSize(dim));
    offsets = arith::AddIOp::create(
        builder, loc, offsets,
        arith::MulIOp::create(builder, loc, coordinate,
                              createSplatConstant(builder, loc, positionType,
                                                  sourceStrides[dim])));
  }
  return getStrip(builder, gather.getSrc(), offsets);
}

Operation *ScratchStrips::cloneAtPositions(OpBuilder &builder, Operation *op,
                                           Value positions) {
  auto positionType = cast<RankedTensorType>(positions.getType());
  IRMapping mapping;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      mapping.map(operand, getStrip(builder, operand, positions));
  Operation *copy = builder.clone(*op, mapping);
  for (Value result : copy->getResults())
    result.setType(positionType.clone(getElementTypeOrSelf(result.getType())));
  return copy;
}

Value ScratchStrips::getStrip(OpBuilder &builder, Value value,
                              Value positions) {
  Value root = getRoot(value);
  if (positions == loopPositions)
    if (Value strip = strips.lookup(root))
      return strip;
  if (Value cached = atPositions.lookup({value, positions}))
    return cached;
  auto positionType = cast<RankedTensorType>(positions.getType());
  Value strip;
  if (isIndexValue(value))
    strip = recompute(builder, value, positions);
  else if (isLarge(value))
    strip =
        loadRegion(builder, value.getLoc(), root, positions,
                   positionType.clone(getElementTypeOrSelf(value.getType())));
  else
    strip = gatherSmall(builder, value, positions);
  atPositions[{value, positions}] = strip;
  return strip;
}

int64_t ScratchStrips::chooseStrip(const Segment &segment) const {
  // The bytes of a strip's position (of a reduction's or scan's, the
  // elements of a chunk along its axis): its values and their offsets.
  int64_t bytesPerElement = 16;
  for (Operation *op : segment.ops) {
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (auto type = dyn_cast<RankedTensorType>(value.getType()))
        bytesPerElement +=
            segment.chunk * (getElementBytes(type.getElementType()) + 4);
  }
  int64_t strip = 1;
  while (2 * strip * bytesPerElement <= budget)
    strip *= 2;
  return strip;
}

int64_t ScratchStrips::getStrip(const Segment &segment) const {
  // Reductions and scans in chunks (rare) size their own strips; the others
  // share one per kind of loop.
  int64_t strip = segment.isRun()       ? flatStrip
                  : segment.isChunked() ? chooseStrip(segment)
                                        : reductionStrip;
  while (segment.elements % strip != 0)
    strip /= 2;
  return strip;
}

Value ScratchStrips::createStripLoop(OpBuilder &builder, Location loc,
                                     int64_t elements, int64_t strip) {
  auto loop = scf::ForOp::create(
      builder, loc, arith::ConstantIntOp::create(builder, loc, 0, 32),
      arith::ConstantIntOp::create(builder, loc, elements / strip, 32),
      arith::ConstantIntOp::create(builder, loc, 1, 32));
  loopPoint = loop;
  // The loop's transfers stay within it, so that the buffers of the loops
  // one after another share.
  loop->setAttr(kLoopStagesAttrName, builder.getI32IntegerAttr(1));
  builder.setInsertionPointToStart(loop.getBody());
  auto positionType = RankedTensorType::get({strip}, builder.getI32Type());
  return arith::AddIOp::create(
      builder, loc,
      tt::MakeRangeOp::create(builder, loc, positionType, 0, strip),
      tt::SplatOp::create(
          builder, loc, positionType,
          arith::MulIOp::create(
              builder, loc, loop.getInductionVar(),
              arith::ConstantIntOp::create(builder, loc, strip, 32))));
}

void ScratchStrips::emitRun(const Segment &segment) {
  Operation *last = segment.ops.back();
  Location loc = segment.ops.front()->getLoc();
  OpBuilder builder(last);
  for (Operation *op : segment.ops)
    for (Value result : op->getResults())
      if (materialized.contains(result))
        createRegion(builder, result.getLoc(), result);
  Value positions =
      createStripLoop(builder, loc, segment.elements, getStrip(segment));
  strips.clear();
  atPositions.clear();
  loopPositions = positions;
  for (Operation *op : segment.ops) {
    Value result;
    if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
      result = getBroadcastStrip(builder, broadcast, positions);
    } else if (auto gather = dyn_cast<tt::GatherOp>(op)) {
      result = getGatherStrip(builder, gather, positions);
    } else {
      Operation *copy = cloneAtPositions(builder, op, positions);
      if (copy->getNumResults())
        result = copy->getResult(0);
    }
    if (!result)
      continue;
    strips[op->getResult(0)] = result;
    if (materialized.contains(op->getResult(0)))
      storeRegion(builder, op->getLoc(), op->getResult(0), positions, result);
  }
}

void ScratchStrips::apply() {
  // Strips of one size (the smallest any loop needs) make tiles of fewer
  // types, whose buffers loops that run one after another share.
  for (const Segment &segment : segments) {
    if (segment.isChunked())
      continue;
    int64_t &strip = segment.isRun() ? flatStrip : reductionStrip;
    strip = std::min(strip, chooseStrip(segment));
  }
  for (auto [index, segment] : llvm::enumerate(segments)) {
    flattened.clear();
    switch (segment.kind) {
    case Segment::Kind::Run:
      emitRun(segment);
      break;
    case Segment::Kind::Reduction:
      emitReduction(segment);
      break;
    case Segment::Kind::Scan:
      emitScan(segment);
      break;
    }
    for (Value root : lastRead[index])
      freeRegions[regionKinds.lookup(root)].push_back(regions.lookup(root));
  }
  for (Operation *op : llvm::reverse(replaced))
    op->erase();
}

LogicalResult mtia::runThroughScratch(tt::FuncOp function, int64_t budget) {
  ScratchStrips strips(function, budget);
  if (failed(strips.plan()))
    return failure();
  strips.apply();
  return success();
}
