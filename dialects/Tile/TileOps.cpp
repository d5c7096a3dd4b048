//===- TileOps.cpp - Operations of the `tile` dialect ---------------------===//
//
// Verifiers of the shape and element-type rules of each unit.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mtia::tile;

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.cpp.inc"

/// Returns the shape of `type` without dimension `axis`.
static SmallVector<int64_t> dropAxis(TileType type, int64_t axis) {
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  return shape;
}

/// Checks that `axis` names a dimension of `type`.
static LogicalResult verifyAxis(Operation *op, TileType type, int64_t axis) {
  if (axis < type.getRank())
    return success();
  return op->emitOpError("axis ")
         << axis << " is out of range for a tile of rank " << type.getRank();
}

/// Checks that `result` is `source` reduced along `axis`: the same element
/// type (unless `elementType` says otherwise) and the shape without `axis`.
static LogicalResult verifyReducedShape(Operation *op, TileType source,
                                        TileType result, int64_t axis,
                                        Type elementType = {}) {
  if (failed(verifyAxis(op, source, axis)))
    return failure();
  if (!elementType)
    elementType = source.getElementType();
  if (result.getShape() != ArrayRef(dropAxis(source, axis)) ||
      result.getElementType() != elementType)
    return op->emitOpError("result type ")
           << result << " must have the shape of " << source
           << " without axis " << axis << " and element type " << elementType;
  return success();
}

/// Checks that a kind for floats (`isFloatKind`) is applied to floats and a
/// kind for integers to integers.
static LogicalResult verifyKindMatchesElements(Operation *op, StringRef kind,
                                               bool isFloatKind,
                                               TileType type) {
  bool isFloat = isa<FloatType>(type.getElementType());
  if (isFloat == isFloatKind)
    return success();
  return op->emitOpError("kind '")
         << kind << "' applies to " << (isFloatKind ? "float" : "integer")
         << " tiles, got " << type;
}

static bool isFloatKind(CombineKind kind) {
  switch (kind) {
  case CombineKind::AddF:
  case CombineKind::MulF:
  case CombineKind::MaximumF:
  case CombineKind::MinimumF:
  case CombineKind::MaxNumF:
  case CombineKind::MinNumF:
    return true;
  default:
    return false;
  }
}

static bool isFloatKind(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::AddF:
  case BinaryKind::SubF:
  case BinaryKind::MulF:
  case BinaryKind::DivF:
  case BinaryKind::RemF:
  case BinaryKind::MaximumF:
  case BinaryKind::MinimumF:
  case BinaryKind::MaxNumF:
  case BinaryKind::MinNumF:
  case BinaryKind::PowF:
  case BinaryKind::Atan2F:
  case BinaryKind::CopySignF:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Dot-product engine
//===----------------------------------------------------------------------===//

LogicalResult ZerosOp::verify() {
  Type elementType = getType().getElementType();
  if (elementType.isF32() || elementType.isInteger(32))
    return success();
  return emitOpError("the DPE accumulates in f32 or i32, got ") << elementType;
}

/// Checks the shapes of a matrix multiply-accumulate: rank-2 tiles, or rank-3
/// tiles of one batch size, of [B×]M×K, [B×]K×N and [B×]M×N.
static LogicalResult verifyMatmulShapes(Operation *op, TileType lhs,
                                        TileType rhs, TileType acc) {
  int64_t rank = lhs.getRank();
  if ((rank != 2 && rank != 3) || rhs.getRank() != rank ||
      acc.getRank() != rank)
    return op->emitOpError("operands must be rank-2 tiles, or rank-3 tiles of "
                           "one batch size");
  // The last two dimensions multiply; a leading one counts the batches.
  auto dim = [](TileType type, int64_t fromEnd) {
    return type.getDimSize(type.getRank() - fromEnd);
  };
  bool batchesMatch =
      rank == 2 || (lhs.getDimSize(0) == rhs.getDimSize(0) &&
                    lhs.getDimSize(0) == acc.getDimSize(0));
  if (!batchesMatch || dim(lhs, 1) != dim(rhs, 2) ||
      dim(lhs, 2) != dim(acc, 2) || dim(rhs, 1) != dim(acc, 1))
    return op->emitOpError("shapes must be [B×]M×K, [B×]K×N and [B×]M×N, got ")
           << lhs << ", " << rhs << " and " << acc;
  return success();
}

LogicalResult MatmulOp::verify() {
  TileType lhs = getLhs().getType();
  TileType rhs = getRhs().getType();
  TileType acc = getAcc().getType();
  if (failed(verifyMatmulShapes(*this, lhs, rhs, acc)))
    return failure();
  Type inputType = lhs.getElementType();
  if (rhs.getElementType() != inputType)
    return emitOpError("operands must have one element type, got ")
           << inputType << " and " << rhs.getElementType();
  Builder builder(getContext());
  Type accType;
  if (inputType.isF16() || inputType.isBF16() || inputType.isF32())
    accType = builder.getF32Type();
  else if (inputType.isInteger(8))
    accType = builder.getI32Type();
  else
    return emitOpError("the DPE multiplies f16, bf16, f32 or i8, got ")
           << inputType;
  if (acc.getElementType() != accType)
    return emitOpError("products of ")
           << inputType << " accumulate in " << accType << ", got "
           << acc.getElementType();
  return success();
}

LogicalResult SimdMatmulOp::verify() {
  TileType lhs = getLhs().getType();
  TileType rhs = getRhs().getType();
  TileType acc = getAcc().getType();
  if (failed(verifyMatmulShapes(*this, lhs, rhs, acc)))
    return failure();
  if (!lhs.getElementType().isF64() || !rhs.getElementType().isF64() ||
      !acc.getElementType().isF64())
    return emitOpError("the SIMD engine multiplies and accumulates matrices "
                       "of f64 only (other types go to the DPE's "
                       "tile.matmul), got ")
           << lhs.getElementType() << ", " << rhs.getElementType() << " and "
           << acc.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// SIMD engine
//===----------------------------------------------------------------------===//

LogicalResult BinaryOp::verify() {
  return verifyKindMatchesElements(*this, stringifyBinaryKind(getKind()),
                                   isFloatKind(getKind()), getType());
}

LogicalResult UnaryOp::verify() {
  bool isFloatKind =
      getKind() != UnaryKind::AbsI && getKind() != UnaryKind::CtPop;
  return verifyKindMatchesElements(*this, stringifyUnaryKind(getKind()),
                                   isFloatKind, getType());
}

LogicalResult CastOp::verify() {
  TileType source = getSource().getType();
  TileType result = getResult().getType();
  if (source.getShape() != result.getShape() ||
      source.getOrder() != result.getOrder())
    return emitOpError("source and result must have one shape and layout, "
                       "got ")
           << source << " and " << result;
  Type from = source.getElementType();
  Type to = result.getElementType();
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  bool fromFloat = isa<FloatType>(from);
  bool toFloat = isa<FloatType>(to);

  bool typesValid = false;
  bool needsRounding = false;
  switch (getKind()) {
  case CastKind::ExtF:
    typesValid = fromFloat && toFloat && fromWidth < toWidth;
    break;
  case CastKind::TruncF:
    // Also between floats of one width (bf16 and f16), which may round.
    typesValid = fromFloat && toFloat && fromWidth >= toWidth &&
                 from != to;
    needsRounding = true;
    break;
  case CastKind::FPToSI:
  case CastKind::FPToUI:
    typesValid = fromFloat && !toFloat;
    break;
  case CastKind::SIToFP:
  case CastKind::UIToFP:
    typesValid = !fromFloat && toFloat;
    needsRounding = true;
    break;
  case CastKind::ExtSI:
  case CastKind::ExtUI:
    typesValid = !fromFloat && !toFloat && fromWidth < toWidth;
    break;
  case CastKind::TruncI:
    typesValid = !fromFloat && !toFloat && fromWidth > toWidth;
    break;
  case CastKind::Bitcast:
    typesValid = fromWidth == toWidth && from != to;
    break;
  }
  if (!typesValid)
    return emitOpError("'")
           << stringifyCastKind(getKind()) << "' cannot convert " << from
           << " to " << to;
  if (needsRounding && !getRounding())
    return emitOpError("'") << stringifyCastKind(getKind())
                            << "' requires a rounding mode";
  if (!needsRounding && getRounding())
    return emitOpError("'") << stringifyCastKind(getKind())
                            << "' is exact or rounds toward zero and takes no "
                               "rounding mode";
  return success();
}

//===----------------------------------------------------------------------===//
// Scalars and tiles
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  auto valueType = cast<ShapedType>(getValue().getType());
  TileType type = getType();
  if (valueType.getShape() != type.getShape() ||
      valueType.getElementType() != type.getElementType())
    return emitOpError("value of type ")
           << valueType << " does not have the shape and element type of "
           << type;
  return success();
}

LogicalResult ExtractOp::verify() {
  int64_t rank = getTile().getType().getRank();
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError("expects one index per dimension (")
           << rank << "), got " << getIndices().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduction engine
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(verifyKindMatchesElements(*this, stringifyCombineKind(getKind()),
                                       isFloatKind(getKind()),
                                       getSource().getType())))
    return failure();
  return verifyReducedShape(*this, getSource().getType(), getType(),
                            getAxis());
}

/// Checks that `sources` are tiles of one shape and that there is one result
/// per source.
static LogicalResult verifySourcesOfOneShape(Operation *op,
                                             ValueRange sources,
                                             size_t numResults) {
  if (sources.empty())
    return op->emitOpError("needs at least one source");
  if (numResults != sources.size())
    return op->emitOpError("must have one result per source");
  auto first = cast<TileType>(sources.front().getType());
  for (Value source : sources.drop_front())
    if (cast<TileType>(source.getType()).getShape() != first.getShape())
      return op->emitOpError("sources must have one shape, got ")
             << first << " and " << source.getType();
  return success();
}

/// Checks that a combine region takes two scalars per source (accumulated
/// values first) and yields one per source.
static LogicalResult verifyCombiner(Operation *op, Region &combiner,
                                    ValueRange sources) {
  SmallVector<Type> elementTypes;
  for (Value source : sources)
    elementTypes.push_back(cast<TileType>(source.getType()).getElementType());
  SmallVector<Type> expectedArguments(elementTypes);
  expectedArguments.append(elementTypes);
  Block &body = combiner.front();
  if (body.getArgumentTypes() != ArrayRef(expectedArguments))
    return op->emitOpError("combine region must take the element types of the "
                           "sources twice (accumulated, then new values)");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return op->emitOpError("combine region must end with tile.yield");
  if (TypeRange(yield.getValues()) != TypeRange(elementTypes))
    return yield.emitOpError("must yield one value of each source's element "
                             "type");
  return success();
}

LogicalResult ReduceRegionOp::verify() {
  if (failed(verifySourcesOfOneShape(*this, getSources(), getNumResults())))
    return failure();
  for (auto [source, result] : llvm::zip_equal(getSources(), getResults()))
    if (failed(verifyReducedShape(*this, cast<TileType>(source.getType()),
                                  cast<TileType>(result.getType()),
                                  getAxis())))
      return failure();
  return success();
}

LogicalResult ReduceRegionOp::verifyRegions() {
  return verifyCombiner(*this, getCombiner(), getSources());
}

LogicalResult MapElementwiseOp::verify() {
  if (getSources().empty())
    return emitOpError("needs at least one source");
  auto shape = cast<TileType>(getSources().front().getType()).getShape();
  for (Type type : llvm::concat<const Type>(getSources().getTypes(),
                                            getResults().getTypes()))
    if (cast<TileType>(type).getShape() != shape)
      return emitOpError("sources and results must have one shape");
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  unsigned pack = getPack();
  SmallVector<Type> arguments, yielded;
  for (Type type : getSources().getTypes())
    arguments.append(pack, cast<TileType>(type).getElementType());
  for (Type type : getResults().getTypes())
    yielded.append(pack, cast<TileType>(type).getElementType());
  Region &body = getBody();
  if (body.empty() || body.front().getArgumentTypes() != ArrayRef(arguments))
    return emitOpError("region must take the element type of each source ")
           << pack << " time(s) (the pack)";
  for (Block &block : body) {
    auto yield = dyn_cast<YieldOp>(block.getTerminator());
    if (yield && TypeRange(yield.getValues()) != TypeRange(yielded))
      return yield.emitOpError("must yield the element type of each result ")
             << pack << " time(s) (the pack)";
  }
  return success();
}

std::optional<CombineKind> mtia::tile::getSingleCombineKind(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return std::nullopt;
  Operation &combine = block.front();
  Operation *terminator = block.getTerminator();
  if (combine.getNumOperands() != 2 || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != combine.getResult(0))
    return std::nullopt;
  Value lhs = combine.getOperand(0), rhs = combine.getOperand(1);
  if (!((lhs == block.getArgument(0) && rhs == block.getArgument(1)) ||
        (lhs == block.getArgument(1) && rhs == block.getArgument(0))))
    return std::nullopt;
  StringRef name = combine.getName().getStringRef();
  if (!name.consume_front("arith."))
    return std::nullopt;
  return symbolizeCombineKind(name);
}

LogicalResult ScanOp::verify() {
  if (failed(verifySourcesOfOneShape(*this, getSources(), getNumResults())))
    return failure();
  auto sourceType = cast<TileType>(getSources().front().getType());
  if (failed(verifyAxis(*this, sourceType, getAxis())))
    return failure();
  if (getSources().getTypes() != getResults().getTypes())
    return emitOpError("results must have the types of the sources");
  std::optional<CombineKind> kind = getKind();
  if (!kind)
    return success();
  if (getSources().size() != 1)
    return emitOpError("with a combine kind must scan one tile");
  return verifyKindMatchesElements(*this, stringifyCombineKind(*kind),
                                   isFloatKind(*kind), sourceType);
}

LogicalResult ScanOp::verifyRegions() {
  if (failed(verifyCombiner(*this, getCombiner(), getSources())))
    return failure();
  std::optional<CombineKind> kind = getKind();
  if (kind && getSingleCombineKind(getCombiner()) != kind)
    return emitOpError("combine region must apply '")
           << stringifyCombineKind(*kind) << "' to its two arguments";
  return success();
}

LogicalResult ArgReduceOp::verify() {
  return verifyReducedShape(*this, getSource().getType(), getType(), getAxis(),
                            getType().getElementType());
}

LogicalResult HistogramOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError("result must be a rank-1 tile of bins, got ")
           << getType();
  return success();
}

LogicalResult CrossPEReduceOp::verify() {
  return verifyKindMatchesElements(*this, stringifyCombineKind(getKind()),
                                   isFloatKind(getKind()), getType());
}

LogicalResult CrossPEArgReduceOp::verify() {
  TileType values = getValues().getType();
  TileType indices = getIndices().getType();
  if (values.getShape() != indices.getShape())
    return emitOpError("values and indices must have one shape, got ")
           << values << " and " << indices;
  if (!indices.getElementType().isInteger(32))
    return emitOpError("indices must be i32, got ") << indices;
  return success();
}

//===----------------------------------------------------------------------===//
// Memory-layout unit
//===----------------------------------------------------------------------===//

/// Checks that `source` and `result` have one element type.
static LogicalResult verifySameElementType(Operation *op, TileType source,
                                           TileType result) {
  if (source.getElementType() == result.getElementType())
    return success();
  return op->emitOpError("source and result must have one element type, got ")
         << source << " and " << result;
}

LogicalResult TransposeOp::verify() {
  TileType source = getSource().getType();
  TileType result = getType();
  if (failed(verifySameElementType(*this, source, result)))
    return failure();
  ArrayRef<int64_t> permutation = getPermutation();
  SmallVector<bool> seen(source.getRank(), false);
  bool isPermutation =
      static_cast<int64_t>(permutation.size()) == source.getRank();
  for (int64_t dim : permutation) {
    if (!isPermutation || dim < 0 || dim >= source.getRank() || seen[dim]) {
      isPermutation = false;
      break;
    }
    seen[dim] = true;
  }
  if (!isPermutation)
    return emitOpError("permutation [")
           << permutation << "] is not a permutation of the "
           << source.getRank() << " dimensions";
  for (auto [index, dim] : llvm::enumerate(permutation))
    if (result.getDimSize(index) != source.getDimSize(dim))
      return emitOpError("result dimension ")
             << index << " must be source dimension " << dim << " ("
             << source.getDimSize(dim) << "), got " << result.getDimSize(index);
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  TileType source = getSource().getType();
  TileType result = getType();
  if (source.getShape() != result.getShape() ||
      source.getElementType() != result.getElementType())
    return emitOpError("source and result must differ in layout only, got ")
           << source << " and " << result;
  return success();
}

LogicalResult ReshapeOp::verify() {
  TileType source = getSource().getType();
  TileType result = getType();
  if (failed(verifySameElementType(*this, source, result)))
    return failure();
  if (source.getNumElements() != result.getNumElements())
    return emitOpError("source and result must have one element count, got ")
           << source << " and " << result;
  return success();
}

LogicalResult SplatElementOp::verify() {
  TileType source = getSource().getType();
  if (source.getRank() != 0)
    return emitOpError("source must be a rank-0 tile, got ") << source;
  return verifySameElementType(*this, source, getType());
}

LogicalResult BroadcastOp::verify() {
  TileType source = getSource().getType();
  TileType result = getType();
  if (failed(verifySameElementType(*this, source, result)))
    return failure();
  if (source.getRank() == 0)
    return success();
  SmallVector<int64_t> dimensions;
  if (std::optional<ArrayRef<int64_t>> given = getDimensions())
    dimensions.assign(given->begin(), given->end());
  else if (source.getRank() == result.getRank())
    dimensions = llvm::to_vector(llvm::seq<int64_t>(0, result.getRank()));
  else
    return emitOpError("source and result must have one rank, got ")
           << source << " and " << result;
  if (static_cast<int64_t>(dimensions.size()) != source.getRank())
    return emitOpError("needs one dimension per source dimension, got ")
           << dimensions.size() << " for " << source;
  for (auto [index, dim] : llvm::enumerate(dimensions)) {
    if (dim < 0 || dim >= result.getRank() ||
        (index > 0 && dim <= dimensions[index - 1]))
      return emitOpError("dimensions must increase within the rank of ")
             << result;
    int64_t from = source.getShape()[index], to = result.getShape()[dim];
    if (from != 1 && from != to)
      return emitOpError("only dimensions of size 1 broadcast, got ")
             << source << " to " << result;
  }
  return success();
}

/// Verifies that `result` is the block of its shape at `offsets` in
/// `source`, of its element type; `what` names the op in the message.
static LogicalResult verifyStaticBlock(Operation *op, TileType source,
                                       TileType result,
                                       ArrayRef<int64_t> offsets,
                                       StringRef what) {
  if (failed(verifySameElementType(op, source, result)))
    return failure();
  if (source.getRank() != result.getRank() ||
      static_cast<int64_t>(offsets.size()) != source.getRank())
    return op->emitOpError("source, result and offsets must have one rank");
  for (auto [offset, size, dim] :
       llvm::zip_equal(offsets, result.getShape(), source.getShape()))
    if (offset < 0 || offset + size > dim)
      return op->emitOpError(what) << " at [" << offsets << "] of shape "
                                   << result << " exceeds " << source;
  return success();
}

LogicalResult SliceOp::verify() {
  return verifyStaticBlock(*this, getSource().getType(), getType(),
                           getOffsets(), "slice");
}

bool mtia::tile::isContiguousBlock(TileType source, TileType block,
                                   ArrayRef<int64_t> offsets) {
  if (!source.isRowMajor() || !block.isRowMajor() ||
      source.getRank() != block.getRank())
    return false;
  // The dimensions of size 1 lead up to the first one the block runs
  // along; every dimension after it is whole.
  int64_t rank = source.getRank();
  int64_t first = 0;
  while (first < rank - 1 && block.getShape()[first] == 1)
    ++first;
  for (int64_t dim = first + 1; dim < rank; ++dim)
    if (offsets[dim] != 0 || block.getShape()[dim] != source.getShape()[dim])
      return false;
  return true;
}

LogicalResult SubviewOp::verify() {
  TileType source = getSource().getType();
  TileType result = getType();
  if (failed(verifyStaticBlock(*this, source, result, getOffsets(), "subview")))
    return failure();
  if (!isContiguousBlock(source, result, getOffsets()))
    return emitOpError("the block at [")
           << getOffsets() << "] of shape " << result
           << " is not contiguous in " << source
           << " (a strided block is a 'tile.slice')";
  return success();
}

OpFoldResult SubviewOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  // A subview of a subview is one subview of the first source.
  if (auto inner = getSource().getDefiningOp<SubviewOp>()) {
    SmallVector<int64_t> offsets(getOffsets());
    for (auto [offset, innerOffset] :
         llvm::zip_equal(offsets, inner.getOffsets()))
      offset += innerOffset;
    getSourceMutable().assign(inner.getSource());
    setOffsets(offsets);
    return getResult();
  }
  return {};
}

LogicalResult GatherOp::verify() {
  TileType source = getSource().getType();
  TileType indices = getIndices().getType();
  TileType result = getType();
  int64_t axis = getAxis();
  if (indices.getRank() != source.getRank())
    return emitOpError("indices and source must have one rank");
  if (failed(verifyAxis(*this, source, axis)))
    return failure();
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != source.getElementType())
    return emitOpError("result must have the shape of the indices and the "
                       "element type of the source");
  for (int64_t dim = 0; dim < source.getRank(); ++dim)
    if (dim != axis && indices.getDimSize(dim) > source.getDimSize(dim))
      return emitOpError("indices dimension ")
             << dim << " is larger than the source's";
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getSources().empty())
    return emitOpError("needs at least one source");
  TileType result = getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, result, axis)))
    return failure();
  int64_t concatenatedSize = 0;
  for (Value value : getSources()) {
    auto source = cast<TileType>(value.getType());
    if (failed(verifySameElementType(*this, source, result)))
      return failure();
    if (source.getRank() != result.getRank() ||
        dropAxis(source, axis) != dropAxis(result, axis))
      return emitOpError("sources must match the result ")
             << result << " except along axis " << axis << ", got " << source;
    concatenatedSize += source.getDimSize(axis);
  }
  if (concatenatedSize != result.getDimSize(axis))
    return emitOpError("sources add up to ")
           << concatenatedSize << " along axis " << axis << ", the result has "
           << result.getDimSize(axis);
  return success();
}
