//===- ShapeOpToTile.cpp - Shape and layout ops on the memory-layout unit -===//
//
// Converts the tt operations that build, reshape, broadcast, transpose,
// concatenate, split, slice and gather tensors to the tile operations of the
// memory-layout unit (`tt.splat` and `tt.make_range` to the SIMD engine's
// splat and iota, a contiguous slice to a subview that reads its source in
// place).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mtia;

namespace {

struct SplatPattern : public OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::SplatOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc());
    return success();
  }
};

/// `tt.unsplat`: the tile of one element becomes a rank-0 tile, whose
/// element the control core reads (and the scalar arithmetic on it moves onto
/// rank-0 tiles, like that on reduction results).
struct UnsplatPattern : public OpConversionPattern<tt::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto source = cast<tile::TileType>(adaptor.getSrc().getType());
    Value element = tile::ReshapeOp::create(
        rewriter, op.getLoc(), tile::TileType::get({}, source.getElementType()),
        adaptor.getSrc());
    rewriter.replaceOpWithNewOp<tile::ExtractOp>(op, element, ValueRange{});
    return success();
  }
};

struct MakeRangePattern : public OpConversionPattern<tt::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::IotaOp>(
        op, getTypeConverter()->convertType(op.getType()),
        op.getStartAttr().getInt());
    return success();
  }
};

/// `tt.expand_dims` and `tt.reshape` keep the row-major element order.
template <typename SourceOp>
struct ReshapePattern : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::ReshapeOp>(
        op, this->getTypeConverter()->convertType(op.getType()),
        adaptor.getSrc());
    return success();
  }
};

/// `tt.broadcast`; of a `tt.expand_dims` (a row's maximum `m[:, None]`), it
/// spreads the tile before the expansion directly, so that no unit copies it
/// into the expanded shape first.
struct BroadcastPattern : public OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    auto expand = op.getSrc().getDefiningOp<tt::ExpandDimsOp>();
    if (!expand || !isa<RankedTensorType>(expand.getSrc().getType())) {
      rewriter.replaceOpWithNewOp<tile::BroadcastOp>(op, type, adaptor.getSrc(),
                                                     DenseI64ArrayAttr());
      return success();
    }
    SmallVector<int64_t> dimensions;
    int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
    for (int64_t dim = 0; dim < rank; ++dim)
      if (dim != static_cast<int64_t>(expand.getAxis()))
        dimensions.push_back(dim);
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(
        op, type, rewriter.getRemappedValue(expand.getSrc()),
        rewriter.getDenseI64ArrayAttr(dimensions));
    return success();
  }
};

struct TransPattern : public OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> permutation(op.getOrder().begin(),
                                     op.getOrder().end());
    rewriter.replaceOpWithNewOp<tile::TransposeOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc(),
        rewriter.getDenseI64ArrayAttr(permutation));
    return success();
  }
};

struct CatPattern : public OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::ConcatOp>(
        op, getTypeConverter()->convertType(op.getType()),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()}, /*axis=*/0);
    return success();
  }
};

/// `tt.join`: each operand gains a minor dimension of one, then the two are
/// concatenated along it.
struct JoinPattern : public OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<int64_t> shape(resultType.getShape());
    shape.back() = 1;
    tile::TileType halfType = resultType.withShape(shape);
    Value lhs = tile::ReshapeOp::create(rewriter, op.getLoc(), halfType,
                                        adaptor.getLhs());
    Value rhs = tile::ReshapeOp::create(rewriter, op.getLoc(), halfType,
                                        adaptor.getRhs());
    rewriter.replaceOpWithNewOp<tile::ConcatOp>(
        op, resultType, ValueRange{lhs, rhs}, shape.size() - 1);
    return success();
  }
};

/// `tt.split`: the two halves of the minor dimension, without it.
struct SplitPattern : public OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<tile::TileType>(adaptor.getSrc().getType());
    auto resultType = cast<tile::TileType>(
        getTypeConverter()->convertType(op.getOutLHS().getType()));
    SmallVector<int64_t> halfShape(srcType.getShape());
    halfShape.back() = 1;
    SmallVector<Value> halves;
    for (int64_t half = 0; half < 2; ++half) {
      SmallVector<int64_t> offsets(halfShape.size(), 0);
      offsets.back() = half;
      Value slice = tile::SliceOp::create(
          rewriter, op.getLoc(), srcType.withShape(halfShape), adaptor.getSrc(),
          rewriter.getDenseI64ArrayAttr(offsets));
      halves.push_back(
          tile::ReshapeOp::create(rewriter, op.getLoc(), resultType, slice));
    }
    rewriter.replaceOp(op, halves);
    return success();
  }
};

/// `tensor.extract_slice` of static offsets and sizes and unit strides
/// (an epilogue's subtile): a subview when the block is contiguous in its
/// source, else a copy on the memory-layout unit.
struct ExtractSlicePattern
    : public OpConversionPattern<tensor::ExtractSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::ExtractSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasUnitStride() || !op.getOffsets().empty() ||
        !op.getSizes().empty() ||
        op.getSourceType().getRank() != op.getResultType().getRank())
      return rewriter.notifyMatchFailure(op, "not a static block of one rank");
    auto sourceType = cast<tile::TileType>(adaptor.getSource().getType());
    auto resultType =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    DenseI64ArrayAttr offsets =
        rewriter.getDenseI64ArrayAttr(op.getStaticOffsets());
    if (tile::isContiguousBlock(sourceType, resultType, op.getStaticOffsets()))
      rewriter.replaceOpWithNewOp<tile::SubviewOp>(op, resultType,
                                                   adaptor.getSource(), offsets);
    else
      rewriter.replaceOpWithNewOp<tile::SliceOp>(op, resultType,
                                                 adaptor.getSource(), offsets);
    return success();
  }
};

struct GatherPattern : public OpConversionPattern<tt::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::GatherOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc(),
        adaptor.getIndices(), op.getAxis());
    return success();
  }
};

} // namespace

void mtia::populateShapePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<SplatPattern, UnsplatPattern, MakeRangePattern,
               ReshapePattern<tt::ExpandDimsOp>,
               ReshapePattern<tt::ReshapeOp>, BroadcastPattern, TransPattern,
               CatPattern, JoinPattern, SplitPattern, ExtractSlicePattern,
               GatherPattern>(
      converter, patterns.getContext());
}
