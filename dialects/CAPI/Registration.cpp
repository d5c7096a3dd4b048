//===- Registration.cpp - C API: dialects, passes and types ---------------===//

#include "dialects/CAPI/MTIA.h"
#include "dialects/CB/CBDialect.h"
#include "dialects/DMA/DMADialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/TTG/TTGDialect.h"
#include "dialects/Tile/TileDialect.h"
#include "passes/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mtia;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TT, tt, tt::TTDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TTG, ttg, ttg::TTGDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, tile::TileDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(CB, cb, cb::CBDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(DMA, dma, dma::DMADialect)

void mtiaRegisterAllDialects(MlirDialectRegistry registry) {
  unwrap(registry)
      ->insert<tt::TTDialect, ttg::TTGDialect, tile::TileDialect,
               cb::CBDialect, dma::DMADialect>();
}

void mtiaRegisterAllPasses(void) { registerMTIAPasses(); }

void mtiaContextForEachRegisteredDialect(MlirContext context,
                                         MlirStringCallback callback,
                                         void *userData) {
  for (StringRef name : unwrap(context)->getDialectRegistry().getDialectNames())
    callback(wrap(name), userData);
}

void mtiaPrintRegisteredPasses(void) {
  printRegisteredPasses();
  llvm::outs().flush();
  // A reader that went away (`mtia-opt --list-passes | head`) is not an error
  // worth aborting the process for at exit.
  llvm::outs().clear_error();
}

bool mtiaTypeIsATTPointer(MlirType type) {
  return isa<tt::PointerType>(unwrap(type));
}

MlirTypeID mtiaTTPointerTypeGetTypeID(void) {
  return wrap(tt::PointerType::getTypeID());
}

MlirType mtiaTTPointerTypeGet(MlirType pointeeType, int addressSpace) {
  return wrap(tt::PointerType::get(unwrap(pointeeType), addressSpace));
}

MlirType mtiaTTPointerTypeGetPointeeType(MlirType type) {
  return wrap(cast<tt::PointerType>(unwrap(type)).getPointeeType());
}

int mtiaTTPointerTypeGetAddressSpace(MlirType type) {
  return cast<tt::PointerType>(unwrap(type)).getAddressSpace();
}

bool mtiaTypeIsATTTensorDesc(MlirType type) {
  return isa<tt::TensorDescType>(unwrap(type));
}

MlirTypeID mtiaTTTensorDescTypeGetTypeID(void) {
  return wrap(tt::TensorDescType::getTypeID());
}

MlirType mtiaTTTensorDescTypeGet(MlirType blockType) {
  return wrap(
      tt::TensorDescType::get(cast<RankedTensorType>(unwrap(blockType))));
}

MlirType mtiaTTTensorDescTypeGetBlockType(MlirType type) {
  return wrap(cast<tt::TensorDescType>(unwrap(type)).getBlockType());
}
