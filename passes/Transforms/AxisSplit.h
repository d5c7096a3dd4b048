//===- AxisSplit.h - Tensor work in strips of an axis -----------*- C++ -*-===//
//
// The mechanics of `mtia-strip-mine-blocks`: whether the work of a kernel
// along one axis (or several, split together into tiles) can run in strips
// of it, the peak of data it then holds, and the rewrite into loops over
// strips. The pass decides which axes to split and the strip sizes.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_AXISSPLIT_H
#define MTIA_PASSES_TRANSFORMS_AXISSPLIT_H

#include "passes/Analysis/AxisAnalysis.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mtia {

struct StripLoop;

/// The tensor work of a kernel's body along one axis (or several, split
/// together into tiles), and whether it can run in strips of it.
class AxisSplit {
public:
  /// The work on `splitAxes` in `body`, a block of `function` that holds
  /// every reduction, scan and effect on them.
  AxisSplit(tt::FuncOp function, mlir::Block &body, const AxisAnalysis &axes,
            llvm::ArrayRef<unsigned> splitAxes)
      : kernelBody(function.getBody().front()), body(body), axes(axes),
        splitAxes(splitAxes) {}

  /// Returns whether the kernel can run in strips of the axis: the
  /// reductions over it are in the block (not in a loop in it), only their
  /// results leave the strips, what the strips need from outside the block
  /// on the axis is computed without memory effects from ranges, splats and
  /// constants, the effects on the axis follow the last reduction or are
  /// stores in what a reduction reads (run in its strips), no operation in
  /// a loop over the axis has an effect off it (which the strips would
  /// repeat), and the strips pass no access to the memory of theirs.
  /// Axes split together have no reductions or scans over them, and every
  /// effect is on all of them.
  bool isLegal();

  /// The estimated peak of the bytes of data (not indices, masks or
  /// pointers, which the later stages fold into the transfers' addressing)
  /// live at once, with each axis in strips of its `stripSizes`, between the
  /// first and the last operation on the axes once `isLegal` has found them
  /// (in the whole block before); with `countPrefetch`, a load in a loop
  /// counts every page its buffer prefetches.
  int64_t estimatePeakBytes(llvm::ArrayRef<int64_t> stripSizes,
                            bool countPrefetch) const;

  /// Moves the kernel's tensor work on the axes into loops over strips.
  void apply(llvm::ArrayRef<int64_t> stripSizes);

  /// Whether a reduction or scan is over the axes.
  bool reduces() const { return !reductions.empty() || !scans.empty(); }

private:
  bool onAxis(mlir::Operation *op) const { return onAxisOps.contains(op); }
  bool touchesAll(mlir::Operation *op) const {
    return llvm::all_of(
        splitAxes, [&](unsigned axis) { return axes.touchesAxis(op, axis); });
  }
  bool isReductionOverAxis(mlir::Operation *op) const {
    return llvm::any_of(reductions, [&](tt::ReduceOp reduce) {
      return reduce.getOperation() == op;
    });
  }
  llvm::SmallVector<mlir::Operation *>
  getSlice(llvm::ArrayRef<mlir::Operation *> roots) const;
  StripLoop createStripLoop(mlir::OpBuilder &builder, mlir::Location loc,
                            llvm::ArrayRef<mlir::Operation *> slice,
                            mlir::ValueRange initial,
                            llvm::ArrayRef<int64_t> stripSizes) const;
  void finishStripLoop(mlir::OpBuilder &builder, mlir::Location loc,
                       StripLoop &strips, mlir::ValueRange yielded) const;
  void cloneStrip(llvm::ArrayRef<mlir::Operation *> ops, StripLoop &strips,
                  llvm::ArrayRef<int64_t> stripSizes, mlir::OpBuilder &builder,
                  mlir::IRMapping &mapping) const;
  void cloneScanStrip(tt::ScanOp scan, StripLoop &strips,
                      llvm::ArrayRef<int64_t> stripSizes,
                      mlir::OpBuilder &builder, mlir::IRMapping &mapping) const;
  mlir::Type getStripType(mlir::Value original,
                          llvm::ArrayRef<int64_t> stripSizes) const;
  void stripMineReductions(llvm::MutableArrayRef<tt::ReduceOp> group,
                           llvm::ArrayRef<int64_t> stripSizes);

  bool collectOuterOps();
  /// Whether an access off the axis lies between the accesses on it and the
  /// last effect or reduction, where the strips run, and may touch their
  /// memory (the load from scratch of what an earlier store on the axis
  /// wrote).
  bool passesConflictingAccesses() const;

  mlir::Block &kernelBody;
  mlir::Block &body;
  const AxisAnalysis &axes;
  llvm::SmallVector<unsigned> splitAxes;
  /// The operations of the body that touch the axis, in order.
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::DenseSet<mlir::Operation *> onAxisOps;
  /// The operations outside the body that compute values on the axis the
  /// body uses, in an order in which each follows what it uses.
  llvm::SmallVector<mlir::Operation *> outerOps;
  llvm::SmallVector<tt::ReduceOp> reductions;
  llvm::SmallVector<tt::ScanOp> scans;
  /// Whether the strips run from the end of the axis (for reverse scans).
  bool reversed = false;
  /// The operations with effects that run in the last loop.
  llvm::SmallVector<mlir::Operation *> sinks;
};

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_AXISSPLIT_H
