//===- MachineTypes.cpp - Python types of the tile, cb and dma dialects ---===//
//
// Part of the `mtia_compiler._mtia` extension: Python classes of the types in
// dialects/CAPI/Machine.h, as subclasses of `mlir.ir.Type`, and the unit that
// executes a tile, cb or dma operation.
//
//===----------------------------------------------------------------------===//

#include "python/mtia_compiler/native/MachineTypes.h"

#include "dialects/CAPI/Machine.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <optional>
#include <vector>

namespace nb = nanobind;
using namespace mlir::python::nanobind_adaptors;

namespace {

/// Returns `type`, or raises ValueError naming `what` if it is null because
/// its parameters were invalid (the diagnostic went to the context).
MlirType checked(MlirType type, const char *what) {
  if (mlirTypeIsNull(type))
    throw nb::value_error(what);
  return type;
}

} // namespace

void mtia::python::populateMachineTypes(nb::module_ &m) {
  m.def(
      "op_endpoint",
      [](MlirOperation op) -> std::optional<int32_t> {
        int32_t endpoint = mtiaOpGetEndpoint(op);
        if (endpoint < 0)
          return std::nullopt;
        return endpoint;
      },
      nb::arg("op"),
      "The cb.Endpoint value of the agent that executes `op` (a unit, the "
      "control core, or a transfer's DMA queue), or None if `op` executes on "
      "no unit.");
  m.def(
      "tile_value_holder",
      [](MlirValue value) { return mtiaTileValueGetHolder(value); },
      nb::arg("value"),
      "The cb.Endpoint value of the agent that holds `value`, a tile (the "
      "UnitAssignment analysis of the data-movement stage).");

  mlir_type_subclass(m, "TileType", mtiaTypeIsATile, mtiaTileTypeGetTypeID)
      .def_classmethod(
          "get",
          [](const nb::object &cls, const std::vector<int64_t> &shape,
             MlirType elementType, const std::vector<int64_t> &order,
             MlirLocation loc) {
            return cls(checked(
                mtiaTileTypeGetChecked(loc, shape.size(), shape.data(),
                                       elementType, order.size(), order.data()),
                "invalid tile type"));
          },
          nb::arg("cls"), nb::arg("shape"), nb::arg("element_type"),
          nb::arg("order") = std::vector<int64_t>{},
          nb::arg("loc").none() = nb::none(),
          "Create !tile.tile<shape x element_type> with an optional dimension "
          "order (fastest varying first; empty for row-major).")
      .def_property_readonly(
          "shape",
          [](MlirType type) {
            std::vector<int64_t> shape(mlirShapedTypeGetRank(type));
            for (size_t dim = 0; dim < shape.size(); ++dim)
              shape[dim] = mlirShapedTypeGetDimSize(type, dim);
            return shape;
          })
      .def_property_readonly("element_type", mlirShapedTypeGetElementType)
      .def_property_readonly(
          "order",
          [](MlirType type) {
            std::vector<int64_t> order(mlirShapedTypeGetRank(type));
            mtiaTileTypeGetDimensionOrder(type, order.data());
            return order;
          },
          "Dimensions from fastest to slowest varying.")
      .def_property_readonly("is_row_major", mtiaTileTypeIsRowMajor)
      .def_property_readonly("size_in_bytes", mtiaTileTypeGetSizeInBytes);

  mlir_type_subclass(m, "CircularBufferType", mtiaTypeIsACircularBuffer,
                     mtiaCircularBufferTypeGetTypeID)
      .def_classmethod(
          "get",
          [](const nb::object &cls, MlirType pageType, int64_t numPages,
             MlirLocation loc) {
            if (!mtiaTypeIsATile(pageType))
              throw nb::value_error("the page type must be a tile type");
            return cls(checked(
                mtiaCircularBufferTypeGetChecked(loc, pageType, numPages),
                "invalid circular buffer type"));
          },
          nb::arg("cls"), nb::arg("page_type"), nb::arg("num_pages"),
          nb::arg("loc").none() = nb::none(),
          "Create !cb.cb<page_type, pages = num_pages>.")
      .def_property_readonly("page_type", mtiaCircularBufferTypeGetPageType)
      .def_property_readonly("num_pages", mtiaCircularBufferTypeGetNumPages)
      .def_property_readonly("size_in_bytes",
                             mtiaCircularBufferTypeGetSizeInBytes);

  mlir_type_subclass(m, "TokenType", mtiaTypeIsADMAToken,
                     mtiaDMATokenTypeGetTypeID)
      .def_classmethod(
          "get",
          [](const nb::object &cls, MlirContext context) {
            return cls(mtiaDMATokenTypeGet(context));
          },
          nb::arg("cls"), nb::arg("context").none() = nb::none(),
          "Create !dma.token.");
}
