//===- TileInterfaces.td - Interfaces of the `tile` dialect -*- tablegen -*-===//

#ifndef MTIA_DIALECT_TILE_TILEINTERFACES_TD
#define MTIA_DIALECT_TILE_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_UnitOpInterface : OpInterface<"UnitOpInterface"> {
  let cppNamespace = "::mtia::tile";
  let description = [{
    An operation executed by one unit of the PE. The unit decides which
    circular buffers the operation may read and write (each buffer has one
    producer and one consumer unit) and which throughput the simulator
    charges.
  }];
  let methods = [
    StaticInterfaceMethod<"Returns the unit that executes the operation.",
                          "::mtia::tile::Unit", "getUnit">,
  ];
}

#endif // MTIA_DIALECT_TILE_TILEINTERFACES_TD
