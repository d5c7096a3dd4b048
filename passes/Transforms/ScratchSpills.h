//===- ScratchSpills.h - Tiles through global scratch memory ----*- C++ -*-===//
//
// The strip-miner's last resort for reshapes and concatenations too large
// for local memory.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
#define MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H

#include "dialects/TT/TTDialect.h"

#include <cstdint>

namespace mtia {

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

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
