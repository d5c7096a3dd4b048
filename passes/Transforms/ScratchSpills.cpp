//===- ScratchSpills.cpp - Tiles through global scratch memory ------------===//
//
// Reshapes, concatenations and gathers of blocks too large for local memory,
// through scratch memory (see ScratchSpills.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ScratchSpills.h"
#include "passes/Analysis/AxisAnalysis.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <limits>

using namespace mlir;
using namespace mtia;

/// Returns the bytes of a tensor of `type`.
static int64_t getBytes(RankedTensorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

Value mtia::createPointers(OpBuilder &builder, Location loc, Value base,
                           Value offsets) {
  auto pointers =
      cast<RankedTensorType>(offsets.getType()).clone(base.getType());
  Value splat = tt::SplatOp::create(builder, loc, pointers, base);
  return tt::AddPtrOp::create(builder, loc, pointers, splat, offsets);
}

Value mtia::createLoad(OpBuilder &builder, Location loc, RankedTensorType type,
                       Value pointers) {
  return tt::LoadOp::create(builder, loc, type, pointers, /*mask=*/Value(),
                            /*other=*/Value(), ArrayRef<int32_t>{},
                            /*padding=*/nullptr, /*cachePolicy=*/nullptr,
                            /*isVolatile=*/false);
}

Value mtia::checkGatherIndices(OpBuilder &builder, Location loc, Value indices,
                               int64_t length) {
  auto indexType = cast<RankedTensorType>(indices.getType());
  Value notBelow =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, indices,
                            createSplatConstant(builder, loc, indexType, 0));
  Value below = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, indices,
      createSplatConstant(builder, loc, indexType, length));
  Value inSource = arith::AndIOp::create(builder, loc, notBelow, below);
  tt::AssertOp::create(builder, loc, inSource,
                       "an index of tl.gather lies outside its source");
  auto offsetType = indexType.clone(builder.getI32Type());
  unsigned width = indexType.getElementTypeBitWidth();
  if (width > 32)
    return arith::TruncIOp::create(builder, loc, offsetType, indices);
  if (width < 32)
    return arith::ExtSIOp::create(builder, loc, offsetType, indices);
  return indices;
}

namespace {

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
  unsigned axis = gather.getAxis();
  Value indices = checkGatherIndices(builder, loc, gather.getIndices(),
                                     source.getDimSize(axis));
  auto offsetType = cast<RankedTensorType>(indices.getType());
  // The indices select along the axis; the other dimensions are those of
  // the source.
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
