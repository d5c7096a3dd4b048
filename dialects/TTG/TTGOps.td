//===- TTGOps.td - Operations of the `ttg` dialect ----------*- tablegen -*-===//
//
// The assembly format follows what Triton 3.9 prints.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TTG_TTGOPS_TD
#define MTIA_DIALECT_TTG_TTGOPS_TD

include "dialects/TTG/TTGDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

// The memory a barrier orders, as a set (Triton's values).
def TTG_AddrSpace : I32BitEnumAttr<"AddrSpace",
    "the address spaces whose accesses a barrier completes", [
  I32BitEnumAttrCase<"None", 0b00000, "none">,
  I32BitEnumAttrCase<"Local", 0b00001, "local">,
  I32BitEnumAttrCase<"GlobalRead", 0b00010, "global_read">,
  I32BitEnumAttrCase<"GlobalWrite", 0b00100, "global_write">,
  I32BitEnumAttrCase<"TensorRead", 0b01000, "tensor_read">,
  I32BitEnumAttrCase<"TensorWrite", 0b10000, "tensor_write">,
  I32BitEnumAttrCase<"All", 0b11111, "all">
]> {
  let cppNamespace = "::mtia::ttg";
  let separator = "|";
}

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTG_Dialect, mnemonic, traits>;

def TTG_BarrierOp : TTG_Op<"barrier"> {
  let summary = "synchronise the threads of a program (tl.debug_barrier)";
  let description = [{
    On a GPU, waits until every thread of the CTA has reached the barrier
    and the accesses to the address spaces in `addrSpace` made before it
    are visible to all of them:

    ```mlir
    ttg.barrier all
    ttg.barrier local|global_read
    ```

    `none` (control only) cannot be combined with another address space.
    The operation has side effects on memory, so nothing moves across it.
  }];
  let arguments = (ins TTG_AddrSpace:$addrSpace);
  let hasCustomAssemblyFormat = 1;
}

#endif // MTIA_DIALECT_TTG_TTGOPS_TD
