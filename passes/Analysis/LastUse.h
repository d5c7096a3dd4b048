//===- LastUse.h - Where a tile stops being used ----------------*- C++ -*-===//
//
// The operations that read a tile, and the last operation of a block that
// reads it, which decides where the page a tile is read from can be freed.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_LASTUSE_H
#define MTIA_PASSES_ANALYSIS_LASTUSE_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mtia {

/// The operations that read `tileValue`'s storage: its users and, for each
/// `tile.splat_element` or `tile.broadcast` among them, that operation's
/// users. The SIMD engine may read a rank-0 tile, or the source of a
/// broadcast, where the tiles the splat or broadcast spreads it into are
/// read (the program stage folds the two into their operands), so those
/// reads use it too, wherever they are.
llvm::SmallVector<mlir::Operation *> getTileReaders(mlir::Value tileValue);

/// Where a tile read in `block` stops being used: the last operation of
/// `block` that is or contains one of its readers (`getTileReaders`), or
/// null when none is.
mlir::Operation *findLastUse(mlir::Value tileValue, mlir::Block *block);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_LASTUSE_H
