//===- TTGDialect.td - The part of Triton's `ttg` in TTIR ---*- tablegen -*-===//
//
// Triton's TritonGPU dialect describes GPU layouts and GPU-specific
// operations. TTIR that the Triton 3.9 frontend prints contains one of its
// operations, `ttg.barrier` (what `tl.debug_barrier()` emits); this dialect
// holds that operation and nothing else, so that such TTIR parses.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TTG_TTGDIALECT_TD
#define MTIA_DIALECT_TTG_TTGDIALECT_TD

include "mlir/IR/OpBase.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mtia::ttg";
  let summary = "the operations of Triton's TritonGPU dialect that TTIR contains";
  let description = [{
    Triton 3.9's frontend emits `ttg.barrier` for `tl.debug_barrier()`. The
    rest of Triton's TritonGPU dialect (layouts, shared memory, warp
    specialisation) belongs to its GPU pipeline and never appears in TTIR.
  }];
}

#endif // MTIA_DIALECT_TTG_TTGDIALECT_TD
