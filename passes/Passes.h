//===- Passes.h - Passes of mtia-compiler -----------------------*- C++ -*-===//

#ifndef MTIA_PASSES_PASSES_H
#define MTIA_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mtia {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mtia

#endif // MTIA_PASSES_PASSES_H
