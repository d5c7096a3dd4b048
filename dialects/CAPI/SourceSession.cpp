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

/// The most `#loc` aliases followed to resolve one location: Triton's TTIR
/// chains a name, a call site and a file location at most.
constexpr unsigned kMaxAliasDepth = 16;

/// A file location written in the text of a module.
struct WrittenLocation {
  std::string file;
  unsigned line;
  unsigned column;
};

/// Returns the length of the location alias (`#loc12`) at the start of
/// `text`.
size_t getAliasLength(StringRef text) {
  size_t length = 1;
  while (length < text.size() &&
         (llvm::isAlnum(text[length]) || text[length] == '_' ||
          text[length] == '.' || text[length] == '$' || text[length] == '-'))
    ++length;
  return length;
}

/// Returns the text after `alias = loc(` on the line of `buffer` that
/// defines the location alias `alias`.
std::optional<StringRef> findAliasDefinition(StringRef alias,
                                             StringRef buffer) {
  std::string prefix = (alias + " = loc(").str();
  for (size_t at = buffer.find(prefix); at != StringRef::npos;
       at = buffer.find(prefix, at + 1))
    if (at == 0 || buffer[at - 1] == '\n')
      return buffer.drop_front(at + prefix.size()).take_until([](char c) {
        return c == '\n';
      });
  return std::nullopt;
}

/// Returns the first file location (`"file":line:col`) in the location text
/// `text`, following location aliases to their definitions in `buffer`:
/// names and call sites are looked through, the callee first, as the
/// compiler's own diagnostics do.
std::optional<WrittenLocation>
findFileLocation(StringRef text, StringRef buffer, unsigned depth = 0) {
  if (depth > kMaxAliasDepth)
    return std::nullopt;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"')
        end += text[end] == '\\' ? 2 : 1;
      if (end >= text.size())
        return std::nullopt;
      StringRef rest = text.drop_front(end + 1);
      unsigned line, column;
      if (rest.consume_front(":") && !rest.consumeInteger(10, line) &&
          rest.consume_front(":") && !rest.consumeInteger(10, column))
        return WrittenLocation{text.slice(i + 1, end).str(), line, column};
      i = end + 1;
      continue;
    }
    if (text[i] == '#') {
      StringRef alias = text.substr(i, getAliasLength(text.drop_front(i)));
      if (std::optional<StringRef> definition =
              findAliasDefinition(alias, buffer))
        if (std::optional<WrittenLocation> found =
                findFileLocation(*definition, buffer, depth + 1))
          return found;
      i += alias.size();
      continue;
    }
    ++i;
  }
  return std::nullopt;
}

/// Returns the location text (what follows `loc(`) of the operation written
/// from line `lineNumber` of `buffer` on: the last `loc(` of that line, or,
/// for an operation whose regions follow, of the line that closes them (the
/// first line below at the same indentation that starts with `}` and has a
/// location).
std::optional<StringRef> findOperationLocation(StringRef buffer,
                                               unsigned lineNumber) {
  SmallVector<StringRef> lines;
  buffer.split(lines, '\n');
  if (lineNumber == 0 || lineNumber > lines.size())
    return std::nullopt;
  size_t indent = lines[lineNumber - 1].find_first_not_of(' ');
  for (size_t n = lineNumber - 1; n < lines.size(); ++n) {
    StringRef line = lines[n];
    if (n != lineNumber - 1) {
      size_t lineIndent = line.find_first_not_of(' ');
      if (lineIndent < indent)
        return std::nullopt;
      if (lineIndent != indent || !line.ltrim().starts_with("}"))
        continue;
    }
    size_t at = line.rfind(" loc(");
    if (at != StringRef::npos)
      return line.drop_front(at + 5);
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
    if (verifier)
      return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
    // The parser reports where it stopped in the text. When the operation
    // there carries a location (Triton's TTIR locates every operation in
    // the kernel's Python source), the error is reported there instead,
    // with a note at the place in the text.
    StringRef text = buffer->getBuffer();
    StringRef name = buffer->getBufferIdentifier();
    bool relocating = false;
    ScopedDiagnosticHandler relocator(context, [&](Diagnostic &diag) {
      if (relocating || diag.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      auto written = dyn_cast<FileLineColLoc>(diag.getLocation());
      if (!written || written.getFilename() != name)
        return failure();
      std::optional<StringRef> locationText =
          findOperationLocation(text, written.getLine());
      if (!locationText)
        return failure();
      std::optional<WrittenLocation> source =
          findFileLocation(*locationText, text);
      if (!source)
        return failure();
      relocating = true;
      InFlightDiagnostic relocated =
          emitError(FileLineColLoc::get(context, source->file, source->line,
                                        source->column))
          << diag.str();
      relocated.attachNote(written) << "in the IR the compiler was given";
      relocated.report();
      relocating = false;
      return success();
    });
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
