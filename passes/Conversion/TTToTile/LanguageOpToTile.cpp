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
//   mtia.all_<argmax|argmin>.<group> (values, i32 indices)
//                                                 -> tile.cross_pe_arg_reduce
//   mtia.shift.<east|west|south|north>            -> tile.cross_pe_shift
//
// where <group> is `row`, `column` or `grid` (tile::PEGroup). `pe` and
// `barrier` take one ignored i32 operand, because Triton's verifier wants
// an elementwise op to have one; `barrier` yields 0. Scalar operands of the
// collectives travel as rank-0 tiles.
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
  enum class Kind { PEInfo, Barrier, AllReduce, Broadcast, ArgReduce, Shift };
  Kind kind = Kind::PEInfo;
  tile::PEQuery query = tile::PEQuery::Row;
  tile::PEGroup group = tile::PEGroup::Grid;
  tile::ArgReduceKind argKind = tile::ArgReduceKind::ArgMax;
  tile::PEDirection direction = tile::PEDirection::East;
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
  // The arg-reductions take the values and their indices.
  size_t operands =
      parts.size() >= 2 && parts[1].starts_with("all_arg") ? 2 : 1;
  if (parts.size() < 3 || parts[0] != kLanguageLibrary ||
      op.getSrcs().size() != operands)
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
  if ((parts[1] == "all_argmax" || parts[1] == "all_argmin") &&
      parts.size() == 3) {
    if (!group(parts[2]))
      return unknown();
    Type indices = getElementTypeOrSelf(op.getSrcs()[1].getType());
    if (!indices.isInteger(32) || getElementTypeOrSelf(result) != indices)
      return op.emitOpError()
             << "takes and gives i32 indices, got " << op.getSrcs()[1].getType()
             << " -> " << result;
    if (getElementTypeOrSelf(op.getSrcs()[0].getType()).isInteger(1))
      return op.emitOpError() << "compares i1 values across PEs: the "
                                 "reduction network compares numbers";
    call.kind = LanguageCall::Kind::ArgReduce;
    call.argKind = parts[1] == "all_argmax" ? tile::ArgReduceKind::ArgMax
                                            : tile::ArgReduceKind::ArgMin;
    call.group = *group(parts[2]);
    return call;
  }
  if (parts[1] == "shift" && parts.size() == 3) {
    std::optional<tile::PEDirection> direction =
        tile::symbolizePEDirection(parts[2]);
    if (!direction)
      return unknown();
    call.kind = LanguageCall::Kind::Shift;
    call.direction = *direction;
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
    case LanguageCall::Kind::ArgReduce:
    case LanguageCall::Kind::Shift:
      break;
    }
    // Scalars travel as rank-0 tiles.
    SmallVector<Value, 2> sources(adaptor.getSrcs());
    bool isScalar = sources.front().getType().isIntOrFloat();
    if (isScalar)
      for (Value &source : sources)
        source = tile::SplatOp::create(
            rewriter, loc, tile::TileType::get({}, source.getType()), source);
    Value source = sources.front();
    Value result;
    switch (call->kind) {
    case LanguageCall::Kind::AllReduce: {
      Type element = cast<tile::TileType>(source.getType()).getElementType();
      result = tile::CrossPEReduceOp::create(
          rewriter, loc, combineKind(call->reduction, element), source,
          call->group);
      break;
    }
    case LanguageCall::Kind::Broadcast:
      result = tile::CrossPEBroadcastOp::create(rewriter, loc, source,
                                                call->root, call->group);
      break;
    case LanguageCall::Kind::ArgReduce:
      result = tile::CrossPEArgReduceOp::create(
          rewriter, loc, call->argKind, source, sources[1], call->group);
      break;
    case LanguageCall::Kind::Shift:
      result = tile::CrossPEShiftOp::create(rewriter, loc, source,
                                            call->direction);
      break;
    case LanguageCall::Kind::PEInfo:
    case LanguageCall::Kind::Barrier:
      llvm_unreachable("handled above");
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
