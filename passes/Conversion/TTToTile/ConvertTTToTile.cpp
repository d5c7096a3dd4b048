//===- ConvertTTToTile.cpp - The tile stage: tensors become tiles ---------===//
//
// Converts the compute of a Triton program from tensors to tiles held in a
// PE's local memory, and assigns each operation to the unit that executes it:
// elementwise arithmetic and casts to the SIMD engine (transcendental
// functions to its special-function unit), `tt.dot` to the dot-product
// engine, `tt.reduce`/`tt.scan` to the reduction engine, and shape operations
// to the memory-layout unit. The patterns of each op family live in their own
// file next to this one (TileConversion.h).
//
// Memory accesses are not converted here: `tt.load`, `tt.store` and the
// atomics keep their tensor operands, connected to the tiles by
// `builtin.unrealized_conversion_cast`, and the tensor operations that only
// compute their pointers and masks stay untouched (AddressingIsolation.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace mtia {
#define GEN_PASS_DEF_CONVERTTTTOTILE
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

bool hasValueTensors(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isValueTensor) ||
         llvm::any_of(op->getResultTypes(), isValueTensor);
}

/// Reports every operation of `module` that the tile stage cannot convert,
/// at its location; succeeds when there is none.
LogicalResult checkSupported(ModuleOp module) {
  bool supported = true;
  auto unsupported = [&](Operation *op, const Twine &what) {
    op->emitOpError() << what;
    supported = false;
  };
  module.walk([&](Operation *op) {
    if (isa<tt::ElementwiseInlineAsmOp>(op))
      return unsupported(op, "runs inline assembly of the GPU the kernel was "
                             "written for, which the MTIA cannot execute");
    if (auto call = dyn_cast<tt::ExternElementwiseOp>(op);
        call && isLanguageCall(call)) {
      if (failed(verifyLanguageCall(call)))
        supported = false;
      return;
    }
    if (auto call = dyn_cast<tt::ExternElementwiseOp>(op);
        call && !hasLibdeviceLowering(call))
      return unsupported(op, "calls '" + call.getSymbol() + "' with " +
                                 Twine(call.getSrcs().size()) +
                                 " operands, which is not a supported "
                                 "libdevice function");
    if (auto dot = dyn_cast<tt::DotScaledOp>(op)) {
      for (tt::ScaleDotElemType format :
           {dot.getAElemType(), dot.getBElemType()})
        if (format == tt::ScaleDotElemType::E2M3 ||
            format == tt::ScaleDotElemType::E3M2)
          return unsupported(op, "operands of format '" +
                                     tt::stringifyScaleDotElemType(format) +
                                     "' (fp6) are not supported: Triton's "
                                     "frontend makes none, and their packing "
                                     "into bytes is not defined");
      for (Value scale : {dot.getAScale(), dot.getBScale()}) {
        if (!scale || getElementTypeOrSelf(scale.getType()).isInteger(8))
          continue;
        op->emitOpError() << "scales of type "
                          << getElementTypeOrSelf(scale.getType())
                          << " are not supported: only e8m0 scales (i8) are, "
                             "as in Triton's interpreter";
        supported = false;
        return;
      }
    }
    if (auto compare = dyn_cast<arith::CmpFOp>(op);
        compare && isValueTensor(compare.getType()) &&
        !tile::symbolizeCmpFPredicate(
            arith::stringifyCmpFPredicate(compare.getPredicate())))
      return unsupported(
          op, "predicate '" +
                  arith::stringifyCmpFPredicate(compare.getPredicate()) +
                  "' is not supported on tiles");
  });
  return success(supported);
}

struct ConvertTTToTilePass
    : public mtia::impl::ConvertTTToTileBase<ConvertTTToTilePass> {
  void runOnOperation() override {
    if (failed(checkSupported(getOperation())) ||
        failed(foldScalarConversions(getOperation())) ||
        failed(computePointerIntegers(getOperation())))
      return signalPassFailure();
    DenseSet<Operation *> addressing;
    getOperation().walk([&](tt::FuncOp function) {
      DenseSet<Operation *> ops = isolateAddressing(function);
      addressing.insert(ops.begin(), ops.end());
    });

    MLIRContext *context = &getContext();
    TileTypeConverter converter;
    ConversionTarget target(*context);
    target.addLegalDialect<tile::TileDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      // Memory accesses, debug ops and the addressing computations stay on
      // tensors; every other op must not touch value tensors any more.
      if (auto call = dyn_cast<tt::ExternElementwiseOp>(op))
        if (isLanguageCall(call))
          return false;
      if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
              tt::DescriptorLoadOp, tt::DescriptorStoreOp, tt::ReturnOp,
              tt::CallOp, tt::FuncOp>(op))
        return true;
      bool computesPointers =
          op->getNumResults() == 1 && isa<tt::PointerType>(getElementTypeOrSelf(
                                          op->getResult(0).getType()));
      return computesPointers || addressing.contains(op) ||
             !hasValueTensors(op);
    });
    RewritePatternSet patterns(context);
    populateTileConversionPatterns(converter, patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    if (failed(liftTileDerivedScalars(getOperation())))
      return signalPassFailure();
  }
};

} // namespace
