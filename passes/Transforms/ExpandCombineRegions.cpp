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
// `tile.map_elementwise` (Triton's `tl.map_elementwise`) applies its region
// once to whole tiles. Its region may branch; every element may take its own
// path, so the branches are if-converted first: every block and `scf.if`
// branch is executed for all elements, and the values that meet where paths
// join are selected by the conditions of the paths. The region's operations
// have no side effects, and a SIMD division by zero is defined, so executing
// a branch for elements that do not take it changes nothing but the cycles.
// With `pack` > 1 the sources are split into `pack` strided slices (element
// j of every group of `pack` consecutive ones) and the results interleaved.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"
#include "passes/Passes.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Selects among values that meet where paths join: `values[k]` arrives
/// when `conditions[k]` holds, and exactly one condition holds for an
/// element that reaches the join.
Value selectArriving(OpBuilder &builder, Location loc,
                     ArrayRef<Value> conditions, ArrayRef<Value> values) {
  Value result = values.front();
  for (auto [condition, value] :
       llvm::drop_begin(llvm::zip_equal(conditions, values)))
    if (value != result)
      result = arith::SelectOp::create(builder, loc, condition, value, result);
  return result;
}

/// Replaces every `scf.if` among the operations of `block` (innermost first)
/// by its branches' operations and selects of their yielded values.
void flattenIfs(Block &block) {
  SmallVector<scf::IfOp> ifs;
  block.walk<WalkOrder::PostOrder>([&](scf::IfOp op) { ifs.push_back(op); });
  for (scf::IfOp op : ifs) {
    OpBuilder builder(op);
    Block *thenBlock = op.thenBlock();
    Block *elseBlock = op.elseBlock();
    auto thenYield = cast<scf::YieldOp>(thenBlock->getTerminator());
    SmallVector<Value> thenValues(thenYield.getOperands());
    thenYield.erase();
    op->getBlock()->getOperations().splice(op->getIterator(),
                                           thenBlock->getOperations());
    SmallVector<Value> results(thenValues);
    if (elseBlock) {
      auto elseYield = cast<scf::YieldOp>(elseBlock->getTerminator());
      SmallVector<Value> elseValues(elseYield.getOperands());
      elseYield.erase();
      op->getBlock()->getOperations().splice(op->getIterator(),
                                             elseBlock->getOperations());
      for (auto [result, elseValue] : llvm::zip_equal(results, elseValues))
        if (result != elseValue)
          result = arith::SelectOp::create(builder, op.getLoc(),
                                           op.getCondition(), result,
                                           elseValue);
    }
    op.replaceAllUsesWith(results);
    op.erase();
  }
}

/// The blocks of `region` reachable from its entry, in an order where every
/// block comes after its predecessors; fails after reporting at `owner` a
/// region with a loop.
FailureOr<SmallVector<Block *>> orderBlocks(Operation *owner, Region &region) {
  SmallVector<Block *> postOrder;
  llvm::DenseSet<Block *> visited, onPath;
  bool cyclic = false;
  std::function<void(Block *)> visit = [&](Block *block) {
    visited.insert(block);
    onPath.insert(block);
    for (Block *successor : block->getSuccessors()) {
      if (onPath.contains(successor))
        cyclic = true;
      else if (!visited.contains(successor))
        visit(successor);
    }
    onPath.erase(block);
    postOrder.push_back(block);
  };
  visit(&region.front());
  if (cyclic)
    return owner->emitOpError("has a region with a loop, which cannot be "
                              "applied to tiles elementwise");
  return SmallVector<Block *>(llvm::reverse(postOrder));
}

/// If-converts the region of `op` into one block: the operations of every
/// block run for all elements, each block's arguments select among the
/// values its predecessors pass according to the conditions of the edges
/// taken, and the `tile.yield` selects among the returns likewise. Fails
/// after reporting a region with a loop, an operation with side effects, or
/// a branch other than `cf.br`/`cf.cond_br`.
LogicalResult flattenRegion(tile::MapElementwiseOp op) {
  Region &region = op.getBody();
  for (Block &block : region) {
    WalkResult effects = block.walk([&](Operation *inner) {
      if (inner->hasTrait<OpTrait::IsTerminator>() ||
          isa<scf::IfOp>(inner) || isMemoryEffectFree(inner))
        return WalkResult::advance();
      op.emitOpError("has a region with an operation that has side effects, "
                     "which cannot be applied to tiles elementwise")
              .attachNote(inner->getLoc())
          << "this operation";
      return WalkResult::interrupt();
    });
    if (effects.wasInterrupted())
      return failure();
    flattenIfs(block);
  }
  if (region.hasOneBlock())
    return success();
  FailureOr<SmallVector<Block *>> order = orderBlocks(op, region);
  if (failed(order))
    return failure();

  Location loc = op.getLoc();
  Block *entry = order->front();
  auto *terminator = entry->getTerminator();
  OpBuilder builder(terminator);
  // The condition under which an element reaches each block (none: all of
  // them), and what each edge into a block passes.
  llvm::DenseMap<Block *, Value> reaches;
  struct Arrival {
    Value condition;
    SmallVector<Value> values;
  };
  llvm::DenseMap<Block *, SmallVector<Arrival>> arrivals;
  SmallVector<Arrival> returns;
  Value trueValue = arith::ConstantOp::create(builder, loc,
                                              builder.getBoolAttr(true));
  auto both = [&](Value condition, Value other) -> Value {
    if (!condition)
      return other;
    return arith::AndIOp::create(builder, loc, condition, other);
  };
  for (Block *block : *order) {
    builder.setInsertionPoint(entry->getTerminator());
    if (block != entry) {
      SmallVector<Arrival> &into = arrivals[block];
      SmallVector<Value> conditions;
      for (Arrival &arrival : into)
        conditions.push_back(arrival.condition ? arrival.condition
                                               : trueValue);
      for (BlockArgument argument : block->getArguments()) {
        SmallVector<Value> values;
        for (Arrival &arrival : into)
          values.push_back(arrival.values[argument.getArgNumber()]);
        argument.replaceAllUsesWith(
            selectArriving(builder, loc, conditions, values));
      }
      Value reached = conditions.front();
      for (Value condition : llvm::drop_begin(conditions))
        reached = arith::OrIOp::create(builder, loc, reached, condition);
      reaches[block] = reached;
      Operation *insertion = entry->getTerminator();
      for (Operation &inner :
           llvm::make_early_inc_range(block->without_terminator()))
        inner.moveBefore(insertion);
    }
    Operation *exit = block->getTerminator();
    Value reached = reaches.lookup(block);
    builder.setInsertionPoint(entry->getTerminator());
    if (auto branch = dyn_cast<cf::BranchOp>(exit)) {
      arrivals[branch.getDest()].push_back(
          {reached, SmallVector<Value>(branch.getDestOperands())});
    } else if (auto branch = dyn_cast<cf::CondBranchOp>(exit)) {
      Value condition = branch.getCondition();
      Value negated = arith::XOrIOp::create(builder, loc, condition, trueValue);
      arrivals[branch.getTrueDest()].push_back(
          {both(reached, condition),
           SmallVector<Value>(branch.getTrueDestOperands())});
      arrivals[branch.getFalseDest()].push_back(
          {both(reached, negated),
           SmallVector<Value>(branch.getFalseDestOperands())});
    } else if (auto yield = dyn_cast<tile::YieldOp>(exit)) {
      returns.push_back({reached, SmallVector<Value>(yield.getValues())});
    } else {
      return op.emitOpError("has a region that branches with '")
             << exit->getName() << "', which cannot be applied to tiles";
    }
  }
  builder.setInsertionPoint(entry->getTerminator());
  SmallVector<Value> conditions;
  for (Arrival &arrival : returns)
    conditions.push_back(arrival.condition ? arrival.condition : trueValue);
  SmallVector<Value> results;
  for (unsigned i = 0, e = returns.front().values.size(); i < e; ++i) {
    SmallVector<Value> values;
    for (Arrival &arrival : returns)
      values.push_back(arrival.values[i]);
    results.push_back(selectArriving(builder, loc, conditions, values));
  }
  tile::YieldOp::create(builder, loc, results);
  entry->getTerminator()->erase();
  // The other blocks hold nothing but their terminators now (or nothing
  // reachable).
  for (Block &block : region)
    if (&block != entry)
      block.dropAllReferences();
  for (Block &block : llvm::make_early_inc_range(region))
    if (&block != entry)
      block.erase();
  return success();
}

/// The elements `j, j + pack, j + 2 pack, ...` of `value` in row-major
/// order, as a rank-1 tile.
Value strided(OpBuilder &builder, Location loc, Value value, int64_t pack,
              int64_t j) {
  auto type = cast<tile::TileType>(value.getType());
  int64_t groups = type.getNumElements() / pack;
  Value grouped = reshape(builder, loc, value, {groups, pack});
  return reshape(builder, loc, sliceAlong(builder, loc, grouped, 1, j, 1),
                 {groups});
}

/// Applies the region of `op` to its sources, `pack` elements at a time.
LogicalResult expandMap(tile::MapElementwiseOp op) {
  if (failed(flattenRegion(op)))
    return failure();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  int64_t pack = op.getPack();
  auto sourceType = cast<tile::TileType>(op.getSources().front().getType());
  if (!llvm::all_of(op->getOperandTypes(), [](Type type) {
        return cast<tile::TileType>(type).isRowMajor();
      }))
    return op.emitOpError("needs row-major tiles");
  if (sourceType.getNumElements() % pack != 0)
    return op.emitOpError("packs ")
           << pack << " elements of tiles of " << sourceType.getNumElements()
           << ", which is not a multiple of the pack";
  SmallVector<Value> operands;
  for (Value source : op.getSources()) {
    if (pack == 1) {
      operands.push_back(source);
      continue;
    }
    for (int64_t j = 0; j < pack; ++j)
      operands.push_back(strided(builder, loc, source, pack, j));
  }
  FailureOr<SmallVector<Value>> mapped =
      applyCombiner(op, op.getBody(), operands, {}, builder);
  if (failed(mapped))
    return failure();
  if (pack == 1) {
    op.replaceAllUsesWith(*mapped);
    op.erase();
    return success();
  }
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    auto type = cast<tile::TileType>(result.getType());
    int64_t groups = type.getNumElements() / pack;
    SmallVector<Value> columns;
    for (int64_t j = 0; j < pack; ++j)
      columns.push_back(
          reshape(builder, loc, (*mapped)[index * pack + j], {groups, 1}));
    Value interleaved = tile::ConcatOp::create(
        builder, loc, type.withShape({groups, pack}), columns, 1);
    results.push_back(reshape(builder, loc, interleaved, type.getShape()));
  }
  op.replaceAllUsesWith(results);
  op.erase();
  return success();
}

struct ExpandCombineRegionsPass
    : public mtia::impl::ExpandCombineRegionsBase<ExpandCombineRegionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> expansions;
    getOperation().walk([&](Operation *op) {
      if (isa<tile::ReduceRegionOp, tile::MapElementwiseOp>(op))
        expansions.push_back(op);
      // A scan with a combine kind runs on the reduction engine itself.
      if (auto scan = dyn_cast<tile::ScanOp>(op); scan && !scan.getKind())
        expansions.push_back(op);
    });
    for (Operation *op : expansions) {
      if (auto map = dyn_cast<tile::MapElementwiseOp>(op)) {
        if (failed(expandMap(map)))
          return signalPassFailure();
        continue;
      }
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
