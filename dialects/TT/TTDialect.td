//===- TTDialect.td - Triton's `tt` dialect ----------------*- tablegen -*-===//
//
// Our own definition of Triton's tensor-level IR, written to parse Triton 3.9
// TTIR exactly as the Triton frontend prints it.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TT_TTDIALECT_TD
#define MTIA_DIALECT_TT_TTDIALECT_TD

include "mlir/IR/OpBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mtia::tt";
  let summary = "Triton's tensor-level IR (TTIR), as emitted by Triton 3.9";
  let description = [{
    A Triton program operates on blocks: ranked tensors of scalars or of
    pointers into global memory. This dialect carries the operations of the
    Triton frontend (pointer arithmetic, masked loads and stores, shape
    manipulation, dot products, reductions and scans with combine regions,
    atomics, tensor descriptors, debug operations and functions). Scalar and
    elementwise arithmetic comes from the upstream `arith` and `math` dialects,
    control flow from `scf` and `cf`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

#endif // MTIA_DIALECT_TT_TTDIALECT_TD
