//===- SourceSession.cpp - C API: parsing with located diagnostics --------===//

#include "dialects/CAPI/MTIA.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

using namespace mlir;

namespace {

/// The deepest nesting of brackets (regions, attributes, types, operand
/// lists) the parser is given. MLIR's parser, verifier, printer and passes
/// recurse once per level of nesting, so without a limit a deep enough input
/// overflows the stack of the process that compiles it; Triton's TTIR nests
/// a few dozen levels at most.
constexpr unsigned kMaxNestingDepth = 256;

/// The most elements a shaped type of the input may have. MLIR computes
/// element counts in 64 bits and asserts that they do not overflow.
constexpr uint64_t kMaxElements = uint64_t(1) << 48;

/// Something in the text that the parser is not given, and where it is.
struct SourceLimit {
  const char *position;
  std::string message;
};

/// Returns whether the static shape at the start of `text` (`8x16xf32`, the
/// inside of `tensor<...>` and its kin) has more than kMaxElements elements.
bool isShapeTooLarge(StringRef text) {
  uint64_t elements = 1;
  while (!text.empty() && llvm::isDigit(text.front())) {
    size_t digits = text.find_if_not(llvm::isDigit);
    if (digits == StringRef::npos || text[digits] != 'x')
      return false;
    uint64_t dim;
    if (text.take_front(digits).getAsInteger(10, dim) || dim > kMaxElements)
      return true;
    if (dim != 0 && elements > kMaxElements / dim)
      return true;
    elements *= dim;
    text = text.drop_front(digits + 1);
  }
  return false;
}

/// Returns the first place of `text` that exceeds the limits above, if any.
/// String literals and comments are skipped, and so is the `>` of an arrow
/// (`->`), which closes nothing.
std::optional<SourceLimit> findExceededLimit(StringRef text) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return std::nullopt;
      continue;
    }
    if (c == '-' && i + 1 < e && text[i + 1] == '>') {
      ++i;
      continue;
    }
    if (c == '<' && isShapeTooLarge(text.drop_front(i + 1)))
      return SourceLimit{text.data() + i + 1,
                         "the shape has more than 2^48 elements, more than "
                         "the compiler accepts"};
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNestingDepth)
        return SourceLimit{text.data() + i,
                           "the input nests more than " +
                               std::to_string(kMaxNestingDepth) +
                               " levels of brackets, more than the compiler "
                               "accepts"};
      continue;
    }
    if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0)
      --depth;
  }
  return std::nullopt;
}

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
    const llvm::MemoryBuffer *buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    if (std::optional<SourceLimit> exceeded =
            findExceededLimit(buffer->getBuffer())) {
      auto [line, column] =
          sourceMgr.getLineAndColumn(SMLoc::getFromPointer(exceeded->position));
      emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                    line, column))
          << exceeded->message;
      return nullptr;
    }
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
