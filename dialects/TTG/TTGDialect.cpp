//===- TTGDialect.cpp - The part of Triton's `ttg` in TTIR ----------------===//

#include "dialects/TTG/TTGDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mtia::ttg;

#include "dialects/TTG/TTGDialect.cpp.inc"
#include "dialects/TTG/TTGEnums.cpp.inc"

void TTGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TTG/TTGOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BarrierOp
//===----------------------------------------------------------------------===//

/// Parses `all` or `local|global_read|...`, as Triton prints the address
/// spaces of a barrier.
ParseResult BarrierOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc start = parser.getCurrentLocation();
  uint32_t spaces = 0;
  bool none = false;
  unsigned count = 0;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<AddrSpace> space = symbolizeAddrSpace(keyword);
    if (!space)
      return parser.emitError(loc, "unknown address space '")
             << keyword
             << "' (expected none, local, global_read, global_write, "
                "tensor_read, tensor_write or all)";
    none |= *space == AddrSpace::None;
    spaces |= static_cast<uint32_t>(*space);
    ++count;
  } while (succeeded(parser.parseOptionalVerticalBar()));
  if (none && count > 1)
    return parser.emitError(start, "'none' cannot be combined with other "
                                   "address spaces");
  result.addAttribute(
      getAddrSpaceAttrName(result.name),
      AddrSpaceAttr::get(parser.getContext(), static_cast<AddrSpace>(spaces)));
  return parser.parseOptionalAttrDict(result.attributes);
}

void BarrierOp::print(OpAsmPrinter &printer) {
  // Triton prints the set of every address space as `all`.
  AddrSpace spaces = getAddrSpace();
  printer << ' '
          << (spaces == AddrSpace::All ? "all" : stringifyAddrSpace(spaces));
  printer.printOptionalAttrDict((*this)->getAttrs(), {getAddrSpaceAttrName()});
}

#define GET_OP_CLASSES
#include "dialects/TTG/TTGOps.cpp.inc"
