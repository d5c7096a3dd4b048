//===- TTGDialect.h - The part of Triton's `ttg` in TTIR --------*- C++ -*-===//
//
// The operations of Triton's TritonGPU dialect that TTIR from Triton 3.9
// contains: `ttg.barrier`.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TTG_TTGDIALECT_H
#define MTIA_DIALECT_TTG_TTGDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "dialects/TTG/TTGDialect.h.inc"
#include "dialects/TTG/TTGEnums.h.inc"

#define GET_OP_CLASSES
#include "dialects/TTG/TTGOps.h.inc"

#endif // MTIA_DIALECT_TTG_TTGDIALECT_H
