//===- CBDialect.td - The `cb` dialect ---------------------*- tablegen -*-===//
//
// Circular buffers: the bounded FIFOs of pages in a PE's local memory through
// which the PE's units and its DMA engine hand tiles to each other.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_CB_CBDIALECT_TD
#define MTIA_DIALECT_CB_CBDIALECT_TD

include "mlir/IR/OpBase.td"

def CB_Dialect : Dialect {
  let name = "cb";
  let cppNamespace = "::mtia::cb";
  let summary = "circular buffers of tile pages in a PE's local memory";
  let description = [{
    A circular buffer (CB) is a FIFO of equally typed pages in local memory
    with one producer unit, which reserves, fills and pushes pages at the
    back, and one consumer unit, which waits for, reads and pops pages at the
    front. The PE's command processor keeps the read and write pointers and
    blocks each side until its request can be met, which is how the units
    synchronise.
  }];
  let dependentDialects = ["::mtia::tile::TileDialect"];
  let useDefaultTypePrinterParser = 1;
}

#endif // MTIA_DIALECT_CB_CBDIALECT_TD
