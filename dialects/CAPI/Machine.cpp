//===- Machine.cpp - C API of the tile, cb and dma dialects ---------------===//

#include "dialects/CAPI/Machine.h"
#include "dialects/CB/CBDialect.h"
#include "dialects/DMA/DMADialect.h"
#include "dialects/Tile/TileDialect.h"
#include "passes/Analysis/UnitAssignment.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mtia;

//===----------------------------------------------------------------------===//
// `tile` types
//===----------------------------------------------------------------------===//

bool mtiaTypeIsATile(MlirType type) {
  return isa<tile::TileType>(unwrap(type));
}

MlirTypeID mtiaTileTypeGetTypeID(void) {
  return wrap(tile::TileType::getTypeID());
}

MlirType mtiaTileTypeGetChecked(MlirLocation loc, intptr_t rank,
                                const int64_t *shape, MlirType elementType,
                                intptr_t numOrder, const int64_t *order) {
  Location location = unwrap(loc);
  ArrayRef<int64_t> shapeRef(shape, rank);
  ArrayRef<int64_t> orderRef(order, numOrder);
  if (failed(tile::TileType::verify([&] { return emitError(location); },
                                    shapeRef, unwrap(elementType), orderRef)))
    return MlirType{nullptr};
  return wrap(tile::TileType::get(shapeRef, unwrap(elementType), orderRef));
}

void mtiaTileTypeGetDimensionOrder(MlirType type, int64_t *order) {
  llvm::copy(cast<tile::TileType>(unwrap(type)).getDimensionOrder(), order);
}

bool mtiaTileTypeIsRowMajor(MlirType type) {
  return cast<tile::TileType>(unwrap(type)).isRowMajor();
}

int64_t mtiaTileTypeGetSizeInBytes(MlirType type) {
  return cast<tile::TileType>(unwrap(type)).getSizeInBytes();
}

//===----------------------------------------------------------------------===//
// `tile` operations
//===----------------------------------------------------------------------===//

int32_t mtiaOpGetEndpoint(MlirOperation op) {
  std::optional<cb::Endpoint> endpoint = cb::getEndpointOf(unwrap(op));
  if (!endpoint)
    return -1;
  return static_cast<int32_t>(*endpoint);
}

int32_t mtiaTileValueGetHolder(MlirValue value) {
  // A tile read from a page is held by the buffer's consumer, which names
  // the DMA queue when a transfer reads it (the values of atomics).
  if (auto read = unwrap(value).getDefiningOp<cb::ReadFrontOp>())
    return static_cast<int32_t>(
        read.getCb().getDefiningOp<cb::AllocOp>().getConsumer());
  // A tile read from a pushed page is held by the buffer's producer.
  if (auto read = unwrap(value).getDefiningOp<cb::ReadPushedOp>())
    return static_cast<int32_t>(
        read.getCb().getDefiningOp<cb::AllocOp>().getProducer());
  tile::Unit owner = UnitAssignment().getOwner(unwrap(value));
  if (owner == tile::Unit::DMA)
    return -1;
  return static_cast<int32_t>(cb::getEndpoint(owner));
}

//===----------------------------------------------------------------------===//
// `cb` types
//===----------------------------------------------------------------------===//

bool mtiaTypeIsACircularBuffer(MlirType type) {
  return isa<cb::CircularBufferType>(unwrap(type));
}

MlirTypeID mtiaCircularBufferTypeGetTypeID(void) {
  return wrap(cb::CircularBufferType::getTypeID());
}

MlirType mtiaCircularBufferTypeGetChecked(MlirLocation loc, MlirType pageType,
                                          int64_t numPages) {
  Location location = unwrap(loc);
  auto page = cast<tile::TileType>(unwrap(pageType));
  if (failed(cb::CircularBufferType::verify([&] { return emitError(location); },
                                            page, numPages)))
    return MlirType{nullptr};
  return wrap(cb::CircularBufferType::get(page, numPages));
}

MlirType mtiaCircularBufferTypeGetPageType(MlirType type) {
  return wrap(cast<cb::CircularBufferType>(unwrap(type)).getPageType());
}

int64_t mtiaCircularBufferTypeGetNumPages(MlirType type) {
  return cast<cb::CircularBufferType>(unwrap(type)).getNumPages();
}

int64_t mtiaCircularBufferTypeGetSizeInBytes(MlirType type) {
  return cast<cb::CircularBufferType>(unwrap(type)).getSizeInBytes();
}

//===----------------------------------------------------------------------===//
// `dma` types
//===----------------------------------------------------------------------===//

bool mtiaTypeIsADMAToken(MlirType type) {
  return isa<dma::TokenType>(unwrap(type));
}

MlirTypeID mtiaDMATokenTypeGetTypeID(void) {
  return wrap(dma::TokenType::getTypeID());
}

MlirType mtiaDMATokenTypeGet(MlirContext context) {
  return wrap(dma::TokenType::get(unwrap(context)));
}
