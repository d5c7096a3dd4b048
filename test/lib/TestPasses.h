//===- TestPasses.h - Test passes of mtia-compiler --------------*- C++ -*-===//
//
// The registration of the test passes, as a C function, so that the Python
// extension can call it as it calls the C API of dialects/CAPI/MTIA.h.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_TEST_LIB_TESTPASSES_H
#define MTIA_TEST_LIB_TESTPASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds the test passes of mtia-compiler to the global pass registry.
MLIR_CAPI_EXPORTED void mtiaRegisterTestPasses(void);

#ifdef __cplusplus
}
#endif

#endif // MTIA_TEST_LIB_TESTPASSES_H
