//===- ScratchSpills.cpp - Tiles through global scratch memory ------------===//

#include "passes/Transforms/ScratchSpills.h"
#include "passes/Analysis/AxisAnalysis.h"
#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/PointerAnalysis.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <limits>

using namespace mlir;
using namespace mtia;

namespace {

/// Returns the bytes of a tensor of `type`.
int64_t getBytes(RankedTensorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Returns `base` advanced by `offsets`, one pointer per offset.
Value createPointers(OpBuilder &builder, Location loc, Value base,
                     Value offsets) {
  auto pointers =
      cast<RankedTensorType>(offsets.getType()).clone(base.getType());
  Value splat = tt::SplatOp::create(builder, loc, pointers, base);
  return tt::AddPtrOp::create(builder, loc, pointers, splat, offsets);
}

/// Returns pointers to the elements of a tensor of `shape` stored in
/// row-major order from element `first` of `base`.
Value buildRowMajorPointers(OpBuilder &builder, Location loc, Value base,
                            ArrayRef<int64_t> shape, int64_t first = 0) {
  auto offsetType = RankedTensorType::get(shape, builder.getI32Type());
  Value offsets = buildRowMajorOffsets(builder, loc, offsetType);
  if (first)
    offsets = arith::AddIOp::create(
        builder, loc, offsets,
        createSplatConstant(builder, loc, offsetType, first));
  return createPointers(builder, loc, base, offsets);
}

/// Returns a scratch region of `bytes` bytes that holds elements of
/// `element` type, after storing `operands` to it in row-major order, one
/// after another.
Value storeToScratch(OpBuilder &builder, Location loc, Type element,
                     int64_t bytes, ValueRange operands) {
  Value scratch = dma::ScratchOp::create(builder, loc,
                                         tt::PointerType::get(element), bytes);
  int64_t first = 0;
  for (Value operand : operands) {
    auto type = cast<RankedTensorType>(operand.getType());
    tt::StoreOp::create(
        builder, loc,
        buildRowMajorPointers(builder, loc, scratch, type.getShape(), first),
        operand, /*mask=*/Value(), ArrayRef<int32_t>{},
        /*cachePolicy=*/nullptr);
    first += type.getNumElements();
  }
  return scratch;
}

/// Returns a load of a tensor of `type` through `pointers`.
Value createLoad(OpBuilder &builder, Location loc, RankedTensorType type,
                 Value pointers) {
  return tt::LoadOp::create(builder, loc, type, pointers, /*mask=*/Value(),
                            /*other=*/Value(), ArrayRef<int32_t>{},
                            /*padding=*/nullptr, /*cachePolicy=*/nullptr,
                            /*isVolatile=*/false);
}

/// Rewrites `gather` as a store of its source to scratch memory and a load
/// of the elements its indices pick from there. The indices are asserted
/// to lie along the source's axis first: out of it, the launch fails, as
/// it does for a gather in local memory.
void spillGather(tt::GatherOp gather) {
  Location loc = gather.getLoc();
  OpBuilder builder(gather);
  auto source = cast<RankedTensorType>(gather.getSrc().getType());
  Value scratch = storeToScratch(builder, loc, source.getElementType(),
                                 getBytes(source), gather.getSrc());
  Value indices = gather.getIndices();
  auto indexType = cast<RankedTensorType>(indices.getType());
  unsigned axis = gather.getAxis();
  Value notBelow =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, indices,
                            createSplatConstant(builder, loc, indexType, 0));
  Value below = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, indices,
      createSplatConstant(builder, loc, indexType, source.getDimSize(axis)));
  Value inSource = arith::AndIOp::create(builder, loc, notBelow, below);
  tt::AssertOp::create(builder, loc, inSource,
                       "an index of tl.gather lies outside its source");
  // The indices select along the axis; the other dimensions are those of
  // the source.
  auto offsetType = indexType.clone(builder.getI32Type());
  unsigned width = indexType.getElementTypeBitWidth();
  if (width > 32)
    indices = arith::TruncIOp::create(builder, loc, offsetType, indices);
  else if (width < 32)
    indices = arith::ExtSIOp::create(builder, loc, offsetType, indices);
  int64_t stride = 1;
  for (int64_t length : source.getShape().drop_front(axis + 1))
    stride *= length;
  Value offsets = arith::AddIOp::create(
      builder, loc,
      buildRowMajorOffsets(builder, loc, offsetType, source.getShape(), axis),
      arith::MulIOp::create(
          builder, loc, indices,
          createSplatConstant(builder, loc, offsetType, stride)));
  gather.replaceAllUsesWith(
      createLoad(builder, loc, cast<RankedTensorType>(gather.getType()),
                 createPointers(builder, loc, scratch, offsets)));
  gather.erase();
}

/// Whether a block of `type` moves through memory: numbers of
/// whole bytes (not masks or pointers, which are indices) whose
/// elements an i32 offset reaches.
bool isSpillable(RankedTensorType type) {
  Type element = type.getElementType();
  return (isa<FloatType>(element) ||
          (element.isInteger() && element.getIntOrFloatBitWidth() >= 8)) &&
         element.getIntOrFloatBitWidth() % 8 == 0 &&
         type.getNumElements() <= std::numeric_limits<int32_t>::max();
}

} // namespace

void mtia::spillThroughScratch(tt::FuncOp function, int64_t budget) {
  // The reshapes and concatenations to rewrite (their operands then lie in
  // row-major order, one after another, in one region), and the gathers
  // from large sources.
  SmallVector<Operation *> spills;
  DenseMap<Value, bool> indices;
  auto isLargeData = [&](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return isSpillable(type) && getBytes(type) > budget &&
           !isIndex(value, indices);
  };
  function.walk([&](Operation *op) {
    if (auto gather = dyn_cast<tt::GatherOp>(op)) {
      if (isLargeData(gather.getSrc()))
        spills.push_back(op);
      return;
    }
    if (isa<tt::ReshapeOp, tt::CatOp>(op) && isLargeData(op->getResult(0)))
      spills.push_back(op);
  });
  for (Operation *op : spills) {
    if (auto gather = dyn_cast<tt::GatherOp>(op)) {
      spillGather(gather);
      continue;
    }
    Location loc = op->getLoc();
    OpBuilder builder(op);
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    Value scratch = storeToScratch(builder, loc, result.getElementType(),
                                   getBytes(result), op->getOperands());
    op->getResult(0).replaceAllUsesWith(createLoad(
        builder, loc, result,
        buildRowMajorPointers(builder, loc, scratch, result.getShape())));
    op->erase();
  }
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

/// Returns `positions` (an i32 tensor) divided by `divisor` and wrapped to
/// `modulus` (0: unwrapped), by shifts and masks where they are powers of
/// two.
Value divideAndWrap(OpBuilder &builder, Location loc, Value positions,
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

/// A run of a kernel's operations over blocks of one number of elements,
/// or one reduction, that a loop over strips computes.
struct Segment {
  SmallVector<Operation *> ops;
  int64_t elements = 0;
  bool reduces = false;
};

/// Runs a kernel's work on large blocks in loops over strips, with the
/// blocks that pass from one loop to another in scratch memory (see
/// `runThroughScratch`).
class ScratchStrips {
public:
  ScratchStrips(tt::FuncOp function, int64_t budget)
      : function(function), budget(budget),
        smallElements(std::max<int64_t>(64, budget / 64)) {}

  /// Partitions the kernel into segments; fails when some operation on a
  /// large block cannot run so.
  LogicalResult plan();

  /// Rewrites the kernel as planned.
  void apply();

private:
  bool isLarge(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.getNumElements() > smallElements;
  }
  bool isIndexValue(Value value) { return isIndex(value, indices); }
  bool touchesLarge(Operation *op) {
    return llvm::any_of(op->getOperands(),
                        [&](Value value) { return isLarge(value); }) ||
           llvm::any_of(op->getResults(),
                        [&](Value value) { return isLarge(value); });
  }
  /// Returns the value that `value` reshapes (in row-major order, which a
  /// flat strip keeps), or `value` itself.
  static Value getRoot(Value value) {
    while (
        isa_and_nonnull<tt::ReshapeOp, tt::ExpandDimsOp>(value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    return value;
  }
  bool canRecompute(Value value);
  LogicalResult addOperation(Operation *op, int &current);

  Value createRegion(OpBuilder &builder, Location loc, Value root);
  Value loadRegion(OpBuilder &builder, Location loc, Value root, Value offsets,
                   RankedTensorType type);
  void storeRegion(OpBuilder &builder, Location loc, Value root, Value offsets,
                   Value strip);
  Value getStrip(OpBuilder &builder, Value value, Value positions);
  Value recompute(OpBuilder &builder, Value value, Value positions);
  /// Returns the strip at `positions` of the result of `broadcast`.
  Value getBroadcastStrip(OpBuilder &builder, tt::BroadcastOp broadcast,
                          Value positions);
  /// Returns a copy of the element-by-element `op` on its operands' strips
  /// at `positions`.
  Operation *cloneAtPositions(OpBuilder &builder, Operation *op,
                              Value positions);
  Value gatherSmall(OpBuilder &builder, Value value, Value positions);
  int64_t chooseStrip(const Segment &segment) const;
  /// Creates a loop over the strips of `strip` of `elements` positions
  /// before `builder`'s point and returns the positions of an iteration's
  /// strip, with `builder` at the start of its body.
  Value createStripLoop(OpBuilder &builder, Location loc, int64_t elements,
                        int64_t strip);
  void emitRun(const Segment &segment);
  void emitReduction(const Segment &segment);

  tt::FuncOp function;
  int64_t budget;
  /// Blocks of at most this many elements stay whole in local memory.
  int64_t smallElements;
  SmallVector<Segment> segments;
  /// The operations on large blocks, in program order, which the rewrite
  /// replaces.
  SmallVector<Operation *> replaced;
  DenseMap<Value, unsigned> segmentOf;
  /// The values that pass from one loop to another, in order, and the
  /// scratch regions that hold them.
  llvm::SetVector<Value> materialized;
  DenseMap<Value, Value> regions;
  /// The blocks each segment reads last.
  DenseMap<unsigned, SmallVector<Value>> lastRead;
  /// The type and size of each block's region, and the regions free to
  /// take again, by type and size.
  DenseMap<Value, std::pair<Type, int64_t>> regionKinds;
  DenseMap<std::pair<Type, int64_t>, SmallVector<Value>> freeRegions;
  DenseMap<Value, bool> indices;
  /// The current loop's strips of its segment's values, and what it
  /// computed or loaded at other positions.
  DenseMap<Value, Value> strips;
  DenseMap<std::pair<Value, Value>, Value> atPositions;
  Value loopPositions;
  /// The strip sizes of every loop over elements and over reductions'
  /// results.
  int64_t flatStrip = std::numeric_limits<int64_t>::max();
  int64_t reductionStrip = std::numeric_limits<int64_t>::max();
  /// Small blocks, flattened before the current loop.
  DenseMap<Value, Value> flattened;
  Operation *loopPoint = nullptr;
};

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
    auto type = cast<RankedTensorType>(reduce.getSrcs().front().getType());
    if (type.getRank() < 2)
      return failure();
    int64_t bytes = 0;
    for (Value source : reduce.getSrcs()) {
      // Indices reduced (the positions that Inductor's sort carries beside
      // the values) are computed in the loop like any others.
      if ((isIndexValue(source) && !canRecompute(source)) ||
          isa<tt::PointerType>(getElementTypeOrSelf(source.getType())))
        return failure();
      bytes += getElementBytes(getElementTypeOrSelf(source.getType()));
    }
    if (type.getDimSize(reduce.getAxis()) * bytes > budget)
      return failure();
    segments.push_back(
        {{op},
         type.getNumElements() / type.getDimSize(reduce.getAxis()),
         true});
    current = -1;
    return success();
  }
  if (!isFlatElementwise(op) && !isa<tt::BroadcastOp>(op))
    return failure();
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
    segments.push_back({{}, elements, false});
    current = segments.size() - 1;
  }
  segments[current].ops.push_back(op);
  return success();
}

LogicalResult ScratchStrips::plan() {
  Block &body = function.getBody().front();
  // A function that returns a large block keeps it whole.
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
    if (op.getNumRegions() != 0 && !isa<tt::ReduceOp>(op))
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
      if (segment.reduces) {
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
        if (producer->second == index && !segment.reduces)
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
  auto type = cast<RankedTensorType>(root.getType());
  Type element = type.getElementType();
  if (element.isInteger(1))
    element = builder.getI8Type();
  auto pointerType = tt::PointerType::get(element);
  int64_t bytes = type.getNumElements() * getElementBytes(element);
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
  // The bytes of a strip's element (of a reduction's, the elements along its
  // axis): its values and their offsets.
  int64_t bytesPerElement = 16;
  for (Operation *op : segment.ops) {
    int64_t length = segment.reduces
                         ? cast<RankedTensorType>(op->getOperand(0).getType())
                               .getDimSize(cast<tt::ReduceOp>(op).getAxis())
                         : 1;
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (auto type = dyn_cast<RankedTensorType>(value.getType()))
        bytesPerElement +=
            length * (getElementBytes(type.getElementType()) + 4);
  }
  int64_t strip = 1;
  while (segment.elements % (2 * strip) == 0 &&
         2 * strip * bytesPerElement <= budget)
    strip *= 2;
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
  Value positions = createStripLoop(builder, loc, segment.elements, flatStrip);
  strips.clear();
  atPositions.clear();
  loopPositions = positions;
  for (Operation *op : segment.ops) {
    Value result;
    if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
      result = getBroadcastStrip(builder, broadcast, positions);
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

void ScratchStrips::emitReduction(const Segment &segment) {
  auto reduce = cast<tt::ReduceOp>(segment.ops.front());
  Location loc = reduce.getLoc();
  OpBuilder builder(reduce);
  auto sourceType = cast<RankedTensorType>(reduce.getSrcs().front().getType());
  unsigned axis = reduce.getAxis();
  int64_t length = sourceType.getDimSize(axis);
  int64_t inner = 1;
  for (int64_t size : sourceType.getShape().drop_front(axis + 1))
    inner *= size;
  int64_t strip = reductionStrip;
  for (Value result : reduce.getResults())
    createRegion(builder, loc, result);
  Value positions = createStripLoop(builder, loc, segment.elements, strip);
  auto positionType = cast<RankedTensorType>(positions.getType());
  // The row-major offset of each result position's first element along the
  // axis, and of the axis' elements from it.
  Value outer = divideAndWrap(builder, loc, positions, inner, 0);
  Value first = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(
          builder, loc, outer,
          createSplatConstant(builder, loc, positionType, length * inner)),
      divideAndWrap(builder, loc, positions, 1, inner));
  auto tileType = RankedTensorType::get({strip, length}, builder.getI32Type());
  Value rows = tt::BroadcastOp::create(
      builder, loc, tileType,
      tt::ExpandDimsOp::create(builder, loc, positionType.clone({strip, 1}),
                               first, 1));
  auto laneType = RankedTensorType::get({length}, builder.getI32Type());
  Value lanes = arith::MulIOp::create(
      builder, loc, tt::MakeRangeOp::create(builder, loc, laneType, 0, length),
      createSplatConstant(builder, loc, laneType, inner));
  Value columns = tt::BroadcastOp::create(
      builder, loc, tileType,
      tt::ExpandDimsOp::create(builder, loc, laneType.clone({1, length}), lanes,
                               0));
  Value offsets = arith::AddIOp::create(builder, loc, rows, columns);
  IRMapping mapping;
  atPositions.clear();
  for (Value source : reduce.getSrcs())
    mapping.map(source, isIndexValue(source)
                            ? getStrip(builder, source, offsets)
                            : loadRegion(builder, loc, getRoot(source), offsets,
                                         tileType.clone(getElementTypeOrSelf(
                                             source.getType()))));
  auto copy = cast<tt::ReduceOp>(builder.clone(*reduce, mapping));
  copy.setAxis(1);
  for (Value result : copy.getResults())
    result.setType(positionType.clone(getElementTypeOrSelf(result.getType())));
  for (auto [result, stripResult] :
       llvm::zip(reduce.getResults(), copy.getResults()))
    storeRegion(builder, loc, result, positions, stripResult);
  // Small results are read whole after the loop.
  builder.setInsertionPointAfter(loopPoint);
  for (Value result : reduce.getResults()) {
    if (isLarge(result))
      continue;
    auto type = cast<RankedTensorType>(result.getType());
    auto offsetType = type.clone(builder.getI32Type());
    result.replaceAllUsesWith(
        loadRegion(builder, loc, result,
                   buildRowMajorOffsets(builder, loc, offsetType), type));
  }
}

void ScratchStrips::apply() {
  // Strips of one size (the smallest any loop needs) make tiles of fewer
  // types, whose buffers loops that run one after another share.
  for (const Segment &segment : segments) {
    int64_t &strip = segment.reduces ? reductionStrip : flatStrip;
    strip = std::min(strip, chooseStrip(segment));
  }
  for (auto [index, segment] : llvm::enumerate(segments)) {
    flattened.clear();
    if (segment.reduces)
      emitReduction(segment);
    else
      emitRun(segment);
    for (Value root : lastRead[index])
      freeRegions[regionKinds.lookup(root)].push_back(regions.lookup(root));
  }
  for (Operation *op : llvm::reverse(replaced))
    op->erase();
}

} // namespace

LogicalResult mtia::runThroughScratch(tt::FuncOp function, int64_t budget) {
  ScratchStrips strips(function, budget);
  if (failed(strips.plan()))
    return failure();
  strips.apply();
  return success();
}
