//===- LoadStore.cpp - Loads and stores -----------------------------------===//
//
// `tt.load` and `tt.store` become `dma.load`/`dma.gather` into a page and
// `dma.store`/`dma.scatter` out of one.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/PipelineStages.h"
#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mtia;

/// The scalar a load reads where its mask is false, from its `other`.
FailureOr<Value> AccessLowering::getPadding(tt::LoadOp load,
                                            OpBuilder &builder) {
  Value other = load.getOther();
  if (!other)
    return Value();
  auto otherCast = other.getDefiningOp<UnrealizedConversionCastOp>();
  Operation *source =
      otherCast ? otherCast.getInputs().front().getDefiningOp() : nullptr;
  if (auto splat = dyn_cast_if_present<tile::SplatOp>(source))
    return splat.getScalar();
  if (auto constant = dyn_cast_if_present<tile::ConstantOp>(source)) {
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (elements && elements.isSplat())
      return arith::ConstantOp::create(
                 builder, load.getLoc(),
                 cast<TypedAttr>(elements.getSplatValue<Attribute>()))
          .getResult();
  }
  return load.emitError("a load whose 'other' value differs between "
                        "elements is not supported by the DMA lowering yet"),
         failure();
}

void AccessLowering::routeStoresThroughTile(Value loaded,
                                            tile::TileType pageType) {
  for (OpOperand &use : llvm::make_early_inc_range(loaded.getUses())) {
    Operation *owner = use.getOwner();
    auto store = dyn_cast<tt::StoreOp>(owner);
    auto descriptorStore = dyn_cast<tt::DescriptorStoreOp>(owner);
    if (!(store && &use == &store.getValueMutable()) &&
        !(descriptorStore && &use == &descriptorStore.getSrcMutable()))
      continue;
    OpBuilder before(owner);
    auto toTile = UnrealizedConversionCastOp::create(before, loaded.getLoc(),
                                                     pageType, loaded);
    use.set(UnrealizedConversionCastOp::create(
                before, loaded.getLoc(), loaded.getType(), toTile.getResult(0))
                .getResult(0));
  }
}

LogicalResult AccessLowering::lowerLoad(tt::LoadOp load) {
  auto resultType = dyn_cast<RankedTensorType>(load.getType());
  if (!resultType)
    return success();
  auto pageType =
      tile::TileType::get(resultType.getShape(), resultType.getElementType());
  routeStoresThroughTile(load.getResult(), pageType);
  // A loaded tensor that computes addresses or masks (an index table)
  // becomes a tensor view of the loaded tile for the accesses that use it.
  Value addressing;
  SmallVector<UnrealizedConversionCastOp> casts;
  for (OpOperand &use : llvm::make_early_inc_range(load->getUses())) {
    if (auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner())) {
      casts.push_back(toTile);
      continue;
    }
    if (!addressing) {
      OpBuilder after(load->getContext());
      after.setInsertionPointAfter(load);
      auto toTile = UnrealizedConversionCastOp::create(
          after, load.getLoc(), pageType, load.getResult());
      casts.push_back(toTile);
      addressing = UnrealizedConversionCastOp::create(
                       after, load.getLoc(), resultType, toTile.getResult(0))
                       .getResult(0);
    }
    use.set(addressing);
  }
  OpBuilder builder(load);
  FailureOr<StructuredAccess> access = analyzeAccess(
      load, load.getPtr(), load.getMask(), resultType.getShape(), builder);
  if (failed(access))
    return failure();
  FailureOr<Value> padding = getPadding(load, builder);
  if (failed(padding))
    return failure();
  emitRead(load, *access, *padding, pageType, casts, builder);
  load.erase();
  return success();
}

/// The pages of the buffer of a load: more in a loop, where the DMA engine
/// runs ahead of the compute (getLoopLoadPages).
int64_t AccessLowering::getLoadPages(Operation *op,
                                     tile::TileType pageType) const {
  Operation *loop = op->getParentOfType<scf::ForOp>();
  if (!loop)
    loop = op->getParentOfType<scf::WhileOp>();
  if (!loop)
    return kTransferPages * cbMultiplier;
  return getLoopLoadPages(loop, pageType.getSizeInBytes()) * cbMultiplier;
}

/// Moves the elements of `access` into a CB page and makes the tile read
/// from it replace the casts of the tensor `op` produced.
void AccessLowering::emitRead(Operation *op, const StructuredAccess &access,
                              Value padding, tile::TileType pageType,
                              ArrayRef<UnrealizedConversionCastOp> casts,
                              OpBuilder &builder) {
  Location loc = op->getLoc();
  // The buffer is read by the unit of the first user of the tile, which
  // forwards it to the units of the other users. The DPE forwards a tile
  // by multiplying it (f32 and i32 only), so another unit forwards what
  // the DPE shares. The MLU, which copies the tile out of the page, reads
  // a tile used in other blocks (reached on some paths only): the page is
  // freed in this one.
  SmallVector<tile::Unit> userUnits;
  for (UnrealizedConversionCastOp toTile : casts)
    for (OpOperand &use : toTile->getUses())
      if (std::optional<tile::Unit> unit = units.getUser(use))
        userUnits.push_back(*unit);
  tile::Unit consumer =
      userUnits.empty() ? tile::Unit::SIMD : userUnits.front();
  if (consumer == tile::Unit::DPE)
    for (tile::Unit unit : userUnits)
      if (unit != tile::Unit::DPE) {
        consumer = unit;
        break;
      }
  bool usedElsewhere = llvm::any_of(casts, [&](auto toTile) {
    return isUsedOutside(toTile.getResult(0), op->getBlock());
  });
  if (usedElsewhere)
    consumer = tile::Unit::MLU;
  // Pages beyond two let the DMA engine fill more than the page after the
  // one the consumer works on.
  int64_t pages = getLoadPages(op, pageType);
  cb::AllocOp buffer = buffers.allocate(
      "load", pageType, cb::Endpoint::DMAIn, cb::getEndpoint(consumer), loc,
      pages, std::max<int64_t>(pages - kTransferPages, 0));
  auto token = dma::TokenType::get(op->getContext());
  cb::ReserveBackOp::create(builder, loc, buffer, 1);
  auto strided = [&](OpBuilder &at, bool elementwise) {
    dma::LoadOp::create(
        at, loc, token, access.base,
        analysis.materialize(access.pointer->offsets.offset, at, loc,
                             at.getIndexType()),
        materializeStrides(*access.pointer, at, loc), access.bounds,
        access.elementwise ? access.mask : Value(), padding, buffer,
        at.getI64IntegerAttr(0), elementwise ? at.getUnitAttr() : UnitAttr());
  };
  auto indexed = [&](OpBuilder &at, const StructuredAccess &transfer) {
    emitInRowStrips(at, transfer, pageType,
                    [&](Value indices, Value mask, int64_t row) {
                      dma::GatherOp::create(at, loc, token, transfer.base,
                                            indices, mask, padding, buffer,
                                            /*page=*/0, row);
                    });
  };
  if (access.aligned || access.elementwise)
    strided(builder, access.elementwise);
  else if (access.versioned)
    emitVersioned(op, access, pageType.getShape(),
                  getElementBytes(pageType.getElementType()), builder, strided,
                  indexed);
  else
    indexed(builder, access);
  cb::PushBackOp::create(builder, loc, buffer, 1);
  Value page =
      BufferBuilder::consume(buffer, builder, loc, [&](Value tileValue) {
        for (UnrealizedConversionCastOp toTile : casts) {
          toTile.getResult(0).replaceAllUsesWith(tileValue);
          toTile.erase();
        }
      });
  if (usedElsewhere)
    copyOutOfPage(page, builder, loc);
}

LogicalResult AccessLowering::lowerStore(tt::StoreOp store) {
  Value value = store.getValue();
  Value tileValue;
  if (auto toTensor = value.getDefiningOp<UnrealizedConversionCastOp>())
    tileValue = toTensor.getInputs().front();
  else if (auto extract = value.getDefiningOp<tile::ExtractOp>())
    tileValue = extract.getTile();
  // A scalar the control core computed is stored by the core itself.
  if (!tileValue)
    return success();
  auto pageType = cast<tile::TileType>(tileValue.getType());
  OpBuilder builder(store);
  FailureOr<StructuredAccess> access = analyzeAccess(
      store, store.getPtr(), store.getMask(), pageType.getShape(), builder);
  if (failed(access))
    return failure();
  emitWrite(store, *access, tileValue, builder);
  Operation *scalarSource = store.getValue().getDefiningOp();
  store.erase();
  if (scalarSource && scalarSource->use_empty())
    scalarSource->erase();
  return success();
}

/// Moves `tileValue` through a CB page into the elements of `access`.
void AccessLowering::emitWrite(Operation *op, const StructuredAccess &access,
                               Value tileValue, OpBuilder &builder) {
  Location loc = op->getLoc();
  auto pageType = cast<tile::TileType>(tileValue.getType());
  cb::AllocOp buffer = buffers.allocate(
      "store", pageType, cb::getEndpoint(units.getOwner(tileValue)),
      cb::Endpoint::DMAOut, loc, kTransferPages * cbMultiplier);
  BufferBuilder::produce(buffer, tileValue, builder, loc);
  cb::WaitFrontOp::create(builder, loc, buffer, 1);
  auto token = dma::TokenType::get(op->getContext());
  auto strided = [&](OpBuilder &at, bool elementwise) {
    dma::StoreOp::create(
        at, loc, token, buffer, at.getI64IntegerAttr(0), access.base,
        analysis.materialize(access.pointer->offsets.offset, at, loc,
                             at.getIndexType()),
        materializeStrides(*access.pointer, at, loc), access.bounds,
        access.elementwise ? access.mask : Value(),
        elementwise ? at.getUnitAttr() : UnitAttr());
  };
  auto indexed = [&](OpBuilder &at, const StructuredAccess &transfer) {
    emitInRowStrips(
        at, transfer, pageType, [&](Value indices, Value mask, int64_t row) {
          dma::ScatterOp::create(at, loc, token, buffer,
                                 /*page=*/0, transfer.base, indices, mask, row);
        });
  };
  if (access.aligned || access.elementwise)
    strided(builder, access.elementwise);
  else if (access.versioned)
    emitVersioned(op, access, pageType.getShape(),
                  getElementBytes(pageType.getElementType()), builder, strided,
                  indexed);
  else
    indexed(builder, access);
  cb::PopFrontOp::create(builder, loc, buffer, 1);
}
