//===- DMAOps.cpp - Operations of the `dma` dialect -----------------------===//
//
// Verifiers of the shapes, element types and static alignment of transfers,
// and the circular-buffer endpoints they implement.
//
//===----------------------------------------------------------------------===//

#include "dialects/DMA/DMADialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mtia::dma;
using mtia::cb::CircularBufferType;
using mtia::cb::Endpoint;
using mtia::tile::TileType;

#define GET_OP_CLASSES
#include "dialects/DMA/DMAOps.cpp.inc"

/// Checks that the page index lies within the buffer and that the elements
/// the base points to are the page's elements.
static LogicalResult verifyPageAndBase(Operation *op, CircularBufferType cb,
                                       int64_t page, Value base) {
  if (failed(mtia::cb::verifyPageIndex(op, cb, page)))
    return failure();
  Type pointee = cast<mtia::tt::PointerType>(base.getType()).getPointeeType();
  Type elementType = cb.getPageType().getElementType();
  if (pointee == elementType)
    return success();
  return op->emitOpError("base points to ")
         << pointee << " but the page holds " << elementType;
}

/// Checks that a value given in elements of `elementBytes` bytes keeps
/// global-memory accesses aligned, if it is a constant.
static LogicalResult verifyAlignedIfConstant(Operation *op, Value elements,
                                             int64_t elementBytes,
                                             StringRef what) {
  APInt value;
  if (!matchPattern(elements, m_ConstantInt(&value)))
    return success();
  int64_t bytes = value.getSExtValue() * elementBytes;
  if (bytes % kAccessAlignmentBytes == 0)
    return success();
  return op->emitOpError() << what << " of " << value.getSExtValue()
                           << " elements (" << bytes << " bytes) breaks the "
                           << kAccessAlignmentBytes
                           << "-byte alignment of DMA accesses";
}

/// Checks the window of a strided transfer: one stride per page dimension,
/// no bounds or one per dimension, and the static alignment rule, which
/// applies to contiguous rows (an innermost stride of the constant 1): then
/// the offset and the other constant strides must keep every row aligned. A
/// row of another stride, or of an `elementwise` transfer, moves element by
/// element, which has no alignment rule.
static LogicalResult verifyStridedWindow(Operation *op, CircularBufferType cb,
                                         Value offset, ValueRange strides,
                                         ValueRange bounds, bool elementwise) {
  TileType page = cb.getPageType();
  int64_t rank = page.getRank();
  if (rank == 0)
    return op->emitOpError("strided transfers need pages of rank 1 or more, "
                           "got ")
           << page;
  if (static_cast<int64_t>(strides.size()) != rank)
    return op->emitOpError("expects one stride per page dimension (")
           << rank << "), got " << strides.size();
  if (!bounds.empty() && static_cast<int64_t>(bounds.size()) != rank)
    return op->emitOpError("expects no bounds or one per page dimension (")
           << rank << "), got " << bounds.size();
  if (elementwise || !matchPattern(strides.back(), m_One()))
    return success();
  int64_t elementBytes =
      mtia::tile::getElementSizeInBytes(page.getElementType());
  if (failed(verifyAlignedIfConstant(op, offset, elementBytes, "offset")))
    return failure();
  for (auto [dim, stride] : llvm::enumerate(strides.drop_back())) {
    if (failed(verifyAlignedIfConstant(op, stride, elementBytes,
                                       ("stride " + Twine(dim)).str())))
      return failure();
  }
  return success();
}

/// Checks that `padding` is only given where elements can be out of bounds.
static LogicalResult verifyPadding(Operation *op, Value padding,
                                   bool hasBoundsOrMask) {
  if (!padding || hasBoundsOrMask)
    return success();
  return op->emitOpError("padding needs bounds or a mask to apply to");
}

/// Checks that the index tile of an indexed transfer has the shape of the
/// tile it moves.
static LogicalResult verifyIndices(Operation *op, Value indices,
                                   TileType data) {
  auto indexType = cast<TileType>(indices.getType());
  if (indexType.getShape() == data.getShape())
    return success();
  return op->emitOpError("indices ")
         << indexType << " must have the shape of the data " << data;
}

//===----------------------------------------------------------------------===//
// Strided transfers
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  CircularBufferType cb = getCb().getType();
  if (failed(verifyPageAndBase(*this, cb, getPage(), getBase())) ||
      failed(verifyStridedWindow(*this, cb, getOffset(), getStrides(),
                                 getBounds(), getElementwise())))
    return failure();
  return verifyPadding(*this, getPadding(), !getBounds().empty() || getMask());
}

TypedValue<CircularBufferType> LoadOp::getCircularBuffer() { return getCb(); }
bool LoadOp::fillsBack() { return true; }
std::optional<Endpoint> LoadOp::getEndpoint() { return Endpoint::DMAIn; }
int64_t LoadOp::getPageIndex() { return getPage(); }

LogicalResult StoreOp::verify() {
  CircularBufferType cb = getCb().getType();
  if (failed(verifyPageAndBase(*this, cb, getPage(), getBase())))
    return failure();
  return verifyStridedWindow(*this, cb, getOffset(), getStrides(), getBounds(),
                             getElementwise());
}

TypedValue<CircularBufferType> StoreOp::getCircularBuffer() { return getCb(); }
bool StoreOp::fillsBack() { return false; }
std::optional<Endpoint> StoreOp::getEndpoint() { return Endpoint::DMAOut; }
int64_t StoreOp::getPageIndex() { return getPage(); }

//===----------------------------------------------------------------------===//
// Indexed transfers
//===----------------------------------------------------------------------===//

/// Checks that the index tile of an indexed transfer covers the page it
/// moves, or a block of the page's rows from `row` on.
static LogicalResult verifyIndexedRows(Operation *op, Value indices,
                                       TileType page, int64_t row) {
  auto indexType = cast<TileType>(indices.getType());
  ArrayRef<int64_t> pageShape = page.getShape(), shape = indexType.getShape();
  bool covers = pageShape.empty()
                    ? shape.empty() && row == 0
                    : shape.size() == pageShape.size() &&
                          shape.drop_front() == pageShape.drop_front() &&
                          row >= 0 && row + shape.front() <= pageShape.front();
  if (covers)
    return success();
  return op->emitOpError("indices ")
         << indexType << " must cover the page " << page
         << " or rows of it from row " << row;
}

LogicalResult GatherOp::verify() {
  CircularBufferType cb = getCb().getType();
  if (failed(verifyPageAndBase(*this, cb, getPage(), getBase())) ||
      failed(
          verifyIndexedRows(*this, getIndices(), cb.getPageType(), getRow())))
    return failure();
  return verifyPadding(*this, getPadding(), static_cast<bool>(getMask()));
}

TypedValue<CircularBufferType> GatherOp::getCircularBuffer() { return getCb(); }
bool GatherOp::fillsBack() { return true; }
std::optional<Endpoint> GatherOp::getEndpoint() { return Endpoint::DMAIn; }
int64_t GatherOp::getPageIndex() { return getPage(); }

LogicalResult ScatterOp::verify() {
  CircularBufferType cb = getCb().getType();
  if (failed(verifyPageAndBase(*this, cb, getPage(), getBase())))
    return failure();
  return verifyIndexedRows(*this, getIndices(), cb.getPageType(), getRow());
}

TypedValue<CircularBufferType> ScatterOp::getCircularBuffer() {
  return getCb();
}
bool ScatterOp::fillsBack() { return false; }
std::optional<Endpoint> ScatterOp::getEndpoint() { return Endpoint::DMAOut; }
int64_t ScatterOp::getPageIndex() { return getPage(); }

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// Checks the operands of an atomic: values of the base's element type, one
/// index per value, and a page of the values' type to receive the old values
/// if a buffer is given.
static LogicalResult verifyAtomic(Operation *op, Value base, Value indices,
                                  Value values,
                                  TypedValue<CircularBufferType> cb,
                                  std::optional<int64_t> page) {
  auto valueType = cast<TileType>(values.getType());
  Type pointee = cast<mtia::tt::PointerType>(base.getType()).getPointeeType();
  if (valueType.getElementType() != pointee)
    return op->emitOpError("base points to ")
           << pointee << " but the values are " << valueType;
  if (failed(verifyIndices(op, indices, valueType)))
    return failure();
  if (static_cast<bool>(cb) != page.has_value())
    return op->emitOpError("expects a page exactly when old values are "
                           "returned into a circular buffer");
  if (!cb)
    return success();
  if (cb.getType().getPageType() != valueType)
    return op->emitOpError("old values of type ")
           << valueType << " do not fit pages of " << cb.getType();
  return mtia::cb::verifyPageIndex(op, cb.getType(), *page);
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyAtomic(*this, getBase(), getIndices(), getValues(), getCb(),
                          getPage())))
    return failure();
  // `fadd` applies to floats, `exch` to any element type, every other kind
  // to integers.
  bool isFloat = isa<FloatType>(getValues().getType().getElementType());
  bool appliesToFloats = getKind() == AtomicKind::FAdd;
  if (getKind() != AtomicKind::Exchange && isFloat != appliesToFloats)
    return emitOpError("'") << stringifyAtomicKind(getKind())
                            << "' does not apply to " << getValues().getType();
  return success();
}

TypedValue<CircularBufferType> AtomicRMWOp::getCircularBuffer() {
  return getCb();
}
bool AtomicRMWOp::fillsBack() { return true; }
std::optional<Endpoint> AtomicRMWOp::getEndpoint() { return Endpoint::DMAOut; }
int64_t AtomicRMWOp::getPageIndex() { return getPage().value_or(0); }

LogicalResult AtomicCASOp::verify() {
  return verifyAtomic(*this, getBase(), getIndices(), getValue(), getCb(),
                      getPage());
}

TypedValue<CircularBufferType> AtomicCASOp::getCircularBuffer() {
  return getCb();
}
bool AtomicCASOp::fillsBack() { return true; }
std::optional<Endpoint> AtomicCASOp::getEndpoint() { return Endpoint::DMAOut; }
int64_t AtomicCASOp::getPageIndex() { return getPage().value_or(0); }

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

LogicalResult DescriptorBaseOp::verify() {
  Type element = getDesc().getType().getBlockType().getElementType();
  if (getResult().getType() != mtia::tt::PointerType::get(element))
    return emitOpError("must point to the elements of the descriptor's "
                       "block, ")
           << element;
  return success();
}
