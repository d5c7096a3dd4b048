//===- PointerAnalysis.cpp - Structured pointers and masks of TTIR --------===//

#include "passes/Analysis/PointerAnalysis.h"

#include "dialects/DMA/DMADialect.h"
#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include <functional>

using namespace mlir;
using namespace mtia;

//===----------------------------------------------------------------------===//
// LinearExpr
//===----------------------------------------------------------------------===//

LinearExpr LinearExpr::constant(int64_t value) {
  LinearExpr expr;
  expr.addTerm({}, value);
  return expr;
}

LinearExpr LinearExpr::atom(unsigned index) {
  LinearExpr expr;
  expr.addTerm({index}, 1);
  return expr;
}

void LinearExpr::addTerm(const Monomial &monomial, int64_t coefficient) {
  if (coefficient == 0)
    return;
  auto *it = llvm::find_if(
      terms, [&](const auto &term) { return term.first == monomial; });
  if (it == terms.end()) {
    terms.emplace_back(monomial, coefficient);
    return;
  }
  it->second += coefficient;
  if (it->second == 0)
    terms.erase(it);
}

LinearExpr LinearExpr::operator+(const LinearExpr &other) const {
  LinearExpr result = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    result.addTerm(monomial, coefficient);
  return result;
}

LinearExpr LinearExpr::operator-(const LinearExpr &other) const {
  return *this + other.scaled(-1);
}

LinearExpr LinearExpr::scaled(int64_t factor) const {
  LinearExpr result;
  for (const auto &[monomial, coefficient] : terms)
    result.addTerm(monomial, coefficient * factor);
  return result;
}

LinearExpr LinearExpr::operator*(const LinearExpr &other) const {
  LinearExpr result;
  for (const auto &[lhsMonomial, lhsCoefficient] : terms) {
    for (const auto &[rhsMonomial, rhsCoefficient] : other.terms) {
      Monomial product(lhsMonomial);
      product.append(rhsMonomial.begin(), rhsMonomial.end());
      llvm::sort(product);
      result.addTerm(product, lhsCoefficient * rhsCoefficient);
    }
  }
  return result;
}

std::optional<int64_t> LinearExpr::getConstant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.front().first.empty())
    return terms.front().second;
  return std::nullopt;
}

bool AffineTensor::isUniform() const {
  return llvm::all_of(strides, [](const LinearExpr &s) { return s.isZero(); });
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int64_t getRank(Value value) {
  if (auto tensorType = dyn_cast<RankedTensorType>(value.getType()))
    return tensorType.getRank();
  return 0;
}

static AffineTensor uniform(LinearExpr offset, int64_t rank) {
  return AffineTensor{std::move(offset), SmallVector<LinearExpr>(rank), {}};
}

static AffineTensor add(const AffineTensor &lhs, const AffineTensor &rhs) {
  AffineTensor result{lhs.offset + rhs.offset, {}, lhs.assumptions};
  for (auto [l, r] : llvm::zip_equal(lhs.strides, rhs.strides))
    result.strides.push_back(l + r);
  llvm::append_range(result.assumptions, rhs.assumptions);
  return result;
}

static AffineTensor scale(const AffineTensor &tensor,
                          const LinearExpr &factor) {
  AffineTensor result{tensor.offset * factor, {}, tensor.assumptions};
  for (const LinearExpr &stride : tensor.strides)
    result.strides.push_back(stride * factor);
  return result;
}

/// Zeroes the strides of dimensions that `tt.broadcast` expands from size 1.
static void broadcastStrides(AffineTensor &tensor, ArrayRef<int64_t> srcShape,
                             ArrayRef<int64_t> resultShape) {
  for (auto [index, dims] :
       llvm::enumerate(llvm::zip_equal(srcShape, resultShape)))
    if (std::get<0>(dims) != std::get<1>(dims))
      tensor.strides[index] = LinearExpr();
}

/// Reorders per-dimension entries as `tt.trans` reorders dimensions: result
/// dimension i is source dimension order[i].
template <typename T>
static SmallVector<T> permute(const SmallVector<T> &values,
                              ArrayRef<int32_t> order) {
  return llvm::to_vector(
      llvm::map_range(order, [&](int32_t dim) { return values[dim]; }));
}

/// The bytes of the elements a pointer or tensor of pointers points to
/// (booleans take a byte).
int64_t mtia::getPointeeBytes(Value pointer) {
  Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(pointer.getType()))
                     .getPointeeType();
  return llvm::divideCeil(pointee.getIntOrFloatBitWidth(), 8);
}

Value mtia::getRootPointer(Value pointer) {
  while (true) {
    Operation *producer = pointer.getDefiningOp();
    if (isa_and_present<dma::ScratchOp>(producer))
      return pointer;
    if (isa_and_present<tt::AddPtrOp, tt::SplatOp, tt::BroadcastOp,
                        tt::ExpandDimsOp, tt::ReshapeOp, tt::BitcastOp,
                        tt::MakeTensorDescOp>(producer)) {
      pointer = producer->getOperand(0);
      continue;
    }
    auto argument = dyn_cast<BlockArgument>(pointer);
    if (!argument)
      return nullptr;
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && argument.getArgNumber() > 0) {
      pointer = loop.getInitArgs()[argument.getArgNumber() - 1];
      continue;
    }
    return isa<tt::FuncOp>(owner) ? pointer : nullptr;
  }
}

bool mtia::isGlobalMemoryAccess(Operation *op) {
  return isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
             tt::DescriptorLoadOp, tt::DescriptorStoreOp>(op);
}

/// Whether the access `op` may write memory.
static bool mayWrite(Operation *op) {
  return !isa<tt::LoadOp, tt::DescriptorLoadOp>(op);
}

bool mtia::mayConflict(Operation *a, Operation *b) {
  if (!mayWrite(a) && !mayWrite(b))
    return false;
  return mayConflict(a, getRootPointer(a->getOperand(0)), b,
                     getRootPointer(b->getOperand(0)));
}

bool mtia::mayConflict(Operation *a, Value rootA, Operation *b, Value rootB) {
  return (mayWrite(a) || mayWrite(b)) && (!rootA || !rootB || rootA == rootB);
}

static ArrayRef<int64_t> getShape(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

std::nullopt_t PointerAnalysis::fail(Operation *op, const Twine &reason) {
  failure = Unstructured{op, reason.str()};
  return std::nullopt;
}

unsigned PointerAnalysis::getAtomIndex(Atom atom) {
  if (atom.iterationOf) {
    auto [it, inserted] = iterationAtoms.try_emplace(
        atom.iterationOf.getOperation(), atoms.size());
    if (inserted)
      atoms.push_back(atom);
    return it->second;
  }
  auto [it, inserted] = valueAtoms.try_emplace(atom.value, atoms.size());
  if (inserted)
    atoms.push_back(atom);
  return it->second;
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

LinearExpr PointerAnalysis::analyzeScalar(Value value) {
  // Every scalar has an expression: an opaque value is an atom.
  return analyzeInteger(value)->offset;
}

std::optional<AffineTensor> PointerAnalysis::analyzeInteger(Value value) {
  auto it = integerCache.find(value);
  if (it != integerCache.end())
    return it->second;
  std::optional<AffineTensor> result = analyzeIntegerUncached(value);
  // Only successes are cached, so that a failure always carries its reason.
  if (result)
    integerCache[value] = result;
  return result;
}

std::optional<AffineTensor>
PointerAnalysis::analyzeIntegerUncached(Value value) {
  int64_t rank = getRank(value);
  auto asAtom = [&]() {
    return uniform(LinearExpr::atom(getAtomIndex(Atom{value, {}})), rank);
  };

  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (loop && argument.getArgNumber() > 0)
      return analyzeLoopCarried(argument, /*isPointer=*/false);
    if (rank == 0)
      return asAtom();
    return fail(argument.getOwner()->getParentOp(),
                "a tensor of offsets that is a block argument");
  }

  Operation *op = value.getDefiningOp();
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return uniform(LinearExpr::constant(constant.getSExtValue()), rank);

  auto binary = [&](auto combine) -> std::optional<AffineTensor> {
    std::optional<AffineTensor> lhs = analyzeInteger(op->getOperand(0));
    if (!lhs)
      return std::nullopt;
    std::optional<AffineTensor> rhs = analyzeInteger(op->getOperand(1));
    if (!rhs)
      return std::nullopt;
    return combine(*lhs, *rhs);
  };

  return llvm::TypeSwitch<Operation *, std::optional<AffineTensor>>(op)
      .Case([&](arith::AddIOp) {
        return binary([](const AffineTensor &l, const AffineTensor &r) {
          return add(l, r);
        });
      })
      .Case([&](arith::SubIOp) {
        return binary([](const AffineTensor &l, const AffineTensor &r) {
          return add(l, scale(r, LinearExpr::constant(-1)));
        });
      })
      .Case([&](arith::MulIOp mul) {
        return binary(
            [&](const AffineTensor &l,
                const AffineTensor &r) -> std::optional<AffineTensor> {
              if (!r.isUniform() && !l.isUniform())
                return fail(mul, "a product of two index-dependent offsets");
              AffineTensor product =
                  r.isUniform() ? scale(l, r.offset) : scale(r, l.offset);
              const AffineTensor &factor = r.isUniform() ? r : l;
              llvm::append_range(product.assumptions, factor.assumptions);
              return product;
            });
      })
      .Case([&](arith::RemSIOp rem) -> std::optional<AffineTensor> {
        // A scalar remainder is an opaque value of the control code.
        if (rank == 0)
          return asAtom();
        return binary(
            [&](const AffineTensor &l,
                const AffineTensor &r) -> std::optional<AffineTensor> {
              if (!r.isUniform())
                return fail(rem, "a remainder by index-dependent divisors");
              AffineTensor result = l;
              llvm::append_range(result.assumptions, r.assumptions);
              result.assumptions.push_back(RangeAssumption{
                  l.offset, l.strides, llvm::to_vector(getShape(rem.getLhs())),
                  r.offset});
              return result;
            });
      })
      .Case([&](arith::SelectOp select) -> std::optional<AffineTensor> {
        // A scalar select is an opaque value of the control code.
        if (rank == 0)
          return asAtom();
        // `where(x < bound, x, other)` (offsets clamped into the tensor, as
        // Triton's persistent matmul writes them) is `x` where every element
        // of `x` lies in [0, bound): the same assumption as a remainder's.
        auto compare = select.getCondition().getDefiningOp<arith::CmpIOp>();
        if (!compare)
          return fail(select, "a select of offsets by a mask that is not a "
                              "comparison");
        Value clamped = select.getTrueValue();
        Value bound;
        arith::CmpIPredicate predicate = compare.getPredicate();
        if ((predicate == arith::CmpIPredicate::slt ||
             predicate == arith::CmpIPredicate::ult) &&
            compare.getLhs() == clamped)
          bound = compare.getRhs();
        else if ((predicate == arith::CmpIPredicate::sgt ||
                  predicate == arith::CmpIPredicate::ugt) &&
                 compare.getRhs() == clamped)
          bound = compare.getLhs();
        if (!bound)
          return fail(select, "a select of offsets other than "
                              "`where(x < bound, x, other)`");
        std::optional<AffineTensor> kept = analyzeInteger(clamped);
        if (!kept)
          return std::nullopt;
        std::optional<AffineTensor> limit = analyzeInteger(bound);
        if (!limit)
          return std::nullopt;
        if (!limit->isUniform())
          return fail(select, "offsets clamped by index-dependent bounds");
        AffineTensor result = *kept;
        llvm::append_range(result.assumptions, limit->assumptions);
        result.assumptions.push_back(
            RangeAssumption{kept->offset, kept->strides,
                            llvm::to_vector(getShape(clamped)), limit->offset});
        return result;
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp>(
          [&](Operation *cast) { return analyzeInteger(cast->getOperand(0)); })
      .Case([&](tt::SplatOp splat) -> std::optional<AffineTensor> {
        std::optional<AffineTensor> scalar = analyzeInteger(splat.getSrc());
        if (!scalar)
          return std::nullopt;
        return uniform(scalar->offset, rank);
      })
      .Case([&](tt::MakeRangeOp range) {
        AffineTensor tensor =
            uniform(LinearExpr::constant(range.getStartAttr().getInt()), 1);
        tensor.strides[0] = LinearExpr::constant(1);
        return tensor;
      })
      .Case([&](tt::ExpandDimsOp expand) -> std::optional<AffineTensor> {
        std::optional<AffineTensor> src = analyzeInteger(expand.getSrc());
        if (!src)
          return std::nullopt;
        src->strides.insert(src->strides.begin() + expand.getAxis(),
                            LinearExpr());
        return src;
      })
      .Case([&](tt::TransOp trans) -> std::optional<AffineTensor> {
        std::optional<AffineTensor> src = analyzeInteger(trans.getSrc());
        if (!src)
          return std::nullopt;
        src->strides = permute(src->strides, trans.getOrder());
        return src;
      })
      .Case([&](tt::BroadcastOp broadcast) -> std::optional<AffineTensor> {
        std::optional<AffineTensor> src = analyzeInteger(broadcast.getSrc());
        if (!src)
          return std::nullopt;
        broadcastStrides(*src, getShape(broadcast.getSrc()),
                         getShape(broadcast.getResult()));
        return src;
      })
      .Default([&](Operation *other) -> std::optional<AffineTensor> {
        // Any other scalar is an opaque value of the control code.
        if (rank == 0)
          return asAtom();
        return fail(other, "offsets computed by '" +
                               other->getName().getStringRef() + "'");
      });
}

bool PointerAnalysis::isLoopInvariant(const AffineTensor &tensor,
                                      scf::ForOp loop) const {
  Region &body = loop.getBodyRegion();
  auto invariant = [&](const LinearExpr &expr) {
    for (const auto &[monomial, coefficient] : expr.getTerms()) {
      for (unsigned index : monomial) {
        Atom atom = atoms[index];
        if (atom.iterationOf) {
          if (loop->isAncestor(atom.iterationOf))
            return false;
          continue;
        }
        if (body.isAncestor(atom.value.getParentRegion()))
          return false;
      }
    }
    return true;
  };
  return invariant(tensor.offset) && llvm::all_of(tensor.strides, invariant);
}

std::optional<AffineTensor>
PointerAnalysis::analyzeIncrement(BlockArgument argument, bool isPointer) {
  auto loop = cast<scf::ForOp>(argument.getOwner()->getParentOp());
  unsigned index = argument.getArgNumber() - 1;
  if (!loopArgumentsInProgress.insert(argument).second)
    return fail(loop, "loop-carried value #" + Twine(index) +
                          " is advanced by an amount that depends on itself");
  auto done =
      llvm::make_scope_exit([&] { loopArgumentsInProgress.erase(argument); });

  // Whether `value` is the argument plus increments (addptr for pointers,
  // addi for integers).
  std::function<bool(Value)> carriesArgument = [&](Value value) {
    if (value == argument)
      return true;
    if (auto addPtr = value.getDefiningOp<tt::AddPtrOp>())
      return isPointer && carriesArgument(addPtr.getPtr());
    if (auto addI = value.getDefiningOp<arith::AddIOp>())
      return !isPointer &&
             (carriesArgument(addI.getLhs()) || carriesArgument(addI.getRhs()));
    return false;
  };

  // The value carried into the next iteration must be this argument plus a
  // loop-invariant increment: then iteration k sees init + k * increment.
  Value yielded = loop.getYieldedValues()[index];
  if (!carriesArgument(yielded))
    return fail(loop, "loop-carried value #" + Twine(index) +
                          " is not advanced by a loop-invariant increment");
  AffineTensor increment = uniform(LinearExpr(), getRank(argument));
  while (yielded != argument) {
    Value next, delta;
    if (auto addPtr = yielded.getDefiningOp<tt::AddPtrOp>()) {
      next = addPtr.getPtr();
      delta = addPtr.getOffset();
    } else {
      auto addI = yielded.getDefiningOp<arith::AddIOp>();
      bool lhsCarries = carriesArgument(addI.getLhs());
      next = lhsCarries ? addI.getLhs() : addI.getRhs();
      delta = lhsCarries ? addI.getRhs() : addI.getLhs();
    }
    std::optional<AffineTensor> deltaTensor = analyzeInteger(delta);
    if (!deltaTensor)
      return std::nullopt;
    increment = add(increment, *deltaTensor);
    yielded = next;
  }
  if (!isLoopInvariant(increment, loop))
    return fail(loop, "loop-carried value #" + Twine(index) +
                          " has an increment that changes inside the loop");
  return increment;
}

std::optional<AffineTensor>
PointerAnalysis::analyzeLoopCarried(BlockArgument argument, bool isPointer) {
  auto loop = cast<scf::ForOp>(argument.getOwner()->getParentOp());
  if (argument == loop.getInductionVar())
    return uniform(LinearExpr::atom(getAtomIndex(Atom{argument, {}})), 0);
  std::optional<AffineTensor> increment = analyzeIncrement(argument, isPointer);
  if (!increment)
    return std::nullopt;
  LinearExpr iteration = LinearExpr::atom(getAtomIndex(Atom{Value(), loop}));
  AffineTensor advance = scale(*increment, iteration);
  unsigned index = argument.getArgNumber() - 1;
  if (isPointer) {
    std::optional<PointerAccess> init =
        analyzePointer(loop.getInitArgs()[index]);
    if (!init)
      return std::nullopt;
    pointerCache[argument] =
        PointerAccess{init->base, add(init->offsets, advance)};
    return advance;
  }
  std::optional<AffineTensor> init = analyzeInteger(loop.getInitArgs()[index]);
  if (!init)
    return std::nullopt;
  return add(*init, advance);
}

std::optional<LoopAdvance>
PointerAnalysis::analyzeLoopAdvance(BlockArgument pointer) {
  auto loop = dyn_cast<scf::ForOp>(pointer.getOwner()->getParentOp());
  if (!loop || pointer.getArgNumber() == 0)
    return fail(pointer.getOwner()->getParentOp(),
                "a tensor of pointers that is a block argument");
  std::optional<AffineTensor> increment =
      analyzeIncrement(pointer, /*isPointer=*/true);
  if (!increment)
    return std::nullopt;
  if (!increment->isUniform())
    return fail(loop, "loop-carried pointers #" +
                          Twine(pointer.getArgNumber() - 1) +
                          " advance by different amounts per element");
  LinearExpr iteration = LinearExpr::atom(getAtomIndex(Atom{Value(), loop}));
  return LoopAdvance{loop.getInitArgs()[pointer.getArgNumber() - 1],
                     increment->offset * iteration};
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

std::optional<PointerAccess> PointerAnalysis::analyzePointer(Value pointer) {
  auto it = pointerCache.find(pointer);
  if (it != pointerCache.end())
    return it->second;
  std::optional<PointerAccess> result = analyzePointerUncached(pointer);
  if (result)
    pointerCache[pointer] = result;
  return result;
}

std::optional<PointerAccess>
PointerAnalysis::analyzePointerUncached(Value pointer) {
  int64_t rank = getRank(pointer);
  if (auto argument = dyn_cast<BlockArgument>(pointer)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (loop && argument.getArgNumber() > 0) {
      if (!analyzeLoopCarried(argument, /*isPointer=*/true))
        return std::nullopt;
      return pointerCache.lookup(argument);
    }
    if (rank == 0)
      return PointerAccess{pointer, uniform(LinearExpr(), 0)};
    return fail(argument.getOwner()->getParentOp(),
                "a tensor of pointers that is a block argument");
  }

  Operation *op = pointer.getDefiningOp();
  return llvm::TypeSwitch<Operation *, std::optional<PointerAccess>>(op)
      .Case([&](tt::AddPtrOp addPtr) -> std::optional<PointerAccess> {
        std::optional<PointerAccess> base = analyzePointer(addPtr.getPtr());
        if (!base)
          return std::nullopt;
        std::optional<AffineTensor> offsets =
            analyzeInteger(addPtr.getOffset());
        if (!offsets)
          return std::nullopt;
        return PointerAccess{base->base, add(base->offsets, *offsets)};
      })
      .Case([&](tt::SplatOp splat) -> std::optional<PointerAccess> {
        std::optional<PointerAccess> scalar = analyzePointer(splat.getSrc());
        if (!scalar)
          return std::nullopt;
        return PointerAccess{scalar->base,
                             uniform(scalar->offsets.offset, rank)};
      })
      .Case([&](tt::ExpandDimsOp expand) -> std::optional<PointerAccess> {
        std::optional<PointerAccess> src = analyzePointer(expand.getSrc());
        if (!src)
          return std::nullopt;
        src->offsets.strides.insert(
            src->offsets.strides.begin() + expand.getAxis(), LinearExpr());
        return src;
      })
      .Case([&](tt::TransOp trans) -> std::optional<PointerAccess> {
        std::optional<PointerAccess> src = analyzePointer(trans.getSrc());
        if (!src)
          return std::nullopt;
        src->offsets.strides = permute(src->offsets.strides, trans.getOrder());
        return src;
      })
      .Case([&](tt::BroadcastOp broadcast) -> std::optional<PointerAccess> {
        std::optional<PointerAccess> src = analyzePointer(broadcast.getSrc());
        if (!src)
          return std::nullopt;
        broadcastStrides(src->offsets, getShape(broadcast.getSrc()),
                         getShape(broadcast.getResult()));
        return src;
      })
      .Case([&](tt::BitcastOp bitcast) -> std::optional<PointerAccess> {
        // Pointers reinterpreted as pointers to elements of the same size
        // (bool buffers as i8, floats as integers for atomics) keep their
        // offsets; the access casts the base.
        if (rank == 0)
          return PointerAccess{pointer, uniform(LinearExpr(), 0)};
        if (getPointeeBytes(bitcast.getSrc()) != getPointeeBytes(pointer))
          return fail(bitcast, "a bitcast of pointers to elements of another "
                               "size");
        return analyzePointer(bitcast.getSrc());
      })
      .Default([&](Operation *other) -> std::optional<PointerAccess> {
        // A scalar pointer from anywhere else (a load, a select, ...) is the
        // base of the accesses made from it.
        if (rank == 0)
          return PointerAccess{pointer, uniform(LinearExpr(), 0)};
        return fail(other, "pointers computed by '" +
                               other->getName().getStringRef() + "'");
      });
}

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

static MaskBounds unboundedMask(int64_t rank) {
  MaskBounds bounds;
  bounds.lowers.resize(rank);
  bounds.uppers.resize(rank);
  return bounds;
}

static void intersect(MaskBounds &into, const MaskBounds &other) {
  for (auto [dim, lowers] : llvm::enumerate(other.lowers))
    llvm::append_range(into.lowers[dim], lowers);
  for (auto [dim, uppers] : llvm::enumerate(other.uppers))
    llvm::append_range(into.uppers[dim], uppers);
  llvm::append_range(into.positive, other.positive);
  llvm::append_range(into.conditions, other.conditions);
}

std::optional<MaskBounds> PointerAnalysis::analyzeMask(Value mask) {
  int64_t rank = getRank(mask);
  if (rank == 0) {
    MaskBounds bounds = unboundedMask(0);
    bounds.conditions.push_back(mask);
    return bounds;
  }
  Operation *op = mask.getDefiningOp();
  if (!op)
    return fail(cast<BlockArgument>(mask).getOwner()->getParentOp(),
                "a mask that is a block argument");

  DenseElementsAttr constant;
  if (matchPattern(mask, m_Constant(&constant))) {
    if (!constant.isSplat())
      return fail(op, "a constant mask that is not uniform");
    MaskBounds bounds = unboundedMask(rank);
    if (!constant.getSplatValue<bool>())
      bounds.positive.push_back(LinearExpr());
    return bounds;
  }

  return llvm::TypeSwitch<Operation *, std::optional<MaskBounds>>(op)
      .Case([&](arith::AndIOp andOp) -> std::optional<MaskBounds> {
        std::optional<MaskBounds> lhs = analyzeMask(andOp.getLhs());
        if (!lhs)
          return std::nullopt;
        std::optional<MaskBounds> rhs = analyzeMask(andOp.getRhs());
        if (!rhs)
          return std::nullopt;
        intersect(*lhs, *rhs);
        return lhs;
      })
      .Case([&](tt::SplatOp splat) {
        MaskBounds bounds = unboundedMask(rank);
        bounds.conditions.push_back(splat.getSrc());
        return bounds;
      })
      .Case([&](tt::ExpandDimsOp expand) -> std::optional<MaskBounds> {
        std::optional<MaskBounds> src = analyzeMask(expand.getSrc());
        if (!src)
          return std::nullopt;
        src->lowers.insert(src->lowers.begin() + expand.getAxis(),
                           SmallVector<LinearExpr>());
        src->uppers.insert(src->uppers.begin() + expand.getAxis(),
                           SmallVector<LinearExpr>());
        return src;
      })
      .Case([&](tt::TransOp trans) -> std::optional<MaskBounds> {
        std::optional<MaskBounds> src = analyzeMask(trans.getSrc());
        if (!src)
          return std::nullopt;
        src->lowers = permute(src->lowers, trans.getOrder());
        src->uppers = permute(src->uppers, trans.getOrder());
        return src;
      })
      .Case([&](tt::BroadcastOp broadcast) -> std::optional<MaskBounds> {
        std::optional<MaskBounds> src = analyzeMask(broadcast.getSrc());
        if (!src)
          return std::nullopt;
        ArrayRef<int64_t> srcShape = getShape(broadcast.getSrc());
        ArrayRef<int64_t> resultShape = getShape(broadcast.getResult());
        for (int64_t dim = 0; dim < rank; ++dim) {
          if (srcShape[dim] == resultShape[dim])
            continue;
          // The broadcast dimension had the single index 0, which must lie
          // within its bounds: 0 < upper and lower <= 0, for every element.
          for (const LinearExpr &upper : src->uppers[dim])
            src->positive.push_back(upper);
          for (const LinearExpr &lower : src->lowers[dim])
            src->positive.push_back(LinearExpr::constant(1) - lower);
          src->lowers[dim].clear();
          src->uppers[dim].clear();
        }
        return src;
      })
      .Case([&](arith::CmpIOp compare) { return analyzeComparison(compare); })
      .Default([&](Operation *other) -> std::optional<MaskBounds> {
        return fail(other, "a mask computed by '" +
                               other->getName().getStringRef() + "'");
      });
}

std::optional<MaskBounds>
PointerAnalysis::analyzeComparison(Operation *compareOp) {
  auto compare = cast<arith::CmpIOp>(compareOp);
  std::optional<AffineTensor> lhs = analyzeInteger(compare.getLhs());
  if (!lhs)
    return std::nullopt;
  std::optional<AffineTensor> rhs = analyzeInteger(compare.getRhs());
  if (!rhs)
    return std::nullopt;
  // Bounds are static facts of the transfer; they cannot rest on
  // assumptions checked at run time.
  if (!lhs->assumptions.empty() || !rhs->assumptions.empty())
    return fail(compare, "a mask comparison of offsets with a remainder");
  // Compare `difference = lhs - rhs` with zero.
  AffineTensor difference = add(*lhs, scale(*rhs, LinearExpr::constant(-1)));
  int64_t rank = difference.strides.size();
  MaskBounds bounds = unboundedMask(rank);
  const LinearExpr &offset = difference.offset;
  LinearExpr one = LinearExpr::constant(1);

  // Normalise the predicate to `difference < 0` or `difference > 0`, with a
  // bias of one for the non-strict forms: d <= 0 <=> d - 1 < 0.
  bool lessThan;
  LinearExpr bias;
  switch (compare.getPredicate()) {
  case arith::CmpIPredicate::slt:
    lessThan = true;
    break;
  case arith::CmpIPredicate::sle:
    lessThan = true;
    bias = LinearExpr::constant(-1);
    break;
  case arith::CmpIPredicate::sgt:
    lessThan = false;
    break;
  case arith::CmpIPredicate::sge:
    lessThan = false;
    bias = one;
    break;
  default:
    return fail(compare,
                "a mask comparison with predicate '" +
                    arith::stringifyCmpIPredicate(compare.getPredicate()) +
                    "'");
  }
  // With `e = difference + bias`: lessThan means e < 0, otherwise e > 0.
  LinearExpr biased = offset + bias;

  SmallVector<int64_t> varyingDims;
  for (auto [dim, stride] : llvm::enumerate(difference.strides))
    if (!stride.isZero())
      varyingDims.push_back(dim);
  if (varyingDims.empty()) {
    bounds.positive.push_back(lessThan ? biased.scaled(-1) : biased);
    return bounds;
  }
  if (varyingDims.size() > 1)
    return fail(compare, "a mask that depends on more than one dimension");
  int64_t dim = varyingDims.front();
  std::optional<int64_t> stride = difference.strides[dim].getConstant();
  if (!stride || (*stride != 1 && *stride != -1))
    return fail(compare, "a mask bound with a stride other than 1 or -1");
  // stride * i + biased < 0 (or > 0), with stride = +-1.
  bool upperBound = lessThan == (*stride == 1);
  LinearExpr limit = (*stride == 1) ? biased.scaled(-1) : biased;
  if (upperBound)
    bounds.uppers[dim].push_back(limit);
  else
    bounds.lowers[dim].push_back(limit + one);
  return bounds;
}

//===----------------------------------------------------------------------===//
// Materialization and printing
//===----------------------------------------------------------------------===//

static Value castInteger(OpBuilder &builder, Location loc, Value value,
                         Type type) {
  if (value.getType() == type)
    return value;
  if (isa<IndexType>(type) || isa<IndexType>(value.getType()))
    return arith::IndexCastOp::create(builder, loc, type, value);
  if (value.getType().getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(builder, loc, type, value);
  return arith::TruncIOp::create(builder, loc, type, value);
}

Value PointerAnalysis::materialize(const LinearExpr &expr, OpBuilder &builder,
                                   Location loc, Type type) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc, type,
                                     builder.getIntegerAttr(type, value));
  };
  Value sum;
  for (const auto &[monomial, coefficient] : expr.getTerms()) {
    Value term;
    for (unsigned index : monomial) {
      Atom atom = atoms[index];
      Value factor;
      if (atom.iterationOf) {
        scf::ForOp loop = atom.iterationOf;
        Value iv = castInteger(builder, loc, loop.getInductionVar(), type);
        Value lower = castInteger(builder, loc, loop.getLowerBound(), type);
        Value step = castInteger(builder, loc, loop.getStep(), type);
        factor = arith::DivSIOp::create(
            builder, loc, arith::SubIOp::create(builder, loc, iv, lower), step);
      } else {
        factor = castInteger(builder, loc, atom.value, type);
      }
      term = term ? arith::MulIOp::create(builder, loc, term, factor) : factor;
    }
    if (!term)
      term = constant(coefficient);
    else if (coefficient != 1)
      term = arith::MulIOp::create(builder, loc, term, constant(coefficient));
    sum = sum ? arith::AddIOp::create(builder, loc, sum, term) : term;
  }
  return sum ? sum : constant(0);
}

void PointerAnalysis::print(const LinearExpr &expr, raw_ostream &os,
                            AsmState &state) const {
  if (expr.isZero()) {
    os << "0";
    return;
  }
  llvm::interleave(
      expr.getTerms(), os,
      [&](const std::pair<LinearExpr::Monomial, int64_t> &term) {
        const auto &[monomial, coefficient] = term;
        if (monomial.empty() || coefficient != 1)
          os << coefficient;
        for (auto [position, index] : llvm::enumerate(monomial)) {
          if (position > 0 || coefficient != 1)
            os << "*";
          Atom atom = atoms[index];
          if (atom.iterationOf) {
            os << "iter(";
            atom.iterationOf.getInductionVar().printAsOperand(os, state);
            os << ")";
          } else {
            atom.value.printAsOperand(os, state);
          }
        }
      },
      " + ");
}
