//===- MTIAModule.cpp - The `mtia_compiler._mtia` extension ---------------===//
//
// Python bindings of the C API in dialects/CAPI/MTIA.h. Only MLIR C-API
// handles cross into the `mlir` package, as capsules through the nanobind
// adaptors, so this module shares no nanobind state with `mlir._mlir_libs`.
//
//===----------------------------------------------------------------------===//

#include "dialects/CAPI/MTIA.h"
#include "python/mtia_compiler/native/MachineTypes.h"
#include "test/lib/TestPasses.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <optional>
#include <string>

namespace nb = nanobind;
using namespace mlir::python::nanobind_adaptors;

namespace {

void appendToString(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

/// Python view of an MtiaSourceSession. It must be closed (or used as a
/// context manager) before its context goes away.
class PySourceSession {
public:
  PySourceSession(MlirContext context, const nb::bytes &buffer,
                  const std::string &bufferName, bool verifyDiagnostics)
      : session(mtiaSourceSessionCreate(
            context, mlirStringRefCreate(buffer.c_str(), buffer.size()),
            mlirStringRefCreate(bufferName.data(), bufferName.size()),
            verifyDiagnostics)) {}

  ~PySourceSession() { close(); }

  std::optional<MlirModule> parse() {
    MlirModule module = mtiaSourceSessionParse(checkedSession());
    if (mlirModuleIsNull(module))
      return std::nullopt;
    return module;
  }

  bool verify() {
    return mlirLogicalResultIsSuccess(
        mtiaSourceSessionVerify(checkedSession()));
  }

  /// Diagnostics quote the source, which may hold any bytes: they are
  /// returned as bytes.
  nb::bytes takeOutput() {
    std::string output;
    mtiaSourceSessionTakeOutput(checkedSession(), appendToString, &output);
    return nb::bytes(output.data(), output.size());
  }

  void close() {
    if (!session.ptr)
      return;
    mtiaSourceSessionDestroy(session);
    session.ptr = nullptr;
  }

private:
  MtiaSourceSession checkedSession() {
    if (!session.ptr)
      throw nb::value_error("the source session is closed");
    return session;
  }

  MtiaSourceSession session;
};

} // namespace

NB_MODULE(_mtia, m) {
  m.doc() = "Native part of mtia_compiler: dialects, passes and the parser.";

  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) { mtiaRegisterAllDialects(registry); },
      nb::arg("registry"),
      "Insert the mtia-compiler dialects into a registry.");

  m.def(
      "register_passes", []() { mtiaRegisterAllPasses(); },
      "Add the C++ passes of mtia-compiler to the global pass registry.");

  m.def(
      "register_test_passes", []() { mtiaRegisterTestPasses(); },
      "Add the test passes of test/lib (mtia-opt only) to the global pass "
      "registry.");

  m.def(
      "registered_dialects",
      [](MlirContext context) {
        std::vector<std::string> names;
        mtiaContextForEachRegisteredDialect(
            context,
            [](MlirStringRef name, void *userData) {
              static_cast<std::vector<std::string> *>(userData)->emplace_back(
                  name.data, name.length);
            },
            &names);
        return names;
      },
      nb::arg("context"), "Names of the dialects registered in a context.");

  m.def(
      "print_registered_passes", []() { mtiaPrintRegisteredPasses(); },
      "Print every C++ pass of the global registry to stdout.");

  m.def(
      "verified_asm",
      [](MlirOperation operation) {
        // MLIR's `get_asm` hands every piece of text the printer writes to a
        // Python callback; here they go to a string.
        MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
        mlirOpPrintingFlagsEnableDebugInfo(flags, /*enable=*/true,
                                           /*prettyForm=*/false);
        mlirOpPrintingFlagsAssumeVerified(flags);
        std::string text;
        mlirOperationPrintWithFlags(operation, flags, appendToString, &text);
        mlirOpPrintingFlagsDestroy(flags);
        return text;
      },
      nb::arg("operation"),
      "The text of a verified operation with its locations: what "
      "`operation.get_asm(enable_debug_info=True, assume_verified=True)` "
      "returns.");

  nb::class_<PySourceSession>(m, "SourceSession",
                              "A source buffer whose diagnostics are rendered "
                              "as file:line:col, or checked against "
                              "expected-* annotations in verify mode.")
      .def(
          nb::init<MlirContext, const nb::bytes &, const std::string &, bool>(),
          nb::arg("context"), nb::arg("buffer"), nb::arg("buffer_name"),
          nb::arg("verify_diagnostics") = false)
      .def("parse", &PySourceSession::parse,
           "Parse and verify the buffer; None on failure.")
      .def("verify", &PySourceSession::verify,
           "In verify mode, whether every expected diagnostic was seen.")
      .def("take_output", &PySourceSession::takeOutput,
           "The diagnostics rendered since the last call.")
      .def("close", &PySourceSession::close)
      .def(
          "__enter__",
          [](PySourceSession &self) -> PySourceSession & { return self; },
          nb::rv_policy::reference)
      .def("__exit__", [](PySourceSession &self, nb::args) { self.close(); });

  mlir_type_subclass(m, "PointerType", mtiaTypeIsATTPointer,
                     mtiaTTPointerTypeGetTypeID)
      .def_classmethod(
          "get",
          [](const nb::object &cls, MlirType pointeeType, int addressSpace) {
            return cls(mtiaTTPointerTypeGet(pointeeType, addressSpace));
          },
          nb::arg("cls"), nb::arg("pointee_type"), nb::arg("address_space") = 1,
          "Create !tt.ptr<pointee_type, address_space>.")
      .def_property_readonly("pointee_type", mtiaTTPointerTypeGetPointeeType)
      .def_property_readonly("address_space", mtiaTTPointerTypeGetAddressSpace);

  mlir_type_subclass(m, "TensorDescType", mtiaTypeIsATTTensorDesc,
                     mtiaTTTensorDescTypeGetTypeID)
      .def_classmethod(
          "get",
          [](const nb::object &cls, MlirType blockType) {
            if (!mlirTypeIsARankedTensor(blockType))
              throw nb::value_error("the block type must be a ranked tensor");
            return cls(mtiaTTTensorDescTypeGet(blockType));
          },
          nb::arg("cls"), nb::arg("block_type"),
          "Create !tt.tensordesc<block_type> from a ranked tensor type.")
      .def_property_readonly("block_type", mtiaTTTensorDescTypeGetBlockType);

  mtia::python::populateMachineTypes(m);
}
