//===- RecomputableTiles.h - Tiles the SIMD engine can compute anew -*- C++ -*-===//
//
// Index and mask tiles (coordinates from `tile.iota`, offsets and bounds from
// splats and elementwise arithmetic) cost the SIMD engine a few instructions
// to compute again. The passes that recompute them where they are used
// instead of keeping or copying them share the test below.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_RECOMPUTABLETILES_H
#define MTIA_PASSES_TRANSFORMS_RECOMPUTABLETILES_H

#include "mlir/IR/Value.h"

#include "llvm/ADT/SetVector.h"

namespace mtia {

/// Whether the SIMD engine computes `value` from iotas, splats and constants
/// only, through elementwise operations; collects those operations in
/// definition order.
bool collectRecomputable(mlir::Value value,
                         llvm::SetVector<mlir::Operation *> &ops);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_RECOMPUTABLETILES_H
