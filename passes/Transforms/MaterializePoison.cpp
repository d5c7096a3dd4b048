//===- MaterializePoison.cpp - Poison values become zeros -----------------===//
//
// Triton's frontend emits `ub.poison` for a value that is undefined on some
// path: a variable that only one branch of an `if` assigns, the initial value
// of a loop-carried variable first assigned in the loop, a result of a
// `tl.map_elementwise` function on a path that returns nothing. Any value is
// a correct refinement of poison; this pass picks zero (a null pointer for
// pointers), which every later stage computes with like any other constant.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mtia {
#define GEN_PASS_DEF_MATERIALIZEPOISON
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// A zero of `type` (an integer, float or pointer, or a tensor of them), or
/// null for a type that has none.
Value createZero(OpBuilder &builder, Location loc, Type type) {
  Type element = getElementTypeOrSelf(type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (element.isIntOrIndexOrFloat())
    return arith::ConstantOp::create(
        builder, loc, cast<TypedAttr>(builder.getZeroAttr(type)));
  if (!isa<tt::PointerType>(element))
    return nullptr;
  Type i64 = builder.getI64Type();
  Value address =
      arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(i64, 0));
  Value pointer = tt::IntToPtrOp::create(builder, loc, element, address);
  if (!tensor)
    return pointer;
  return tt::SplatOp::create(builder, loc, type, pointer);
}

struct MaterializePoisonPass
    : public mtia::impl::MaterializePoisonBase<MaterializePoisonPass> {
  void runOnOperation() override {
    SmallVector<ub::PoisonOp> poisons;
    getOperation().walk([&](ub::PoisonOp op) { poisons.push_back(op); });
    for (ub::PoisonOp op : poisons) {
      OpBuilder builder(op);
      Value zero = createZero(builder, op.getLoc(), op.getType());
      if (!zero) {
        op.emitOpError("of type ")
            << op.getType()
            << " has no value to stand for it (integers, floats and pointers, "
               "and tensors of them, have zero)";
        return signalPassFailure();
      }
      op.replaceAllUsesWith(zero);
      op.erase();
    }
  }
};

} // namespace
