//===- DMAAttrs.td - Enums of the `dma` dialect ------------*- tablegen -*-===//

#ifndef MTIA_DIALECT_DMA_DMAATTRS_TD
#define MTIA_DIALECT_DMA_DMAATTRS_TD

include "dialects/DMA/DMADialect.td"
include "mlir/IR/EnumAttr.td"

class DMA_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mtia::dma";
}

def DMA_AtomicKind : DMA_I32Enum<"AtomicKind", "read-modify-write operation on global memory", [
  I32EnumAttrCase<"Add", 0, "add">,
  I32EnumAttrCase<"FAdd", 1, "fadd">,
  I32EnumAttrCase<"And", 2, "and">,
  I32EnumAttrCase<"Or", 3, "or">,
  I32EnumAttrCase<"XOr", 4, "xor">,
  I32EnumAttrCase<"Max", 5, "max">,
  I32EnumAttrCase<"Min", 6, "min">,
  I32EnumAttrCase<"UMax", 7, "umax">,
  I32EnumAttrCase<"UMin", 8, "umin">,
  I32EnumAttrCase<"Exchange", 9, "exch">,
]>;

def DMA_MemoryOrder : DMA_I32Enum<"MemoryOrder", "ordering of an atomic against other accesses", [
  I32EnumAttrCase<"Relaxed", 0, "relaxed">,
  I32EnumAttrCase<"Acquire", 1, "acquire">,
  I32EnumAttrCase<"Release", 2, "release">,
  I32EnumAttrCase<"AcquireRelease", 3, "acq_rel">,
]>;

def DMA_MemoryScope : DMA_I32Enum<"MemoryScope", "agents an atomic is ordered with", [
  I32EnumAttrCase<"PE", 0, "pe">,
  I32EnumAttrCase<"Chip", 1, "chip">,
  I32EnumAttrCase<"System", 2, "system">,
]>;

#endif // MTIA_DIALECT_DMA_DMAATTRS_TD
