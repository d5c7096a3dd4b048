//===- TensorDescriptors.cpp - What a tensor descriptor describes ---------===//

#include "passes/Analysis/TensorDescriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mtia;

FailureOr<Descriptor> mtia::getDescriptor(tt::FuncOp function, Value desc,
                                          Operation *op) {
  int64_t rank =
      cast<tt::TensorDescType>(desc.getType()).getBlockType().getRank();
  if (auto make = desc.getDefiningOp<tt::MakeTensorDescOp>())
    return Descriptor{make.getBase(), llvm::to_vector(make.getShape()),
                      llvm::to_vector(make.getStrides())};
  auto argument = dyn_cast<BlockArgument>(desc);
  if (!argument || argument.getOwner() != &function.getBody().front() ||
      argument.getArgNumber() + 2 * rank >= function.getNumArguments()) {
    if (op)
      op->emitError("the tensor descriptor is neither made in the kernel nor "
                    "a kernel argument followed by its shape and strides");
    return failure();
  }
  Block &entry = function.getBody().front();
  // The shape and strides are integers; anything else (a complex or float
  // argument in their place) is not a descriptor's.
  for (int64_t i = 1; i <= 2 * rank; ++i) {
    Type type = entry.getArgument(argument.getArgNumber() + i).getType();
    if (type.isSignlessInteger() && type.getIntOrFloatBitWidth() <= 64)
      continue;
    if (op)
      op->emitError("the ")
          << (i <= rank ? "shape" : "stride") << " arguments of a tensor "
          << "descriptor argument must be integers, got " << type;
    return failure();
  }
  Descriptor descriptor{argument, {}, {}};
  for (int64_t dim = 0; dim < rank; ++dim) {
    descriptor.shape.push_back(
        entry.getArgument(argument.getArgNumber() + 1 + dim));
    descriptor.strides.push_back(
        entry.getArgument(argument.getArgNumber() + 1 + rank + dim));
  }
  return descriptor;
}

void mtia::assertNonNegativeCoordinates(OpBuilder &builder, Location loc,
                                        ValueRange indices) {
  Value nonNegative;
  for (Value index : indices) {
    if (std::optional<int64_t> constant = getConstantIntValue(index);
        constant && *constant >= 0)
      continue;
    Value check = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, index,
        arith::ConstantIntOp::create(builder, loc, index.getType(), 0));
    nonNegative = nonNegative
                      ? arith::AndIOp::create(builder, loc, nonNegative, check)
                            .getResult()
                      : check;
  }
  if (!nonNegative)
    return;
  tt::AssertOp::create(builder, loc, nonNegative,
                       "a tensor descriptor's block starts at a negative "
                       "coordinate, before the tensor, which is not supported");
}
