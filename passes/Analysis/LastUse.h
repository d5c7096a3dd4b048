//===- LastUse.h - Where a tile stops being used ----------------*- C++ -*-===//
//
// The last operation of a block that reads a tile, which decides where the
// page a tile is read from can be freed.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_LASTUSE_H
#define MTIA_PASSES_ANALYSIS_LASTUSE_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"

namespace mtia {

/// Where a tile read in `block` stops being used: the last operation of
/// `block` that (or whose regions) uses it, or null when none does. The SIMD
/// engine may read a rank-0 tile where the tiles a `tile.splat_element`
/// spreads it into are read (the program stage folds the splat into their
/// operands), so those reads use it too.
mlir::Operation *findLastUse(mlir::Value tileValue, mlir::Block *block);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_LASTUSE_H
