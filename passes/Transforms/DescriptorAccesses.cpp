//===- DescriptorAccesses.cpp - Descriptor blocks as pointers -------------===//

#include "passes/Transforms/DescriptorAccesses.h"
#include "passes/Analysis/TensorDescriptors.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mtia;

namespace {

/// The pointers to the block of `descriptor` at `indices` and the mask of
/// its elements inside the tensor, in the shape of `type` (the block's, maybe
/// without leading dimensions of size 1, which Triton drops from the loaded
/// tensor and which then only place it).
std::pair<Value, Value> buildBlockPointers(OpBuilder &builder, Location loc,
                                           const Descriptor &descriptor,
                                           ValueRange indices,
                                           RankedTensorType type) {
  assertNonNegativeCoordinates(builder, loc, indices);
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  ArrayRef<int64_t> shape = type.getShape();
  auto rank = static_cast<int64_t>(indices.size());
  int64_t dropped = rank - type.getRank();
  auto offsetsType = RankedTensorType::get(shape, i64);
  auto maskType = RankedTensorType::get(shape, builder.getI1Type());
  // The dropped dimensions add a scalar offset and a scalar bound check.
  Value scalarOffset, scalarInside;
  Value offsets, mask;
  for (int64_t dim = 0; dim < rank; ++dim) {
    Value index = indices[dim], bound = descriptor.shape[dim];
    Value stride = descriptor.strides[dim];
    if (dim < dropped) {
      Value offset = arith::MulIOp::create(
          builder, loc, arith::ExtSIOp::create(builder, loc, i64, index),
          stride);
      Value inside = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::slt, index, bound);
      scalarOffset = scalarOffset ? arith::AddIOp::create(builder, loc,
                                                          scalarOffset, offset)
                                        .getResult()
                                  : offset;
      scalarInside = scalarInside ? arith::AndIOp::create(builder, loc,
                                                          scalarInside, inside)
                                        .getResult()
                                  : inside;
      continue;
    }
    int64_t tensorDim = dim - dropped;
    int64_t size = shape[tensorDim];
    // index + i along this dimension, as a tensor of size 1 elsewhere.
    auto rangeType = RankedTensorType::get({size}, i32);
    Value positions = arith::AddIOp::create(
        builder, loc, tt::MakeRangeOp::create(builder, loc, rangeType, 0, size),
        tt::SplatOp::create(builder, loc, rangeType, index));
    SmallVector<int64_t> positionShape = {size};
    for (int64_t other = 0; other < type.getRank(); ++other) {
      if (other == tensorDim)
        continue;
      positionShape.insert(positionShape.begin() + other, 1);
      positions = tt::ExpandDimsOp::create(
          builder, loc, RankedTensorType::get(positionShape, i32), positions,
          other);
    }
    auto positionType = cast<RankedTensorType>(positions.getType());
    auto splat = [&](Value scalar, Type element) {
      return tt::SplatOp::create(builder, loc, positionType.clone(element),
                                 scalar);
    };
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, positions, splat(bound, i32));
    Value offset = arith::MulIOp::create(
        builder, loc,
        arith::ExtSIOp::create(builder, loc, positionType.clone(i64),
                               positions),
        splat(stride, i64));
    if (positionShape != shape) {
      inside = tt::BroadcastOp::create(builder, loc, maskType, inside);
      offset = tt::BroadcastOp::create(builder, loc, offsetsType, offset);
    }
    offsets =
        offsets
            ? arith::AddIOp::create(builder, loc, offsets, offset).getResult()
            : offset;
    mask = mask ? arith::AndIOp::create(builder, loc, mask, inside).getResult()
                : inside;
  }
  if (scalarOffset) {
    offsets = arith::AddIOp::create(
        builder, loc, offsets,
        tt::SplatOp::create(builder, loc, offsetsType, scalarOffset));
    mask = arith::AndIOp::create(
        builder, loc, mask,
        tt::SplatOp::create(builder, loc, maskType, scalarInside));
  }
  // A descriptor from the host is its tensor's base.
  Value base = descriptor.base;
  if (isa<tt::TensorDescType>(base.getType()))
    base = dma::DescriptorBaseOp::create(
        builder, loc, tt::PointerType::get(type.getElementType()), base);
  auto pointersType = RankedTensorType::get(shape, base.getType());
  Value pointers = tt::AddPtrOp::create(
      builder, loc, pointersType,
      tt::SplatOp::create(builder, loc, pointersType, base), offsets);
  return {pointers, mask};
}

int64_t getBytes(RankedTensorType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

} // namespace

void mtia::rewriteLargeDescriptorAccesses(tt::FuncOp function, int64_t budget) {
  SmallVector<std::pair<Operation *, Descriptor>> accesses;
  function.walk([&](Operation *op) {
    auto load = dyn_cast<tt::DescriptorLoadOp>(op);
    auto store = dyn_cast<tt::DescriptorStoreOp>(op);
    if (!load && !store)
      return;
    auto block = cast<RankedTensorType>(load ? load.getType()
                                             : store.getSrc().getType());
    if (getBytes(block) <= budget)
      return;
    // A descriptor of neither form is left for the data-movement stage to
    // report.
    FailureOr<Descriptor> descriptor =
        getDescriptor(function, load ? load.getDesc() : store.getDesc());
    if (succeeded(descriptor))
      accesses.push_back({op, *descriptor});
  });
  for (auto &[op, descriptor] : accesses) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    if (auto load = dyn_cast<tt::DescriptorLoadOp>(op)) {
      auto type = cast<RankedTensorType>(load.getType());
      auto [pointers, mask] =
          buildBlockPointers(builder, loc, descriptor, load.getIndices(), type);
      Value zeros = arith::ConstantOp::create(
          builder, loc, type,
          DenseElementsAttr::get(type,
                                 builder.getZeroAttr(type.getElementType())));
      Value loaded = tt::LoadOp::create(
          builder, loc, type, pointers, mask, zeros, ArrayRef<int32_t>{},
          /*padding=*/nullptr, load.getCachePolicyAttr(),
          /*isVolatile=*/false);
      load.replaceAllUsesWith(loaded);
      load.erase();
      continue;
    }
    auto store = cast<tt::DescriptorStoreOp>(op);
    auto [pointers, mask] =
        buildBlockPointers(builder, loc, descriptor, store.getIndices(),
                           cast<RankedTensorType>(store.getSrc().getType()));
    tt::StoreOp::create(builder, loc, pointers, store.getSrc(), mask,
                        ArrayRef<int32_t>{}, /*cachePolicy=*/nullptr);
    store.erase();
  }
}
