//===- TileDialect.cpp - The `tile` dialect -------------------------------===//

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mtia::tile;

#include "dialects/Tile/TileDialect.cpp.inc"
#include "dialects/Tile/TileEnums.cpp.inc"
#include "dialects/Tile/TileInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/TileTypes.cpp.inc"
      >();
}

namespace {

/// `arith.select %c, %r, %z` where `%r` is a result of an `scf.if %c` whose
/// else branch yields `%z` for it is `%r`. Canonicalization makes such a
/// select of an `scf.if` whose branches yield values computed before it,
/// which `mtia-pipeline-dots` builds when the values of a loop's first
/// iteration are the products another guard computes (attention's scores,
/// once a mask that holds everywhere is folded): the program stage has no
/// select of whole tiles.
struct FoldGuardedSelect : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    if (!isa<TileType>(select.getType()))
      return failure();
    auto guarded = dyn_cast<OpResult>(select.getTrueValue());
    auto guard = guarded ? dyn_cast<scf::IfOp>(guarded.getOwner()) : nullptr;
    if (!guard || guard.getCondition() != select.getCondition() ||
        guard.getElseRegion().empty())
      return failure();
    Value otherwise = guard.elseYield().getOperand(guarded.getResultNumber());
    if (otherwise != select.getFalseValue())
      return failure();
    rewriter.replaceOp(select, guarded);
    return success();
  }
};

} // namespace

void TileDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<FoldGuardedSelect>(getContext());
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

/// Returns the row-major order of a tile of `rank` dimensions, fastest
/// varying first.
static SmallVector<int64_t> getRowMajorOrder(int64_t rank) {
  SmallVector<int64_t> order;
  for (int64_t dim = rank - 1; dim >= 0; --dim)
    order.push_back(dim);
  return order;
}

SmallVector<int64_t> TileType::getDimensionOrder() const {
  if (isRowMajor())
    return getRowMajorOrder(getShape().size());
  return SmallVector<int64_t>(getOrder());
}

int64_t TileType::getSizeInBytes() const {
  return getNumElements() * getElementSizeInBytes(getElementType());
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  if (!shape)
    return TileType::get(getShape(), elementType, getOrder());
  if (shape->size() != getShape().size())
    return TileType::get(*shape, elementType);
  return TileType::get(*shape, elementType, getOrder());
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               ArrayRef<int64_t> order) {
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tile dimensions must be positive, got " << dim;
  if (!elementType.isSignlessInteger() && !isa<FloatType>(elementType))
    return emitError() << "tile elements must be signless integers or floats, "
                          "got "
                       << elementType;
  if (order.empty())
    return success();
  if (order.size() != shape.size())
    return emitError() << "tile order must list each of the " << shape.size()
                       << " dimensions once";
  SmallVector<bool> seen(shape.size(), false);
  for (int64_t dim : order) {
    if (dim < 0 || dim >= static_cast<int64_t>(shape.size()) || seen[dim])
      return emitError() << "tile order must be a permutation of the "
                            "dimensions, got ["
                         << order << "]";
    seen[dim] = true;
  }
  if (llvm::equal(order, getRowMajorOrder(shape.size())))
    return emitError() << "the row-major order is the default and must be "
                          "omitted";
  return success();
}

void TileType::printBody(AsmPrinter &printer) const {
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (!isRowMajor())
    printer << ", order = [" << getOrder() << "]";
}

TileType TileType::parseBody(AsmParser &parser, bool &parsedTrailingComma) {
  parsedTrailingComma = false;
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  SmallVector<int64_t> order;
  // A comma followed by anything but `order` belongs to the enclosing type
  // (the page count of a circular buffer).
  if (succeeded(parser.parseOptionalComma())) {
    if (failed(parser.parseOptionalKeyword("order"))) {
      parsedTrailingComma = true;
    } else if (parser.parseEqual() ||
               parser.parseCommaSeparatedList(
                   AsmParser::Delimiter::Square, [&]() -> ParseResult {
                     return parser.parseInteger(order.emplace_back());
                   })) {
      return {};
    } else {
      parsedTrailingComma = succeeded(parser.parseOptionalComma());
    }
  }
  return parser.getChecked<TileType>(loc, parser.getContext(), shape,
                                     elementType, order);
}

Type TileType::parse(AsmParser &parser) {
  if (parser.parseLess())
    return {};
  bool parsedTrailingComma;
  TileType type = parseBody(parser, parsedTrailingComma);
  if (!type)
    return {};
  if (parsedTrailingComma) {
    parser.emitError(parser.getCurrentLocation(), "expected 'order'");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return type;
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  printBody(printer);
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mtia::tile::getBoolTileLike(Type type) {
  auto tileType = dyn_cast<TileType>(type);
  if (!tileType)
    return type;
  return tileType.withElementType(IntegerType::get(type.getContext(), 1));
}

int64_t mtia::tile::getElementSizeInBytes(Type elementType) {
  return llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
}
