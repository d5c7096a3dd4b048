//===- DMADialect.cpp - The `dma` dialect ---------------------------------===//

#include "dialects/DMA/DMADialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mtia::dma;

#include "dialects/DMA/DMADialect.cpp.inc"
#include "dialects/DMA/DMAEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/DMA/DMATypes.cpp.inc"

void DMADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/DMA/DMAOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/DMA/DMATypes.cpp.inc"
      >();
}
