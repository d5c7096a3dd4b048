//===- ScratchSpills.h - Tiles through global scratch memory ----*- C++ -*-===//
//
// The strip-miner's last resort for reshapes too large for local memory.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
#define MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H

#include "dialects/TT/TTDialect.h"

#include <cstdint>

namespace mtia {

/// Rewrites each reshape in `function` whose data (not an index computed
/// from ranges, splats and constants) exceeds `budget` bytes, outside any
/// loop, as a store of its operand to a `dma.scratch` region of
/// global memory and a load of its result from there, both in row-major
/// order (the order of elements a reshape keeps). A reshape mixes the
/// dimensions of its operand and result, so the strip-miner could run
/// neither side in strips; through memory, each side runs in strips of its
/// own axes. A reshape in a loop stays: its next iteration's store could
/// overtake this one's load on the DMA engine's other queue.
void spillReshapesThroughScratch(tt::FuncOp function, int64_t budget);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_SCRATCHSPILLS_H
