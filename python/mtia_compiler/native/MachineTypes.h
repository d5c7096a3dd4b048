//===- MachineTypes.h - Python types of the PE dialects ---------*- C++ -*-===//

#ifndef MTIA_PYTHON_NATIVE_MACHINETYPES_H
#define MTIA_PYTHON_NATIVE_MACHINETYPES_H

#include "mlir/Bindings/Python/Nanobind.h"

namespace mtia::python {

/// Adds TileType, CircularBufferType, TokenType, `op_endpoint` and
/// `tile_value_holder` to the module.
void populateMachineTypes(nanobind::module_ &m);

} // namespace mtia::python

#endif // MTIA_PYTHON_NATIVE_MACHINETYPES_H
