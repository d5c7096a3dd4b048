//===- TensorDescriptors.h - What a tensor descriptor describes -*- C++ -*-===//
//
// The base, shape and strides of a `!tt.tensordesc`, which the data-movement
// stage's transfers of descriptors and the strip-miner's rewrite of large
// descriptor blocks both read.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_TENSORDESCRIPTORS_H
#define MTIA_PASSES_ANALYSIS_TENSORDESCRIPTORS_H

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mtia {

/// The base, shape and strides of a tensor descriptor: the operands of
/// `tt.make_tensor_descriptor`, or for a descriptor passed by the host the
/// kernel arguments that follow it (its shape, then its strides), whose
/// base is the descriptor argument itself.
struct Descriptor {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> shape, strides;
};

/// Returns what `desc`, a descriptor used in `function`, describes. Fails,
/// with an error at `op` when `op` is given, for a descriptor that is
/// neither made in the function nor an argument of it followed by integer
/// shape and stride arguments.
mlir::FailureOr<Descriptor> getDescriptor(tt::FuncOp function, mlir::Value desc,
                                          mlir::Operation *op = nullptr);

/// Asserts at run time that a descriptor's block at `indices` starts at no
/// negative coordinate (constants that are not negative need no check).
/// The transfers bound a block from above only, as the tensor's shape does:
/// a block starting before the tensor would read or write what lies before
/// it instead of zeros.
void assertNonNegativeCoordinates(mlir::OpBuilder &builder, mlir::Location loc,
                                  mlir::ValueRange indices);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_TENSORDESCRIPTORS_H
