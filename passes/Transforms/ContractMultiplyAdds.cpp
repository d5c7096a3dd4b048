//===- ContractMultiplyAdds.cpp - a * b + c as one fused multiply-add -----===//
//
// Triton contracts a float multiplication and the addition or subtraction
// that uses it into one fused multiply-add, rounded once, unless the kernel
// is compiled with `enable_fp_fusion=False` (the pipeline then leaves this
// pass out). On the SIMD engine the fused operation is one pass over the
// tiles instead of two.
//
// A multiplication is contracted when the addition is its only use: one
// with other uses stays, and fusing would compute it twice. A subtraction
// negates the operand that has fewest elements: a scalar, or the source of
// a splat or broadcast (attention's row maximum in `x * s - max[:, None]`),
// so that the negation costs no pass over the tile; when no operand is
// cheaper to negate than the tile, the subtraction stays as it is.
//
// Combine regions of reductions and scans are left alone: their operations
// are the units' combine kinds.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

namespace mtia {
#define GEN_PASS_DEF_CONTRACTMULTIPLYADDS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

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
  if (isa_and_nonnull<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp>(
          spread)) {
    if (Value source = negateCheaply(builder, loc, spread->getOperand(0),
                                     tileElements)) {
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

/// Contracts `add` (`arith.addf` or `arith.subf`) when one operand is a
/// contractible product.
void contract(Operation *add) {
  bool subtracts = isa<arith::SubFOp>(add);
  int64_t tileElements = getElementCount(add->getResult(0).getType());
  OpBuilder builder(add);
  Location loc = add->getLoc();
  for (unsigned productOperand : {0u, 1u}) {
    arith::MulFOp product =
        getContractibleProduct(add->getOperand(productOperand));
    if (!product)
      continue;
    Value a = product.getLhs(), b = product.getRhs();
    Value c = add->getOperand(1 - productOperand);
    if (subtracts && productOperand == 0) {
      // x * y - c as x * y + (-c).
      c = negateCheaply(builder, loc, c, tileElements);
    } else if (subtracts) {
      // c - x * y as x * (-y) + c, negating the factor that is cheaper to.
      if (Value negated = negateCheaply(builder, loc, b, tileElements))
        b = negated;
      else if ((negated = negateCheaply(builder, loc, a, tileElements)))
        a = negated;
      else
        c = nullptr;
    }
    if (!c)
      continue;
    Value fused = math::FmaOp::create(builder, loc, a, b, c);
    add->getResult(0).replaceAllUsesWith(fused);
    add->erase();
    product->erase();
    return;
  }
}

struct ContractMultiplyAddsPass
    : public mtia::impl::ContractMultiplyAddsBase<ContractMultiplyAddsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> additions;
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::AddFOp, arith::SubFOp>(op) ||
          isa<tt::ReduceOp, tt::ScanOp>(op->getParentOp()))
        return;
      additions.push_back(op);
    });
    for (Operation *add : additions)
      contract(add);
  }
};

} // namespace
