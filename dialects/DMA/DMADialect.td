//===- DMADialect.td - The `dma` dialect -------------------*- tablegen -*-===//
//
// The PE's fabric interface: asynchronous transfers between global memory
// (SRAM or DRAM) and the pages of circular buffers in local memory.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_DMA_DMADIALECT_TD
#define MTIA_DIALECT_DMA_DMADIALECT_TD

include "mlir/IR/OpBase.td"

def DMA_Dialect : Dialect {
  let name = "dma";
  let cppNamespace = "::mtia::dma";
  let summary = "asynchronous DMA between global memory and circular buffers";
  let description = [{
    Every transfer is issued by the control code and returns a completion
    token at once; `dma.wait` blocks until the tokens' transfers are done.
    The local end of a transfer is a page of a circular buffer whose producer
    (for reads from global memory) or consumer (for writes) is the DMA
    engine. Global memory is addressed by a `!tt.ptr` base and element
    offsets: strided N-d windows with bounds and an optional mask, indexed
    gathers and scatters for unstructured access, and atomic
    read-modify-write operations.
  }];
  let dependentDialects = [
    "::mtia::tt::TTDialect",
    "::mtia::tile::TileDialect",
    "::mtia::cb::CBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
}

#endif // MTIA_DIALECT_DMA_DMADIALECT_TD
