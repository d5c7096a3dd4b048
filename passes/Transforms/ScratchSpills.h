//===- ScratchSpills.h - Tiles through global scratch memory ----*- C++ -*-===//
//
// The strip-miner's last resorts for blocks too large for local memory.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
#define MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"

#include <cstdint>

namespace mtia {

/// Returns `base` advanced by `offsets`, one pointer per offset.
mlir::Value createPointers(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value base, mlir::Value offsets);

/// Returns a load of a tensor of `type` through `pointers`.
mlir::Value createLoad(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::RankedTensorType type, mlir::Value pointers);

/// Returns `indices` of a `tl.gather` along an axis of `length` elements as
/// i32, after asserting that they lie along it (the launch fails otherwise,
/// as it does for a gather in local memory).
mlir::Value checkGatherIndices(mlir::OpBuilder &builder, mlir::Location loc,
                               mlir::Value indices, int64_t length);

/// Rewrites each reshape and concatenation in `function` whose data (not
/// an index computed from ranges, splats and constants) exceeds `budget`
/// bytes as stores of its operands to a `dma.scratch` region of global
/// memory, one after another in row-major order, and a load of its result
/// from there in the same order (the order of elements a reshape keeps, and
/// the one a concatenation along the first dimension makes). Such an operation
/// mixes the dimensions of its operands and result, so the strip-miner could
/// run neither side in strips; through memory, each side runs in strips of its
/// own axes. In a loop, each iteration reuses the region
/// (`mtia-order-memory-accesses` makes its stores wait for the last iteration's
/// loads).
void spillThroughScratch(tt::FuncOp function, int64_t budget);

/// Runs the work of `function` (in its body, or in the body of one loop, as
/// a persistent kernel's over rows) on blocks of more elements than
/// a strip of `budget` bytes holds whole in loops over flat strips of them:
/// one loop for each run of element-by-element operations (and broadcasts)
/// over blocks of one number of elements, in program order, and one over
/// strips of the results of each reduction. A block that one loop computes
/// and another reads passes through a `dma.scratch` region in row-major
/// order; indices are computed again in each loop that reads them. This is
/// the last resort for kernels that no split of their axes fits, such as
/// the networks of `tl.sort`, `tl.topk` and `tl.flip` on blocks reshaped
/// into many dimensions of two. A reduction or scan along an axis longer
/// than a strip holds takes it in chunks, combining each chunk's results
/// into those before it. Fails, changing nothing, when an operation on a
/// large block cannot run so (a dot, an operation with regions other than a
/// reduction or scan).
mlir::LogicalResult runThroughScratch(tt::FuncOp function, int64_t budget);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
