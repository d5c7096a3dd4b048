//===- ScalarLifting.cpp - Scalars computed from tiles onto rank-0 tiles --===//
//
// A reduction of a rank-1 tensor gives a scalar, which the tile stage reads
// back from a rank-0 tile with `tile.extract`. The scalar arithmetic that
// consumes such values is moved onto rank-0 tiles, since those values live in
// local memory, where the units compute on them; a splat of such a scalar
// becomes a splat of the tile's element.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mtia;

namespace {

/// Maps scalars to tiles of rank 0, for the scalar arithmetic that consumes
/// reduction results: those values live in local memory, where the units
/// compute on them, not in the control core's registers.
class RankZeroTileTypeConverter : public TypeConverter {
public:
  RankZeroTileTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](Type type) -> std::optional<Type> {
      if (!type.isIntOrFloat())
        return std::nullopt;
      return tile::TileType::get({}, type);
    });
    addTargetMaterialization([](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
      return tile::SplatOp::create(builder, loc, type, inputs.front());
    });
    addSourceMaterialization([](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
      return tile::ExtractOp::create(builder, loc, inputs.front(),
                                     ValueRange{});
    });
  }
};

/// Whether `op` is a scalar operation that only the SIMD engine computes:
/// a libdevice call or a clamp, which the control core has no instruction
/// for.
bool isSimdOnlyScalarOp(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrFloat())
    return false;
  return isa<tt::ExternElementwiseOp, tt::ClampFOp>(op);
}

/// The scalar operations to compute on rank-0 tiles, in program order: the
/// arith and math operations that depend on the elements of a tile (through
/// `tile.extract`), the scalar operations only the SIMD engine computes, and
/// the arith and math operations that depend on those.
SmallVector<Operation *> collectTileDerivedScalarOps(ModuleOp module) {
  SetVector<Operation *> ops;
  SmallVector<Value> worklist;
  module.walk([&](tile::ExtractOp extract) {
    worklist.push_back(extract.getResult());
  });
  module.walk([&](Operation *op) {
    if (isSimdOnlyScalarOp(op) && ops.insert(op))
      worklist.push_back(op->getResult(0));
  });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      bool liftable =
          (isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) ||
           isSimdOnlyScalarOp(user)) &&
          user->getNumResults() == 1 &&
          user->getResult(0).getType().isIntOrFloat() &&
          !isa<arith::IndexCastOp>(user);
      if (liftable && ops.insert(user))
        worklist.push_back(user->getResult(0));
    }
  }
  SmallVector<Operation *> ordered = ops.takeVector();
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->getBlock() == b->getBlock() ? a->isBeforeInBlock(b) : a < b;
  });
  return ordered;
}

/// `tile.splat` of an element read back from a rank-0 tile: the SIMD engine
/// spreads the tile's element instead of going through a scalar.
struct SplatOfExtractPattern : public OpRewritePattern<tile::SplatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::SplatOp op,
                                PatternRewriter &rewriter) const override {
    auto extract = op.getScalar().getDefiningOp<tile::ExtractOp>();
    if (!extract || extract.getTile().getType().getRank() != 0)
      return failure();
    Value source = extract.getTile();
    tile::TileType resultType = op.getType();
    if (resultType.getRank() == 0) {
      rewriter.replaceOp(op, source);
      return success();
    }
    rewriter.replaceOpWithNewOp<tile::SplatElementOp>(op, resultType, source);
    return success();
  }
};

} // namespace

LogicalResult mtia::liftTileDerivedScalars(ModuleOp module) {
  MLIRContext *context = module.getContext();
  SmallVector<Operation *> scalarOps = collectTileDerivedScalarOps(module);
  if (!scalarOps.empty()) {
    RankZeroTileTypeConverter converter;
    ConversionTarget target(*context);
    DenseSet<Operation *> toLift(scalarOps.begin(), scalarOps.end());
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return !toLift.contains(op); });
    RewritePatternSet patterns(context);
    populateTileConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(scalarOps, target, std::move(patterns))))
      return failure();
  }
  RewritePatternSet folds(context);
  folds.add<SplatOfExtractPattern>(context);
  return applyPatternsGreedily(module, std::move(folds));
}
