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

def TestPointerAnalysis : Pass<"mtia-test-pointer-analysis", "::mlir::ModuleOp"> {
  let summary = "Report the structure of every load, store and atomic as a remark";
  let description = [{
    Runs the pointer and mask analysis that the data-movement stage uses to
    turn `tt.load`/`tt.store` into strided DMA, and attaches a remark to each
    memory operation: its base pointer, element offset and per-dimension
    strides, and the per-dimension bounds and conditions of its mask, or why
    it is unstructured.
  }];
}

#endif // MTIA_PASSES_PASSES_TD
