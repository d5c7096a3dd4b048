//===- TileDialect.td - The `tile` dialect -----------------*- tablegen -*-===//
//
// Tiles: block-level values resident in the local memory of one processing
// element (PE), and the compute operations of the PE's fixed-function units
// that read and produce them.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TILE_TILEDIALECT_TD
#define MTIA_DIALECT_TILE_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mtia::tile";
  let summary = "tiles in a PE's local memory and the units that compute on them";
  let description = [{
    A tile is a statically shaped block of integers or floats held in the
    local memory of one PE, with a layout (the order of its dimensions from
    fastest to slowest varying). Tiles have value semantics: every compute
    operation reads tiles and produces new ones. Each operation is executed by
    one unit of the PE: the dot-product engine (DPE), the SIMD engine with its
    special-function tables, the reduction engine (RE), the memory-layout unit
    (MLU) or the control core. The data-movement stage binds tiles to the
    pages of circular buffers (`cb` dialect) filled and drained by DMA (`dma`
    dialect).
  }];
  let useDefaultTypePrinterParser = 1;
  // Folds the selects of tiles that guards of first iterations make
  // redundant (`TileDialect::getCanonicalizationPatterns`).
  let hasCanonicalizer = 1;
}

#endif // MTIA_DIALECT_TILE_TILEDIALECT_TD
