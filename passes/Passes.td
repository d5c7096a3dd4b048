//===- Passes.td - Passes of mtia-compiler -----------------*- tablegen -*-===//
//
// Every C++ pass of the compiler. Each is registered by name for `mtia-opt
// --pass-pipeline` and for the Python pipelines, and has its own lit test in
// test/lit/passes/ named after it.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_PASSES_TD
#define MTIA_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // MTIA_PASSES_PASSES_TD
