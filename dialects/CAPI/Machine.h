/*===- Machine.h - C API of the tile, cb and dma dialects ---------*- C -*-===*\
|*                                                                            *|
|* Types of the dialects that model the PE: tiles in local memory, circular   *|
|* buffers and DMA completion tokens.                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MTIA_CAPI_MACHINE_H
#define MTIA_CAPI_MACHINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// `tile` types.
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mtiaTypeIsATile(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mtiaTileTypeGetTypeID(void);

/// Returns `!tile.tile<shape x elementType>` with the dimension order `order`
/// (fastest varying first; `numOrder` = 0 for the default row-major order),
/// or a null type after reporting a diagnostic at `loc` if invalid.
MLIR_CAPI_EXPORTED MlirType mtiaTileTypeGetChecked(
    MlirLocation loc, intptr_t rank, const int64_t *shape, MlirType elementType,
    intptr_t numOrder, const int64_t *order);
/// Returns the order of the dimensions, fastest varying first; `order` must
/// hold one entry per dimension.
MLIR_CAPI_EXPORTED void mtiaTileTypeGetDimensionOrder(MlirType type,
                                                      int64_t *order);
MLIR_CAPI_EXPORTED bool mtiaTileTypeIsRowMajor(MlirType type);
MLIR_CAPI_EXPORTED int64_t mtiaTileTypeGetSizeInBytes(MlirType type);

//===----------------------------------------------------------------------===//
// `tile` operations.
//===----------------------------------------------------------------------===//

/// Returns the agent that executes `op` as an endpoint of circular buffers
/// (a `cb::Endpoint` value: a compute unit, the control core, or the DMA
/// queue a transfer is issued on), or -1 if `op` executes on no unit.
MLIR_CAPI_EXPORTED int32_t mtiaOpGetEndpoint(MlirOperation op);

/// Returns the agent (a `cb::Endpoint` value) that holds `value`, a tile, as
/// the `UnitAssignment` analysis decides: the unit that computes it, the
/// consumer of the buffer it is read from, or for values that loops and
/// conditionals carry the unit of what flows into them; -1 if that is the
/// DMA engine, whose queue only a buffer's endpoint names.
MLIR_CAPI_EXPORTED int32_t mtiaTileValueGetHolder(MlirValue value);

//===----------------------------------------------------------------------===//
// `cb` types.
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mtiaTypeIsACircularBuffer(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mtiaCircularBufferTypeGetTypeID(void);
/// Returns `!cb.cb<page, pages = numPages>`, or a null type after reporting
/// a diagnostic at `loc` if invalid.
MLIR_CAPI_EXPORTED MlirType mtiaCircularBufferTypeGetChecked(MlirLocation loc,
                                                             MlirType pageType,
                                                             int64_t numPages);
MLIR_CAPI_EXPORTED MlirType mtiaCircularBufferTypeGetPageType(MlirType type);
MLIR_CAPI_EXPORTED int64_t mtiaCircularBufferTypeGetNumPages(MlirType type);
MLIR_CAPI_EXPORTED int64_t mtiaCircularBufferTypeGetSizeInBytes(MlirType type);

//===----------------------------------------------------------------------===//
// `dma` types.
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mtiaTypeIsADMAToken(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mtiaDMATokenTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType mtiaDMATokenTypeGet(MlirContext context);

#ifdef __cplusplus
}
#endif

#endif // MTIA_CAPI_MACHINE_H
