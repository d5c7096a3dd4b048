//===- AxisAnalysis.h - The axes a kernel's tensor work runs along -*- C++
//-*-===//
//
// The axes of a kernel (classes of tensor dimensions its operations keep in
// step), what forbids splitting each, and the reductions and scans over
// them: `mtia-strip-mine-blocks` runs a kernel in strips of an axis no
// operation mixes.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_AXISANALYSIS_H
#define MTIA_PASSES_ANALYSIS_AXISANALYSIS_H

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mtia {

/// A dimension of a tensor value.
using ValueDim = std::pair<mlir::Value, unsigned>;

/// Returns the tensor type of `value`, or null for a scalar.
mlir::RankedTensorType getTensorType(mlir::Value value);

/// Calls `visit` on every value `op` defines: its results, and the block
/// arguments and results of every operation in its regions.
void forEachDefinedValue(mlir::Operation *op,
                         llvm::function_ref<void(mlir::Value)> visit);

/// Returns whether `op` (or an operation in its regions) writes memory or
/// has effects the interfaces do not describe.
bool hasSideEffects(mlir::Operation *op);

/// Returns a constant tensor of integer `type` whose every element is
/// `value`.
mlir::Value createSplatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::RankedTensorType type, int64_t value);

/// Returns whether `value` is an index: a tensor computed without memory
/// effects from ranges, splats and constants alone, which strips compute
/// again rather than store (`known` holds the answers so far).
bool isIndex(mlir::Value value, llvm::DenseMap<mlir::Value, bool> &known);

/// Returns the row-major offsets of the elements of a tensor of `type` (of
/// integers) in a tensor of shape `layout` (by default `type`'s own): the
/// sum of one range per dimension but `skippedDim`, broadcast and scaled
/// by the product of the layout's sizes after it, so that each dimension is
/// its own. The shapes agree except along `skippedDim`.
mlir::Value
buildRowMajorOffsets(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::RankedTensorType type,
                     llvm::ArrayRef<int64_t> layout = {},
                     std::optional<int64_t> skippedDim = std::nullopt);

/// Rewrites each reshape of a range (`tl.arange(0, n).reshape(shape)`, the
/// offsets of a multi-dimensional block) as the sum of one range per
/// dimension, broadcast and scaled by the dimension's row-major stride: the
/// same offsets, with each dimension its own, so that the axes of the block
/// can be told apart.
void expandRangeReshapes(tt::FuncOp function);

/// Gives every use of an index (a tensor computed only from ranges, splats
/// and splat constants, without loads: offsets, masks, pointers) its own
/// copy of the computation. Common-subexpression elimination shares, say,
/// one range between the rows of one tile and the columns of another; with
/// a copy each, a range ties only the dimensions of its own use, and a
/// strip can slice one use without the other. The later stages share the
/// copies again.
void separateIndexUses(tt::FuncOp function);

/// The axes of a kernel: its tensor dimensions, in classes of dimensions
/// that its operations keep in step (union-find), with what forbids
/// splitting a class and the reductions over it.
class AxisAnalysis {
public:
  explicit AxisAnalysis(tt::FuncOp function);

  /// The class of `dim` of `value`, or none if no operation ties it.
  std::optional<unsigned> getAxis(mlir::Value value, unsigned dim) const {
    auto it = ids.find({value, dim});
    if (it == ids.end())
      return std::nullopt;
    return find(it->second);
  }

  /// Returns the dimension of `value` on `axis`, if it has one.
  std::optional<unsigned> getDimOnAxis(mlir::Value value, unsigned axis) const {
    mlir::RankedTensorType type = getTensorType(value);
    if (!type)
      return std::nullopt;
    for (unsigned dim = 0; dim < type.getRank(); ++dim)
      if (getAxis(value, dim) == axis)
        return dim;
    return std::nullopt;
  }

  /// Returns whether `op`, or an operation in its regions, has a tensor
  /// (operand, result or block argument) with a dimension on `axis`.
  bool touchesAxis(mlir::Operation *op, unsigned axis) const {
    bool touches = false;
    op->walk([&](mlir::Operation *nested) {
      for (mlir::Value operand : nested->getOperands())
        touches |= getDimOnAxis(operand, axis).has_value();
      forEachDefinedValue(nested, [&](mlir::Value value) {
        touches |= getDimOnAxis(value, axis).has_value();
      });
      return touches ? mlir::WalkResult::interrupt()
                     : mlir::WalkResult::advance();
    });
    return touches;
  }

  /// The classes that may be split: one length, no dimension forbidden, no
  /// tensor with two dimensions in the class. In order of first appearance.
  llvm::ArrayRef<unsigned> getSplittableAxes() const { return splittable; }

  /// The length of the dimensions of `axis`.
  int64_t getLength(unsigned axis) const { return lengths.lookup(axis); }

  /// The reductions over `axis`.
  llvm::SmallVector<tt::ReduceOp> getReductions(unsigned axis) const {
    return getOpsOver<tt::ReduceOp>(reductions, axis);
  }

  /// The scans over `axis`.
  llvm::SmallVector<tt::ScanOp> getScans(unsigned axis) const {
    return getOpsOver<tt::ScanOp>(scans, axis);
  }

  /// Whether the kernel has an operation the analysis does not know how to
  /// split (a call): then no axis is split.
  bool hasOpaqueOperations() const { return opaque; }

private:
  /// The operations of `opsByDim` (each with the dimension it works across)
  /// that work across `axis`.
  template <typename OpTy>
  llvm::SmallVector<OpTy>
  getOpsOver(llvm::ArrayRef<std::pair<unsigned, OpTy>> opsByDim,
             unsigned axis) const {
    llvm::SmallVector<OpTy> over;
    for (auto [id, op] : opsByDim)
      if (find(id) == axis)
        over.push_back(op);
    return over;
  }
  unsigned getId(mlir::Value value, unsigned dim);
  unsigned find(unsigned id) const {
    while (parents[id] != id)
      id = parents[id];
    return id;
  }
  void tie(mlir::Value a, unsigned dimA, mlir::Value b, unsigned dimB);
  void forbid(mlir::Value value, unsigned dim) {
    forbidden.push_back(getId(value, dim));
  }
  void forbidAll(mlir::Operation *op);
  /// Ties dimension `dim` of every tensor in `values`, for every dim.
  void tieElementwise(mlir::ValueRange values);
  void visit(mlir::Operation *op);
  void findSplittableAxes();

  llvm::DenseMap<ValueDim, unsigned> ids;
  llvm::SmallVector<unsigned> splittable;
  llvm::SmallVector<ValueDim> dimsById;
  llvm::SmallVector<unsigned> parents;
  llvm::SmallVector<unsigned> forbidden;
  llvm::SmallVector<std::pair<unsigned, tt::ReduceOp>> reductions;
  llvm::SmallVector<std::pair<unsigned, tt::ScanOp>> scans;
  /// The operations on tensors with side effects (stores, atomics).
  llvm::SmallVector<mlir::Operation *> effects;
  /// The loads, stores and atomics through tensors of pointers.
  llvm::SmallVector<mlir::Operation *> accesses;
  llvm::DenseMap<unsigned, int64_t> lengths;
  bool opaque = false;
};

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_AXISANALYSIS_H
