//===- TestPasses.cpp - Registration of the test passes -------------------===//

#include "test/lib/TestPasses.h"

#include "mlir/Pass/Pass.h"

namespace mtia {
#define GEN_PASS_DECL
#include "test/lib/TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "test/lib/TestPasses.h.inc"
} // namespace mtia

void mtiaRegisterTestPasses(void) { mtia::registerMTIATestPasses(); }
