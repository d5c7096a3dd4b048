//===- TTDialect.h - Triton's `tt` dialect ----------------------*- C++ -*-===//
//
// Our definition of Triton's tensor-level IR. Include this header to use the
// dialect, its types, attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TT_TTDIALECT_H
#define MTIA_DIALECT_TT_TTDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/TT/TTDialect.h.inc"
#include "dialects/TT/TTEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TT/TTAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TT/TTTypes.h.inc"

namespace mtia::tt {

/// The memory resource that loads, stores and atomics of the `tt` dialect
/// read and write.
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<GlobalMemory>"; }
};

/// Returns the type a pointer-like type points to: the pointee of
/// `!tt.ptr<T>`, or a tensor of pointees of the same shape for a tensor of
/// pointers. Any other type is returned unchanged, so that parsing an op with
/// a non-pointer operand yields an op that fails verification with a clear
/// message instead of an op without result type.
mlir::Type getPointeeType(mlir::Type type);

/// Returns the scalar pointer type `!tt.ptr<T, as>` that a block pointer
/// `!tt.ptr<tensor<...xT>, as>` is made from; any other type is returned
/// unchanged.
mlir::Type getBlockPointerBaseType(mlir::Type type);

/// Returns i1 for a scalar type, or a tensor of i1 with the shape of `type`.
mlir::Type getI1SameShape(mlir::Type type);

} // namespace mtia::tt

#define GET_OP_CLASSES
#include "dialects/TT/TTOps.h.inc"

#endif // MTIA_DIALECT_TT_TTDIALECT_H
