//===- DebugOpToTile.cpp - tt.print and tt.assert of tensors --------------===//
//
// Converts the debug operations whose arguments are value tensors to
// `tile.print` and `tile.assert`.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

using namespace mlir;
using namespace mtia;

namespace {

/// `tt.print` of tensors: one `tile.print` per tensor; scalar arguments
/// stay in a `tt.print` of the control core.
struct PrintPattern : public OpConversionPattern<tt::PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> scalars;
    SmallVector<int32_t> scalarSigns;
    for (auto [index, argument] : llvm::enumerate(adaptor.getArgs())) {
      bool isSigned = op.getIsSigned()[index] != 0;
      if (!isa<tile::TileType>(argument.getType())) {
        scalars.push_back(argument);
        scalarSigns.push_back(isSigned);
        continue;
      }
      tile::PrintOp::create(rewriter, op.getLoc(), op.getPrefix(), argument,
                            op.getHex(), isSigned);
    }
    if (scalars.empty()) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<tt::PrintOp>(op, op.getPrefix(), op.getHex(),
                                             scalars, scalarSigns);
    return success();
  }
};

struct AssertPattern : public OpConversionPattern<tt::AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::AssertOp>(op, adaptor.getCondition(),
                                                op.getMessage());
    return success();
  }
};

} // namespace

void mtia::populateDebugPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<PrintPattern, AssertPattern>(converter, patterns.getContext());
}
