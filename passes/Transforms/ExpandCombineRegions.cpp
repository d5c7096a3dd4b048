//===- ExpandCombineRegions.cpp - Combine regions as tile computations ----===//
//
// The reduction engine combines with a fixed set of operations (add, mul,
// max, min, and, or, xor). A `tt.reduce`/`tt.scan` whose combine region is
// anything else (argmax's value-and-index pairs, Welford's mean/m2/weight
// triples, a NaN-propagating maximum written as compare and select, a user's
// combine function) is expanded here into a logarithmic number of steps, each
// of which applies the region to whole tiles: the region's scalar operations
// become the SIMD tile operations of the tile stage, and the memory-layout
// unit slices the operands.
//
//   reduce: combine adjacent pairs (elements 2i and 2i+1 along the axis)
//           until one element is left; the order of the elements is kept, so
//           the region need only be associative.
//   scan:   Hillis-Steele: for d = 1, 2, 4, ..., element i combines with
//           element i - d (i + d when reversed), earlier elements first.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"
#include "passes/Passes.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mtia {
#define GEN_PASS_DEF_EXPANDCOMBINEREGIONS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Maps the scalars of a combine region to tiles of one shape, so that the
/// region's operations apply elementwise to whole tiles. A region argument
/// stands for a tile through an `unrealized_conversion_cast` from it (a
/// "view"); any other scalar (a constant) is splat.
class ShapedScalarConverter : public TypeConverter {
public:
  explicit ShapedScalarConverter(ArrayRef<int64_t> shape) {
    addConversion([](Type type) { return type; });
    addConversion([shape = SmallVector<int64_t>(shape)](
                      Type type) -> std::optional<Type> {
      if (!type.isIntOrFloat())
        return std::nullopt;
      return tile::TileType::get(shape, type);
    });
    addTargetMaterialization([](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
      if (Value viewed = getViewedTile(inputs.front(), type))
        return viewed;
      return tile::SplatOp::create(builder, loc, type, inputs.front());
    });
    addSourceMaterialization([](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
      return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
          .getResult(0);
    });
  }

  /// The tile of type `type` that `scalar` is a view of, if it is one.
  static Value getViewedTile(Value scalar, Type type) {
    auto view = scalar.getDefiningOp<UnrealizedConversionCastOp>();
    if (!view || view.getInputs().size() != 1 ||
        view.getInputs().front().getType() != type)
      return nullptr;
    return view.getInputs().front();
  }
};

/// Applies `combiner` elementwise to tiles of one shape: `accumulated` are
/// the tiles of its first arguments, `next` those of the others. Returns the
/// tiles of the values it yields, or fails after reporting at `owner` an
/// operation that has no tile form.
FailureOr<SmallVector<Value>> applyCombiner(Operation *owner, Region &combiner,
                                            ValueRange accumulated,
                                            ValueRange next,
                                            OpBuilder &builder) {
  Location loc = owner->getLoc();
  Block &block = combiner.front();
  ArrayRef<int64_t> shape =
      cast<tile::TileType>(accumulated.front().getType()).getShape();

  IRMapping mapping;
  SmallVector<Value> operands(accumulated);
  operands.append(next.begin(), next.end());
  llvm::SetVector<Operation *> views;
  for (auto [argument, tileValue] :
       llvm::zip_equal(block.getArguments(), operands)) {
    auto view = UnrealizedConversionCastOp::create(
        builder, loc, argument.getType(), tileValue);
    views.insert(view);
    mapping.map(argument, view.getResult(0));
  }
  SmallVector<Operation *> clones;
  for (Operation &op : block.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    // Constants stay scalars; their users splat them.
    if (!clone->hasTrait<OpTrait::ConstantLike>())
      clones.push_back(clone);
  }
  SmallVector<UnrealizedConversionCastOp> sinks;
  for (Value yielded : block.getTerminator()->getOperands())
    sinks.push_back(UnrealizedConversionCastOp::create(
        builder, loc, tile::TileType::get(shape, yielded.getType()),
        mapping.lookupOrDefault(yielded)));

  MLIRContext *context = owner->getContext();
  ShapedScalarConverter converter(shape);
  ConversionTarget target(*context);
  llvm::DenseSet<Operation *> toConvert(clones.begin(), clones.end());
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) { return !toConvert.contains(op); });
  RewritePatternSet patterns(context);
  populateTileConversionPatterns(converter, patterns);
  // The conversion reports the first operation it cannot convert; the
  // error names the reduction, with a note at that operation.
  std::optional<Location> unconverted;
  LogicalResult converted = failure();
  {
    ScopedDiagnosticHandler capture(context, [&](Diagnostic &diagnostic) {
      if (!unconverted)
        unconverted = diagnostic.getLocation();
      return success();
    });
    converted = applyPartialConversion(clones, target, std::move(patterns));
  }
  if (failed(converted)) {
    InFlightDiagnostic error = owner->emitOpError(
        "has a combine region whose operations cannot all be applied to "
        "tiles");
    if (unconverted)
      error.attachNote(*unconverted) << "this operation has no tile form";
    return failure();
  }

  SmallVector<Value> results;
  for (UnrealizedConversionCastOp sink : sinks) {
    Value scalar = sink.getInputs().front();
    Type tileType = sink.getResult(0).getType();
    Value result = ShapedScalarConverter::getViewedTile(scalar, tileType);
    if (!result) {
      builder.setInsertionPoint(sink);
      result = tile::SplatOp::create(builder, loc, tileType, scalar);
    }
    results.push_back(result);
    sink.erase();
    // The scalar was a view of the result, or of a region argument.
    if (auto view = scalar.getDefiningOp<UnrealizedConversionCastOp>())
      views.insert(view);
  }
  for (Operation *view : views)
    if (view->use_empty())
      view->erase();
  return results;
}

SmallVector<int64_t> withDimension(ArrayRef<int64_t> shape, int64_t axis,
                                   int64_t size) {
  SmallVector<int64_t> result(shape);
  result[axis] = size;
  return result;
}

/// The elements `[offset, offset + size)` of `value` along `axis`.
Value sliceAlong(OpBuilder &builder, Location loc, Value value, int64_t axis,
                 int64_t offset, int64_t size) {
  auto type = cast<tile::TileType>(value.getType());
  SmallVector<int64_t> offsets(type.getRank(), 0);
  offsets[axis] = offset;
  return tile::SliceOp::create(
      builder, loc, type.withShape(withDimension(type.getShape(), axis, size)),
      value, builder.getDenseI64ArrayAttr(offsets));
}

Value reshape(OpBuilder &builder, Location loc, Value value,
              ArrayRef<int64_t> shape) {
  auto type = cast<tile::TileType>(value.getType());
  return tile::ReshapeOp::create(builder, loc, type.withShape(shape), value);
}

/// Reduces `op`'s sources along its axis by combining adjacent pairs.
LogicalResult expandReduce(tile::ReduceRegionOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  int64_t axis = op.getAxis();
  SmallVector<Value> values(op.getSources());
  SmallVector<int64_t> shape(
      cast<tile::TileType>(values.front().getType()).getShape());
  if (!llvm::isPowerOf2_64(shape[axis]))
    return op.emitOpError("reduces an axis of ")
           << shape[axis]
           << " elements with a combine region; only powers of two are "
              "supported";
  while (shape[axis] > 1) {
    int64_t half = shape[axis] / 2;
    // View the axis as (half, 2): the pairs are the two columns.
    SmallVector<int64_t> pairs = withDimension(shape, axis, half);
    pairs.insert(pairs.begin() + axis + 1, 2);
    SmallVector<int64_t> halved = withDimension(shape, axis, half);
    SmallVector<Value> first, second;
    for (Value value : values) {
      Value paired = reshape(builder, loc, value, pairs);
      first.push_back(reshape(builder, loc,
                              sliceAlong(builder, loc, paired, axis + 1, 0, 1),
                              halved));
      second.push_back(reshape(builder, loc,
                               sliceAlong(builder, loc, paired, axis + 1, 1, 1),
                               halved));
    }
    FailureOr<SmallVector<Value>> combined =
        applyCombiner(op, op.getCombiner(), first, second, builder);
    if (failed(combined))
      return failure();
    values = std::move(*combined);
    shape = std::move(halved);
  }
  SmallVector<Value> results;
  for (auto [value, result] : llvm::zip_equal(values, op.getResults()))
    results.push_back(
        tile::ReshapeOp::create(builder, loc, result.getType(), value));
  op.replaceAllUsesWith(results);
  op.erase();
  return success();
}

/// Scans `op`'s sources along its axis by recursive doubling.
LogicalResult expandScan(tile::ScanOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  int64_t axis = op.getAxis();
  bool reverse = op.getReverse();
  SmallVector<Value> values(op.getSources());
  int64_t length =
      cast<tile::TileType>(values.front().getType()).getShape()[axis];
  for (int64_t distance = 1; distance < length; distance *= 2) {
    int64_t count = length - distance;
    // Element i combines with the element `distance` before it (after it
    // when reversed), which comes first in the combine order.
    SmallVector<Value> earlier, later;
    for (Value value : values) {
      earlier.push_back(
          sliceAlong(builder, loc, value, axis, reverse ? distance : 0, count));
      later.push_back(
          sliceAlong(builder, loc, value, axis, reverse ? 0 : distance, count));
    }
    FailureOr<SmallVector<Value>> combined =
        applyCombiner(op, op.getCombiner(), earlier, later, builder);
    if (failed(combined))
      return failure();
    for (auto [value, combinedValue] : llvm::zip_equal(values, *combined)) {
      // The first `distance` elements (the last when reversed) are final.
      Value done =
          sliceAlong(builder, loc, value, axis, reverse ? count : 0, distance);
      SmallVector<Value> parts = reverse
                                     ? SmallVector<Value>{combinedValue, done}
                                     : SmallVector<Value>{done, combinedValue};
      value =
          tile::ConcatOp::create(builder, loc, value.getType(), parts, axis);
    }
  }
  op.replaceAllUsesWith(values);
  op.erase();
  return success();
}

struct ExpandCombineRegionsPass
    : public mtia::impl::ExpandCombineRegionsBase<ExpandCombineRegionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> expansions;
    getOperation().walk([&](Operation *op) {
      if (isa<tile::ReduceRegionOp>(op))
        expansions.push_back(op);
      // A scan with a combine kind runs on the reduction engine itself.
      if (auto scan = dyn_cast<tile::ScanOp>(op); scan && !scan.getKind())
        expansions.push_back(op);
    });
    for (Operation *op : expansions) {
      if (!cast<tile::TileType>(op->getOperand(0).getType()).isRowMajor()) {
        op->emitOpError("with a combine region needs row-major tiles");
        return signalPassFailure();
      }
      LogicalResult expanded =
          isa<tile::ScanOp>(op) ? expandScan(cast<tile::ScanOp>(op))
                                : expandReduce(cast<tile::ReduceRegionOp>(op));
      if (failed(expanded))
        return signalPassFailure();
    }
  }
};

} // namespace
