//===- ContiguousAccesses.cpp - Transfers along the contiguous dimension --===//
//
// A DMA transfer moves contiguous runs of memory: a block whose last (fastest
// varying in local memory) dimension has a stride other than one costs one
// transaction per element, each taking a whole transaction's bandwidth. The
// transposed operand of attention (`k_ptr + keys[None, :] * stride +
// dims[:, None]`) or a column-major matrix read that way moves
// sixteen times the bytes it needs for f16 data.
//
// When another dimension of such an access has stride one, this pass permutes
// the access so that dimension is the last: the load reads the block in memory
// order and a `tt.trans` (the memory-layout unit) puts it in the order the
// kernel asked for; a store is transposed first and then written in memory
// order. Pointer, mask and padding are permuted with `tt.trans` too, which
// the data-movement stage's pointer analysis sees through.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"
#include "passes/Analysis/PointerAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mtia {
#define GEN_PASS_DEF_CONTIGUOUSACCESSES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The permutation that makes the accessed block contiguous in its last
/// dimension, or nothing when it already is or no dimension has stride one.
/// The dimension of stride one moves last; the others keep their order.
std::optional<SmallVector<int32_t>>
getContiguousOrder(PointerAnalysis &analysis, Value pointer) {
  auto type = dyn_cast<RankedTensorType>(pointer.getType());
  if (!type || type.getRank() < 2 ||
      !isa<tt::PointerType>(type.getElementType()))
    return std::nullopt;
  std::optional<PointerAccess> access = analysis.analyzePointer(pointer);
  if (!access)
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t last = type.getRank() - 1;
  auto isUnitStride = [&](int64_t dim) {
    return access->offsets.strides[dim].getConstant() == 1;
  };
  if (shape[last] == 1 || isUnitStride(last))
    return std::nullopt;
  for (int64_t dim = last - 1; dim >= 0; --dim) {
    if (shape[dim] == 1 || !isUnitStride(dim))
      continue;
    SmallVector<int32_t> order;
    for (int64_t other = 0; other <= last; ++other)
      if (other != dim)
        order.push_back(other);
    order.push_back(dim);
    return order;
  }
  return std::nullopt;
}

SmallVector<int32_t> invert(ArrayRef<int32_t> order) {
  SmallVector<int32_t> inverse(order.size());
  for (auto [position, dim] : llvm::enumerate(order))
    inverse[dim] = position;
  return inverse;
}

/// `value` with its dimensions permuted by `order` (result dimension i is
/// source dimension order[i]); scalars are left as they are.
Value permute(OpBuilder &builder, Location loc, Value value,
              ArrayRef<int32_t> order) {
  auto type =
      dyn_cast_or_null<RankedTensorType>(value ? value.getType() : Type());
  if (!type)
    return value;
  SmallVector<int64_t> shape;
  for (int32_t dim : order)
    shape.push_back(type.getDimSize(dim));
  // Uniform values (the padding of a load, an all-true mask) stay splats,
  // which is what the lowering of loads recognizes.
  RankedTensorType permutedType = type.clone(shape);
  DenseElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)) && constant.isSplat())
    return arith::ConstantOp::create(builder, loc, permutedType,
                                     constant.resizeSplat(permutedType));
  if (auto splat = value.getDefiningOp<tt::SplatOp>())
    return tt::SplatOp::create(builder, loc, permutedType, splat.getSrc());
  return tt::TransOp::create(builder, loc, permutedType, value,
                             builder.getDenseI32ArrayAttr(order));
}

void makeContiguous(tt::LoadOp load, ArrayRef<int32_t> order) {
  OpBuilder builder(load);
  Location loc = load.getLoc();
  Value pointer = permute(builder, loc, load.getPtr(), order);
  Value mask = permute(builder, loc, load.getMask(), order);
  Value other = permute(builder, loc, load.getOther(), order);
  auto permuted = cast<tt::LoadOp>(builder.clone(*load));
  permuted.getPtrMutable().assign(pointer);
  if (mask)
    permuted.getMaskMutable().assign(mask);
  if (other)
    permuted.getOtherMutable().assign(other);
  permuted.getResult().setType(
      cast<RankedTensorType>(load.getType())
          .clone(cast<RankedTensorType>(pointer.getType()).getShape()));
  load.replaceAllUsesWith(
      permute(builder, loc, permuted.getResult(), invert(order)));
  load.erase();
}

void makeContiguous(tt::StoreOp store, ArrayRef<int32_t> order) {
  OpBuilder builder(store);
  Location loc = store.getLoc();
  store.getPtrMutable().assign(permute(builder, loc, store.getPtr(), order));
  store.getValueMutable().assign(
      permute(builder, loc, store.getValue(), order));
  if (Value mask = store.getMask())
    store.getMaskMutable().assign(permute(builder, loc, mask, order));
}

struct ContiguousAccessesPass
    : public mtia::impl::ContiguousAccessesBase<ContiguousAccessesPass> {
  void runOnOperation() override {
    PointerAnalysis analysis;
    SmallVector<std::pair<Operation *, SmallVector<int32_t>>> accesses;
    getOperation().walk([&](Operation *op) {
      Value pointer;
      if (auto load = dyn_cast<tt::LoadOp>(op))
        pointer = load.getPtr();
      else if (auto store = dyn_cast<tt::StoreOp>(op))
        pointer = store.getPtr();
      else
        return;
      if (std::optional<SmallVector<int32_t>> order =
              getContiguousOrder(analysis, pointer))
        accesses.emplace_back(op, std::move(*order));
    });
    // The analysis caches what it saw: rewrite only after it is done.
    for (auto &[op, order] : accesses) {
      if (auto load = dyn_cast<tt::LoadOp>(op))
        makeContiguous(load, order);
      else
        makeContiguous(cast<tt::StoreOp>(op), order);
    }
  }
};

} // namespace
