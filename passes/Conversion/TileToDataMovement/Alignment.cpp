//===- Alignment.cpp - Alignment versioning -------------------------------===//
//
// Transfers whose rows are aligned, or whose pointer structure holds, only
// at run time choose at run time between a strided transfer in bursts and a
// slower one.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace mtia;

/// The divisor every value of a scalar atom is known to have.
static int64_t getAtomDivisibility(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::max<int64_t>(1, std::abs(constant.getSExtValue()));
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return 1;
  auto function = dyn_cast<tt::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return 1;
  auto divisibility = function.getArgAttrOfType<IntegerAttr>(
      argument.getArgNumber(), "tt.divisibility");
  return divisibility ? std::max<int64_t>(1, divisibility.getInt()) : 1;
}

/// The largest divisor of every value of `expr` the kernel's facts prove, or
/// 0 when `expr` is zero, which every number divides.
static int64_t getDivisibility(const PointerAnalysis &analysis,
                               const LinearExpr &expr) {
  int64_t result = 0;
  for (const auto &[monomial, coefficient] : expr.getTerms()) {
    int64_t term = std::abs(coefficient);
    for (unsigned index : monomial) {
      const Atom &atom = analysis.getAtom(index);
      term *= atom.iterationOf ? 1 : getAtomDivisibility(atom.value);
    }
    result = std::gcd(result, term);
  }
  return result;
}

bool mtia::isProvablyAligned(const PointerAnalysis &analysis,
                             const PointerAccess &access, int64_t elementBytes,
                             int64_t alignmentBytes) {
  // Kernel arguments are aligned, and so are scratch regions (the program
  // stage places them at the DMA alignment).
  auto argument = dyn_cast<BlockArgument>(access.base);
  if (!access.base.getDefiningOp<dma::ScratchOp>() &&
      (!argument || !isa<tt::FuncOp>(argument.getOwner()->getParentOp())))
    return false;
  auto aligned = [&](const LinearExpr &expr) {
    return getDivisibility(analysis, expr) * elementBytes % alignmentBytes == 0;
  };
  ArrayRef<LinearExpr> strides = access.offsets.strides;
  if (strides.empty())
    return aligned(access.offsets.offset);
  // Rows with a non-unit innermost stride move element by element, which
  // has no alignment rule.
  std::optional<int64_t> innermost = strides.back().getConstant();
  if (innermost && *innermost != 1)
    return true;
  if (!innermost)
    return false;
  return aligned(access.offsets.offset) &&
         llvm::all_of(strides.drop_back(), aligned);
}

bool mtia::mayBeAligned(const PointerAccess &access, int64_t elementBytes,
                        int64_t alignmentBytes) {
  ArrayRef<LinearExpr> strides = access.offsets.strides;
  if (strides.empty())
    return false;
  auto constantMisaligned = [&](const LinearExpr &expr) {
    std::optional<int64_t> value = expr.getConstant();
    return value && *value * elementBytes % alignmentBytes != 0;
  };
  return !constantMisaligned(access.offsets.offset) &&
         llvm::none_of(strides.drop_back(), constantMisaligned);
}

/// Whether, at run time, every row of a strided access starts at an
/// address the DMA engine accepts.
Value AccessLowering::buildAlignmentCondition(const PointerAccess &access,
                                              int64_t elementBytes,
                                              OpBuilder &builder,
                                              Location loc) {
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i64, value);
  };
  auto isAligned = [&](Value bytes) -> Value {
    Value remainder =
        arith::RemSIOp::create(builder, loc, bytes, constant(alignmentBytes));
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                 remainder, constant(0));
  };
  Value address = arith::AddIOp::create(
      builder, loc, tt::PtrToIntOp::create(builder, loc, i64, access.base),
      arith::MulIOp::create(
          builder, loc,
          analysis.materialize(access.offsets.offset, builder, loc, i64),
          constant(elementBytes)));
  Value condition = isAligned(address);
  ArrayRef<LinearExpr> strides = access.offsets.strides;
  for (const LinearExpr &stride : strides.drop_back())
    condition = arith::AndIOp::create(
        builder, loc, condition,
        isAligned(arith::MulIOp::create(
            builder, loc, analysis.materialize(stride, builder, loc, i64),
            constant(elementBytes))));
  // Rows with a non-unit innermost stride move element by element, which
  // has no alignment rule.
  if (!strides.back().getConstant())
    condition = arith::OrIOp::create(
        builder, loc, condition,
        arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::ne,
            analysis.materialize(strides.back(), builder, loc, i64),
            constant(1)));
  return condition;
}

/// Emits `strided` where the rows of a versioned access are aligned and
/// `indexed`, with the index and mask tiles built in its branch, where not.
void AccessLowering::emitVersioned(
    Operation *op, StructuredAccess access, ArrayRef<int64_t> shape,
    int64_t elementBytes, OpBuilder &builder,
    function_ref<void(OpBuilder &, bool elementwise)> strided,
    function_ref<void(OpBuilder &, const StructuredAccess &)> indexed) {
  Location loc = op->getLoc();
  Value condition;
  auto conjoin = [&](Value term) {
    condition =
        condition ? arith::AndIOp::create(builder, loc, condition, term) : term;
  };
  if (!isProvablyAligned(analysis, *access.pointer, elementBytes,
                         alignmentBytes))
    conjoin(
        buildAlignmentCondition(*access.pointer, elementBytes, builder, loc));
  for (const RangeAssumption &assumption : access.pointer->offsets.assumptions)
    conjoin(buildAssumptionCondition(assumption, builder, loc));
  auto branch = scf::IfOp::create(builder, loc, TypeRange{}, condition,
                                  /*withElseRegion=*/true);
  OpBuilder thenBuilder = branch.getThenBodyBuilder();
  strided(thenBuilder, /*elementwise=*/false);
  OpBuilder elseBuilder = branch.getElseBodyBuilder();
  if (!access.unstructuredIndices) {
    strided(elseBuilder, /*elementwise=*/true);
    return;
  }
  access.base = access.unstructuredBase;
  access.indices = access.unstructuredIndices;
  access.mask = buildBoundsMask(access.bounds, shape, elseBuilder, loc);
  access.fallback = true;
  indexed(elseBuilder, access);
}

/// Whether, at run time, every element of the affine tensor of
/// `assumption` lies in [0, bound): its smallest element is at least 0 and
/// its largest below the bound.
Value AccessLowering::buildAssumptionCondition(
    const RangeAssumption &assumption, OpBuilder &builder, Location loc) {
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i64, value);
  };
  Value smallest = analysis.materialize(assumption.offset, builder, loc, i64);
  Value largest = smallest;
  for (auto [stride, size] :
       llvm::zip_equal(assumption.strides, assumption.shape)) {
    if (stride.isZero() || size == 1)
      continue;
    Value span = arith::MulIOp::create(
        builder, loc, analysis.materialize(stride, builder, loc, i64),
        constant(size - 1));
    smallest = arith::AddIOp::create(
        builder, loc, smallest,
        arith::MinSIOp::create(builder, loc, span, constant(0)));
    largest = arith::AddIOp::create(
        builder, loc, largest,
        arith::MaxSIOp::create(builder, loc, span, constant(0)));
  }
  Value bound = analysis.materialize(assumption.bound, builder, loc, i64);
  return arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, smallest,
                            constant(0)),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, largest,
                            bound));
}
