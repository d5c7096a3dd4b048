//===- PointerIntegers.cpp - Tensors of pointers read as integers ---------===//
//
// `tt.ptr_to_int` of a tensor of pointers (`tl.where` between pointers that a
// kernel then stores as integers, for example) needs the addresses as data,
// while the tile stage keeps tensors of pointers for the data-movement stage
// to analyse and never makes tiles of them. Each such `tt.ptr_to_int` is
// replaced here by the integer computation of the same addresses, following
// the operations that compute the pointers back to integers
// (`tt.int_to_ptr`) and scalar pointers (splat, then read with a scalar
// `tt.ptr_to_int`, which the control core computes): `tt.addptr` becomes an
// add of the offset scaled by the pointee's bytes, and selects and shape
// operations apply to the integers. The tile conversion then converts that
// computation like any other.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mtia;

namespace {

/// The bytes of a pointee: a pointer takes 8, an i1 one byte.
int64_t pointeeBytes(tt::PointerType type) {
  Type pointee = type.getPointeeType();
  if (isa<tt::PointerType>(pointee))
    return 8;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// The i64 tensor of the addresses in `pointers`, a tensor of pointers, built
/// before `user`; null (after reporting at `user`) when an operation that
/// computes them has no integer form.
Value buildAddresses(OpBuilder &builder, Value pointers, Operation *user) {
  auto type = cast<RankedTensorType>(pointers.getType());
  auto integers = type.clone(builder.getI64Type());
  Operation *def = pointers.getDefiningOp();
  Location loc = def ? def->getLoc() : user->getLoc();
  if (auto cast = dyn_cast_or_null<tt::IntToPtrOp>(def))
    return cast.getSrc();
  if (auto cast = dyn_cast_or_null<tt::BitcastOp>(def))
    return buildAddresses(builder, cast.getSrc(), user);
  if (auto splat = dyn_cast_or_null<tt::SplatOp>(def)) {
    Value address = tt::PtrToIntOp::create(builder, loc, builder.getI64Type(),
                                           splat.getSrc());
    return tt::SplatOp::create(builder, loc, integers, address);
  }
  if (auto add = dyn_cast_or_null<tt::AddPtrOp>(def)) {
    Value base = buildAddresses(builder, add.getPtr(), user);
    if (!base)
      return nullptr;
    Value offset = add.getOffset();
    if (getElementTypeOrSelf(offset.getType()) != builder.getI64Type())
      offset = arith::ExtSIOp::create(builder, loc, integers, offset);
    int64_t bytes = pointeeBytes(cast<tt::PointerType>(type.getElementType()));
    Value scale = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(integers, builder.getI64IntegerAttr(bytes)));
    Value scaled = arith::MulIOp::create(builder, loc, offset, scale);
    return arith::AddIOp::create(builder, loc, base, scaled);
  }
  if (auto select = dyn_cast_or_null<arith::SelectOp>(def)) {
    Value whenTrue = buildAddresses(builder, select.getTrueValue(), user);
    Value whenFalse =
        whenTrue ? buildAddresses(builder, select.getFalseValue(), user)
                 : nullptr;
    if (!whenFalse)
      return nullptr;
    return arith::SelectOp::create(builder, loc, select.getCondition(),
                                   whenTrue, whenFalse);
  }
  if (isa_and_nonnull<tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp,
                      tt::TransOp>(def)) {
    Value source = buildAddresses(builder, def->getOperand(0), user);
    if (!source)
      return nullptr;
    OperationState state(loc, def->getName(), ValueRange{source},
                         TypeRange{integers}, def->getAttrs());
    return builder.create(state)->getResult(0);
  }
  InFlightDiagnostic error =
      user->emitOpError("reads as integers pointers that ");
  if (def)
    error << "'" << def->getName() << "' computes";
  else
    error << "a block argument carries";
  error << ", which the tile stage cannot compute as integers";
  return nullptr;
}

} // namespace

LogicalResult mtia::computePointerIntegers(ModuleOp module) {
  SmallVector<tt::PtrToIntOp> casts;
  module.walk([&](tt::PtrToIntOp op) {
    if (isa<RankedTensorType>(op.getSrc().getType()))
      casts.push_back(op);
  });
  for (tt::PtrToIntOp op : casts) {
    OpBuilder builder(op);
    Value addresses = buildAddresses(builder, op.getSrc(), op);
    if (!addresses)
      return failure();
    op.replaceAllUsesWith(addresses);
    op.erase();
  }
  return success();
}
