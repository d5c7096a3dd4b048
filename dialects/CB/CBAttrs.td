//===- CBAttrs.td - Enums of the `cb` dialect --------------*- tablegen -*-===//

#ifndef MTIA_DIALECT_CB_CBATTRS_TD
#define MTIA_DIALECT_CB_CBATTRS_TD

include "mlir/IR/EnumAttr.td"

// The agent at one end of a circular buffer: a unit of the PE, the control
// core, or one of the DMA engine's two queues. The DMA engine's inbound queue
// (`dma_in`: loads and gathers) and outbound queue (`dma_out`: stores,
// scatters and atomics) run independently, so a buffer names the one it
// serves. The other cases have the values of the tile dialect's units.
def CB_Endpoint : I32EnumAttr<"Endpoint", "agent at one end of a circular buffer", [
  I32EnumAttrCase<"DPE", 0, "dpe">,
  I32EnumAttrCase<"SIMD", 1, "simd">,
  I32EnumAttrCase<"Reduce", 2, "reduce">,
  I32EnumAttrCase<"MLU", 3, "mlu">,
  I32EnumAttrCase<"DMAIn", 4, "dma_in">,
  I32EnumAttrCase<"Core", 5, "core">,
  I32EnumAttrCase<"DMAOut", 6, "dma_out">,
]> {
  let cppNamespace = "::mtia::cb";
}

#endif // MTIA_DIALECT_CB_CBATTRS_TD
