//===- DMADialect.h - The `dma` dialect -------------------------*- C++ -*-===//
//
// Asynchronous DMA between global memory and circular-buffer pages. Include
// this header to use the dialect, its token type, enums and operations.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_DMA_DMADIALECT_H
#define MTIA_DIALECT_DMA_DMADIALECT_H

#include "dialects/CB/CBDialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/DMA/DMADialect.h.inc"
#include "dialects/DMA/DMAEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/DMA/DMATypes.h.inc"

namespace mtia::dma {

/// The alignment in bytes that every DMA access to global memory must have
/// on MTIA-2i. Verifiers reject statically known offsets and strides that
/// break it.
inline constexpr int64_t kAccessAlignmentBytes = 32;

} // namespace mtia::dma

#define GET_OP_CLASSES
#include "dialects/DMA/DMAOps.h.inc"

#endif // MTIA_DIALECT_DMA_DMADIALECT_H
