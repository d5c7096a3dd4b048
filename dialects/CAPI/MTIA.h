/*===- MTIA.h - C API of the mtia-compiler dialects and driver ----*- C -*-===*\
|*                                                                            *|
|* The C boundary between the C++ side of the compiler and its Python         *|
|* bindings. Only MLIR C-API handles cross it.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MTIA_CAPI_MTIA_H
#define MTIA_CAPI_MTIA_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Registration.
//===----------------------------------------------------------------------===//

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TT, tt);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TTG, ttg);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(CB, cb);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(DMA, dma);

/// Inserts every dialect of mtia-compiler into `registry`.
MLIR_CAPI_EXPORTED void mtiaRegisterAllDialects(MlirDialectRegistry registry);

/// Adds the passes of mtia-compiler to the global pass registry.
MLIR_CAPI_EXPORTED void mtiaRegisterAllPasses(void);

/// Calls `callback` with the name of every dialect registered in `context`.
MLIR_CAPI_EXPORTED void
mtiaContextForEachRegisteredDialect(MlirContext context,
                                    MlirStringCallback callback,
                                    void *userData);

/// Prints every pass of the global registry, with its options, to stdout.
MLIR_CAPI_EXPORTED void mtiaPrintRegisteredPasses(void);

//===----------------------------------------------------------------------===//
// `tt` types.
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool mtiaTypeIsATTPointer(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mtiaTTPointerTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType mtiaTTPointerTypeGet(MlirType pointeeType,
                                                 int addressSpace);
MLIR_CAPI_EXPORTED MlirType mtiaTTPointerTypeGetPointeeType(MlirType type);
MLIR_CAPI_EXPORTED int mtiaTTPointerTypeGetAddressSpace(MlirType type);

MLIR_CAPI_EXPORTED bool mtiaTypeIsATTTensorDesc(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mtiaTTTensorDescTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType mtiaTTTensorDescTypeGet(MlirType blockType);
MLIR_CAPI_EXPORTED MlirType mtiaTTTensorDescTypeGetBlockType(MlirType type);

//===----------------------------------------------------------------------===//
// Source sessions: parsing with located diagnostics.
//===----------------------------------------------------------------------===//

/// A source buffer and the diagnostic handler that renders the diagnostics
/// of its context as `file:line:col: error: ...` with the source line, like
/// `mlir-opt`. In verify mode the handler instead checks the diagnostics
/// against the `expected-error {{...}}` annotations of the buffer.
typedef struct MtiaSourceSession {
  void *ptr;
} MtiaSourceSession;

/// Creates a session over a copy of `buffer`, named `bufferName` in
/// locations. The session's handler is active in `context` until destroyed.
MLIR_CAPI_EXPORTED MtiaSourceSession mtiaSourceSessionCreate(
    MlirContext context, MlirStringRef buffer, MlirStringRef bufferName,
    bool verifyDiagnostics);

/// Parses and verifies the buffer as a module; returns a null module on
/// failure (the diagnostics are in the session's output).
MLIR_CAPI_EXPORTED MlirModule mtiaSourceSessionParse(MtiaSourceSession session);

/// In verify mode, checks that every expected diagnostic was produced and
/// reports the missing ones; always succeeds otherwise.
MLIR_CAPI_EXPORTED MlirLogicalResult
mtiaSourceSessionVerify(MtiaSourceSession session);

/// Passes the diagnostics rendered so far to `callback` and clears them.
MLIR_CAPI_EXPORTED void mtiaSourceSessionTakeOutput(MtiaSourceSession session,
                                                    MlirStringCallback callback,
                                                    void *userData);

MLIR_CAPI_EXPORTED void mtiaSourceSessionDestroy(MtiaSourceSession session);

#ifdef __cplusplus
}
#endif

#endif // MTIA_CAPI_MTIA_H
