//===- MapElementwiseOpToTile.cpp - tt.map_elementwise on tiles -----------===//
//
// `tt.map_elementwise` becomes `tile.map_elementwise` with the same scalar
// region, whose returns become `tile.yield`s; `mtia-expand-combine-regions`
// then applies the region to whole tiles on the SIMD engine.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

using namespace mlir;
using namespace mtia;

namespace {

struct MapElementwisePattern
    : public OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Tensors of pointers have no tile form.
    if (!llvm::all_of(op->getOperandTypes(), isValueTensor) ||
        !llvm::all_of(op->getResultTypes(), isValueTensor))
      return rewriter.notifyMatchFailure(op, "maps tensors of pointers");
    SmallVector<Type> tileTypes;
    if (failed(
            getTypeConverter()->convertTypes(op.getResultTypes(), tileTypes)))
      return failure();
    auto map = tile::MapElementwiseOp::create(rewriter, op.getLoc(), tileTypes,
                                              adaptor.getSrcs(), op.getPack());
    rewriter.inlineRegionBefore(op.getScalarOp(), map.getBody(),
                                map.getBody().end());
    for (Block &block : map.getBody()) {
      auto terminator =
          dyn_cast<tt::MapElementwiseReturnOp>(block.getTerminator());
      if (!terminator)
        continue;
      rewriter.setInsertionPoint(terminator);
      tile::YieldOp::create(rewriter, terminator.getLoc(),
                            terminator.getResult());
      rewriter.eraseOp(terminator);
    }
    rewriter.replaceOp(op, map.getResults());
    return success();
  }
};

} // namespace

void mtia::populateMapElementwisePatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<MapElementwisePattern>(converter, patterns.getContext());
}
