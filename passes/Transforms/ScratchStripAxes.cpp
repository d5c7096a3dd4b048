//===- ScratchStripAxes.cpp - Reductions and scans through scratch -------===//
//
// The loops of `runThroughScratch` (ScratchSpills.h) for reductions and scans:
// a tile of [strip, chunk] elements along the axis per iteration, the axis
// whole or, when it is longer than a strip holds, in chunks whose results
// are combined in order by the operation's own combine region.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/PipelineStages.h"
#include "passes/Transforms/ScratchSpills.h"
#include "passes/Transforms/ScratchStrips.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mtia;

Value ScratchStrips::getAxisOffsets(OpBuilder &builder, Location loc,
                                    Value first, Value chunkStart,
                                    int64_t chunk, int64_t inner) {
  auto firstType = cast<RankedTensorType>(first.getType());
  int64_t strip = firstType.getNumElements();
  auto tileType = RankedTensorType::get({strip, chunk}, builder.getI32Type());
  Value rows = tt::BroadcastOp::create(
      builder, loc, tileType,
      tt::ExpandDimsOp::create(builder, loc, firstType.clone({strip, 1}), first,
                               1));
  auto laneType = RankedTensorType::get({chunk}, builder.getI32Type());
  Value lanes = tt::MakeRangeOp::create(builder, loc, laneType, 0, chunk);
  if (chunkStart)
    lanes = arith::AddIOp::create(
        builder, loc, lanes,
        tt::SplatOp::create(builder, loc, laneType, chunkStart));
  lanes = arith::MulIOp::create(
      builder, loc, lanes, createSplatConstant(builder, loc, laneType, inner));
  Value columns = tt::BroadcastOp::create(
      builder, loc, tileType,
      tt::ExpandDimsOp::create(builder, loc, laneType.clone({1, chunk}), lanes,
                               0));
  return arith::AddIOp::create(builder, loc, rows, columns);
}

IRMapping ScratchStrips::mapSources(OpBuilder &builder, Location loc,
                                    ValueRange sources, Value offsets) {
  auto tileType = cast<RankedTensorType>(offsets.getType());
  IRMapping mapping;
  atPositions.clear();
  for (Value source : sources)
    mapping.map(source, isIndexValue(source)
                            ? getStrip(builder, source, offsets)
                            : loadRegion(builder, loc, getRoot(source), offsets,
                                         tileType.clone(getElementTypeOrSelf(
                                             source.getType()))));
  return mapping;
}

namespace {

/// Returns a reduction of `sources` along `axis` by the combine region
/// `combine` (of a reduction or of a scan, whose terminator it retargets).
SmallVector<Value> createReduction(OpBuilder &builder, Location loc,
                                   Region &combine, ValueRange sources,
                                   unsigned axis) {
  SmallVector<Type> resultTypes;
  for (Value source : sources) {
    auto type = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    resultTypes.push_back(shape.empty() ? type.getElementType()
                                        : Type(type.clone(shape)));
  }
  auto reduction = tt::ReduceOp::create(builder, loc, resultTypes, sources,
                                        static_cast<uint32_t>(axis));
  IRMapping mapping;
  combine.cloneInto(&reduction.getCombineOp(), mapping);
  Operation *terminator = reduction.getCombineOp().front().getTerminator();
  if (!isa<tt::ReduceReturnOp>(terminator)) {
    OpBuilder atEnd(terminator);
    tt::ReduceReturnOp::create(atEnd, terminator->getLoc(),
                               terminator->getOperands());
    terminator->erase();
  }
  return SmallVector<Value>(reduction.getResults());
}

/// Returns `combine`'s results on `first` and `second`, element by element:
/// each pair joined along a new last axis and reduced along it, so that any
/// combine region applies unchanged, `first` as its accumulated values.
SmallVector<Value> combineInOrder(OpBuilder &builder, Location loc,
                                  Region &combine, ValueRange first,
                                  ValueRange second) {
  SmallVector<Value> pairs;
  for (auto [a, b] : llvm::zip_equal(first, second)) {
    auto type = cast<RankedTensorType>(a.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(2);
    pairs.push_back(tt::JoinOp::create(builder, loc, type.clone(shape), a, b));
  }
  return createReduction(
      builder, loc, combine, pairs,
      cast<RankedTensorType>(first.front().getType()).getRank());
}

/// Creates a loop over chunks 1 to `chunks` - 1 of an axis that carries
/// `initial` and yields what `body` makes of the carried values and the
/// chunk's index; returns the loop's results.
SmallVector<Value>
createChunkLoop(OpBuilder &builder, Location loc, int64_t chunks,
                ValueRange initial,
                function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = scf::ForOp::create(
      builder, loc, arith::ConstantIntOp::create(builder, loc, 1, 32),
      arith::ConstantIntOp::create(builder, loc, chunks, 32),
      arith::ConstantIntOp::create(builder, loc, 1, 32), initial);
  loop->setAttr(kLoopStagesAttrName, builder.getI32IntegerAttr(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(builder, loc,
                       body(loop.getInductionVar(), loop.getRegionIterArgs()));
  return SmallVector<Value>(loop.getResults());
}
} // namespace

ScratchStrips::AxisLoop
ScratchStrips::createAxisLoop(OpBuilder &builder, const Segment &segment,
                              RankedTensorType sourceType, unsigned axis) {
  Operation *op = segment.ops.front();
  Location loc = op->getLoc();
  for (Value result : op->getResults())
    createRegion(builder, loc, result);
  AxisLoop loop;
  loop.positions =
      createStripLoop(builder, loc, segment.elements, getStrip(segment));
  for (int64_t size : sourceType.getShape().drop_front(axis + 1))
    loop.inner *= size;
  auto positionType = cast<RankedTensorType>(loop.positions.getType());
  Value outer = divideAndWrap(builder, loc, loop.positions, loop.inner, 0);
  loop.first = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(
          builder, loc, outer,
          createSplatConstant(builder, loc, positionType,
                              sourceType.getDimSize(axis) * loop.inner)),
      divideAndWrap(builder, loc, loop.positions, 1, loop.inner));
  return loop;
}

void ScratchStrips::emitReduction(const Segment &segment) {
  auto reduce = cast<tt::ReduceOp>(segment.ops.front());
  Location loc = reduce.getLoc();
  OpBuilder builder(reduce);
  auto sourceType = cast<RankedTensorType>(reduce.getSrcs().front().getType());
  AxisLoop axisLoop =
      createAxisLoop(builder, segment, sourceType, reduce.getAxis());
  Value positions = axisLoop.positions;
  auto positionType = cast<RankedTensorType>(positions.getType());
  // A strip's rows reduced over one chunk of the axis.
  auto reduceChunk = [&](Value chunkStart) -> SmallVector<Value> {
    Value offsets = getAxisOffsets(builder, loc, axisLoop.first, chunkStart,
                                   segment.chunk, axisLoop.inner);
    IRMapping mapping = mapSources(builder, loc, reduce.getSrcs(), offsets);
    auto copy = cast<tt::ReduceOp>(builder.clone(*reduce, mapping));
    copy.setAxis(1);
    for (Value result : copy.getResults())
      result.setType(
          positionType.clone(getElementTypeOrSelf(result.getType())));
    return SmallVector<Value>(copy.getResults());
  };
  SmallVector<Value> reduced = reduceChunk(Value());
  // The chunks after the first, each combined into what came before it.
  if (segment.isChunked())
    reduced = createChunkLoop(
        builder, loc, segment.length / segment.chunk, reduced,
        [&](Value chunk, ValueRange before) {
          Value start = arith::MulIOp::create(
              builder, loc, chunk,
              arith::ConstantIntOp::create(builder, loc, segment.chunk, 32));
          return combineInOrder(builder, loc, reduce.getCombineOp(), before,
                                reduceChunk(start));
        });
  for (auto [result, stripResult] : llvm::zip(reduce.getResults(), reduced))
    storeRegion(builder, loc, result, positions, stripResult);
  // Small results are read whole after the loop; the scalars of a 1-d
  // block's reduction as one element each, which a reduction of one element
  // turns back into scalars.
  builder.setInsertionPointAfter(loopPoint);
  if (sourceType.getRank() == 1) {
    SmallVector<Value> elements;
    for (Value result : reduce.getResults()) {
      auto type = RankedTensorType::get({1}, result.getType());
      elements.push_back(loadRegion(
          builder, loc, result,
          buildRowMajorOffsets(builder, loc, type.clone(builder.getI32Type())),
          type));
    }
    for (auto [result, scalar] : llvm::zip(
             reduce.getResults(),
             createReduction(builder, loc, reduce.getCombineOp(), elements, 0)))
      result.replaceAllUsesWith(scalar);
    return;
  }
  for (Value result : reduce.getResults()) {
    if (isLarge(result))
      continue;
    auto type = cast<RankedTensorType>(result.getType());
    auto offsetType = type.clone(builder.getI32Type());
    result.replaceAllUsesWith(
        loadRegion(builder, loc, result,
                   buildRowMajorOffsets(builder, loc, offsetType), type));
  }
}

void ScratchStrips::emitScan(const Segment &segment) {
  auto scan = cast<tt::ScanOp>(segment.ops.front());
  Location loc = scan.getLoc();
  OpBuilder builder(scan);
  auto sourceType = cast<RankedTensorType>(scan.getSrcs().front().getType());
  AxisLoop axisLoop =
      createAxisLoop(builder, segment, sourceType, scan.getAxis());
  int64_t chunks = segment.length / segment.chunk;
  // A strip's rows scanned over one chunk of the axis, from the values of
  // the chunks before it (in the scan's order) if any, stored; returns the
  // values the chunk ends with, which the next one starts from.
  auto scanChunk = [&](Value chunkStart,
                       ValueRange before) -> SmallVector<Value> {
    Value offsets = getAxisOffsets(builder, loc, axisLoop.first, chunkStart,
                                   segment.chunk, axisLoop.inner);
    auto tileType = cast<RankedTensorType>(offsets.getType());
    IRMapping mapping = mapSources(builder, loc, scan.getSrcs(), offsets);
    auto copy = cast<tt::ScanOp>(builder.clone(*scan, mapping));
    copy.setAxis(1);
    for (Value result : copy.getResults())
      result.setType(tileType.clone(getElementTypeOrSelf(result.getType())));
    SmallVector<Value> scanned(copy.getResults());
    if (!before.empty()) {
      SmallVector<Value> spread;
      for (Value value : before) {
        auto type = cast<RankedTensorType>(value.getType());
        spread.push_back(tt::BroadcastOp::create(
            builder, loc, tileType.clone(type.getElementType()),
            tt::ExpandDimsOp::create(builder, loc,
                                     type.clone({type.getNumElements(), 1}),
                                     value, 1)));
      }
      scanned =
          combineInOrder(builder, loc, scan.getCombineOp(), spread, scanned);
    }
    for (auto [result, tile] : llvm::zip(scan.getResults(), scanned))
      storeRegion(builder, loc, result, offsets, tile);
    if (!segment.isChunked())
      return {};
    // The last column in the scan's order: the first of a reverse scan's.
    auto columnType = RankedTensorType::get({tileType.getDimSize(0), 1},
                                            builder.getI32Type());
    Value column = createSplatConstant(
        builder, loc, columnType, scan.getReverse() ? 0 : segment.chunk - 1);
    SmallVector<Value> last;
    for (Value tile : scanned) {
      Type element = getElementTypeOrSelf(tile.getType());
      Value picked = tt::GatherOp::create(
          builder, loc, columnType.clone(element), tile, column, /*axis=*/1,
          /*efficient_layout=*/false);
      last.push_back(tt::ReshapeOp::create(
          builder, loc,
          RankedTensorType::get({tileType.getDimSize(0)}, element), picked,
          /*allow_reorder=*/false, /*efficient_layout=*/false));
    }
    return last;
  };
  // A reverse scan takes the chunks from the last.
  auto chunkStart = [&](Value chunk) -> Value {
    if (scan.getReverse())
      chunk = arith::SubIOp::create(
          builder, loc,
          arith::ConstantIntOp::create(builder, loc, chunks - 1, 32), chunk);
    return arith::MulIOp::create(
        builder, loc, chunk,
        arith::ConstantIntOp::create(builder, loc, segment.chunk, 32));
  };
  if (!segment.isChunked()) {
    scanChunk(Value(), {});
    return;
  }
  SmallVector<Value> last = scanChunk(
      chunkStart(arith::ConstantIntOp::create(builder, loc, 0, 32)), {});
  createChunkLoop(builder, loc, chunks, last,
                  [&](Value chunk, ValueRange before) {
                    return scanChunk(chunkStart(chunk), before);
                  });
}
