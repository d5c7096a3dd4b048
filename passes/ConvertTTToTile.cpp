//===- ConvertTTToTile.cpp - The tile stage: tensors become tiles ---------===//
//
// Converts the compute of a Triton program from tensors to tiles held in a
// PE's local memory, and assigns each operation to the unit that executes it:
// elementwise arithmetic and casts to the SIMD engine (transcendental
// functions to its special-function unit), `tt.dot` to the dot-product
// engine, `tt.reduce`/`tt.scan` to the reduction engine, and shape operations
// to the memory-layout unit.
//
// Memory accesses are not converted here: `tt.load`, `tt.store` and the
// atomics keep their tensor operands, connected to the tiles by
// `builtin.unrealized_conversion_cast`, and the tensor operations that only
// compute their pointers and masks stay untouched, so that the data-movement
// stage can analyse them (passes/PointerAnalysis.h). A tensor operation whose
// result feeds both addressing and compute is duplicated: the original keeps
// serving the addressing, a tile copy serves the compute.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/TileConversion.h"

#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mtia {
#define GEN_PASS_DEF_CONVERTTTTOTILE
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

} // namespace

bool mtia::isValueTensor(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && !isa<tt::PointerType>(tensorType.getElementType());
}

Value mtia::createIntegerSplat(OpBuilder &builder, Location loc,
                               tile::TileType type, int64_t value) {
  Value scalar = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(type.getElementType(), value));
  return tile::SplatOp::create(builder, loc, type, scalar);
}

std::optional<tile::CombineKind> mtia::getSingleCombineKind(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return std::nullopt;
  Operation &combine = block.front();
  Operation *terminator = block.getTerminator();
  if (combine.getNumOperands() != 2 || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != combine.getResult(0))
    return std::nullopt;
  Value lhs = combine.getOperand(0), rhs = combine.getOperand(1);
  if (!((lhs == block.getArgument(0) && rhs == block.getArgument(1)) ||
        (lhs == block.getArgument(1) && rhs == block.getArgument(0))))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<tile::CombineKind>>(
             &combine)
      .Case([](arith::AddFOp) { return tile::CombineKind::AddF; })
      .Case([](arith::MulFOp) { return tile::CombineKind::MulF; })
      .Case([](arith::MaximumFOp) { return tile::CombineKind::MaximumF; })
      .Case([](arith::MinimumFOp) { return tile::CombineKind::MinimumF; })
      .Case([](arith::MaxNumFOp) { return tile::CombineKind::MaxNumF; })
      .Case([](arith::MinNumFOp) { return tile::CombineKind::MinNumF; })
      .Case([](arith::AddIOp) { return tile::CombineKind::AddI; })
      .Case([](arith::MulIOp) { return tile::CombineKind::MulI; })
      .Case([](arith::MaxSIOp) { return tile::CombineKind::MaxSI; })
      .Case([](arith::MinSIOp) { return tile::CombineKind::MinSI; })
      .Case([](arith::MaxUIOp) { return tile::CombineKind::MaxUI; })
      .Case([](arith::MinUIOp) { return tile::CombineKind::MinUI; })
      .Case([](arith::AndIOp) { return tile::CombineKind::AndI; })
      .Case([](arith::OrIOp) { return tile::CombineKind::OrI; })
      .Case([](arith::XOrIOp) { return tile::CombineKind::XOrI; })
      .Default([](Operation *) { return std::nullopt; });
}

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

} // namespace

mtia::TileTypeConverter::TileTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    if (!isValueTensor(type))
      return type;
    return tile::TileType::get(type.getShape(), type.getElementType());
  });
  auto cast = [](OpBuilder &builder, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

namespace {

bool hasValueTensors(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isValueTensor) ||
         llvm::any_of(op->getResultTypes(), isValueTensor);
}

//===----------------------------------------------------------------------===//
// Addressing: the tensor computations that feed only pointers and masks
//===----------------------------------------------------------------------===//

/// Whether operand `operand` of its user is a pointer or a mask of a memory
/// access (as opposed to a value that is computed with).
bool isAddressingUse(OpOperand &operand) {
  Operation *user = operand.getOwner();
  if (isa<tt::AddPtrOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp>(user) &&
      isa<tt::PointerType>(getElementTypeOrSelf(user->getResult(0).getType())))
    return true;
  if (auto load = dyn_cast<tt::LoadOp>(user))
    return operand.get() == load.getPtr() || operand.get() == load.getMask();
  if (auto store = dyn_cast<tt::StoreOp>(user))
    return operand.get() == store.getPtr() || operand.get() == store.getMask();
  if (auto atomic = dyn_cast<tt::AtomicRMWOp>(user))
    return operand.get() == atomic.getPtr() ||
           operand.get() == atomic.getMask();
  if (auto cas = dyn_cast<tt::AtomicCASOp>(user))
    return operand.get() == cas.getPtr();
  return false;
}

/// Finds the tensor operations whose results are used only to address
/// memory, duplicating those that also feed compute, and returns them.
DenseSet<Operation *> isolateAddressing(tt::FuncOp function) {
  DenseSet<Operation *> addressing;
  auto isAddressingOp = [&](Operation *op) { return addressing.contains(op); };
  // Users come after their definitions in a region, so a reverse walk sees
  // every user of a value before the value's definition.
  SmallVector<Operation *> ops;
  function.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : llvm::reverse(ops)) {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !isValueTensor(op->getResult(0).getType()) ||
        isa<tt::LoadOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op))
      continue;
    bool addressingUse = false, computeUse = false;
    for (OpOperand &use : op->getResult(0).getUses()) {
      if (isAddressingUse(use) || isAddressingOp(use.getOwner()))
        addressingUse = true;
      else
        computeUse = true;
    }
    if (!addressingUse)
      continue;
    addressing.insert(op);
    if (!computeUse)
      continue;
    OpBuilder builder(op);
    Operation *copy = builder.clone(*op);
    op->getResult(0).replaceUsesWithIf(copy->getResult(0), [&](OpOperand &use) {
      return !isAddressingUse(use) && !isAddressingOp(use.getOwner());
    });
  }
  return addressing;
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

/// An elementwise op that becomes one tile op selected by an enum value
/// (the binary or unary kind, the special function, the cast kind).
/// `Create` builds the tile op from the converted result type, the enum value
/// and the converted operands.
template <typename SourceOp, typename Kind>
struct KindPattern : public OpConversionPattern<SourceOp> {
  using Create = Value (*)(OpBuilder &, Location, Type, Kind, ValueRange);

  KindPattern(const TypeConverter &converter, MLIRContext *context, Kind kind,
              Create create)
      : OpConversionPattern<SourceOp>(converter, context), kind(kind),
        create(create) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(
        op, create(rewriter, op.getLoc(), type, kind, adaptor.getOperands()));
    return success();
  }

  Kind kind;
  Create create;
};

template <typename SourceOp, typename Kind>
void addKindPattern(RewritePatternSet &patterns, const TypeConverter &converter,
                    Kind kind,
                    typename KindPattern<SourceOp, Kind>::Create create) {
  patterns.add<KindPattern<SourceOp, Kind>>(converter, patterns.getContext(),
                                            kind, create);
}

Value createBinary(OpBuilder &builder, Location loc, Type type,
                   tile::BinaryKind kind, ValueRange operands) {
  return tile::BinaryOp::create(builder, loc, type, kind, operands[0],
                                operands[1]);
}

Value createUnary(OpBuilder &builder, Location loc, Type type,
                  tile::UnaryKind kind, ValueRange operands) {
  return tile::UnaryOp::create(builder, loc, type, kind, operands[0]);
}

Value createSpecialFunction(OpBuilder &builder, Location loc, Type type,
                            tile::SpecialFunction function,
                            ValueRange operands) {
  return tile::SFUOp::create(builder, loc, type, function, operands[0]);
}

/// Inexact conversions round to nearest even, as arith specifies.
Value createCast(OpBuilder &builder, Location loc, Type type,
                 tile::CastKind kind, ValueRange operands) {
  tile::RoundingModeAttr rounding;
  if (kind == tile::CastKind::TruncF || kind == tile::CastKind::SIToFP ||
      kind == tile::CastKind::UIToFP)
    rounding = tile::RoundingModeAttr::get(builder.getContext(),
                                           tile::RoundingMode::RTNE);
  return tile::CastOp::create(
      builder, loc, type, tile::CastKindAttr::get(builder.getContext(), kind),
      operands[0], rounding);
}

struct FmaPattern : public OpConversionPattern<math::FmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::FmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::FmaOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getA(),
        adaptor.getB(), adaptor.getC());
    return success();
  }
};

struct CmpIPattern : public OpConversionPattern<arith::CmpIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::CmpIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<tile::CmpIPredicate> predicate = tile::symbolizeCmpIPredicate(
        arith::stringifyCmpIPredicate(op.getPredicate()));
    if (!predicate)
      return rewriter.notifyMatchFailure(op, "unknown predicate");
    rewriter.replaceOpWithNewOp<tile::CmpIOp>(
        op, getTypeConverter()->convertType(op.getType()), *predicate,
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct CmpFPattern : public OpConversionPattern<arith::CmpFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::CmpFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<tile::CmpFPredicate> predicate = tile::symbolizeCmpFPredicate(
        arith::stringifyCmpFPredicate(op.getPredicate()));
    if (!predicate)
      return rewriter.notifyMatchFailure(op, "unsupported predicate");
    rewriter.replaceOpWithNewOp<tile::CmpFOp>(
        op, getTypeConverter()->convertType(op.getType()), *predicate,
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct SelectPattern : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    Value condition = adaptor.getCondition();
    // A scalar condition chooses a whole tile: broadcast it.
    if (!isa<tile::TileType>(condition.getType()))
      condition = tile::SplatOp::create(
          rewriter, op.getLoc(), type.withElementType(rewriter.getI1Type()),
          condition);
    rewriter.replaceOpWithNewOp<tile::SelectOp>(
        op, type, condition, adaptor.getTrueValue(), adaptor.getFalseValue());
    return success();
  }
};

struct ConstantPattern : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto elements = dyn_cast<ElementsAttr>(op.getValue());
    if (!elements)
      return failure();
    rewriter.replaceOpWithNewOp<tile::ConstantOp>(
        op, getTypeConverter()->convertType(op.getType()), elements);
    return success();
  }
};

/// `tt.clampf`: max then min; `propagateNan = all` uses the NaN-propagating
/// forms.
struct ClampPattern : public OpConversionPattern<tt::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    bool propagate = op.getPropagateNan() == tt::PropagateNan::ALL;
    Value lower = tile::BinaryOp::create(rewriter, op.getLoc(), type,
                                         propagate ? tile::BinaryKind::MaximumF
                                                   : tile::BinaryKind::MaxNumF,
                                         adaptor.getX(), adaptor.getMin());
    rewriter.replaceOpWithNewOp<tile::BinaryOp>(
        op, type,
        propagate ? tile::BinaryKind::MinimumF : tile::BinaryKind::MinNumF,
        lower, adaptor.getMax());
    return success();
  }
};

/// `tt.fp_to_fp`: widening is exact; narrowing rounds as the op says. The
/// SIMD engine rounds to nearest even; rounding toward zero is that result
/// stepped one unit toward zero wherever it lies farther from zero than the
/// source (an overflow to infinity becomes the largest finite value, NaN
/// stays NaN): floats of one sign are ordered like their bit patterns.
struct FpToFpPattern : public OpConversionPattern<tt::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    MLIRContext *context = op.getContext();
    Location loc = op.getLoc();
    std::optional<tt::RoundingMode> mode = op.getRounding();
    auto castTo = [&](tile::CastKind kind, tile::TileType to, Value value,
                      tile::RoundingModeAttr rounding) -> Value {
      return tile::CastOp::create(rewriter, loc, to,
                                  tile::CastKindAttr::get(context, kind), value,
                                  rounding);
    };
    if (!mode) {
      rewriter.replaceOp(op, castTo(tile::CastKind::ExtF, type,
                                    adaptor.getSrc(), tile::RoundingModeAttr()));
      return success();
    }
    Value nearest = castTo(
        tile::CastKind::TruncF, type, adaptor.getSrc(),
        tile::RoundingModeAttr::get(context, tile::RoundingMode::RTNE));
    if (*mode != tt::RoundingMode::RTZ) {
      rewriter.replaceOp(op, nearest);
      return success();
    }
    Value source = adaptor.getSrc();
    auto sourceType = cast<tile::TileType>(source.getType());
    Value back = castTo(tile::CastKind::ExtF, sourceType, nearest,
                        tile::RoundingModeAttr());
    auto magnitude = [&](Value value) -> Value {
      return tile::UnaryOp::create(rewriter, loc, value.getType(),
                                   tile::UnaryKind::AbsF, value);
    };
    Value backMagnitude = magnitude(back);
    Value sourceMagnitude = magnitude(source);
    Value away = tile::CmpFOp::create(
        rewriter, loc, sourceType.withElementType(rewriter.getI1Type()),
        tile::CmpFPredicate::OGT, backMagnitude, sourceMagnitude);
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    tile::TileType bitsType =
        type.withElementType(rewriter.getIntegerType(width));
    Value bits = castTo(tile::CastKind::Bitcast, bitsType, nearest,
                        tile::RoundingModeAttr());
    Value one = createIntegerSplat(rewriter, loc, bitsType, 1);
    Value stepped = castTo(tile::CastKind::Bitcast, type,
                           tile::BinaryOp::create(rewriter, loc, bitsType,
                                                  tile::BinaryKind::SubI, bits,
                                                  one),
                           tile::RoundingModeAttr());
    rewriter.replaceOpWithNewOp<tile::SelectOp>(op, type, away, stepped,
                                                nearest);
    return success();
  }
};

/// How a libdevice function maps onto the SIMD engine: one special
/// function, unary or binary kind, `fma`, a classification of floats
/// (`isnan`, `isinf`, `signbit`) that yields an i32 0 or 1, or a bit count
/// of integers (`popc`, `clz`, `ffs`) that yields an i32.
struct ExternLowering {
  std::optional<tile::SpecialFunction> function;
  std::optional<tile::BinaryKind> binary;
  std::optional<tile::UnaryKind> unary;
  bool fma = false;
  StringRef classification;
  StringRef bitCount;
};

/// The lowering of `tt.extern_elementwise` calling `symbol` — a libdevice
/// function of CUDA-targeted TTIR (`__nv_*`) or of our own MTIA libdevice
/// (`mtia_*`) — on `numOperands` operands, if there is one.
std::optional<ExternLowering> getExternLowering(tt::ExternElementwiseOp op) {
  StringRef name = op.getSymbol();
  if (!name.consume_front("__nv_") && !name.consume_front("mtia_"))
    return std::nullopt;
  // libdevice suffixes the functions of f32 operands with `f`.
  if (!op.getSrcs().empty() &&
      getElementTypeOrSelf(op.getSrcs().front().getType()).isF32() &&
      name.ends_with("f") && name != "erf")
    name = name.drop_back();
  ExternLowering lowering;
  size_t numOperands = op.getSrcs().size();
  using SF = tile::SpecialFunction;
  if (numOperands == 1) {
    lowering.function = llvm::StringSwitch<std::optional<SF>>(name)
                            .Case("exp", SF::Exp)
                            .Case("exp2", SF::Exp2)
                            .Case("expm1", SF::Expm1)
                            .Case("log", SF::Log)
                            .Case("log2", SF::Log2)
                            .Case("log10", SF::Log10)
                            .Case("log1p", SF::Log1p)
                            .Cases({"sqrt", "sqrt_rn"}, SF::Sqrt)
                            .Case("rsqrt", SF::Rsqrt)
                            .Case("rcp", SF::Recip)
                            .Case("sin", SF::Sin)
                            .Case("cos", SF::Cos)
                            .Case("tan", SF::Tan)
                            .Case("asin", SF::Asin)
                            .Case("acos", SF::Acos)
                            .Case("atan", SF::Atan)
                            .Case("sinh", SF::Sinh)
                            .Case("cosh", SF::Cosh)
                            .Case("tanh", SF::Tanh)
                            .Case("asinh", SF::Asinh)
                            .Case("acosh", SF::Acosh)
                            .Case("atanh", SF::Atanh)
                            .Case("erf", SF::Erf)
                            .Case("erfc", SF::Erfc)
                            .Case("erfinv", SF::Erfinv)
                            .Case("cbrt", SF::Cbrt)
                            .Default(std::nullopt);
    lowering.unary = llvm::StringSwitch<std::optional<tile::UnaryKind>>(name)
                         .Case("fabs", tile::UnaryKind::AbsF)
                         .Case("floor", tile::UnaryKind::Floor)
                         .Case("ceil", tile::UnaryKind::Ceil)
                         .Case("trunc", tile::UnaryKind::Trunc)
                         .Case("round", tile::UnaryKind::Round)
                         .Cases({"rint", "nearbyint"}, tile::UnaryKind::RoundEven)
                         .Default(std::nullopt);
    if (name == "isnan" || name == "isinf" || name == "signbit")
      lowering.classification = name;
    // The 64-bit versions end in `ll`.
    StringRef bitFunction = name;
    bitFunction.consume_back("ll");
    if (bitFunction == "popc" || bitFunction == "clz" || bitFunction == "ffs")
      lowering.bitCount = bitFunction;
  } else if (numOperands == 2) {
    lowering.binary =
        llvm::StringSwitch<std::optional<tile::BinaryKind>>(name)
            .Case("pow", tile::BinaryKind::PowF)
            .Case("fmax", tile::BinaryKind::MaxNumF)
            .Case("fmin", tile::BinaryKind::MinNumF)
            .Case("fmod", tile::BinaryKind::RemF)
            .Case("atan2", tile::BinaryKind::Atan2F)
            .Case("copysign", tile::BinaryKind::CopySignF)
            .Cases({"div_rn", "fdiv_rn", "fdivide"}, tile::BinaryKind::DivF)
            .Default(std::nullopt);
  } else if (numOperands == 3) {
    lowering.fma = name == "fma" || name == "fma_rn";
  }
  if (!lowering.function && !lowering.binary && !lowering.unary &&
      !lowering.fma && lowering.classification.empty() &&
      lowering.bitCount.empty())
    return std::nullopt;
  return lowering;
}

struct ExternElementwisePattern
    : public OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  /// `isnan`, `isinf` or `signbit` of the float tile `x`, as the integer
  /// tile `type` of 0s and 1s.
  static Value classify(Operation *op, StringRef classification, Value x,
                        tile::TileType type, OpBuilder &builder) {
    Location loc = op->getLoc();
    auto source = cast<tile::TileType>(x.getType());
    Type floatType = source.getElementType();
    tile::TileType flags = source.withElementType(builder.getI1Type());
    auto castTo = [&](tile::CastKind kind, Type to, Value value) -> Value {
      return tile::CastOp::create(
          builder, loc, type.withElementType(to),
          tile::CastKindAttr::get(builder.getContext(), kind), value,
          tile::RoundingModeAttr());
    };
    Value flag;
    if (classification == "isnan") {
      flag = tile::CmpFOp::create(builder, loc, flags,
                                  tile::CmpFPredicate::UNO, x, x);
    } else if (classification == "isinf") {
      Value magnitude = tile::UnaryOp::create(builder, loc, source,
                                              tile::UnaryKind::AbsF, x);
      const llvm::fltSemantics &semantics =
          cast<FloatType>(floatType).getFloatSemantics();
      Value inf = tile::SplatOp::create(
          builder, loc, source,
          arith::ConstantOp::create(
              builder, loc,
              builder.getFloatAttr(floatType, APFloat::getInf(semantics)))
              .getResult());
      flag = tile::CmpFOp::create(builder, loc, flags,
                                  tile::CmpFPredicate::OEQ, magnitude, inf);
    } else {
      // signbit: the top bit of the float's bits.
      unsigned width = floatType.getIntOrFloatBitWidth();
      Type bitsType = builder.getIntegerType(width);
      Value bits = castTo(tile::CastKind::Bitcast, bitsType, x);
      Value shift = createIntegerSplat(
          builder, loc, type.withElementType(bitsType), width - 1);
      Value top = tile::BinaryOp::create(builder, loc, bits.getType(),
                                         tile::BinaryKind::ShRUI, bits, shift);
      flag = castTo(tile::CastKind::TruncI, builder.getI1Type(), top);
    }
    return castTo(tile::CastKind::ExtUI, type.getElementType(), flag);
  }

  /// `popc` (set bits), `clz` (leading zeros) or `ffs` (one plus the
  /// trailing zeros, 0 for 0) of the integer tile `x`, as the tile `type`:
  /// clz counts the zeros left after smearing the highest set bit right,
  /// ffs the bits of `x ^ (x - 1)`, which runs up to the lowest set bit.
  static Value countBits(Operation *op, StringRef function, Value x,
                         tile::TileType type, OpBuilder &builder) {
    Location loc = op->getLoc();
    auto source = cast<tile::TileType>(x.getType());
    unsigned width = source.getElementType().getIntOrFloatBitWidth();
    auto constant = [&](int64_t value) {
      return createIntegerSplat(builder, loc, source, value);
    };
    auto binary = [&](tile::BinaryKind kind, Value lhs, Value rhs) -> Value {
      return tile::BinaryOp::create(builder, loc, source, kind, lhs, rhs);
    };
    Value bits = x;
    if (function == "clz") {
      for (unsigned shift = 1; shift < width; shift *= 2)
        bits = binary(tile::BinaryKind::OrI, bits,
                      binary(tile::BinaryKind::ShRUI, bits, constant(shift)));
      bits = binary(tile::BinaryKind::XOrI, bits, constant(-1));
    } else if (function == "ffs") {
      bits = binary(tile::BinaryKind::XOrI, x,
                    binary(tile::BinaryKind::SubI, x, constant(1)));
    }
    Value count = tile::UnaryOp::create(builder, loc, source,
                                        tile::UnaryKind::CtPop, bits);
    if (function == "ffs") {
      Value zero = constant(0);
      Value isZero = tile::CmpIOp::create(
          builder, loc, source.withElementType(builder.getI1Type()),
          tile::CmpIPredicate::EQ, x, zero);
      count = tile::SelectOp::create(builder, loc, source, isZero, zero, count);
    }
    if (source.getElementType() == type.getElementType())
      return count;
    return tile::CastOp::create(
        builder, loc, type,
        tile::CastKindAttr::get(builder.getContext(), tile::CastKind::TruncI),
        count, tile::RoundingModeAttr());
  }

  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ExternLowering> lowering = getExternLowering(op);
    if (!lowering)
      return failure();
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    ValueRange operands = adaptor.getSrcs();
    if (!lowering->classification.empty()) {
      rewriter.replaceOp(op, classify(op, lowering->classification,
                                      operands[0], type, rewriter));
      return success();
    }
    if (!lowering->bitCount.empty()) {
      if (!isa<IntegerType>(
              cast<tile::TileType>(operands[0].getType()).getElementType()))
        return rewriter.notifyMatchFailure(op, "bit counts take integers");
      rewriter.replaceOp(op, countBits(op, lowering->bitCount, operands[0],
                                       type, rewriter));
      return success();
    }
    if (lowering->fma)
      rewriter.replaceOpWithNewOp<tile::FmaOp>(op, type, operands[0],
                                               operands[1], operands[2]);
    else if (lowering->function)
      rewriter.replaceOpWithNewOp<tile::SFUOp>(op, type, *lowering->function,
                                               operands[0]);
    else if (lowering->unary)
      rewriter.replaceOpWithNewOp<tile::UnaryOp>(op, type, *lowering->unary,
                                                 operands[0]);
    else
      rewriter.replaceOpWithNewOp<tile::BinaryOp>(op, type, *lowering->binary,
                                                  operands[0], operands[1]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shapes and layouts
//===----------------------------------------------------------------------===//

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

struct BroadcastPattern : public OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc());
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

//===----------------------------------------------------------------------===//
// Dot, reductions and scans
//===----------------------------------------------------------------------===//

/// `tt.dot` on the DPE, which multiplies f16, bf16, f32 and i8 and
/// accumulates float products in f32 (i8 products in i32). fp8 operands are
/// widened to f16, which holds every fp8 value exactly; a narrower float
/// accumulator (`out_dtype=tl.float16`) is widened for the multiply and the
/// result rounded back.
struct DotPattern : public OpConversionPattern<tt::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto widen = [&](Value operand, Type elementType) -> Value {
      auto tileType = cast<tile::TileType>(operand.getType());
      return tile::CastOp::create(
          rewriter, loc, tileType.withElementType(elementType),
          tile::CastKindAttr::get(context, tile::CastKind::ExtF), operand,
          tile::RoundingModeAttr());
    };
    auto widenFp8 = [&](Value operand) -> Value {
      Type elementType = cast<tile::TileType>(operand.getType()).getElementType();
      if (!isa<FloatType>(elementType) || elementType.getIntOrFloatBitWidth() != 8)
        return operand;
      return widen(operand, rewriter.getF16Type());
    };
    Value lhs = widenFp8(adaptor.getA());
    Value rhs = widenFp8(adaptor.getB());
    auto type =
        cast<tile::TileType>(getTypeConverter()->convertType(op.getType()));
    Type accType = type.getElementType();
    if (!isa<FloatType>(accType) || accType.getIntOrFloatBitWidth() >= 32) {
      rewriter.replaceOpWithNewOp<tile::MatmulOp>(op, type, lhs, rhs,
                                                  adaptor.getC());
      return success();
    }
    Value acc = widen(adaptor.getC(), rewriter.getF32Type());
    Value product =
        tile::MatmulOp::create(rewriter, loc, acc.getType(), lhs, rhs, acc);
    rewriter.replaceOpWithNewOp<tile::CastOp>(
        op, type, tile::CastKindAttr::get(context, tile::CastKind::TruncF),
        product,
        tile::RoundingModeAttr::get(context, tile::RoundingMode::RTNE));
    return success();
  }
};

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
          getSingleCombineKind(op.getCombineOp());
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
    auto scan =
        tile::ScanOp::create(rewriter, op.getLoc(), tileTypes,
                             adaptor.getSrcs(), op.getAxis(), op.getReverse());
    moveCombineRegion(op.getCombineOp(), scan.getCombiner(), rewriter);
    rewriter.replaceOp(op, scan.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Scalars computed from tiles
//===----------------------------------------------------------------------===//

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

/// The scalar arith and math operations that depend on the elements of a
/// tile (through `tile.extract`), in program order.
SmallVector<Operation *> collectTileDerivedScalarOps(ModuleOp module) {
  SetVector<Operation *> ops;
  SmallVector<Value> worklist;
  module.walk([&](tile::ExtractOp extract) {
    worklist.push_back(extract.getResult());
  });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      bool liftable =
          isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) &&
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

/// Reports every operation of `module` that the tile stage cannot convert,
/// at its location; succeeds when there is none.
LogicalResult checkSupported(ModuleOp module) {
  bool supported = true;
  auto unsupported = [&](Operation *op, const Twine &what) {
    op->emitOpError() << what;
    supported = false;
  };
  module.walk([&](Operation *op) {
    if (isa<tt::ElementwiseInlineAsmOp>(op))
      return unsupported(op, "runs inline assembly of the GPU the kernel was "
                             "written for, which the MTIA cannot execute");
    if (auto call = dyn_cast<tt::ExternElementwiseOp>(op);
        call && !getExternLowering(call))
      return unsupported(op, "calls '" + call.getSymbol() + "' with " +
                                 Twine(call.getSrcs().size()) +
                                 " operands, which is not a supported "
                                 "libdevice function");
    if (auto compare = dyn_cast<arith::CmpFOp>(op);
        compare && isValueTensor(compare.getType()) &&
        !tile::symbolizeCmpFPredicate(
            arith::stringifyCmpFPredicate(compare.getPredicate())))
      return unsupported(
          op, "predicate '" +
                  arith::stringifyCmpFPredicate(compare.getPredicate()) +
                  "' is not supported on tiles");
  });
  return success(supported);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

} // namespace

void mtia::populateTileConversionPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  using BK = tile::BinaryKind;
  addKindPattern<arith::AddFOp>(patterns, converter, BK::AddF, createBinary);
  addKindPattern<arith::SubFOp>(patterns, converter, BK::SubF, createBinary);
  addKindPattern<arith::MulFOp>(patterns, converter, BK::MulF, createBinary);
  addKindPattern<arith::DivFOp>(patterns, converter, BK::DivF, createBinary);
  addKindPattern<tt::PreciseDivFOp>(patterns, converter, BK::DivF,
                                    createBinary);
  addKindPattern<arith::RemFOp>(patterns, converter, BK::RemF, createBinary);
  addKindPattern<arith::MaximumFOp>(patterns, converter, BK::MaximumF,
                                    createBinary);
  addKindPattern<arith::MinimumFOp>(patterns, converter, BK::MinimumF,
                                    createBinary);
  addKindPattern<arith::MaxNumFOp>(patterns, converter, BK::MaxNumF,
                                   createBinary);
  addKindPattern<arith::MinNumFOp>(patterns, converter, BK::MinNumF,
                                   createBinary);
  addKindPattern<math::PowFOp>(patterns, converter, BK::PowF, createBinary);
  addKindPattern<math::Atan2Op>(patterns, converter, BK::Atan2F, createBinary);
  addKindPattern<math::CopySignOp>(patterns, converter, BK::CopySignF,
                                   createBinary);
  addKindPattern<arith::AddIOp>(patterns, converter, BK::AddI, createBinary);
  addKindPattern<arith::SubIOp>(patterns, converter, BK::SubI, createBinary);
  addKindPattern<arith::MulIOp>(patterns, converter, BK::MulI, createBinary);
  addKindPattern<arith::DivSIOp>(patterns, converter, BK::DivSI, createBinary);
  addKindPattern<arith::DivUIOp>(patterns, converter, BK::DivUI, createBinary);
  addKindPattern<arith::RemSIOp>(patterns, converter, BK::RemSI, createBinary);
  addKindPattern<arith::RemUIOp>(patterns, converter, BK::RemUI, createBinary);
  addKindPattern<arith::MaxSIOp>(patterns, converter, BK::MaxSI, createBinary);
  addKindPattern<arith::MinSIOp>(patterns, converter, BK::MinSI, createBinary);
  addKindPattern<arith::MaxUIOp>(patterns, converter, BK::MaxUI, createBinary);
  addKindPattern<arith::MinUIOp>(patterns, converter, BK::MinUI, createBinary);
  addKindPattern<arith::AndIOp>(patterns, converter, BK::AndI, createBinary);
  addKindPattern<arith::OrIOp>(patterns, converter, BK::OrI, createBinary);
  addKindPattern<arith::XOrIOp>(patterns, converter, BK::XOrI, createBinary);
  addKindPattern<arith::ShLIOp>(patterns, converter, BK::ShLI, createBinary);
  addKindPattern<arith::ShRSIOp>(patterns, converter, BK::ShRSI, createBinary);
  addKindPattern<arith::ShRUIOp>(patterns, converter, BK::ShRUI, createBinary);
  addKindPattern<tt::MulhiUIOp>(patterns, converter, BK::MulHiUI, createBinary);

  using UK = tile::UnaryKind;
  addKindPattern<arith::NegFOp>(patterns, converter, UK::NegF, createUnary);
  addKindPattern<math::AbsFOp>(patterns, converter, UK::AbsF, createUnary);
  addKindPattern<math::AbsIOp>(patterns, converter, UK::AbsI, createUnary);
  addKindPattern<math::FloorOp>(patterns, converter, UK::Floor, createUnary);
  addKindPattern<math::CeilOp>(patterns, converter, UK::Ceil, createUnary);
  addKindPattern<math::RoundEvenOp>(patterns, converter, UK::RoundEven,
                                    createUnary);
  addKindPattern<math::RoundOp>(patterns, converter, UK::Round, createUnary);
  addKindPattern<math::TruncOp>(patterns, converter, UK::Trunc, createUnary);

  using SF = tile::SpecialFunction;
  addKindPattern<math::ExpOp>(patterns, converter, SF::Exp,
                              createSpecialFunction);
  addKindPattern<math::Exp2Op>(patterns, converter, SF::Exp2,
                               createSpecialFunction);
  addKindPattern<math::LogOp>(patterns, converter, SF::Log,
                              createSpecialFunction);
  addKindPattern<math::Log2Op>(patterns, converter, SF::Log2,
                               createSpecialFunction);
  addKindPattern<math::SqrtOp>(patterns, converter, SF::Sqrt,
                               createSpecialFunction);
  addKindPattern<tt::PreciseSqrtOp>(patterns, converter, SF::Sqrt,
                                    createSpecialFunction);
  addKindPattern<math::RsqrtOp>(patterns, converter, SF::Rsqrt,
                                createSpecialFunction);
  addKindPattern<math::SinOp>(patterns, converter, SF::Sin,
                              createSpecialFunction);
  addKindPattern<math::CosOp>(patterns, converter, SF::Cos,
                              createSpecialFunction);
  addKindPattern<math::TanhOp>(patterns, converter, SF::Tanh,
                               createSpecialFunction);
  addKindPattern<math::ErfOp>(patterns, converter, SF::Erf,
                              createSpecialFunction);
  addKindPattern<math::ErfcOp>(patterns, converter, SF::Erfc,
                               createSpecialFunction);
  addKindPattern<math::ExpM1Op>(patterns, converter, SF::Expm1,
                                createSpecialFunction);
  addKindPattern<math::Log10Op>(patterns, converter, SF::Log10,
                                createSpecialFunction);
  addKindPattern<math::Log1pOp>(patterns, converter, SF::Log1p,
                                createSpecialFunction);
  addKindPattern<math::TanOp>(patterns, converter, SF::Tan,
                              createSpecialFunction);
  addKindPattern<math::AsinOp>(patterns, converter, SF::Asin,
                               createSpecialFunction);
  addKindPattern<math::AcosOp>(patterns, converter, SF::Acos,
                               createSpecialFunction);
  addKindPattern<math::AtanOp>(patterns, converter, SF::Atan,
                               createSpecialFunction);
  addKindPattern<math::SinhOp>(patterns, converter, SF::Sinh,
                               createSpecialFunction);
  addKindPattern<math::CoshOp>(patterns, converter, SF::Cosh,
                               createSpecialFunction);
  addKindPattern<math::AsinhOp>(patterns, converter, SF::Asinh,
                                createSpecialFunction);
  addKindPattern<math::AcoshOp>(patterns, converter, SF::Acosh,
                                createSpecialFunction);
  addKindPattern<math::AtanhOp>(patterns, converter, SF::Atanh,
                                createSpecialFunction);
  addKindPattern<math::CbrtOp>(patterns, converter, SF::Cbrt,
                               createSpecialFunction);

  using CK = tile::CastKind;
  addKindPattern<arith::ExtFOp>(patterns, converter, CK::ExtF, createCast);
  addKindPattern<arith::TruncFOp>(patterns, converter, CK::TruncF, createCast);
  addKindPattern<arith::FPToSIOp>(patterns, converter, CK::FPToSI, createCast);
  addKindPattern<arith::FPToUIOp>(patterns, converter, CK::FPToUI, createCast);
  addKindPattern<arith::SIToFPOp>(patterns, converter, CK::SIToFP, createCast);
  addKindPattern<arith::UIToFPOp>(patterns, converter, CK::UIToFP, createCast);
  addKindPattern<arith::ExtSIOp>(patterns, converter, CK::ExtSI, createCast);
  addKindPattern<arith::ExtUIOp>(patterns, converter, CK::ExtUI, createCast);
  addKindPattern<arith::TruncIOp>(patterns, converter, CK::TruncI, createCast);
  addKindPattern<arith::BitcastOp>(patterns, converter, CK::Bitcast,
                                   createCast);
  addKindPattern<tt::BitcastOp>(patterns, converter, CK::Bitcast, createCast);

  patterns.add<FmaPattern, CmpIPattern, CmpFPattern, SelectPattern,
               ConstantPattern, ClampPattern, FpToFpPattern,
               ExternElementwisePattern, SplatPattern, MakeRangePattern,
               ReshapePattern<tt::ExpandDimsOp>, ReshapePattern<tt::ReshapeOp>,
               BroadcastPattern, TransPattern, CatPattern, JoinPattern,
               SplitPattern, GatherPattern, HistogramPattern, PrintPattern,
               AssertPattern, DotPattern, ReducePattern, ScanPattern>(converter,
                                                                      context);
}

namespace {

struct ConvertTTToTilePass
    : public mtia::impl::ConvertTTToTileBase<ConvertTTToTilePass> {
  void runOnOperation() override {
    if (failed(checkSupported(getOperation())))
      return signalPassFailure();
    DenseSet<Operation *> addressing;
    getOperation().walk([&](tt::FuncOp function) {
      DenseSet<Operation *> ops = isolateAddressing(function);
      addressing.insert(ops.begin(), ops.end());
    });

    MLIRContext *context = &getContext();
    TileTypeConverter converter;
    ConversionTarget target(*context);
    target.addLegalDialect<tile::TileDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      // Memory accesses, debug ops and the addressing computations stay on
      // tensors; every other op must not touch value tensors any more.
      if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
              tt::DescriptorLoadOp, tt::DescriptorStoreOp, tt::ReturnOp,
              tt::CallOp, tt::FuncOp>(op))
        return true;
      bool computesPointers =
          op->getNumResults() == 1 && isa<tt::PointerType>(getElementTypeOrSelf(
                                          op->getResult(0).getType()));
      return computesPointers || addressing.contains(op) ||
             !hasValueTensors(op);
    });
    RewritePatternSet patterns(context);
    populateTileConversionPatterns(converter, patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    if (failed(liftTileDerivedScalars()))
      return signalPassFailure();
  }

  /// Moves scalar arithmetic on reduction results onto rank-0 tiles and
  /// broadcasts such scalars as tiles.
  LogicalResult liftTileDerivedScalars() {
    MLIRContext *context = &getContext();
    SmallVector<Operation *> scalarOps =
        collectTileDerivedScalarOps(getOperation());
    if (!scalarOps.empty()) {
      RankZeroTileTypeConverter converter;
      ConversionTarget target(*context);
      DenseSet<Operation *> toLift(scalarOps.begin(), scalarOps.end());
      target.markUnknownOpDynamicallyLegal(
          [&](Operation *op) { return !toLift.contains(op); });
      RewritePatternSet patterns(context);
      populateTileConversionPatterns(converter, patterns);
      if (failed(
              applyPartialConversion(scalarOps, target, std::move(patterns))))
        return failure();
    }
    RewritePatternSet folds(context);
    folds.add<SplatOfExtractPattern>(context);
    return applyPatternsGreedily(getOperation(), std::move(folds));
  }
};

} // namespace
