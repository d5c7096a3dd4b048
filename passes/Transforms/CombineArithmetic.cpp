//===- CombineArithmetic.cpp - Fewer passes over tiles, same numbers -----===//
//
// Patterns that compute the same numbers with fewer passes of the SIMD
// engine over a tile, applied once to the operations the kernel has (new
// ones are left as built).
//
// Contraction (Triton's `enable_fp_fusion`, on unless the kernel turns it
// off): a float multiplication and the addition or subtraction that uses it
// become one fused multiply-add, rounded once. A multiplication is
// contracted when the addition is its only use: one with other uses stays,
// and fusing would compute it twice. A subtraction negates the operand that
// has fewest elements: a scalar, or the source of a splat or broadcast
// (attention's row maximum in `x * s - max[:, None]`), so that the negation
// costs no pass over the tile; when no operand is cheaper to negate than the
// tile, the subtraction stays as it is. Combine regions of reductions and
// scans are left alone: their operations are the units' combine kinds.
//
// Factoring: a kernel that scales a tensor by a scalar only to take the
// maximum or minimum of the product along an axis (the absolute maximum of a
// scaled block in quantization, a temperature before an argmax-like
// reduction) need not compute the product: multiplying by a positive scalar
// keeps the order of floats, rounding included, and a negative one reverses
// it, so
//
//   max(x * s) = max(x) * s   when s > 0,
//   max(x * s) = min(x) * s   when s < 0,
//
// exactly, NaNs and signed zeros included, for a finite s (`inf * 0` is NaN,
// which no order of x predicts). The SIMD engine then scales the reduced row
// instead of the whole tile. A scalar whose sign the IR does not fix (a
// kernel argument) picks the reduction at run time, in an `scf.if` on the
// control core; its other branch (a negative, zero, infinite or NaN scale)
// reduces the product as before. A product with other uses stays as it is:
// reducing its other factor would pass that factor to the reduction engine
// as well, and when the factor comes from the DPE (attention's scores), the
// DPE would copy it out of its storage for the second unit, which costs it
// more than the SIMD engine gains.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <type_traits>

namespace mtia {
#define GEN_PASS_DEF_COMBINEARITHMETIC
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

/// The number of elements of `type`, 1 for a scalar.
int64_t getElementCount(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getNumElements() : 1;
}

/// Builds `-value` at `builder`'s insertion point from fewer elements than
/// `value` has: a negated constant, or the negation of the scalar or tensor
/// at the root of the splats, broadcasts and dimension insertions that
/// spread it into `value`, which are then applied to the negation as they
/// were to it (so that the tile stage still sees `m[:, None]` broadcast, a
/// row's maximum spread over its row, and folds it). Returns null when
/// `value` is as large as the tile.
Value negateCheaply(OpBuilder &builder, Location loc, Value value,
                    int64_t tileElements) {
  if (DenseFPElementsAttr dense;
      matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    APFloat negated = -dense.getSplatValue<APFloat>();
    return arith::ConstantOp::create(
        builder, loc, DenseFPElementsAttr::get(dense.getType(), negated));
  }
  Operation *spread = value.getDefiningOp();
  if (isa_and_nonnull<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp>(spread)) {
    if (Value source =
            negateCheaply(builder, loc, spread->getOperand(0), tileElements)) {
      Operation *copy = builder.clone(*spread);
      copy->setOperand(0, source);
      return copy->getResult(0);
    }
  }
  if (getElementCount(value.getType()) < tileElements)
    return arith::NegFOp::create(builder, loc, value);
  return nullptr;
}

/// The multiplication that `operand` is the only use of, or null.
arith::MulFOp getContractibleProduct(Value operand) {
  auto product = operand.getDefiningOp<arith::MulFOp>();
  if (!product || !product->hasOneUse())
    return nullptr;
  return product;
}

/// Contracts an `arith.addf` or `arith.subf` one operand of which is a
/// contractible product.
template <typename AddOp>
struct ContractMultiplyAdd : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    // Combine regions of reductions and scans are the units' combine kinds.
    if (isa<tt::ReduceOp, tt::ScanOp>(add->getParentOp()))
      return failure();
    bool subtracts = std::is_same_v<AddOp, arith::SubFOp>;
    int64_t tileElements = getElementCount(add.getType());
    Location loc = add.getLoc();
    for (unsigned productOperand : {0u, 1u}) {
      arith::MulFOp product =
          getContractibleProduct(add->getOperand(productOperand));
      if (!product)
        continue;
      Value a = product.getLhs(), b = product.getRhs();
      Value c = add->getOperand(1 - productOperand);
      if (subtracts && productOperand == 0) {
        // x * y - c as x * y + (-c).
        c = negateCheaply(rewriter, loc, c, tileElements);
      } else if (subtracts) {
        // c - x * y as x * (-y) + c, negating the factor that is cheaper to.
        if (Value negated = negateCheaply(rewriter, loc, b, tileElements))
          b = negated;
        else if ((negated = negateCheaply(rewriter, loc, a, tileElements)))
          a = negated;
        else
          c = nullptr;
      }
      if (!c)
        continue;
      rewriter.replaceOpWithNewOp<math::FmaOp>(add, a, b, c);
      rewriter.eraseOp(product);
      return success();
    }
    return failure();
  }
};

//===----------------------------------------------------------------------===//
// Factoring
//===----------------------------------------------------------------------===//

/// A reduction `max(x * s)` or `min(x * s)` of one tensor by a combine
/// region of one float extremum, with `s` a scalar splat over `x`: a value,
/// or a constant (which canonicalization folds a splat of into a dense
/// tensor).
struct ScaledExtremum {
  tt::ReduceOp reduce;
  arith::MulFOp product;
  Value unscaled;
  Value scale;
  std::optional<APFloat> constantScale;
};

/// The extremum of the opposite order (`min` for `max`), with the same
/// treatment of NaNs.
std::optional<tile::CombineKind> opposite(tile::CombineKind kind) {
  switch (kind) {
  case tile::CombineKind::MaxNumF:
    return tile::CombineKind::MinNumF;
  case tile::CombineKind::MinNumF:
    return tile::CombineKind::MaxNumF;
  case tile::CombineKind::MaximumF:
    return tile::CombineKind::MinimumF;
  case tile::CombineKind::MinimumF:
    return tile::CombineKind::MaximumF;
  default:
    return std::nullopt;
  }
}

/// Whether `factor` splats a scalar over a tensor; sets `scale` to the
/// scalar, and `constantScale` when it is a constant.
bool matchSplat(Value factor, Value &scale,
                std::optional<APFloat> &constantScale) {
  if (auto splat = factor.getDefiningOp<tt::SplatOp>()) {
    scale = splat.getSrc();
    if (FloatAttr scalar; matchPattern(scale, m_Constant(&scalar)))
      constantScale = scalar.getValue();
    return true;
  }
  DenseFPElementsAttr dense;
  if (!matchPattern(factor, m_Constant(&dense)) || !dense.isSplat())
    return false;
  constantScale = dense.getSplatValue<APFloat>();
  return true;
}

std::optional<ScaledExtremum> matchScaledExtremum(tt::ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1)
    return std::nullopt;
  std::optional<tile::CombineKind> kind =
      tile::getSingleCombineKind(reduce.getCombineOp());
  if (!kind || !opposite(*kind))
    return std::nullopt;
  auto product = reduce.getSrcs().front().getDefiningOp<arith::MulFOp>();
  if (!product || !product->hasOneUse())
    return std::nullopt;
  for (unsigned scaleOperand : {1u, 0u}) {
    ScaledExtremum match{reduce, product, product->getOperand(1 - scaleOperand),
                         nullptr, std::nullopt};
    if (matchSplat(product->getOperand(scaleOperand), match.scale,
                   match.constantScale))
      return match;
  }
  return std::nullopt;
}

/// Builds, at `builder`'s insertion point, a copy of `match`'s reduction
/// that reduces `input` by the extremum `kind`; returns its result.
Value cloneReduction(OpBuilder &builder, ScaledExtremum match, Value input,
                     tile::CombineKind kind) {
  IRMapping mapping;
  mapping.map(match.product.getResult(), input);
  auto reduce = cast<tt::ReduceOp>(builder.clone(*match.reduce, mapping));
  Operation &combine = reduce.getCombineOp().front().front();
  if (tile::getSingleCombineKind(reduce.getCombineOp()) != kind) {
    OpBuilder inRegion(&combine);
    OperationState state(combine.getLoc(),
                         "arith." + tile::stringifyCombineKind(kind).str(),
                         combine.getOperands(), combine.getResultTypes());
    combine.replaceAllUsesWith(inRegion.create(state));
    combine.erase();
  }
  return reduce.getResult().front();
}

/// Builds `scale` splatted to `type` when that is a tensor.
Value splatTo(OpBuilder &builder, Location loc, Type type, Value scale) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tt::SplatOp::create(builder, loc, tensor, scale);
  return scale;
}

/// Builds, at `builder`'s insertion point, the reduction of `match.unscaled`
/// by the extremum `kind`, times the scale.
Value buildFactored(OpBuilder &builder, ScaledExtremum match,
                    tile::CombineKind kind) {
  Location loc = match.reduce.getLoc();
  Value extremum = cloneReduction(builder, match, match.unscaled, kind);
  Value scale = match.scale;
  if (match.constantScale) {
    auto type = cast<FloatType>(getElementTypeOrSelf(extremum.getType()));
    scale = arith::ConstantOp::create(
        builder, loc, builder.getFloatAttr(type, *match.constantScale));
  }
  return arith::MulFOp::create(builder, loc, extremum,
                               splatTo(builder, loc, extremum.getType(), scale),
                               match.product.getFastmath());
}

/// Builds, at `builder`'s insertion point, the reduction of `match` by the
/// sign of its scale, which the IR does not fix: factored when the scale is
/// positive and finite, of the product otherwise. Returns its result.
Value buildBySign(OpBuilder &builder, ScaledExtremum match,
                  tile::CombineKind kind) {
  Location loc = match.reduce.getLoc();
  auto type = cast<FloatType>(match.scale.getType());
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
  Value infinity = arith::ConstantOp::create(
      builder, loc,
      builder.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
  Value aboveZero = arith::CmpFOp::create(
      builder, loc, arith::CmpFPredicate::OGT, match.scale, zero);
  Value finite = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT,
                                       match.scale, infinity);
  Value positive = arith::AndIOp::create(builder, loc, aboveZero, finite);
  auto branch = scf::IfOp::create(builder, loc,
                                  match.reduce.getResult().front().getType(),
                                  positive, /*withElseRegion=*/true);
  builder.setInsertionPointToStart(branch.thenBlock());
  scf::YieldOp::create(builder, loc, buildFactored(builder, match, kind));
  // A negative, zero, infinite or NaN scale reduces the product as before
  // (`0 * inf` is NaN, which a `maxnumf` skips, and `0 * max(x)` would not).
  builder.setInsertionPointToStart(branch.elseBlock());
  IRMapping mapping;
  builder.clone(*match.product, mapping);
  scf::YieldOp::create(builder, loc,
                       builder.clone(*match.reduce, mapping)->getResult(0));
  return branch.getResult(0);
}

/// Reduces the other factor of a scaled extremum and scales the result.
struct FactorReductionScale : public OpRewritePattern<tt::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    std::optional<ScaledExtremum> match = matchScaledExtremum(reduce);
    if (!match)
      return failure();
    tile::CombineKind kind = *tile::getSingleCombineKind(reduce.getCombineOp());
    Value factored;
    if (!match->constantScale) {
      factored = buildBySign(rewriter, *match, kind);
    } else {
      // A constant scale fixes the reduction; zero, infinity and NaN keep
      // it.
      const APFloat &scale = *match->constantScale;
      if (!scale.isFiniteNonZero())
        return failure();
      factored = buildFactored(rewriter, *match,
                               scale.isNegative() ? *opposite(kind) : kind);
    }
    rewriter.replaceOp(reduce, factored);
    rewriter.eraseOp(match->product);
    return success();
  }
};

struct CombineArithmeticPass
    : public mtia::impl::CombineArithmeticBase<CombineArithmeticPass> {
  using CombineArithmeticBase::CombineArithmeticBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (fpFusion)
      patterns.add<ContractMultiplyAdd<arith::AddFOp>,
                   ContractMultiplyAdd<arith::SubFOp>>(&getContext());
    patterns.add<FactorReductionScale>(&getContext());
    // Once, on the operations there are: the product a factored reduction
    // keeps for a scale of the other sign must stay as it is.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
