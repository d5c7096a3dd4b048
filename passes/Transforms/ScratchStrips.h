//===- ScratchStrips.h - A kernel's work in loops through scratch -*- C++
//-*-===//
//
// The rewrite behind `runThroughScratch` (ScratchSpills.h). Its definitions
// span ScratchStrips.cpp (the plan, and the loops over elements) and
// ScratchStripAxes.cpp (the loops of reductions and scans).
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_SCRATCHSTRIPS_H
#define MTIA_PASSES_TRANSFORMS_SCRATCHSTRIPS_H

#include "passes/Analysis/AxisAnalysis.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mtia {

/// Returns `positions` (an i32 tensor) divided by `divisor` and wrapped to
/// `modulus` (0: unwrapped), by shifts and masks where they are powers of
/// two.
mlir::Value divideAndWrap(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value positions, int64_t divisor,
                          int64_t modulus);

/// Runs a kernel's work on large blocks in loops over strips, with the
/// blocks that pass from one loop to another in scratch memory (see
/// `runThroughScratch`).
class ScratchStrips {
public:
  ScratchStrips(tt::FuncOp function, int64_t budget)
      : function(function), budget(budget),
        smallElements(std::max<int64_t>(64, budget / 64)) {}

  /// Partitions the kernel into segments; fails when some operation on a
  /// large block cannot run so.
  mlir::LogicalResult plan();

  /// Rewrites the kernel as planned.
  void apply();

private:
  /// A run of a kernel's operations over blocks of one number of elements,
  /// or one reduction or scan, that a loop over strips computes.
  struct Segment {
    enum class Kind { Run, Reduction, Scan };
    llvm::SmallVector<mlir::Operation *> ops;
    /// The positions the loop runs over: a run's elements; a reduction's or a
    /// scan's rows (the positions along its other axes).
    int64_t elements = 0;
    Kind kind = Kind::Run;
    /// A reduction's or scan's elements along its axis, and those an iteration
    /// takes at once: the whole axis, or for an axis longer than a strip
    /// holds, chunks of it whose results the iterations combine in order.
    int64_t length = 1;
    int64_t chunk = 1;

    bool isRun() const { return kind == Kind::Run; }
    bool isChunked() const { return chunk != length; }
  };

  bool isLarge(mlir::Value value) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
    return type && type.getNumElements() > smallElements;
  }
  bool isIndexValue(mlir::Value value) { return isIndex(value, indices); }
  bool touchesLarge(mlir::Operation *op) {
    return llvm::any_of(op->getOperands(),
                        [&](mlir::Value value) { return isLarge(value); }) ||
           llvm::any_of(op->getResults(),
                        [&](mlir::Value value) { return isLarge(value); });
  }
  /// Returns the value that `value` reshapes (in row-major order, which a
  /// flat strip keeps), or `value` itself.
  static mlir::Value getRoot(mlir::Value value) {
    while (llvm::isa_and_nonnull<tt::ReshapeOp, tt::ExpandDimsOp>(
        value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    return value;
  }
  /// Returns the block that holds every operation on a large block (but
  /// those computing indices), if it is the kernel's or a loop's body.
  mlir::Block *findBlock();
  bool canRecompute(mlir::Value value);
  mlir::LogicalResult addOperation(mlir::Operation *op, int &current);
  /// Adds a reduction or scan of `sources` along `axis` as a segment.
  mlir::LogicalResult addAxisOperation(mlir::Operation *op,
                                       mlir::ValueRange sources, unsigned axis,
                                       Segment::Kind kind);

  mlir::Value createRegion(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value root);
  mlir::Value loadRegion(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value root, mlir::Value offsets,
                         mlir::RankedTensorType type);
  void storeRegion(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value root, mlir::Value offsets, mlir::Value strip);
  mlir::Value getStrip(mlir::OpBuilder &builder, mlir::Value value,
                       mlir::Value positions);
  mlir::Value recompute(mlir::OpBuilder &builder, mlir::Value value,
                        mlir::Value positions);
  /// Returns the strip at `positions` of the result of `broadcast`.
  mlir::Value getBroadcastStrip(mlir::OpBuilder &builder,
                                tt::BroadcastOp broadcast,
                                mlir::Value positions);
  /// Returns the strip at `positions` of the result of `gather`: its
  /// source read at the positions its indices pick.
  mlir::Value getGatherStrip(mlir::OpBuilder &builder, tt::GatherOp gather,
                             mlir::Value positions);
  /// Returns a copy of the element-by-element `op` on its operands' strips
  /// at `positions`.
  mlir::Operation *cloneAtPositions(mlir::OpBuilder &builder,
                                    mlir::Operation *op, mlir::Value positions);
  mlir::Value gatherSmall(mlir::OpBuilder &builder, mlir::Value value,
                          mlir::Value positions);
  /// The most positions a strip of `segment` holds within the budget.
  int64_t chooseStrip(const Segment &segment) const;
  /// The positions of each strip of `segment`'s loop.
  int64_t getStrip(const Segment &segment) const;
  /// Creates a loop over the strips of `strip` of `elements` positions
  /// before `builder`'s point and returns the positions of an iteration's
  /// strip, with `builder` at the start of its body.
  mlir::Value createStripLoop(mlir::OpBuilder &builder, mlir::Location loc,
                              int64_t elements, int64_t strip);
  /// A reduction's or scan's loop over strips of its rows: the positions of
  /// an iteration's rows, the row-major offsets of their first elements, and
  /// the stride of the elements along the axis.
  struct AxisLoop {
    mlir::Value positions;
    mlir::Value first;
    int64_t inner = 1;
  };
  /// Creates the regions of the results of `segment`'s reduction or scan of
  /// a block of `sourceType` along `axis`, and the loop over strips of its
  /// rows, with `builder` at the start of its body.
  AxisLoop createAxisLoop(mlir::OpBuilder &builder, const Segment &segment,
                          mlir::RankedTensorType sourceType, unsigned axis);
  /// The offsets of the [strip, chunk] tile of elements along an axis of
  /// `inner` elements' stride from `first` (the offsets of the strip's rows'
  /// first elements), `chunkStart` (none: 0) elements in.
  mlir::Value getAxisOffsets(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value first, mlir::Value chunkStart,
                             int64_t chunk, int64_t inner);
  /// Returns `sources` (of `op`, a reduction or scan) at `offsets`.
  mlir::IRMapping mapSources(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::ValueRange sources, mlir::Value offsets);
  void emitRun(const Segment &segment);
  void emitReduction(const Segment &segment);
  void emitScan(const Segment &segment);

  tt::FuncOp function;
  int64_t budget;
  /// Blocks of at most this many elements stay whole in local memory.
  int64_t smallElements;
  llvm::SmallVector<Segment> segments;
  /// The operations on large blocks, in program order, which the rewrite
  /// replaces.
  llvm::SmallVector<mlir::Operation *> replaced;
  llvm::DenseMap<mlir::Value, unsigned> segmentOf;
  /// The values that pass from one loop to another, in order, and the
  /// scratch regions that hold them.
  llvm::SetVector<mlir::Value> materialized;
  llvm::DenseMap<mlir::Value, mlir::Value> regions;
  /// The blocks each segment reads last.
  llvm::DenseMap<unsigned, llvm::SmallVector<mlir::Value>> lastRead;
  /// The type and size of each block's region, and the regions free to
  /// take again, by type and size.
  llvm::DenseMap<mlir::Value, std::pair<mlir::Type, int64_t>> regionKinds;
  llvm::DenseMap<std::pair<mlir::Type, int64_t>, llvm::SmallVector<mlir::Value>>
      freeRegions;
  llvm::DenseMap<mlir::Value, bool> indices;
  /// The current loop's strips of its segment's values, and what it
  /// computed or loaded at other positions.
  llvm::DenseMap<mlir::Value, mlir::Value> strips;
  llvm::DenseMap<std::pair<mlir::Value, mlir::Value>, mlir::Value> atPositions;
  mlir::Value loopPositions;
  /// The strip sizes of every loop over elements and over the rows of the
  /// reductions and scans that take their axis whole.
  int64_t flatStrip = std::numeric_limits<int64_t>::max();
  int64_t reductionStrip = std::numeric_limits<int64_t>::max();
  /// Small blocks, flattened before the current loop.
  llvm::DenseMap<mlir::Value, mlir::Value> flattened;
  mlir::Operation *loopPoint = nullptr;
};

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_SCRATCHSTRIPS_H
