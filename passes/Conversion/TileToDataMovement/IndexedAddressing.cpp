//===- IndexedAddressing.cpp - Index and mask tiles -----------------------===//
//
// Index and mask tiles of accesses without structure: copies of their
// tensor computations, converted to tile ops.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mtia;

/// The scalar pointer a tensor of pointers is splat from, and the tensor
/// of its element offsets from it, built as tensor ops before the
/// builder's point. Offsets that one `tt.addptr` applies keep their type
/// (i32 index tiles take half the local memory of i64 ones); offsets that
/// combine several are summed in i64.
FailureOr<std::pair<Value, Value>>
AccessLowering::buildOffsetTensor(Operation *op, Value pointer,
                                  OpBuilder &builder) {
  Location loc = op->getLoc();
  auto pointerType = cast<RankedTensorType>(pointer.getType());
  auto offsetType = pointerType.clone(builder.getI64Type());
  auto widen = [&](Value offsets) -> Value {
    if (getElementTypeOrSelf(offsets.getType()).isInteger(64))
      return offsets;
    return arith::ExtSIOp::create(builder, loc, offsetType, offsets);
  };
  // Pointers a loop advances uniformly: the offsets of their initial
  // value, computed before the loop, from a base advanced in this
  // iteration.
  if (auto argument = dyn_cast<BlockArgument>(pointer)) {
    std::optional<LoopAdvance> advance = analysis.analyzeLoopAdvance(argument);
    if (!advance) {
      const Unstructured &why = analysis.getFailure();
      InFlightDiagnostic error =
          op->emitError("the pointers of this access are carried by a loop "
                        "that the indexed DMA lowering cannot follow: ")
          << why.reason;
      if (why.op)
        error.attachNote(why.op->getLoc()) << "see the loop";
      return failure();
    }
    OpBuilder beforeLoop(argument.getOwner()->getParentOp());
    auto initial = buildOffsetTensor(op, advance->init, beforeLoop);
    if (failed(initial))
      return failure();
    Value elements = analysis.materialize(advance->elements, builder, loc,
                                          builder.getI64Type());
    Value base = tt::AddPtrOp::create(builder, loc, initial->first.getType(),
                                      initial->first, elements);
    return std::make_pair(base, initial->second);
  }
  Operation *def = pointer.getDefiningOp();
  if (auto splat = dyn_cast_if_present<tt::SplatOp>(def)) {
    Value zero = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(offsetType, builder.getI64IntegerAttr(0)));
    return std::make_pair(splat.getSrc(), zero);
  }
  if (auto addPtr = dyn_cast_if_present<tt::AddPtrOp>(def)) {
    auto inner = buildOffsetTensor(op, addPtr.getPtr(), builder);
    if (failed(inner))
      return failure();
    Value offset = addPtr.getOffset();
    if (matchPattern(inner->second, m_Zero()))
      return std::make_pair(inner->first, offset);
    return std::make_pair(
        inner->first, Value(arith::AddIOp::create(
                          builder, loc, widen(inner->second), widen(offset))));
  }
  // A choice between two tensors of pointers is a choice between their
  // offsets, those of the second taken from the base of the first.
  if (auto select = dyn_cast_if_present<arith::SelectOp>(def)) {
    auto chosen = buildOffsetTensor(op, select.getTrueValue(), builder);
    if (failed(chosen))
      return failure();
    auto other = buildOffsetTensor(op, select.getFalseValue(), builder);
    if (failed(other))
      return failure();
    Value chosenOffsets = chosen->second;
    Value otherOffsets = other->second;
    if (other->first != chosen->first ||
        chosenOffsets.getType() != otherOffsets.getType()) {
      chosenOffsets = widen(chosenOffsets);
      otherOffsets = widen(otherOffsets);
    }
    if (other->first != chosen->first) {
      Type i64 = builder.getI64Type();
      Value distance = arith::DivSIOp::create(
          builder, loc,
          arith::SubIOp::create(
              builder, loc,
              tt::PtrToIntOp::create(builder, loc, i64, other->first),
              tt::PtrToIntOp::create(builder, loc, i64, chosen->first)),
          arith::ConstantIntOp::create(builder, loc, i64,
                                       getPointeeBytes(pointer)));
      otherOffsets = arith::AddIOp::create(
          builder, loc, otherOffsets,
          tt::SplatOp::create(builder, loc, offsetType, distance));
    }
    Value offsets = arith::SelectOp::create(builder, loc, select.getCondition(),
                                            chosenOffsets, otherOffsets);
    return std::make_pair(chosen->first, offsets);
  }
  // Pointers reinterpreted as pointers to elements of the same size keep
  // their offsets (the access casts the base).
  if (auto bitcast = dyn_cast_if_present<tt::BitcastOp>(def);
      bitcast && getPointeeBytes(bitcast.getSrc()) == getPointeeBytes(pointer))
    return buildOffsetTensor(op, bitcast.getSrc(), builder);
  if (isa_and_present<tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp>(def)) {
    auto inner = buildOffsetTensor(op, def->getOperand(0), builder);
    if (failed(inner))
      return failure();
    OperationState state(
        loc, def->getName(), ValueRange{inner->second},
        TypeRange{pointerType.clone(getElementTypeOrSelf(inner->second))},
        def->getAttrs());
    Value reshaped = builder.create(state)->getResult(0);
    return std::make_pair(inner->first, reshaped);
  }
  return op->emitError("the pointers of this access are computed by '")
             << def->getName()
             << "', which the indexed DMA lowering does not support yet",
         failure();
}

/// The base and the index tile of an access with unstructured pointers.
FailureOr<std::pair<Value, Value>>
AccessLowering::buildOffsetTile(Operation *op, Value pointer,
                                OpBuilder &builder) {
  auto offsets = buildOffsetTensor(op, pointer, builder);
  if (failed(offsets))
    return failure();
  FailureOr<Value> tileValue = convertToTile(op, offsets->second, builder);
  if (failed(tileValue))
    return failure();
  return std::make_pair(offsets->first, *tileValue);
}

/// Converts the tensor computation of `value` to tile ops before the
/// builder's point: the operations it depends on are copied and the
/// copies converted, so the originals keep serving other accesses.
FailureOr<Value> AccessLowering::convertToTile(Operation *op, Value value,
                                               OpBuilder &builder) {
  // Index and mask computations broadcast rows and columns into blocks;
  // recomputed at the block's shape they need no memory-layout unit.
  SmallVector<Operation *> lifted;
  if (FailureOr<Value> full = liftToFullShape(value, lifted); succeeded(full))
    value = *full;
  llvm::scope_exit eraseLifted([&] {
    for (Operation *liftedOp : llvm::reverse(lifted))
      if (liftedOp->use_empty())
        liftedOp->erase();
  });
  // The tensor operations `value` depends on, definitions first.
  SetVector<Operation *> chain;
  std::function<LogicalResult(Value)> collect = [&](Value v) -> LogicalResult {
    if (!isValueTensor(v.getType()))
      return success();
    Operation *def = v.getDefiningOp();
    if (!def)
      return op->emitError("the addresses or mask of this access depend on "
                           "a tensor carried by a loop, which the indexed "
                           "DMA lowering does not support yet");
    // A tile already computed (a loaded tensor) ends the chain.
    if (auto toTensor = dyn_cast<UnrealizedConversionCastOp>(def);
        toTensor && isa<tile::TileType>(toTensor.getInputs()[0].getType()))
      return success();
    if (def->getNumRegions() != 0)
      return op->emitError("the addresses or mask of this access are "
                           "computed by '")
             << def->getName() << "', which the indexed DMA lowering does "
             << "not support yet";
    if (chain.contains(def))
      return success();
    for (Value operand : def->getOperands())
      if (failed(collect(operand)))
        return failure();
    chain.insert(def);
    return success();
  };
  if (failed(collect(value)))
    return failure();
  IRMapping mapping;
  SmallVector<Operation *> copies;
  for (Operation *original : chain) {
    OpBuilder after(original->getContext());
    after.setInsertionPointAfter(original);
    copies.push_back(after.clone(*original, mapping));
  }
  Value root = mapping.lookupOrDefault(value);
  auto tileType = cast<tile::TileType>(converter.convertType(value.getType()));
  auto anchor =
      UnrealizedConversionCastOp::create(builder, op->getLoc(), tileType, root);
  ConversionTarget target(*function.getContext());
  DenseSet<Operation *> toConvert(copies.begin(), copies.end());
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *candidate) { return !toConvert.contains(candidate); });
  RewritePatternSet patterns(function.getContext());
  populateTileConversionPatterns(converter, patterns);
  if (failed(applyPartialConversion(copies, target, std::move(patterns))))
    return failure();
  Value tileValue = foldCastPair(anchor);
  return tileValue;
}

/// `value`, a tensor computed from `tt.make_range`, `tt.splat`, splat
/// constants, `tt.expand_dims`, `tt.broadcast`, `tt.trans` and elementwise
/// operations, recomputed with every operation at the shape of the
/// dimensions of `value` it varies along (the others of size 1), in the
/// rank of `value`: a range becomes the coordinate of its dimension (an
/// iota of that shape, on the SIMD engine), splats and splat constants take
/// the shape of the operation that reads them, expansions and
/// transpositions disappear, and an operation of operands that vary along
/// fewer dimensions broadcasts them (the SIMD engine reads such a broadcast
/// with stride 0 and stores nothing). The offsets `rows[:, None] * stride +
/// cols[None, :]` of a block are then one column and one row added into the
/// block, not two blocks of coordinates. The new operations (appended to
/// `created`) follow `value`'s definition. Fails, creating nothing that is
/// used, for any other operation.
FailureOr<Value>
AccessLowering::liftToFullShape(Value value,
                                SmallVectorImpl<Operation *> &created) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Operation *def = value.getDefiningOp();
  if (!type || type.getRank() == 0 || type.getRank() > 64 || !def)
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  Location loc = def->getLoc();
  OpBuilder builder(def->getContext());
  builder.setInsertionPointAfter(def);
  // The dimensions of `value` a lifted value varies along, as bits.
  using Span = uint64_t;
  Span allDims = shape.size() == 64 ? ~Span(0) : (Span(1) << shape.size()) - 1;
  auto spanType = [&](Span span, Type elementType) {
    SmallVector<int64_t> spanShape;
    for (auto [dim, size] : llvm::enumerate(shape))
      spanShape.push_back(span >> dim & 1 ? size : 1);
    return RankedTensorType::get(spanShape, elementType);
  };
  auto record = [&](Value result) {
    created.push_back(result.getDefiningOp());
    return result;
  };
  /// A lifted value: a tensor of the shape of its span, or a uniform value
  /// (the scalar of a splat, or a splat constant) that takes the shape of
  /// what reads it.
  struct Lifted {
    Value tensor;
    Span span = 0;
    Value scalar;
    DenseElementsAttr constant;
  };
  // `lifted` at the shape of `span` (which holds its own).
  auto reshapeTo = [&](const Lifted &lifted, Span span,
                       Type elementType) -> Value {
    RankedTensorType target = spanType(span, elementType);
    if (lifted.scalar)
      return record(tt::SplatOp::create(builder, loc, target, lifted.scalar));
    if (lifted.constant)
      return record(arith::ConstantOp::create(
          builder, loc,
          DenseElementsAttr(lifted.constant).resizeSplat(target)));
    if (lifted.span == span)
      return lifted.tensor;
    return record(tt::BroadcastOp::create(builder, loc, target, lifted.tensor));
  };
  std::map<std::pair<void *, SmallVector<int64_t>>, Lifted> cache;
  // `dims[i]` is the dimension of `value` that dimension i of `v` spans.
  std::function<FailureOr<Lifted>(Value, SmallVector<int64_t>)> lift =
      [&](Value v, SmallVector<int64_t> dims) -> FailureOr<Lifted> {
    auto key = std::make_pair(v.getAsOpaquePointer(), dims);
    if (auto found = cache.find(key); found != cache.end())
      return found->second;
    auto vType = dyn_cast<RankedTensorType>(v.getType());
    Operation *vDef = v.getDefiningOp();
    if (!vType || !vDef)
      return failure();
    Type elementType = vType.getElementType();
    FailureOr<Lifted> result = failure();
    bool identity = vType.getShape() == shape &&
                    llvm::equal(dims, llvm::seq<int64_t>(0, shape.size()));
    if (auto range = dyn_cast<tt::MakeRangeOp>(vDef)) {
      int64_t length = range.getEnd() - range.getStart();
      int64_t dim = dims.front();
      auto start = [&](RankedTensorType startType) {
        return DenseElementsAttr::get(
            startType, builder.getI32IntegerAttr(range.getStart()));
      };
      if (length == 1) {
        result = Lifted{{}, 0, {}, start(vType)};
      } else if (length == shape[dim]) {
        Span span = Span(1) << dim;
        RankedTensorType coordinatesType = spanType(span, elementType);
        Value coordinates =
            record(UnrealizedConversionCastOp::create(
                       builder, loc, coordinatesType,
                       record(buildCoordinates(dim, shape, builder, loc)))
                       .getResult(0));
        if (range.getStart() != 0)
          coordinates = record(arith::AddIOp::create(
              builder, loc, coordinates,
              record(arith::ConstantOp::create(builder, loc,
                                               start(coordinatesType)))));
        result = Lifted{coordinates, span, {}, {}};
      }
    } else if (auto splat = dyn_cast<tt::SplatOp>(vDef)) {
      result = Lifted{{}, 0, splat.getSrc(), {}};
    } else if (auto constant = dyn_cast<arith::ConstantOp>(vDef)) {
      if (auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
          elements && elements.isSplat())
        result = Lifted{{}, 0, {}, elements};
    } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(vDef)) {
      SmallVector<int64_t> inner(dims);
      inner.erase(inner.begin() + expand.getAxis());
      result = lift(expand.getSrc(), inner);
    } else if (auto broadcast = dyn_cast<tt::BroadcastOp>(vDef)) {
      result = lift(broadcast.getSrc(), dims);
    } else if (auto trans = dyn_cast<tt::TransOp>(vDef)) {
      SmallVector<int64_t> inner(dims.size());
      for (auto [position, source] : llvm::enumerate(trans.getOrder()))
        inner[source] = dims[position];
      result = lift(trans.getSrc(), inner);
    } else if (identity && isa<UnrealizedConversionCastOp>(vDef)) {
      result = Lifted{v, allDims, {}, {}};
    } else if (vDef->hasTrait<OpTrait::Elementwise>() &&
               vDef->getNumResults() == 1 && vDef->getNumRegions() == 0) {
      SmallVector<std::optional<Lifted>> operands;
      Span span = 0;
      for (Value operand : vDef->getOperands()) {
        if (!isa<RankedTensorType>(operand.getType())) {
          operands.push_back(std::nullopt);
          continue;
        }
        FailureOr<Lifted> liftedOperand = lift(operand, dims);
        if (failed(liftedOperand))
          return failure();
        span |= liftedOperand->span;
        operands.push_back(*liftedOperand);
      }
      SmallVector<Value> values;
      for (auto [operand, lifted] : llvm::zip(vDef->getOperands(), operands))
        values.push_back(
            lifted ? reshapeTo(*lifted, span,
                               getElementTypeOrSelf(operand.getType()))
                   : operand);
      OperationState state(loc, vDef->getName(), values,
                           TypeRange{spanType(span, elementType)},
                           vDef->getAttrs());
      result =
          Lifted{record(builder.create(state)->getResult(0)), span, {}, {}};
    }
    if (succeeded(result))
      cache[key] = *result;
    return result;
  };
  FailureOr<Lifted> root =
      lift(value, llvm::to_vector(llvm::seq<int64_t>(0, shape.size())));
  if (failed(root))
    return failure();
  return reshapeTo(*root, allDims, type.getElementType());
}

namespace {

/// The bytes of index tile one strip of a gathered or scattered page takes
/// at most, and the strips one transfer is unrolled into at most.
constexpr int64_t kGatherStripBytes = 4096;
constexpr int64_t kMaxGatherStrips = 16;

/// Recomputes index and mask tiles on blocks of their rows: the tile
/// computations that span `rows` rows (iotas, splats, splat constants,
/// broadcasts and elementwise operations) are copied at the block's shape,
/// an iota starting at the block's first position; tiles of one row (a
/// row of column offsets broadcast down the block) and scalars are shared
/// by every block.
class RowBlocks {
public:
  explicit RowBlocks(int64_t rows) : rows(rows) {}

  /// Whether `value` can be computed on a block of its rows.
  bool isSliceable(Value value) const {
    auto type = cast<tile::TileType>(value.getType());
    if (!spansRows(type))
      return type.getRank() == 0 || type.getShape().front() == 1;
    Operation *def = value.getDefiningOp();
    if (isa_and_present<tile::IotaOp, tile::SplatOp>(def))
      return true;
    if (auto constant = dyn_cast_if_present<tile::ConstantOp>(def))
      return isa<SplatElementsAttr>(constant.getValue());
    if (auto broadcast = dyn_cast_if_present<tile::BroadcastOp>(def))
      return !broadcast.getDimensions() && isSliceable(broadcast.getSource());
    if (!isa_and_present<tile::BinaryOp, tile::UnaryOp, tile::CmpIOp,
                         tile::CmpFOp, tile::SelectOp, tile::CastOp>(def))
      return false;
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return isSliceable(operand); });
  }

  /// `value` on rows [firstRow, firstRow + blockRows), computed at the
  /// builder's point (`isSliceable(value)` must hold); `copies` holds the
  /// block's values computed so far.
  Value slice(Value value, int64_t firstRow, int64_t blockRows,
              OpBuilder &builder, IRMapping &copies) const {
    auto type = cast<tile::TileType>(value.getType());
    if (!spansRows(type))
      return value;
    if (Value copy = copies.lookupOrNull(value))
      return copy;
    Operation *def = value.getDefiningOp();
    for (Value operand : def->getOperands())
      if (isa<tile::TileType>(operand.getType()))
        copies.map(operand,
                   slice(operand, firstRow, blockRows, builder, copies));
    Operation *copy = builder.clone(*def, copies);
    SmallVector<int64_t> shape(type.getShape());
    shape.front() = blockRows;
    auto blockType = type.withShape(shape);
    copy->getResult(0).setType(blockType);
    if (auto iota = dyn_cast<tile::IotaOp>(copy))
      iota.setStart(iota.getStart() +
                    firstRow * (type.getNumElements() / rows));
    if (auto constant = dyn_cast<tile::ConstantOp>(copy))
      constant.setValueAttr(cast<SplatElementsAttr>(constant.getValue())
                                .resizeSplat(RankedTensorType::get(
                                    shape, type.getElementType())));
    return copy->getResult(0);
  }

private:
  bool spansRows(tile::TileType type) const {
    return type.getRank() > 0 && type.getShape().front() == rows;
  }

  int64_t rows;
};

/// The rows of the strips a page of `pageType` is gathered or scattered in
/// through index tiles of `indexType`: the most rows, a divisor of the page's,
/// whose index tile fits kGatherStripBytes, in at most kMaxGatherStrips strips
/// that start at 8-byte offsets of the page; 0 when the page is gathered at
/// once.
int64_t getGatherStripRows(tile::TileType indexType, tile::TileType pageType) {
  // Blocks of rows are contiguous in row-major tiles only.
  if (indexType.getRank() < 2 || !pageType.isRowMajor() ||
      !indexType.isRowMajor())
    return 0;
  int64_t rows = indexType.getShape().front();
  int64_t rowElements = indexType.getNumElements() / rows;
  int64_t indexRowBytes =
      rowElements * getElementBytes(indexType.getElementType());
  int64_t stripRows = rows;
  while (stripRows % 2 == 0 && stripRows * indexRowBytes > kGatherStripBytes &&
         rows / (stripRows / 2) <= kMaxGatherStrips)
    stripRows /= 2;
  int64_t pageRowBytes =
      rowElements * getElementBytes(pageType.getElementType());
  if (stripRows == rows || (stripRows * pageRowBytes) % 8 != 0)
    return 0;
  return stripRows;
}

/// Erases the side-effect-free definitions of `roots` that nothing uses and,
/// transitively, what only they used. Each operation is erased once, when
/// its last user has gone: computations share operands (an iota read twice).
void eraseDeadDefinitions(ArrayRef<Value> roots) {
  SmallVector<Operation *> worklist;
  for (Value root : roots)
    if (Operation *def = root ? root.getDefiningOp() : nullptr;
        def && !llvm::is_contained(worklist, def))
      worklist.push_back(def);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op->use_empty() || !isMemoryEffectFree(op))
      continue;
    SmallVector<Operation *> producers;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.push_back(def);
    op->erase();
    // An erased operation had no users left, so it is never a producer of
    // one erased later; a producer waits in the list once.
    for (Operation *producer : producers)
      if (!llvm::is_contained(worklist, producer))
        worklist.push_back(producer);
  }
}

} // namespace

void AccessLowering::emitInRowStrips(
    OpBuilder &builder, const StructuredAccess &transfer,
    tile::TileType pageType,
    function_ref<void(Value indices, Value mask, int64_t row)> emit) {
  auto indexType = cast<tile::TileType>(transfer.indices.getType());
  int64_t stripRows =
      transfer.fallback ? getGatherStripRows(indexType, pageType) : 0;
  RowBlocks blocks(stripRows ? indexType.getShape().front() : 0);
  if (!stripRows || !blocks.isSliceable(transfer.indices) ||
      (transfer.mask && !blocks.isSliceable(transfer.mask))) {
    emit(transfer.indices, transfer.mask, 0);
    return;
  }
  for (int64_t firstRow = 0; firstRow < indexType.getShape().front();
       firstRow += stripRows) {
    IRMapping copies;
    Value indices =
        blocks.slice(transfer.indices, firstRow, stripRows, builder, copies);
    Value mask = transfer.mask ? blocks.slice(transfer.mask, firstRow,
                                              stripRows, builder, copies)
                               : Value();
    emit(indices, mask, firstRow);
  }
  eraseDeadDefinitions({transfer.indices, transfer.mask});
}

/// Replaces a tensor -> tile cast of a tile -> tensor cast by the tile.
Value AccessLowering::foldCastPair(UnrealizedConversionCastOp toTile) {
  auto toTensor =
      toTile.getInputs()[0].getDefiningOp<UnrealizedConversionCastOp>();
  if (!toTensor ||
      toTensor.getInputs()[0].getType() != toTile.getResult(0).getType())
    return toTile.getResult(0);
  Value tileValue = toTensor.getInputs()[0];
  toTile.getResult(0).replaceAllUsesWith(tileValue);
  toTile.erase();
  if (toTensor->use_empty())
    toTensor.erase();
  return tileValue;
}

/// Removes the casts between tiles and tensors that the conversion of
/// address computations leaves around loaded tiles.
void AccessLowering::foldCastPairs() {
  SmallVector<UnrealizedConversionCastOp> casts;
  function.walk([&](UnrealizedConversionCastOp cast) {
    if (isa<tile::TileType>(cast.getResult(0).getType()))
      casts.push_back(cast);
  });
  for (UnrealizedConversionCastOp cast : casts)
    foldCastPair(cast);
}
