//===- Descriptors.cpp - Tensor descriptors -------------------------------===//
//
// `tt.descriptor_load`/`tt.descriptor_store` become strided transfers of
// the descriptor's block, bounded by the tensor's shape.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mtia;

/// The block of a descriptor at `indices`: element offset
/// sum_d indices[d] * strides[d], the descriptor's strides, and bounds
/// that drop what lies past the tensor's shape (read as zero).
/// The access of a descriptor's block at `indices`, moving a tile of
/// `shape`: the block's shape, or that shape without leading dimensions of
/// size 1 (Triton drops them from the loaded tensor), which then only place
/// the tile.
FailureOr<StructuredAccess> AccessLowering::analyzeDescriptorAccess(
    Operation *op, Value desc, ValueRange indices, ArrayRef<int64_t> shape,
    OpBuilder &builder) {
  FailureOr<Descriptor> descriptor = getDescriptor(function, desc, op);
  if (failed(descriptor))
    return failure();
  Location loc = op->getLoc();
  RankedTensorType block =
      cast<tt::TensorDescType>(desc.getType()).getBlockType();
  int64_t dropped = block.getRank() - static_cast<int64_t>(shape.size());
  ArrayRef<int64_t> blockShape = block.getShape();
  if (dropped < 0 || blockShape.drop_front(dropped) != shape ||
      llvm::any_of(
          blockShape.take_front(dropped),
          [](int64_t size) { return size != 1; }))
    return op->emitError("the tensor of this access reshapes the "
                         "descriptor's block, which the DMA lowering does "
                         "not support"),
           failure();
  assertNonNegativeCoordinates(builder, loc, indices);
  StructuredAccess access;
  access.base = descriptor->base;
  PointerAccess pointer{descriptor->base, AffineTensor{}};
  Type index = builder.getIndexType();
  Value dropsInside;
  for (auto [dim, position] : llvm::enumerate(indices)) {
    LinearExpr stride = analysis.analyzeScalar(descriptor->strides[dim]);
    pointer.offsets.offset =
        pointer.offsets.offset + analysis.analyzeScalar(position) * stride;
    Value remaining = arith::SubIOp::create(
        builder, loc,
        arith::IndexCastOp::create(builder, loc, index, descriptor->shape[dim]),
        arith::IndexCastOp::create(builder, loc, index, position));
    if (static_cast<int64_t>(dim) < dropped) {
      // A dropped dimension only decides whether the block is inside.
      Value inside =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                remaining, indexConstant(builder, loc, 0));
      dropsInside =
          dropsInside ? arith::AndIOp::create(builder, loc, dropsInside, inside)
                      : inside;
      continue;
    }
    pointer.offsets.strides.push_back(stride);
    Value bound = arith::MinSIOp::create(
        builder, loc, remaining,
        indexConstant(builder, loc, block.getDimSize(dim)));
    access.bounds.push_back(arith::MaxSIOp::create(
        builder, loc, bound, indexConstant(builder, loc, 0)));
  }
  if (dropsInside)
    access.bounds.front() = arith::SelectOp::create(
        builder, loc, dropsInside, access.bounds.front(),
        indexConstant(builder, loc, 0));
  int64_t elementBytes = getElementBytes(block.getElementType());
  access.aligned =
      isProvablyAligned(analysis, pointer, elementBytes, alignmentBytes);
  // Rows that no run time can align (a constant stride or offset off the
  // alignment) move element by element; the others choose at run time.
  access.elementwise =
      !access.aligned && !mayBeAligned(pointer, elementBytes, alignmentBytes);
  access.versioned = !access.aligned && !access.elementwise;
  access.pointer = pointer;
  return access;
}

LogicalResult AccessLowering::lowerDescriptorLoad(tt::DescriptorLoadOp load) {
  auto resultType = cast<RankedTensorType>(load.getType());
  auto pageType =
      tile::TileType::get(resultType.getShape(), resultType.getElementType());
  routeStoresThroughTile(load.getResult(), pageType);
  SmallVector<UnrealizedConversionCastOp> casts;
  for (Operation *user : load->getUsers()) {
    auto toTile = dyn_cast<UnrealizedConversionCastOp>(user);
    if (!toTile)
      return load.emitError("the loaded block is used by '")
             << user->getName() << "', which the tile stage left on tensors";
    casts.push_back(toTile);
  }
  OpBuilder builder(load);
  FailureOr<StructuredAccess> access = analyzeDescriptorAccess(
      load, load.getDesc(), load.getIndices(), resultType.getShape(), builder);
  if (failed(access))
    return failure();
  // Out of bounds, a descriptor reads zero.
  Value zero = arith::ConstantOp::create(
      builder, load.getLoc(), builder.getZeroAttr(resultType.getElementType()));
  emitRead(load, *access, zero, pageType, casts, builder);
  load.erase();
  return success();
}

LogicalResult
AccessLowering::lowerDescriptorStore(tt::DescriptorStoreOp store) {
  auto toTensor = store.getSrc().getDefiningOp<UnrealizedConversionCastOp>();
  if (!toTensor)
    return store.emitError("the stored block was not computed as a tile");
  OpBuilder builder(store);
  FailureOr<StructuredAccess> access = analyzeDescriptorAccess(
      store, store.getDesc(), store.getIndices(),
      cast<RankedTensorType>(store.getSrc().getType()).getShape(), builder);
  if (failed(access))
    return failure();
  emitWrite(store, *access, toTensor.getInputs().front(), builder);
  store.erase();
  if (toTensor->use_empty())
    toTensor.erase();
  return success();
}

/// Descriptors passed by the host are pointers to their base tensor once
/// their accesses are lowered.
LogicalResult AccessLowering::retypeDescriptorArguments() {
  Block &entry = function.getBody().front();
  SmallVector<Type> inputs;
  for (BlockArgument argument : entry.getArguments()) {
    if (auto descType = dyn_cast<tt::TensorDescType>(argument.getType())) {
      for (Operation *user : argument.getUsers())
        if (!isa<dma::DMADialect>(user->getDialect()) &&
            !isa<tt::AddPtrOp, tt::PtrToIntOp>(user))
          return user->emitError("this use of a tensor descriptor is not "
                                 "supported by the DMA lowering");
      argument.setType(
          tt::PointerType::get(descType.getBlockType().getElementType()));
      // The base of the tensor is the argument now.
      for (Operation *user : llvm::make_early_inc_range(argument.getUsers()))
        if (isa<dma::DescriptorBaseOp>(user)) {
          user->getResult(0).replaceAllUsesWith(argument);
          user->erase();
        }
    }
    inputs.push_back(argument.getType());
  }
  function.setFunctionType(FunctionType::get(
      function.getContext(), inputs, function.getFunctionType().getResults()));
  return success();
}
