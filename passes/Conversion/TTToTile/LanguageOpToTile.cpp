//===- LanguageOpToTile.cpp - MTIA language extensions to tile ops --------===//
//
// The extensions of `mtia_compiler.language` reach the TTIR as calls of
// `tt.extern_elementwise` in the library `mtia`, whose symbol names the
// operation and its parameters (docs/language.md):
//
//   mtia.pe.<row|column|rows|columns|index>      -> tile.pe_info
//   mtia.barrier.<group>                          -> tile.barrier
//   mtia.all_reduce.<sum|max|min|umax|umin>.<group> -> tile.cross_pe_reduce
//   mtia.broadcast.<group>.<root>                 -> tile.cross_pe_broadcast
//
// where <group> is `row`, `column` or `grid` (tile::PEGroup). `pe` and
// `barrier` take one ignored i32 operand, because Triton's verifier wants
// an elementwise op to have one; `barrier` yields 0. A scalar operand of
// `all_reduce` or `broadcast` travels as a rank-0 tile.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mtia;

namespace {

/// The library name the language module gives its calls.
constexpr StringLiteral kLanguageLibrary = "mtia";

/// A call of a language extension, decoded from its symbol.
struct LanguageCall {
  enum class Kind { PEInfo, Barrier, AllReduce, Broadcast };
  Kind kind;
  tile::PEQuery query = tile::PEQuery::Row;
  tile::PEGroup group = tile::PEGroup::Grid;
  /// The reduction of `all_reduce`: sum, max, min, umax or umin.
  StringRef reduction;
  int64_t root = 0;
};

/// Decodes the symbol of `op`, or says at `op` why it is not an extension
/// this compiler knows or why its operands do not fit it.
FailureOr<LanguageCall> decodeLanguageCall(tt::ExternElementwiseOp op) {
  SmallVector<StringRef> parts;
  op.getSymbol().split(parts, '.');
  auto unknown = [&]() {
    return op.emitOpError()
           << "calls '" << op.getSymbol()
           << "', which is not an MTIA language extension (docs/language.md "
              "lists them)";
  };
  if (parts.size() < 3 || parts[0] != kLanguageLibrary ||
      op.getSrcs().size() != 1)
    return unknown();
  auto group = [](StringRef name) { return tile::symbolizePEGroup(name); };
  LanguageCall call;
  Type result = op.getType();
  if (parts[1] == "pe" && parts.size() == 3) {
    std::optional<tile::PEQuery> query = tile::symbolizePEQuery(parts[2]);
    if (!query || !result.isInteger(32))
      return unknown();
    call.kind = LanguageCall::Kind::PEInfo;
    call.query = *query;
    return call;
  }
  if (parts[1] == "barrier" && parts.size() == 3) {
    if (!group(parts[2]) || !result.isInteger(32))
      return unknown();
    call.kind = LanguageCall::Kind::Barrier;
    call.group = *group(parts[2]);
    return call;
  }
  if (parts[1] == "all_reduce" && parts.size() == 4) {
    bool known = llvm::is_contained(
        ArrayRef<StringRef>{"sum", "max", "min", "umax", "umin"}, parts[2]);
    if (!known || !group(parts[3]))
      return unknown();
    Type element = getElementTypeOrSelf(result);
    if (isa<FloatType>(element) && parts[2].starts_with("u"))
      return op.emitOpError() << "'" << parts[2]
                              << "' (an unsigned reduction) of floats";
    if (element.isInteger(1))
      return op.emitOpError() << "reduces i1 values across PEs: the "
                                 "reduction network combines numbers";
    call.kind = LanguageCall::Kind::AllReduce;
    call.reduction = parts[2];
    call.group = *group(parts[3]);
    return call;
  }
  if (parts[1] == "broadcast" && parts.size() == 4) {
    int64_t root;
    if (!group(parts[2]) || parts[3].getAsInteger(10, root) || root < 0)
      return unknown();
    call.kind = LanguageCall::Kind::Broadcast;
    call.group = *group(parts[2]);
    call.root = root;
    return call;
  }
  return unknown();
}

/// The combine kind of `reduction` on elements of type `element`.
tile::CombineKind combineKind(StringRef reduction, Type element) {
  bool isFloat = isa<FloatType>(element);
  using CK = tile::CombineKind;
  return llvm::StringSwitch<CK>(reduction)
      .Case("sum", isFloat ? CK::AddF : CK::AddI)
      .Case("max", isFloat ? CK::MaxNumF : CK::MaxSI)
      .Case("min", isFloat ? CK::MinNumF : CK::MinSI)
      .Case("umax", CK::MaxUI)
      .Default(CK::MinUI);
}

struct LanguageCallPattern
    : public OpConversionPattern<tt::ExternElementwiseOp> {
  LanguageCallPattern(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isLanguageCall(op))
      return failure();
    FailureOr<LanguageCall> call = decodeLanguageCall(op);
    if (failed(call))
      return failure();
    Location loc = op.getLoc();
    switch (call->kind) {
    case LanguageCall::Kind::PEInfo:
      rewriter.replaceOpWithNewOp<tile::PEInfoOp>(op, rewriter.getI32Type(),
                                                  call->query);
      return success();
    case LanguageCall::Kind::Barrier:
      tile::BarrierOp::create(rewriter, loc, call->group);
      rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(op, 0, 32);
      return success();
    case LanguageCall::Kind::AllReduce:
    case LanguageCall::Kind::Broadcast:
      break;
    }
    // A scalar travels as a rank-0 tile.
    Value source = adaptor.getSrcs().front();
    bool isScalar = source.getType().isIntOrFloat();
    if (isScalar)
      source = tile::SplatOp::create(
          rewriter, loc, tile::TileType::get({}, source.getType()), source);
    Value result;
    if (call->kind == LanguageCall::Kind::AllReduce) {
      Type element = cast<tile::TileType>(source.getType()).getElementType();
      result = tile::CrossPEReduceOp::create(
          rewriter, loc, combineKind(call->reduction, element), source,
          call->group);
    } else {
      result = tile::CrossPEBroadcastOp::create(rewriter, loc, source,
                                                call->root, call->group);
    }
    if (isScalar)
      result = tile::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

bool mtia::isLanguageCall(tt::ExternElementwiseOp op) {
  return op.getLibname() == kLanguageLibrary;
}

LogicalResult mtia::verifyLanguageCall(tt::ExternElementwiseOp op) {
  return decodeLanguageCall(op);
}

void mtia::populateLanguagePatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<LanguageCallPattern>(converter, patterns.getContext());
}
