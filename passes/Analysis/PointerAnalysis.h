//===- PointerAnalysis.h - Structured pointers and masks --------*- C++ -*-===//
//
// Decomposes the pointers and masks of `tt.load`/`tt.store` into the form a
// strided DMA transfer needs:
//
//   pointer[i0, .., iR-1] = base + offset + sum_d strides[d] * i_d  (elements)
//   mask[i0, .., iR-1]    = AND_d (lower_d <= i_d < upper_d) AND conditions
//
// where `base` is a scalar pointer and offsets, strides and bounds are
// integer expressions of scalar SSA values (kernel arguments, program ids,
// loop counters, ...). Accesses that do not have this form (offsets loaded
// from memory, `arith.remsi`, `arith.select`, data-dependent masks) are
// reported as unstructured, with the operation that breaks the structure, so
// that the lowering can take the indexed (gather/scatter) path instead of
// guessing. A modulo `x % m` of affine offsets, and a clamp
// `where(x < m, x, other)` of them, are structured under the assumption
// that x stays in [0, m) (a RangeAssumption), which the lowering checks at
// run time before it takes the strided path.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_POINTERANALYSIS_H
#define MTIA_PASSES_ANALYSIS_POINTERANALYSIS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

namespace mtia {

/// An atom of a linear expression: a scalar integer SSA value, or the
/// iteration number `(iv - lb) / step` of an scf.for loop.
struct Atom {
  mlir::Value value;
  mlir::scf::ForOp iterationOf;
};

/// A polynomial over atoms with integer coefficients: a sum of terms
/// `coefficient * atom_a * atom_b * ...`. Atoms are indices into the atom
/// table of the PointerAnalysis that built the expression.
class LinearExpr {
public:
  using Monomial = llvm::SmallVector<unsigned, 2>;

  LinearExpr() = default;
  static LinearExpr constant(int64_t value);
  static LinearExpr atom(unsigned index);

  LinearExpr operator+(const LinearExpr &other) const;
  LinearExpr operator-(const LinearExpr &other) const;
  LinearExpr operator*(const LinearExpr &other) const;
  LinearExpr scaled(int64_t factor) const;

  bool isZero() const { return terms.empty(); }
  std::optional<int64_t> getConstant() const;
  llvm::ArrayRef<std::pair<Monomial, int64_t>> getTerms() const {
    return terms;
  }

private:
  void addTerm(const Monomial &monomial, int64_t coefficient);

  /// Terms in first-appearance order; monomials are sorted atom lists.
  llvm::SmallVector<std::pair<Monomial, int64_t>, 4> terms;
};

/// A condition under which a tensor is affine: every element of the affine
/// tensor `offset + sum_d strides[d] * i_d` over `shape` lies in
/// `[0, bound)`. Then `x % bound` (`arith.remsi`) is `x` itself, which makes
/// the wrapped offsets of Triton's matmul tutorial structured wherever the
/// block does not cross the end of the matrix.
struct RangeAssumption {
  LinearExpr offset;
  llvm::SmallVector<LinearExpr> strides;
  llvm::SmallVector<int64_t> shape;
  LinearExpr bound;
};

/// An integer tensor (or scalar, of rank 0) that is affine in its indices,
/// provided its assumptions hold.
struct AffineTensor {
  LinearExpr offset;
  llvm::SmallVector<LinearExpr> strides;
  llvm::SmallVector<RangeAssumption, 0> assumptions;

  bool isUniform() const;
};

/// A structured pointer: `base + offsets` in elements of the pointee type.
struct PointerAccess {
  mlir::Value base;
  AffineTensor offsets;
};

/// A structured mask: every element whose indices are within the bounds of
/// each dimension, provided all tile-wide conditions hold.
struct MaskBounds {
  /// Per dimension, the bounds `lower <= i < upper` that all must hold.
  llvm::SmallVector<llvm::SmallVector<LinearExpr>> lowers, uppers;
  /// Expressions that must all be positive for any element to be valid.
  llvm::SmallVector<LinearExpr> positive;
  /// Scalar i1 values that must all be true for any element to be valid.
  llvm::SmallVector<mlir::Value> conditions;
};

/// A tensor of pointers carried by an scf.for loop that every iteration
/// advances by one loop-invariant amount: in iteration k it is `init`
/// advanced by `elements` (k times the increment) elements.
struct LoopAdvance {
  mlir::Value init;
  LinearExpr elements;
};

/// Why an access is not structured: the operation that breaks the structure
/// and a reason.
struct Unstructured {
  mlir::Operation *op = nullptr;
  std::string reason;
};

/// The bytes of the elements a pointer or tensor of pointers points to
/// (booleans take a byte).
int64_t getPointeeBytes(mlir::Value pointer);

/// The kernel argument or scratch region (`dma.scratch`) that a pointer,
/// tensor of pointers or tensor descriptor is computed from, through
/// pointer arithmetic, splats, broadcasts, reshapes, bitcasts, descriptors
/// made in the kernel and the initial values of loop-carried pointers; null
/// when it comes from elsewhere (a load, a select), which may alias any of
/// them.
mlir::Value getRootPointer(mlir::Value pointer);

/// Whether `op` reads or writes global memory through Triton's pointers or
/// descriptors (a load, store, atomic or descriptor access).
bool isGlobalMemoryAccess(mlir::Operation *op);

/// Whether two such accesses may touch the same memory, one of them
/// writing: their root pointers are one, or one is unknown.
bool mayConflict(mlir::Operation *a, mlir::Operation *b);

/// The same, with the accesses' root pointers (`getRootPointer`) known.
bool mayConflict(mlir::Operation *a, mlir::Value rootA, mlir::Operation *b,
                 mlir::Value rootB);

class PointerAnalysis {
public:
  /// Analyzes a pointer or tensor of pointers.
  std::optional<PointerAccess> analyzePointer(mlir::Value pointer);

  /// The advance of a loop-carried tensor of pointers whose increment is the
  /// same for all elements, whatever the structure of its initial value.
  std::optional<LoopAdvance> analyzeLoopAdvance(mlir::BlockArgument pointer);

  /// The expression of a scalar integer value.
  LinearExpr analyzeScalar(mlir::Value value);

  /// Analyzes an integer tensor (or scalar) as affine in its indices.
  std::optional<AffineTensor> analyzeInteger(mlir::Value value);

  /// Analyzes an i1 mask (scalar or tensor).
  std::optional<MaskBounds> analyzeMask(mlir::Value mask);

  /// The reason of the last failed analysis.
  const Unstructured &getFailure() const { return failure; }

  const Atom &getAtom(unsigned index) const { return atoms[index]; }

  /// Emits the scalar value of `expr` as `type` (an integer or index type) at
  /// the builder's insertion point, which must be dominated by every atom.
  mlir::Value materialize(const LinearExpr &expr, mlir::OpBuilder &builder,
                          mlir::Location loc, mlir::Type type);

  /// Prints `expr` with SSA names from `state`.
  void print(const LinearExpr &expr, llvm::raw_ostream &os,
             mlir::AsmState &state) const;

private:
  std::optional<AffineTensor> analyzeIntegerUncached(mlir::Value value);
  std::optional<AffineTensor> analyzeLoopCarried(mlir::BlockArgument argument,
                                                 bool isPointer);
  std::optional<AffineTensor> analyzeIncrement(mlir::BlockArgument argument,
                                               bool isPointer);
  std::optional<PointerAccess> analyzePointerUncached(mlir::Value pointer);
  std::optional<MaskBounds> analyzeComparison(mlir::Operation *compare);
  bool isLoopInvariant(const AffineTensor &tensor, mlir::scf::ForOp loop) const;

  unsigned getAtomIndex(Atom atom);
  std::nullopt_t fail(mlir::Operation *op, const llvm::Twine &reason);

  llvm::SmallVector<Atom> atoms;
  llvm::DenseMap<mlir::Value, unsigned> valueAtoms;
  llvm::DenseMap<mlir::Operation *, unsigned> iterationAtoms;
  llvm::DenseMap<mlir::Value, std::optional<AffineTensor>> integerCache;
  llvm::DenseMap<mlir::Value, std::optional<PointerAccess>> pointerCache;
  llvm::DenseSet<mlir::Value> loopArgumentsInProgress;
  Unstructured failure;
};

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_POINTERANALYSIS_H
