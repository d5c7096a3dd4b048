//===- AccessLowering.cpp - The lowering of accesses ----------------------===//
//
// Analyses the pointer and mask of each access into a strided window or
// index and mask tiles, and dispatches the accesses by kind; the pass
// `mtia-lower-memory-accesses`, which then sinks what one branch of a
// versioned access alone uses into it and connects the units.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/TargetDescription.h"
#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"

namespace mtia {
#define GEN_PASS_DEF_LOWERMEMORYACCESSES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

int64_t mtia::getElementBytes(Type type) {
  return std::max<int64_t>(
      1, getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

Value mtia::indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

AccessLowering::AccessLowering(tt::FuncOp function, int64_t alignmentBytes,
                               int64_t cbMultiplier)
    : function(function), alignmentBytes(alignmentBytes),
      cbMultiplier(cbMultiplier), buffers(function) {}

LogicalResult AccessLowering::run() {
  SmallVector<Operation *> accesses;
  function.walk([&](Operation *op) {
    if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
            tt::DescriptorLoadOp, tt::DescriptorStoreOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    LogicalResult result = success();
    if (auto load = dyn_cast<tt::LoadOp>(op))
      result = lowerLoad(load);
    else if (auto store = dyn_cast<tt::StoreOp>(op))
      result = lowerStore(store);
    else if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
      result = lowerDescriptorLoad(load);
    else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
      result = lowerDescriptorStore(store);
    else if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
      result = lowerAtomicCAS(cas);
    else
      result = lowerAtomic(cast<tt::AtomicRMWOp>(op));
    if (failed(result))
      return failure();
  }
  if (failed(retypeDescriptorArguments()))
    return failure();
  foldCastPairs();
  return success();
}

/// The per-dimension counts of valid indices of a structured mask without
/// lower bounds, as index values.
SmallVector<Value> AccessLowering::materializeBounds(Location loc,
                                                     const MaskBounds *bounds,
                                                     ArrayRef<int64_t> shape,
                                                     OpBuilder &builder) {
  SmallVector<Value> result;
  Type index = builder.getIndexType();
  for (auto [dim, size] : llvm::enumerate(shape)) {
    Value bound = indexConstant(builder, loc, size);
    if (bounds) {
      for (const LinearExpr &upper : bounds->uppers[dim])
        bound = arith::MinSIOp::create(
            builder, loc, bound,
            analysis.materialize(upper, builder, loc, index));
      bound = arith::MaxSIOp::create(builder, loc, bound,
                                     indexConstant(builder, loc, 0));
    }
    result.push_back(bound);
  }
  if (!bounds || result.empty())
    return result;
  // Tile-wide conditions switch the whole transfer off.
  Value enabled;
  auto conjoin = [&](Value condition) {
    enabled = enabled ? arith::AndIOp::create(builder, loc, enabled, condition)
                      : condition;
  };
  for (Value condition : bounds->conditions)
    conjoin(condition);
  for (const LinearExpr &positive : bounds->positive)
    conjoin(arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt,
        analysis.materialize(positive, builder, loc, index),
        indexConstant(builder, loc, 0)));
  if (enabled)
    result.front() = arith::SelectOp::create(
        builder, loc, enabled, result.front(), indexConstant(builder, loc, 0));
  return result;
}

Value AccessLowering::buildCoordinates(int64_t dim, ArrayRef<int64_t> shape,
                                       OpBuilder &builder, Location loc) {
  // The row-major positions of a tile whose one dimension of more than one
  // element is `dim` are the indices along it.
  SmallVector<int64_t> coordinatesShape(shape.size(), 1);
  coordinatesShape[dim] = shape[dim];
  return tile::IotaOp::create(
      builder, loc, tile::TileType::get(coordinatesShape, builder.getI32Type()),
      0);
}

Value AccessLowering::broadcastTo(Value value, ArrayRef<int64_t> shape,
                                  OpBuilder &builder, Location loc) {
  auto type = cast<tile::TileType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return tile::BroadcastOp::create(builder, loc, type.withShape(shape), value,
                                   DenseI64ArrayAttr());
}

/// The element offsets `sum_d strides[d] * i_d` of a structured access
/// relative to `base`, which becomes the access's pointer plus its scalar
/// offset, as a tile of i32. Offsets within a block are 32-bit, as
/// Triton's are; where the strides are only known at run time, the
/// control core asserts that the block's span fits.
Value AccessLowering::buildIndexTile(Operation *op, const PointerAccess &access,
                                     ArrayRef<int64_t> shape,
                                     OpBuilder &builder, Value &base) {
  Location loc = op->getLoc();
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  // `base` is the access's base (cast to the accessed element type) and
  // becomes the base advanced by the offset. A host descriptor's argument
  // becomes a pointer to its base tensor.
  Type pointerType = base.getType();
  if (auto descType = dyn_cast<tt::TensorDescType>(pointerType))
    pointerType =
        tt::PointerType::get(descType.getBlockType().getElementType());
  base = tt::AddPtrOp::create(
      builder, loc, pointerType, base,
      analysis.materialize(access.offsets.offset, builder, loc, i64));
  auto indexType = tile::TileType::get(shape, i32);
  // Each dimension's term is computed along that dimension alone and
  // broadcast into the sum.
  Value indices;
  Value span = arith::ConstantIntOp::create(builder, loc, i64, 0);
  bool runtimeStrides = false;
  for (auto [dim, stride] : llvm::enumerate(access.offsets.strides)) {
    if (stride.isZero())
      continue;
    runtimeStrides |= !stride.getConstant();
    Value wide = analysis.materialize(stride, builder, loc, i64);
    Value negated = arith::SubIOp::create(
        builder, loc, arith::ConstantIntOp::create(builder, loc, i64, 0), wide);
    Value magnitude = arith::MaxSIOp::create(builder, loc, wide, negated);
    span = arith::AddIOp::create(
        builder, loc, span,
        arith::MulIOp::create(
            builder, loc, magnitude,
            arith::ConstantIntOp::create(builder, loc, i64, shape[dim] - 1)));
    Value along = buildCoordinates(dim, shape, builder, loc);
    auto alongType = cast<tile::TileType>(along.getType());
    Value strideTile =
        tile::SplatOp::create(builder, loc, alongType,
                              analysis.materialize(stride, builder, loc, i32));
    Value term = broadcastTo(tile::BinaryOp::create(builder, loc, alongType,
                                                    tile::BinaryKind::MulI,
                                                    along, strideTile),
                             shape, builder, loc);
    indices =
        indices ? tile::BinaryOp::create(builder, loc, indexType,
                                         tile::BinaryKind::AddI, indices, term)
                      .getResult()
                : term;
  }
  if (!indices)
    indices = createIntegerSplat(builder, loc, indexType, 0);
  if (runtimeStrides) {
    Value fits = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, span,
        arith::ConstantIntOp::create(builder, loc, i64, int64_t(1) << 31));
    tt::AssertOp::create(builder, loc, fits,
                         "the element offsets of a block exceed 32 bits");
  }
  return indices;
}

/// The mask of an indexed transfer: the index is below each bound. A tile
/// of rank 0 has no bounds and needs no mask.
Value AccessLowering::buildBoundsMask(ArrayRef<Value> bounds,
                                      ArrayRef<int64_t> shape,
                                      OpBuilder &builder, Location loc) {
  Type i32 = builder.getI32Type();
  auto boolType = tile::TileType::get(shape, builder.getI1Type());
  // Each dimension's bound is tested along that dimension alone and
  // broadcast into the conjunction.
  Value mask;
  for (auto [dim, bound] : llvm::enumerate(bounds)) {
    // A bound that is the whole dimension holds everywhere.
    if (getConstantIntValue(bound) == shape[dim])
      continue;
    Value along = buildCoordinates(dim, shape, builder, loc);
    auto alongType = cast<tile::TileType>(along.getType());
    Value limit = tile::SplatOp::create(
        builder, loc, alongType,
        arith::IndexCastOp::create(builder, loc, i32, bound));
    Value inside = broadcastTo(
        tile::CmpIOp::create(builder, loc,
                             alongType.withElementType(builder.getI1Type()),
                             tile::CmpIPredicate::SLT, along, limit),
        shape, builder, loc);
    mask = mask ? tile::BinaryOp::create(builder, loc, boolType,
                                         tile::BinaryKind::AndI, mask, inside)
                      .getResult()
                : inside;
  }
  return mask;
}

/// Analyses the pointer and mask of an access and materializes, before
/// `op`, what its transfer needs. A structured pointer of a load or store
/// (`strided`) gets a strided window: of bursts when every row is aligned
/// (versioned at run time when that depends on run-time values), element
/// by element otherwise or under a mask that is not a set of bounds (a
/// mask tile). Other accesses get index and mask tiles, computed from the
/// structure or, for what has none, by converting the address and mask
/// computations to tile ops.
FailureOr<StructuredAccess>
AccessLowering::analyzeAccess(Operation *op, Value pointer, Value mask,
                              ArrayRef<int64_t> shape, OpBuilder &builder,
                              bool strided) {
  Location loc = op->getLoc();
  StructuredAccess result;
  result.pointer = analysis.analyzePointer(pointer);
  std::optional<MaskBounds> bounds;
  if (mask)
    bounds = analysis.analyzeMask(mask);
  // A transfer's window starts at index 0 of every dimension; a mask with
  // lower bounds takes the indexed path with a mask tile.
  if (bounds && llvm::any_of(bounds->lowers, [](const auto &lowers) {
        return !lowers.empty();
      }))
    bounds.reset();
  if (!mask || bounds)
    result.bounds =
        materializeBounds(loc, bounds ? &*bounds : nullptr, shape, builder);
  int64_t elementBytes = getElementBytes(
      cast<tt::PointerType>(getElementTypeOrSelf(pointer.getType()))
          .getPointeeType());
  bool assumed = result.pointer && !result.pointer->offsets.assumptions.empty();
  if (result.pointer) {
    result.base = castBase(result.pointer->base, pointer, builder, loc);
    bool structuredMask = !mask || bounds;
    // A single element (a rank-0 tile) has no window: it is scattered.
    bool windowed = !shape.empty();
    if (windowed && strided && !assumed) {
      if (structuredMask && isProvablyAligned(analysis, *result.pointer,
                                              elementBytes, alignmentBytes)) {
        result.aligned = true;
        return result;
      }
      if (structuredMask &&
          mayBeAligned(*result.pointer, elementBytes, alignmentBytes)) {
        result.versioned = true;
        return result;
      }
      result.elementwise = true;
      if (!structuredMask) {
        FailureOr<Value> maskTile = convertToTile(op, mask, builder);
        if (failed(maskTile))
          return failure();
        result.mask = *maskTile;
      }
      return result;
    }
    result.versioned =
        windowed && strided && structuredMask &&
        mayBeAligned(*result.pointer, elementBytes, alignmentBytes);
    if (!assumed)
      result.indices =
          buildIndexTile(op, *result.pointer, shape, builder, result.base);
  }
  if (!result.pointer || assumed) {
    FailureOr<std::pair<Value, Value>> offsets =
        buildOffsetTile(op, pointer, builder);
    if (failed(offsets))
      return failure();
    std::tie(result.unstructuredBase, result.unstructuredIndices) = *offsets;
    result.unstructuredBase =
        castBase(result.unstructuredBase, pointer, builder, loc);
    if (result.versioned)
      return result;
    result.base = result.unstructuredBase;
    result.indices = result.unstructuredIndices;
  }
  if (mask && !bounds) {
    FailureOr<Value> maskTile = convertToTile(op, mask, builder);
    if (failed(maskTile))
      return failure();
    result.mask = *maskTile;
  } else {
    result.mask = buildBoundsMask(result.bounds, shape, builder, loc);
  }
  return result;
}

/// `base` as a pointer to the elements `pointer` points to (the analyses
/// see through bitcasts between pointers to elements of one size).
Value AccessLowering::castBase(Value base, Value pointer, OpBuilder &builder,
                               Location loc) {
  auto type = cast<tt::PointerType>(getElementTypeOrSelf(pointer.getType()));
  if (base.getType() == type)
    return base;
  return tt::BitcastOp::create(builder, loc, type, base);
}

SmallVector<Value>
AccessLowering::materializeStrides(const PointerAccess &access,
                                   OpBuilder &builder, Location loc) {
  return llvm::to_vector(
      llvm::map_range(access.offsets.strides, [&](const LinearExpr &stride) {
        return analysis.materialize(stride, builder, loc,
                                    builder.getIndexType());
      }));
}

/// The tile holding the elements of a value the tile stage left on
/// tensors or in a scalar: the tile it was cast from, the tile a scalar was
/// read from, or a tile filled with a scalar of the control core.
Value AccessLowering::getTileOf(Value value, tile::TileType type,
                                OpBuilder &builder, Location loc) {
  if (auto toTensor = value.getDefiningOp<UnrealizedConversionCastOp>())
    return toTensor.getInputs().front();
  if (auto extract = value.getDefiningOp<tile::ExtractOp>())
    return extract.getTile();
  return tile::SplatOp::create(builder, loc, type, value);
}

/// Whether `value` is used outside `block`, not only in the regions of its
/// operations.
bool AccessLowering::isUsedOutside(Value value, Block *block) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return !block->findAncestorOpInBlock(*user);
  });
}

/// Makes the MLU copy the tile read from a page right after the read, and
/// the copy replace it, so that the page is freed at once.
void AccessLowering::copyOutOfPage(Value page, OpBuilder &builder,
                                   Location loc) {
  auto copy = tile::CopyOp::create(builder, loc, page);
  page.replaceAllUsesExcept(copy.getResult(), copy);
}

namespace {

/// Moves the side-effect-free operations of the block of an `scf.if` whose
/// uses all lie in one of its branches into that branch: the index tiles of
/// the fallback of a versioned access (offsets clamped or wrapped into the
/// tensor, rows that may be misaligned) are then computed only when the
/// fallback runs, not in every iteration that takes the strided transfer.
/// What is computed outside a loop around the `scf.if` stays there, where
/// it runs once.
void sinkIntoBranches(tt::FuncOp function) {
  SmallVector<Region *> regions;
  function.walk([&](scf::IfOp branch) {
    getSinglyExecutedRegionsToSink(branch, regions);
  });
  DominanceInfo dominance(function);
  controlFlowSink(
      regions, dominance,
      [](Operation *op, Region *region) {
        return isMemoryEffectFree(op) &&
               op->getBlock() == region->getParentOp()->getBlock();
      },
      [](Operation *op, Region *region) {
        op->moveBefore(&region->front(), region->front().begin());
      });
}

struct LowerMemoryAccessesPass
    : public mtia::impl::LowerMemoryAccessesBase<LowerMemoryAccessesPass> {
  using LowerMemoryAccessesBase::LowerMemoryAccessesBase;

  void runOnOperation() override {
    if (cbMultiplier < 1) {
      getOperation().emitError()
          << "cb-multiplier must be at least 1, got " << cbMultiplier;
      return signalPassFailure();
    }
    FailureOr<TargetDesc> desc = getTargetDescription(getOperation());
    if (failed(desc))
      return signalPassFailure();
    WalkResult result = getOperation().walk([&](tt::FuncOp function) {
      AccessLowering lowering(function, desc->dmaAlignmentBytes, cbMultiplier);
      if (failed(lowering.run()))
        return WalkResult::interrupt();
      sinkIntoBranches(function);
      connectUnits(function, lowering.getUnits());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
