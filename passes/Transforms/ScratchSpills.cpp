//===- ScratchSpills.cpp - Tiles through global scratch memory ------------===//

#include "passes/Transforms/ScratchSpills.h"
#include "passes/Analysis/AxisAnalysis.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

using namespace mlir;
using namespace mtia;

namespace {

/// Returns pointers to the elements of a tensor of `shape` stored in
/// row-major order from element `first` of `base`.
Value buildRowMajorPointers(OpBuilder &builder, Location loc, Value base,
                            ArrayRef<int64_t> shape, int64_t first = 0) {
  auto pointers = RankedTensorType::get(shape, base.getType());
  Value splat = tt::SplatOp::create(builder, loc, pointers, base);
  Value offsets = buildRowMajorOffsets(
      builder, loc, RankedTensorType::get(shape, builder.getI32Type()));
  if (first)
    offsets = arith::AddIOp::create(
        builder, loc, offsets,
        tt::SplatOp::create(builder, loc, offsets.getType(),
                            arith::ConstantIntOp::create(
                                builder, loc, builder.getI32Type(), first)));
  return tt::AddPtrOp::create(builder, loc, pointers, splat, offsets);
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

/// Whether `value` is an index: computed without memory effects from
/// ranges, splats and constants alone, which the strips compute again
/// rather than store.
bool isIndex(Value value, DenseMap<Value, bool> &known) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  Operation *producer = value.getDefiningOp();
  bool index = producer && producer->getNumRegions() == 0 &&
               isMemoryEffectFree(producer) &&
               llvm::all_of(producer->getOperands(), [&](Value operand) {
                 return !isa<RankedTensorType>(operand.getType()) ||
                        isIndex(operand, known);
               });
  known[value] = index;
  return index;
}

} // namespace

void mtia::spillThroughScratch(tt::FuncOp function, int64_t budget) {
  // The reshapes and concatenations to rewrite: their operands then lie in
  // row-major order, one after another, in one region.
  SmallVector<Operation *> spills;
  DenseMap<Value, bool> indices;
  function.walk([&](Operation *op) {
    if (!isa<tt::ReshapeOp, tt::CatOp>(op))
      return;
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    if (isSpillable(type) && bytes > budget &&
        llvm::none_of(op->getOperands(),
                      [&](Value operand) { return isIndex(operand, indices); }))
      spills.push_back(op);
  });
  for (Operation *op : spills) {
    Location loc = op->getLoc();
    OpBuilder builder(op);
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    Type pointer = tt::PointerType::get(result.getElementType());
    Value scratch = dma::ScratchOp::create(
        builder, loc, pointer,
        result.getNumElements() * result.getElementTypeBitWidth() / 8);
    int64_t first = 0;
    for (Value operand : op->getOperands()) {
      auto type = cast<RankedTensorType>(operand.getType());
      tt::StoreOp::create(
          builder, loc,
          buildRowMajorPointers(builder, loc, scratch, type.getShape(), first),
          operand, /*mask=*/Value(), ArrayRef<int32_t>{},
          /*cachePolicy=*/nullptr);
      first += type.getNumElements();
    }
    Value reloaded = tt::LoadOp::create(
        builder, loc, result,
        buildRowMajorPointers(builder, loc, scratch, result.getShape()),
        /*mask=*/Value(), /*other=*/Value(), ArrayRef<int32_t>{},
        /*padding=*/nullptr, /*cachePolicy=*/nullptr, /*isVolatile=*/false);
    op->getResult(0).replaceAllUsesWith(reloaded);
    op->erase();
  }
}
