//===- SourceSession.cpp - C API: parsing with located diagnostics --------===//

#include "dialects/CAPI/MTIA.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

using namespace mlir;

namespace {

/// Owns a source buffer and the handler that renders (or, in verify mode,
/// checks) the diagnostics of a context against it.
class SourceSession {
public:
  SourceSession(MLIRContext *context, StringRef buffer, StringRef bufferName,
                bool verifyDiagnostics)
      : context(context), stream(output) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(buffer, bufferName), SMLoc());
    if (verifyDiagnostics) {
      // As in mlir-opt: expected-* annotations never spell out the
      // "see current operation" notes of verifier errors.
      context->printOpOnDiagnostic(false);
      verifier = std::make_unique<SourceMgrDiagnosticVerifierHandler>(
          sourceMgr, context, stream);
    } else
      renderer = std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr,
                                                              context, stream);
  }

  OwningOpRef<ModuleOp> parse() {
    return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
  }

  LogicalResult verify() { return verifier ? verifier->verify() : success(); }

  std::string takeOutput() {
    std::string result;
    result.swap(output);
    return result;
  }

private:
  MLIRContext *context;
  llvm::SourceMgr sourceMgr;
  std::string output;
  llvm::raw_string_ostream stream;
  std::unique_ptr<SourceMgrDiagnosticHandler> renderer;
  std::unique_ptr<SourceMgrDiagnosticVerifierHandler> verifier;
};

SourceSession *unwrapSession(MtiaSourceSession session) {
  return static_cast<SourceSession *>(session.ptr);
}

} // namespace

MtiaSourceSession mtiaSourceSessionCreate(MlirContext context,
                                          MlirStringRef buffer,
                                          MlirStringRef bufferName,
                                          bool verifyDiagnostics) {
  return {new SourceSession(unwrap(context), unwrap(buffer), unwrap(bufferName),
                            verifyDiagnostics)};
}

MlirModule mtiaSourceSessionParse(MtiaSourceSession session) {
  return wrap(unwrapSession(session)->parse().release());
}

MlirLogicalResult mtiaSourceSessionVerify(MtiaSourceSession session) {
  return wrap(unwrapSession(session)->verify());
}

void mtiaSourceSessionTakeOutput(MtiaSourceSession session,
                                 MlirStringCallback callback, void *userData) {
  std::string output = unwrapSession(session)->takeOutput();
  callback(wrap(StringRef(output)), userData);
}

void mtiaSourceSessionDestroy(MtiaSourceSession session) {
  delete unwrapSession(session);
}
