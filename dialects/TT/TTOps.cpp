//===- TTOps.cpp - Operations of the `tt` dialect -------------------------===//
//
// Verifiers for the rules the Triton frontend guarantees, and the custom
// assembly of `tt.func`.
//
//===----------------------------------------------------------------------===//

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mtia::tt;

/// Returns the bit width of a scalar element type; pointers count as 64 bits.
static unsigned getElementBitWidth(Type type) {
  Type elementType = getElementTypeOrSelf(type);
  if (isa<PointerType>(elementType))
    return 64;
  return elementType.getIntOrFloatBitWidth();
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  if (getElementBitWidth(getSrc().getType()) !=
      getElementBitWidth(getResult().getType()))
    return emitOpError("requires source and result element types of the same "
                       "bit width, got ")
           << getSrc().getType() << " and " << getResult().getType();
  return success();
}

LogicalResult FpToFpOp::verify() {
  Type srcType = getElementTypeOrSelf(getSrc().getType());
  Type dstType = getElementTypeOrSelf(getResult().getType());
  unsigned srcWidth = srcType.getIntOrFloatBitWidth();
  unsigned dstWidth = dstType.getIntOrFloatBitWidth();
  if (dstWidth < srcWidth && !getRounding())
    return emitOpError("narrowing conversion from ")
           << srcType << " to " << dstType << " requires a rounding mode";
  // Between types of one width (bf16 and f16) a conversion may round.
  if (dstWidth > srcWidth && getRounding())
    return emitOpError("rounding mode is only meaningful for conversions "
                       "that do not widen, not from ")
           << srcType << " to " << dstType;
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers, loads and stores
//===----------------------------------------------------------------------===//

/// Returns the block type of a block pointer `!tt.ptr<tensor<...>>`, or null.
static RankedTensorType getBlockPointerTensor(Type type) {
  auto pointerType = dyn_cast<PointerType>(type);
  if (!pointerType)
    return {};
  return dyn_cast<RankedTensorType>(pointerType.getPointeeType());
}

LogicalResult AdvanceOp::verify() {
  int64_t rank = getBlockPointerTensor(getPtr().getType()).getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError("expects one offset per dimension of the block (")
           << rank << "), got " << getOffsets().size();
  return success();
}

LogicalResult MakeTensorPtrOp::verify() {
  RankedTensorType block = getBlockPointerTensor(getResult().getType());
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank ||
      getOffsets().size() != rank || getOrder().size() != rank)
    return emitOpError("expects shape, strides, offsets and order of the "
                       "block's rank ")
           << rank;
  return success();
}

/// Checks the block-pointer-only attributes of loads and stores.
static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck) {
  RankedTensorType block = getBlockPointerTensor(ptrType);
  if (!block) {
    if (!boundaryCheck.empty())
      return op->emitOpError("boundaryCheck requires a block pointer");
    return success();
  }
  for (int32_t dim : boundaryCheck)
    if (dim < 0 || dim >= block.getRank())
      return op->emitOpError("boundaryCheck dimension ")
             << dim << " is out of range for a block of rank "
             << block.getRank();
  return success();
}

/// Checks that an optional mask is i1 with the shape of `shapeSource`.
static LogicalResult verifyOptionalMask(Operation *op, Value mask,
                                        Type shapeSource) {
  if (!mask || mask.getType() == getI1SameShape(shapeSource))
    return success();
  return op->emitOpError("mask type ")
         << mask.getType() << " must be i1 with the shape of " << shapeSource;
}

/// Checks that a cache modifier is one Triton allows for a load (`ca`,
/// `cg`, `cv`) or for a store (`wb`, `cg`, `cs`, `wt`).
static LogicalResult verifyCachePolicy(Operation *op,
                                       std::optional<CachePolicyAttr> policy,
                                       bool load) {
  if (!policy)
    return success();
  CacheModifier modifier = policy->getCacheModifier();
  switch (modifier) {
  case CacheModifier::NONE:
  case CacheModifier::CG:
  case CacheModifier::CS:
    return success();
  case CacheModifier::CA:
  case CacheModifier::CV:
    if (load)
      return success();
    break;
  case CacheModifier::WB:
  case CacheModifier::WT:
    if (!load)
      return success();
    break;
  }
  return op->emitOpError("cache modifier ")
         << stringifyCacheModifier(modifier) << " is not valid for a "
         << (load ? "load" : "store");
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must happen even when its result is unused: it counts
  // as a write so that no fold or dead-code elimination removes it.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult LoadOp::verify() {
  if (failed(verifyCachePolicy(*this, getCachePolicy(), /*load=*/true)))
    return failure();
  Type pointeeType = getPointeeType(getPtr().getType());
  if (failed(verifyOptionalMask(*this, getMask(), pointeeType)))
    return failure();
  if (getOther() && !getMask())
    return emitOpError("'other' requires a mask");
  if (getOther() && getOther().getType() != pointeeType)
    return emitOpError("'other' type ")
           << getOther().getType() << " must be the loaded type "
           << pointeeType;
  if (getPadding() && !getBlockPointerTensor(getPtr().getType()))
    return emitOpError("padding requires a block pointer");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyCachePolicy(*this, getCachePolicy(), /*load=*/false)))
    return failure();
  if (failed(verifyOptionalMask(*this, getMask(),
                                getPointeeType(getPtr().getType()))))
    return failure();
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyOptionalMask(*this, getMask(), getVal().getType())))
    return failure();
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(getVal().getType()));
  bool floatOp = getAtomicRmwOp() == RMWOp::FADD;
  bool anyTypeOp = getAtomicRmwOp() == RMWOp::XCHG;
  if (!anyTypeOp && isFloat != floatOp)
    return emitOpError("atomic ")
           << stringifyRMWOp(getAtomicRmwOp()) << " does not apply to "
           << getElementTypeOrSelf(getVal().getType()) << " values";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (isa<RankedTensorType>(getSrc().getType()))
    return emitOpError("requires a scalar operand, got ") << getSrc().getType();
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result type ")
           << resultType << " is not " << srcType
           << " with a dimension of size 1 inserted at " << axis;
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getType() == getSrc().getType())
    return getSrc();
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (srcType.getNumElements() != resultType.getNumElements())
    return emitOpError("cannot reshape ")
           << srcType << " (" << srcType.getNumElements() << " elements) to "
           << resultType << " (" << resultType.getNumElements() << " elements)";
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (srcType.getRank() != resultType.getRank())
    return emitOpError("requires source and result of the same rank, got ")
           << srcType << " and " << resultType;
  for (auto [index, dims] : llvm::enumerate(
           llvm::zip_equal(srcType.getShape(), resultType.getShape()))) {
    auto [srcDim, resultDim] = dims;
    if (srcDim != resultDim && srcDim != 1)
      return emitOpError("dimension ")
             << index << " of size " << srcDim
             << " can only be broadcast from size 1 (to " << resultDim << ")";
  }
  return success();
}

LogicalResult CatOp::verify() {
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (lhsType.getRank() != resultType.getRank() ||
      resultType.getNumElements() != 2 * lhsType.getNumElements())
    return emitOpError("result ")
           << resultType << " must have the rank of the operands and twice "
           << "their number of elements";
  return success();
}

LogicalResult JoinOp::verify() {
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  SmallVector<int64_t> expected(lhsType.getShape());
  expected.push_back(2);
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result type ")
           << resultType << " must be the operand shape with a new minor "
           << "dimension of size 2";
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  if (srcType.getShape().back() != 2)
    return emitOpError("requires a last dimension of size 2, got ") << srcType;
  auto resultType = cast<RankedTensorType>(getOutLHS().getType());
  if (resultType.getShape() != srcType.getShape().drop_back() ||
      resultType.getElementType() != srcType.getElementType())
    return emitOpError("results must be ")
           << srcType << " without its last dimension, got " << resultType;
  return success();
}

LogicalResult TransOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != srcType.getRank())
    return emitOpError("order has ")
           << order.size() << " entries for a tensor of rank "
           << srcType.getRank();
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= srcType.getRank() || seen[dim])
      return emitOpError("order must be a permutation of [0, ")
             << srcType.getRank() << ")";
    seen[dim] = true;
    expected.push_back(srcType.getDimSize(dim));
  }
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result type ")
           << resultType << " does not match the permuted source shape";
  return success();
}

LogicalResult GatherOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto indicesType = cast<RankedTensorType>(getIndices().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis();
  if (indicesType.getRank() != srcType.getRank())
    return emitOpError("indices and source must have the same rank");
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << srcType.getRank();
  if (resultType.getShape() != indicesType.getShape() ||
      resultType.getElementType() != srcType.getElementType())
    return emitOpError("result must have the shape of the indices and the "
                       "element type of the source");
  for (int64_t dim = 0; dim < srcType.getRank(); ++dim)
    if (dim != axis && indicesType.getDimSize(dim) > srcType.getDimSize(dim))
      return emitOpError("indices dimension ")
             << dim << " is larger than the source's";
  return success();
}

LogicalResult HistogramOp::verify() {
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyOptionalMask(*this, getMask(), getSrc().getType())))
    return failure();
  if (resultType.getRank() != 1)
    return emitOpError("result must be a 1-d tensor of bins, got ")
           << resultType;
  return success();
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt();
  int64_t end = getEndAttr().getInt();
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (resultType.getRank() != 1 || !resultType.getElementType().isInteger(32))
    return emitOpError("result must be a 1-d tensor of i32, got ")
           << resultType;
  if (end <= start)
    return emitOpError("end ")
           << end << " must be greater than start " << start;
  if (resultType.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << resultType.getDimSize(0) << " elements, but the range [" << start
           << ", " << end << ") has " << end - start;
  return success();
}

//===----------------------------------------------------------------------===//
// Dot, reductions and scans
//===----------------------------------------------------------------------===//

/// Returns the types of the operands a, b and c of `op`, a dot, once they are
/// all 2-d, or all 3-d (batched) with one batch size.
template <typename DotLikeOp>
static FailureOr<std::array<RankedTensorType, 3>>
getDotOperandTypes(DotLikeOp op) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  auto cType = cast<RankedTensorType>(op.getC().getType());
  int64_t rank = aType.getRank();
  if (rank < 2 || rank > 3 || bType.getRank() != rank ||
      cType.getRank() != rank)
    return op->emitOpError("operands must all be 2-d or all be 3-d (batched)");
  if (rank == 3 && (aType.getDimSize(0) != bType.getDimSize(0) ||
                    aType.getDimSize(0) != cType.getDimSize(0)))
    return op->emitOpError("batch dimensions do not match");
  return std::array<RankedTensorType, 3>{aType, bType, cType};
}

/// Checks that a dot of an m x k by a kb x n matrix (k and kb as the
/// operands hold them unpacked) agrees on k and accumulates into m x n.
static LogicalResult verifyDotShape(Operation *op, int64_t m, int64_t k,
                                    int64_t kb, int64_t n,
                                    RankedTensorType cType) {
  if (k != kb)
    return op->emitOpError("reduction dimension of a (")
           << k << ") does not match that of b (" << kb << ")";
  int64_t rank = cType.getRank();
  if (cType.getDimSize(rank - 2) != m || cType.getDimSize(rank - 1) != n)
    return op->emitOpError("accumulator shape must be ")
           << m << "x" << n << ", got " << cType;
  return success();
}

LogicalResult DotOp::verify() {
  FailureOr<std::array<RankedTensorType, 3>> types = getDotOperandTypes(*this);
  if (failed(types))
    return failure();
  auto [aType, bType, cType] = *types;
  int64_t rank = aType.getRank();
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape();
  int64_t m = a[rank - 2], k = a[rank - 1], kb = b[rank - 2], n = b[rank - 1];
  if (failed(verifyDotShape(*this, m, k, kb, n, cType)))
    return failure();
  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  Type accElement = cType.getElementType();
  bool aIsFp8 =
      aElement.getIntOrFloatBitWidth() == 8 && isa<FloatType>(aElement);
  bool bIsFp8 =
      bElement.getIntOrFloatBitWidth() == 8 && isa<FloatType>(bElement);
  if (aElement != bElement && !(aIsFp8 && bIsFp8))
    return emitOpError("operand element types ")
           << aElement << " and " << bElement << " do not match";
  if (isa<IntegerType>(aElement) != isa<IntegerType>(accElement))
    return emitOpError("accumulator element type ")
           << accElement << " does not fit operands of type " << aElement;
  return success();
}

/// Whether `type` is the element type of an operand in `format`: fp4 and
/// fp6 are bytes of packed bits, the others their float type.
static bool isElementOfFormat(Type type, ScaleDotElemType format) {
  switch (format) {
  case ScaleDotElemType::E4M3:
    return isa<Float8E4M3FNType>(type);
  case ScaleDotElemType::E5M2:
    return isa<Float8E5M2Type>(type);
  case ScaleDotElemType::BF16:
    return type.isBF16();
  case ScaleDotElemType::FP16:
    return type.isF16();
  case ScaleDotElemType::E2M1:
  case ScaleDotElemType::E2M3:
  case ScaleDotElemType::E3M2:
    return type.isInteger(8);
  }
  return false;
}

/// The number of K elements per scale of `scale` (an MxK/f or NxK/f tensor)
/// for `k` elements, or 0 for no scale or a single one.
static int64_t getScaleFactorOf(Value scale, int64_t k) {
  if (!scale)
    return 0;
  auto type = cast<RankedTensorType>(scale.getType());
  if (type.getNumElements() == 1)
    return 0;
  return k / type.getShape().back();
}

/// The unpacked K of `a`: its last dimension, doubled when fp4 packs two
/// values per byte along it.
static int64_t getUnpackedK(DotScaledOp op) {
  int64_t k = cast<RankedTensorType>(op.getA().getType()).getShape().back();
  if (op.getAElemType() == ScaleDotElemType::E2M1 && op.getLhsKPack())
    return 2 * k;
  return k;
}

int64_t DotScaledOp::getScaleFactor() {
  int64_t k = getUnpackedK(*this);
  if (int64_t factor = getScaleFactorOf(getAScale(), k))
    return factor;
  if (int64_t factor = getScaleFactorOf(getBScale(), k))
    return factor;
  return 32;
}

LogicalResult DotScaledOp::verify() {
  FailureOr<std::array<RankedTensorType, 3>> types = getDotOperandTypes(*this);
  if (failed(types))
    return failure();
  auto [aType, bType, cType] = *types;
  int64_t rank = aType.getRank();
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape();
  for (auto [name, type, format, kPack] :
       {std::make_tuple("a", aType, getAElemType(), getLhsKPack()),
        std::make_tuple("b", bType, getBElemType(), getRhsKPack())}) {
    if (!isElementOfFormat(type.getElementType(), format))
      return emitOpError("operand ")
             << name << " of format " << stringifyScaleDotElemType(format)
             << " cannot have elements of type " << type.getElementType();
    if (!kPack && format != ScaleDotElemType::E2M1)
      return emitOpError("only e2m1 operands can be packed along a dimension "
                         "other than K, but ")
             << name << " is " << stringifyScaleDotElemType(format);
  }
  // fp4 doubles the dimension it is packed along.
  bool aFp4 = getAElemType() == ScaleDotElemType::E2M1;
  bool bFp4 = getBElemType() == ScaleDotElemType::E2M1;
  int64_t m = a[rank - 2] * (aFp4 && !getLhsKPack() ? 2 : 1);
  int64_t k = getUnpackedK(*this);
  int64_t kb = b[rank - 2] * (bFp4 && getRhsKPack() ? 2 : 1);
  int64_t n = b[rank - 1] * (bFp4 && !getRhsKPack() ? 2 : 1);
  if (failed(verifyDotShape(*this, m, k, kb, n, cType)))
    return failure();
  int64_t aFactor = getScaleFactorOf(getAScale(), k);
  int64_t bFactor = getScaleFactorOf(getBScale(), k);
  for (int64_t factor : {aFactor, bFactor})
    if (factor && factor != 16 && factor != 32)
      return emitOpError("scale factor must be 16 or 32, got ") << factor;
  if (aFactor && bFactor && aFactor != bFactor)
    return emitOpError("operands must have one scale factor, got ")
           << aFactor << " and " << bFactor;
  int64_t factor = getScaleFactor();
  for (auto [name, scale, rows] : {std::make_tuple("a", getAScale(), m),
                                   std::make_tuple("b", getBScale(), n)}) {
    if (!scale)
      continue;
    auto scaleType = cast<RankedTensorType>(scale.getType());
    SmallVector<int64_t> expected(a.take_front(rank - 2));
    expected.append({rows, k / factor});
    if (scaleType.getShape() == ArrayRef<int64_t>(expected) && k % factor == 0)
      continue;
    std::string shape;
    llvm::raw_string_ostream os(shape);
    llvm::interleave(expected, os, "x");
    return emitOpError("scale of ")
           << name << " must have one factor per " << factor
           << " elements of K, of shape " << shape << ", got " << scaleType;
  }
  return success();
}

/// Checks that a combine region takes the 2N scalars `elementTypes` twice and
/// that its terminator yields N values of those types.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ArrayRef<Type> elementTypes) {
  Block &block = region.front();
  size_t numValues = elementTypes.size();
  if (block.getNumArguments() != 2 * numValues)
    return op->emitOpError("combine region must take ")
           << 2 * numValues << " arguments, got " << block.getNumArguments();
  for (auto [index, argument] : llvm::enumerate(block.getArguments())) {
    Type expected = elementTypes[index % numValues];
    if (argument.getType() != expected)
      return op->emitOpError("combine region argument ")
             << index << " has type " << argument.getType() << ", expected "
             << expected;
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != numValues)
    return op->emitOpError("combine region must yield ")
           << numValues << " values, got " << terminator->getNumOperands();
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    if (value.getType() != elementTypes[index])
      return op->emitOpError("combine region yields ")
             << value.getType() << " as value " << index << ", expected "
             << elementTypes[index];
  return success();
}

static SmallVector<Type> getElementTypes(ValueRange values) {
  return llvm::to_vector(llvm::map_range(values.getTypes(), [](Type type) {
    return cast<RankedTensorType>(type).getElementType();
  }));
}

/// Checks the axis and the operand count shared by reductions and scans.
static LogicalResult verifyAxisAndOperands(Operation *op, ValueRange srcs,
                                           int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("requires at least one operand");
  int64_t rank = cast<RankedTensorType>(srcs.front().getType()).getRank();
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyAxisAndOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  for (auto [src, result] : llvm::zip_equal(getSrcs(), getResult())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    Type expected = srcType.getElementType();
    if (srcType.getRank() > 1) {
      SmallVector<int64_t> shape(srcType.getShape());
      shape.erase(shape.begin() + getAxis());
      expected = srcType.clone(shape);
    }
    if (result.getType() != expected)
      return emitOpError("result type ")
             << result.getType() << " must be " << expected;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getElementTypes(getSrcs()));
}

LogicalResult ScanOp::verify() {
  if (failed(verifyAxisAndOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  for (auto [src, result] : llvm::zip_equal(getSrcs(), getResult()))
    if (src.getType() != result.getType())
      return emitOpError("result type ")
             << result.getType() << " must match the operand type "
             << src.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getElementTypes(getSrcs()));
}

LogicalResult MapElementwiseOp::verifyRegions() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  unsigned pack = getPack();
  SmallVector<Type> arguments, returned;
  for (Type type : getElementTypes(getSrcs()))
    arguments.append(pack, type);
  for (Type type : getElementTypes(getResult()))
    returned.append(pack, type);
  Region &region = getScalarOp();
  if (region.empty() ||
      region.front().getArgumentTypes() != ArrayRef(arguments))
    return emitOpError("region must take the element type of each operand ")
           << pack << " time(s) (the pack)";
  for (Block &block : region) {
    auto terminator = dyn_cast<MapElementwiseReturnOp>(block.getTerminator());
    if (!terminator)
      continue;
    if (TypeRange(terminator.getResult()) != TypeRange(returned))
      return terminator.emitOpError("must return the element type of each "
                                    "result ")
             << pack << " time(s) (the pack)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

LogicalResult UnsplatOp::verify() {
  auto type = cast<RankedTensorType>(getSrc().getType());
  if (type.getNumElements() != 1)
    return emitOpError("expects a tensor of one element, got ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("isSigned must hold one flag per argument (")
           << getArgs().size() << "), got " << getIsSigned().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getResult().getType().getBlockType();
  if (static_cast<int64_t>(getShape().size()) != block.getRank())
    return emitOpError("expects one shape and one stride per block dimension (")
           << block.getRank() << "), got " << getShape().size();
  if (getBase().getType().getPointeeType() !=
      getResult().getType().getSignlessBlockType().getElementType())
    return emitOpError("base pointee type ")
           << getBase().getType().getPointeeType()
           << " does not match the block element type "
           << block.getElementType();
  return success();
}

/// Checks the indices and the tensor of a descriptor access against the
/// descriptor's block.
static LogicalResult verifyDescriptorAccess(Operation *op,
                                            TensorDescType descType,
                                            size_t numIndices,
                                            RankedTensorType tensorType) {
  RankedTensorType block = descType.getSignlessBlockType();
  if (static_cast<int64_t>(numIndices) != block.getRank())
    return op->emitOpError("expects one index per block dimension (")
           << block.getRank() << "), got " << numIndices;
  if (tensorType.getElementType() != block.getElementType() ||
      tensorType.getNumElements() != block.getNumElements())
    return op->emitOpError("tensor type ")
           << tensorType << " does not match the descriptor block " << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (failed(verifyCachePolicy(*this, getCachePolicy(), /*load=*/true)))
    return failure();
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                cast<RankedTensorType>(getResult().getType()));
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorAccess(*this, getDesc().getType(), getIndices().size(),
                                cast<RankedTensorType>(getSrc().getType()));
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'")
           << getCallee() << "' does not reference a valid tt.func";
  FunctionType calleeType = callee.getFunctionType();
  if (!llvm::equal(calleeType.getInputs(), getOperandTypes()))
    return emitOpError("operand types do not match the signature of @")
           << getCallee() << " " << calleeType;
  if (!llvm::equal(calleeType.getResults(), getResultTypes()))
    return emitOpError("result types do not match the signature of @")
           << getCallee() << " " << calleeType;
  return success();
}

LogicalResult ReturnOp::verify() {
  auto function = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> expected = function.getFunctionType().getResults();
  if (!llvm::equal(getSrcs().getTypes(), expected))
    return emitOpError("operand types must match the result types of @")
           << function.getName() << " " << function.getFunctionType();
  return success();
}

#define GET_OP_CLASSES
#include "dialects/TT/TTOps.cpp.inc"
