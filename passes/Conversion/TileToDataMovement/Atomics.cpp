//===- Atomics.cpp - Atomics ----------------------------------------------===//
//
// Tensor atomics become indexed atomics of the DMA engine; the values they
// read come back through a page.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mtia;

dma::AtomicKind AccessLowering::getAtomicKind(tt::RMWOp op) {
  switch (op) {
  case tt::RMWOp::AND:
    return dma::AtomicKind::And;
  case tt::RMWOp::OR:
    return dma::AtomicKind::Or;
  case tt::RMWOp::XOR:
    return dma::AtomicKind::XOr;
  case tt::RMWOp::ADD:
    return dma::AtomicKind::Add;
  case tt::RMWOp::FADD:
    return dma::AtomicKind::FAdd;
  case tt::RMWOp::MAX:
    return dma::AtomicKind::Max;
  case tt::RMWOp::MIN:
    return dma::AtomicKind::Min;
  case tt::RMWOp::UMAX:
    return dma::AtomicKind::UMax;
  case tt::RMWOp::UMIN:
    return dma::AtomicKind::UMin;
  case tt::RMWOp::XCHG:
    return dma::AtomicKind::Exchange;
  }
  llvm_unreachable("unknown atomic kind");
}

dma::MemoryOrder AccessLowering::getMemoryOrder(tt::MemSemantic semantic) {
  switch (semantic) {
  case tt::MemSemantic::RELAXED:
    return dma::MemoryOrder::Relaxed;
  case tt::MemSemantic::ACQUIRE:
    return dma::MemoryOrder::Acquire;
  case tt::MemSemantic::RELEASE:
    return dma::MemoryOrder::Release;
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return dma::MemoryOrder::AcquireRelease;
  }
  llvm_unreachable("unknown memory semantic");
}

dma::MemoryScope AccessLowering::getMemoryScope(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::CTA:
    return dma::MemoryScope::PE;
  case tt::MemSyncScope::GPU:
    return dma::MemoryScope::Chip;
  case tt::MemSyncScope::SYSTEM:
    return dma::MemoryScope::System;
  }
  llvm_unreachable("unknown memory scope");
}

/// An atomic read-modify-write becomes an indexed atomic of the DMA
/// engine: the values and the element offsets are tiles.
LogicalResult AccessLowering::lowerAtomic(tt::AtomicRMWOp atomic) {
  Type valueType = atomic.getVal().getType();
  // A scalar atomic whose old value is used runs on the control core,
  // which waits for that value.
  if (!isa<RankedTensorType>(valueType) && !atomic.getResult().use_empty())
    return success();
  SmallVector<int64_t> shape;
  if (auto tensorType = dyn_cast<RankedTensorType>(valueType))
    shape.assign(tensorType.getShape().begin(), tensorType.getShape().end());
  auto tileType = tile::TileType::get(shape, getElementTypeOrSelf(valueType));
  Location loc = atomic.getLoc();
  OpBuilder builder(atomic);
  // A scalar mask is a condition on the whole access; a tensor mask must
  // be structured, like the masks of loads and stores.
  Value scalarMask;
  Value tensorMask = atomic.getMask();
  if (tensorMask && !isa<RankedTensorType>(tensorMask.getType())) {
    scalarMask = tensorMask;
    tensorMask = Value();
  }
  FailureOr<StructuredAccess> access =
      analyzeAccess(atomic, atomic.getPtr(), tensorMask, shape, builder,
                    /*strided=*/false);
  if (failed(access))
    return failure();
  Value values = getTileOf(atomic.getVal(), tileType, builder, loc);
  Value base = access->base;
  Value indices = access->indices ? access->indices
                                  : buildIndexTile(atomic, *access->pointer,
                                                   shape, builder, base);
  Value mask = access->aligned
                   ? buildBoundsMask(access->bounds, shape, builder, loc)
                   : access->mask;
  APInt alwaysTrue;
  if (scalarMask && !(matchPattern(scalarMask, m_ConstantInt(&alwaysTrue)) &&
                      alwaysTrue.isOne())) {
    Value condition = tile::SplatOp::create(
        builder, loc, tileType.withElementType(builder.getI1Type()),
        scalarMask);
    mask = mask
               ? tile::BinaryOp::create(builder, loc, condition.getType(),
                                        tile::BinaryKind::AndI, mask, condition)
                     .getResult()
               : condition;
  }
  cb::AllocOp oldValues = reserveOldValues(atomic, tileType, builder);
  dma::AtomicRMWOp::create(
      builder, loc, dma::TokenType::get(atomic.getContext()),
      getAtomicKind(atomic.getAtomicRmwOp()), getMemoryOrder(atomic.getSem()),
      getMemoryScope(atomic.getScope()), base, indices, values, mask,
      oldValues ? oldValues.getResult() : Value(),
      oldValues ? builder.getI64IntegerAttr(0) : IntegerAttr());
  consumeOldValues(atomic, oldValues, builder);
  Operation *valueSource = atomic.getVal().getDefiningOp();
  atomic.erase();
  if (valueSource && valueSource->use_empty() &&
      isa<UnrealizedConversionCastOp, tile::ExtractOp>(valueSource))
    valueSource->erase();
  return success();
}

/// Whether the values an atomic read are used outside its block (as a
/// tensor, or as the tile the tile stage casts it to).
bool AccessLowering::areOldValuesUsedElsewhere(Operation *atomic) {
  Value result = atomic->getResult(0);
  Block *block = atomic->getBlock();
  return isUsedOutside(result, block) ||
         llvm::any_of(result.getUsers(), [&](Operation *user) {
           return isa<UnrealizedConversionCastOp>(user) &&
                  isUsedOutside(user->getResult(0), block);
         });
}

/// The buffer a tensor atomic writes the values it read into, reserved,
/// when they are used; null otherwise.
cb::AllocOp AccessLowering::reserveOldValues(Operation *atomic,
                                             tile::TileType tileType,
                                             OpBuilder &builder) {
  Value result = atomic->getResult(0);
  if (result.use_empty())
    return nullptr;
  tile::Unit consumer = tile::Unit::SIMD;
  for (OpOperand &use : result.getUses())
    if (auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner()))
      for (OpOperand &tileUse : toTile->getUses())
        if (std::optional<tile::Unit> unit = units.getUser(tileUse)) {
          consumer = *unit;
          break;
        }
  // See emitRead: the MLU copies old values used in other blocks.
  if (areOldValuesUsedElsewhere(atomic))
    consumer = tile::Unit::MLU;
  cb::AllocOp buffer =
      buffers.allocate("atomic", tileType, cb::Endpoint::DMAOut,
                       cb::getEndpoint(consumer), atomic->getLoc());
  cb::ReserveBackOp::create(builder, atomic->getLoc(), buffer, 1);
  return buffer;
}

/// Publishes the values an atomic read into `buffer` (if any) and makes
/// the tile read from it replace the atomic's result.
void AccessLowering::consumeOldValues(Operation *atomic, cb::AllocOp buffer,
                                      OpBuilder &builder) {
  if (!buffer)
    return;
  Location loc = atomic->getLoc();
  cb::PushBackOp::create(builder, loc, buffer, 1);
  Value result = atomic->getResult(0);
  bool usedElsewhere = areOldValuesUsedElsewhere(atomic);
  Value page =
      BufferBuilder::consume(buffer, builder, loc, [&](Value tileValue) {
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
          auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner());
          if (toTile && toTile.getResult(0).getType() == tileValue.getType()) {
            toTile.getResult(0).replaceAllUsesWith(tileValue);
            toTile.erase();
            continue;
          }
          // Addressing, stores of the tensor as it is: a tensor view.
          use.set(UnrealizedConversionCastOp::create(
                      builder, loc, result.getType(), tileValue)
                      .getResult(0));
        }
      });
  if (usedElsewhere)
    copyOutOfPage(page, builder, loc);
}

/// A compare-and-swap of a tensor becomes an indexed atomic of the DMA
/// engine; a scalar one runs on the control core.
LogicalResult AccessLowering::lowerAtomicCAS(tt::AtomicCASOp atomic) {
  auto tensorType = dyn_cast<RankedTensorType>(atomic.getVal().getType());
  if (!tensorType)
    return success();
  auto tileType =
      tile::TileType::get(tensorType.getShape(), tensorType.getElementType());
  Location loc = atomic.getLoc();
  OpBuilder builder(atomic);
  FailureOr<StructuredAccess> access =
      analyzeAccess(atomic, atomic.getPtr(), Value(), tensorType.getShape(),
                    builder, /*strided=*/false);
  if (failed(access))
    return failure();
  Value indices = access->indices ? access->indices
                                  : buildIndexTile(atomic, *access->pointer,
                                                   tensorType.getShape(),
                                                   builder, access->base);
  Value compare = getTileOf(atomic.getCmp(), tileType, builder, loc);
  Value value = getTileOf(atomic.getVal(), tileType, builder, loc);
  cb::AllocOp oldValues = reserveOldValues(atomic, tileType, builder);
  dma::AtomicCASOp::create(
      builder, loc, dma::TokenType::get(atomic.getContext()),
      getMemoryOrder(atomic.getSem()), getMemoryScope(atomic.getScope()),
      access->base, indices, compare, value,
      oldValues ? oldValues.getResult() : Value(),
      oldValues ? builder.getI64IntegerAttr(0) : IntegerAttr());
  consumeOldValues(atomic, oldValues, builder);
  atomic.erase();
  return success();
}
