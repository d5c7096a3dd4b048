//===- ReductionOpToTile.cpp - Reductions on the reduction engine ---------===//
//
// Converts `tt.reduce`, `tt.scan` and `tt.histogram` to the reduction
// engine's tile operations. A reduction whose combine region is one of the
// engine's combine kinds becomes `tile.reduce`; any other keeps its region in
// `tile.reduce_region` for mtia-expand-combine-regions to expand. Every scan
// becomes `tile.scan`, which names the combine kind where there is one.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mtia;

namespace {

/// Returns the combine kind of a region that selects the larger or smaller
/// of its two arguments: `select(x > y, x, y)` for integers and, for floats,
/// the NaN-propagating `select(x > y || x != x, x, y)` of TorchInductor's
/// `triton_helpers.maximum`/`minimum` (equal to `maximumf`/`minimumf` but
/// for the sign of a zero result).
std::optional<tile::CombineKind> getSelectCombineKind(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2)
    return std::nullopt;
  Value a = block.getArgument(0), b = block.getArgument(1);
  auto select = dyn_cast_if_present<arith::SelectOp>(
      block.getTerminator()->getNumOperands() == 1
          ? block.getTerminator()->getOperand(0).getDefiningOp()
          : nullptr);
  if (!select || select->getBlock() != &block)
    return std::nullopt;
  Value chosen = select.getTrueValue(), other = select.getFalseValue();
  if (!((chosen == a && other == b) || (chosen == b && other == a)))
    return std::nullopt;
  // The comparison must prefer `chosen` over `other`.
  auto comparesChosen = [&](Operation *op) {
    return op && op->getNumOperands() == 2 && op->getOperand(0) == chosen &&
           op->getOperand(1) == other;
  };
  Operation *condition = select.getCondition().getDefiningOp();
  if (auto compare = dyn_cast_if_present<arith::CmpIOp>(condition)) {
    if (!comparesChosen(compare) ||
        std::distance(block.begin(), block.end()) != 3)
      return std::nullopt;
    switch (compare.getPredicate()) {
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::sge:
      return tile::CombineKind::MaxSI;
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sle:
      return tile::CombineKind::MinSI;
    case arith::CmpIPredicate::ugt:
    case arith::CmpIPredicate::uge:
      return tile::CombineKind::MaxUI;
    case arith::CmpIPredicate::ult:
    case arith::CmpIPredicate::ule:
      return tile::CombineKind::MinUI;
    default:
      return std::nullopt;
    }
  }
  auto either = dyn_cast_if_present<arith::OrIOp>(condition);
  if (!either || std::distance(block.begin(), block.end()) != 5)
    return std::nullopt;
  auto order = either.getLhs().getDefiningOp<arith::CmpFOp>();
  auto isNaN = either.getRhs().getDefiningOp<arith::CmpFOp>();
  if (order && isNaN && order.getPredicate() == arith::CmpFPredicate::UNE)
    std::swap(order, isNaN);
  if (!order || !isNaN || !comparesChosen(order) ||
      isNaN.getPredicate() != arith::CmpFPredicate::UNE ||
      isNaN.getLhs() != chosen || isNaN.getRhs() != chosen)
    return std::nullopt;
  switch (order.getPredicate()) {
  case arith::CmpFPredicate::OGT:
    return tile::CombineKind::MaximumF;
  case arith::CmpFPredicate::OLT:
    return tile::CombineKind::MinimumF;
  default:
    return std::nullopt;
  }
}

/// Moves a `tt.reduce`/`tt.scan` combine region into a tile op, replacing its
/// terminator with `tile.yield`.
void moveCombineRegion(Region &from, Region &to,
                       ConversionPatternRewriter &rewriter) {
  rewriter.inlineRegionBefore(from, to, to.end());
  Operation *terminator = to.front().getTerminator();
  rewriter.setInsertionPoint(terminator);
  tile::YieldOp::create(rewriter, terminator->getLoc(),
                        terminator->getOperands());
  rewriter.eraseOp(terminator);
}

/// Tiles of the reduction results: a rank-1 reduction gives rank-0 tiles,
/// read back into scalars on the control core.
SmallVector<Value> finishReduction(tt::ReduceOp op, ValueRange tiles,
                                   ConversionPatternRewriter &rewriter) {
  SmallVector<Value> results;
  for (auto [tileValue, result] : llvm::zip_equal(tiles, op.getResult())) {
    if (isa<RankedTensorType>(result.getType()))
      results.push_back(tileValue);
    else
      results.push_back(tile::ExtractOp::create(rewriter, op.getLoc(),
                                                tileValue, ValueRange{}));
  }
  return results;
}

tile::TileType getReducedTileType(Type srcType, int64_t axis) {
  auto tensorType = cast<RankedTensorType>(srcType);
  SmallVector<int64_t> shape(tensorType.getShape());
  shape.erase(shape.begin() + axis);
  return tile::TileType::get(shape, tensorType.getElementType());
}

struct ReducePattern : public OpConversionPattern<tt::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t axis = op.getAxis();
    SmallVector<Type> tileTypes;
    for (Value src : op.getSrcs())
      tileTypes.push_back(getReducedTileType(src.getType(), axis));
    if (op.getSrcs().size() == 1) {
      std::optional<tile::CombineKind> kind =
          tile::getSingleCombineKind(op.getCombineOp());
      if (!kind)
        kind = getSelectCombineKind(op.getCombineOp());
      if (kind) {
        Value reduced =
            tile::ReduceOp::create(rewriter, op.getLoc(), tileTypes.front(),
                                   *kind, adaptor.getSrcs().front(), axis);
        rewriter.replaceOp(op, finishReduction(op, reduced, rewriter));
        return success();
      }
    }
    auto reduce = tile::ReduceRegionOp::create(rewriter, op.getLoc(), tileTypes,
                                               adaptor.getSrcs(), axis);
    moveCombineRegion(op.getCombineOp(), reduce.getCombiner(), rewriter);
    rewriter.setInsertionPointAfter(reduce);
    rewriter.replaceOp(op, finishReduction(op, reduce.getResults(), rewriter));
    return success();
  }
};

struct ScanPattern : public OpConversionPattern<tt::ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> tileTypes;
    if (failed(
            getTypeConverter()->convertTypes(op.getResultTypes(), tileTypes)))
      return failure();
    // The reduction engine runs a scan of one tile with one of its combine
    // operations itself; mtia-expand-combine-regions expands any other.
    tile::CombineKindAttr kind;
    if (op.getSrcs().size() == 1)
      if (std::optional<tile::CombineKind> single =
              tile::getSingleCombineKind(op.getCombineOp()))
        kind = tile::CombineKindAttr::get(op.getContext(), *single);
    auto scan = tile::ScanOp::create(rewriter, op.getLoc(), tileTypes,
                                     adaptor.getSrcs(), op.getAxis(),
                                     op.getReverse(), kind);
    moveCombineRegion(op.getCombineOp(), scan.getCombiner(), rewriter);
    rewriter.replaceOp(op, scan.getResults());
    return success();
  }
};

struct HistogramPattern : public OpConversionPattern<tt::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::HistogramOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc(),
        adaptor.getMask());
    return success();
  }
};

} // namespace

void mtia::populateReductionPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<ReducePattern, ScanPattern, HistogramPattern>(
      converter, patterns.getContext());
}
