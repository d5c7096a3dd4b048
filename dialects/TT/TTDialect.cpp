//===- TTDialect.cpp - Triton's `tt` dialect ------------------------------===//

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mtia::tt;

#include "dialects/TT/TTDialect.cpp.inc"
#include "dialects/TT/TTEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TT/TTAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TT/TTTypes.cpp.inc"

namespace {

/// Lets the inliner inline `tt.call`s of `tt.func`s: every `tt` operation may
/// be inlined, and `tt.return` becomes a replacement of the call's results.
struct TTInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }

  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto returnOp = dyn_cast<ReturnOp>(op);
    if (!returnOp)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest,
                         returnOp.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [value, replacement] :
         llvm::zip_equal(valuesToReplace, returnOp.getOperands()))
      value.replaceAllUsesWith(replacement);
  }
};

} // namespace

void TTDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TT/TTOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TT/TTTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TT/TTAttrs.cpp.inc"
      >();
  addInterfaces<TTInlinerInterface>();
}

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

/// The address space Triton uses for global memory; it is not printed.
static constexpr int kGlobalAddressSpace = 1;
/// The address space of `tl.const` pointer parameters (read-only memory),
/// which Triton prints by name.
static constexpr int kConstantAddressSpace = 4;
static constexpr llvm::StringLiteral kConstantAddressSpaceName = "constant";

Type PointerType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type pointeeType;
  int addressSpace = kGlobalAddressSpace;
  if (parser.parseLess() || parser.parseType(pointeeType))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    std::string name;
    SMLoc nameLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalString(&name))) {
      if (name != kConstantAddressSpaceName) {
        parser.emitError(nameLoc) << "unknown address space \"" << name
                                  << "\" (expected \"constant\" or a number)";
        return {};
      }
      addressSpace = kConstantAddressSpace;
    } else if (parser.parseInteger(addressSpace)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PointerType>(loc, parser.getContext(), pointeeType,
                                        addressSpace);
}

/// Whether a pointer may point to elements of `type`: scalars of the
/// frontend's element types, or pointers.
static bool isPointeeElement(Type type) {
  return isa<IntegerType, FloatType, PointerType>(type);
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType, int addressSpace) {
  if (isPointeeElement(pointeeType))
    return success();
  // A block pointer points to a tensor of such elements.
  auto block = dyn_cast<RankedTensorType>(pointeeType);
  if (block && isPointeeElement(block.getElementType()))
    return success();
  return emitError() << "pointers point to integers, floats, pointers or "
                        "tensors of them, got "
                     << pointeeType;
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() == kConstantAddressSpace)
    printer << ", \"" << kConstantAddressSpaceName << "\"";
  else if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// TensorDescType
//===----------------------------------------------------------------------===//

Type TensorDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  // Triton before 3.9 wrote `!tt.tensordesc<tensor<16x16xf16>>`.
  if (!elementType.isIntOrFloat()) {
    parser.emitError(loc) << "tensor descriptor elements must be integers or "
                             "floats, got "
                          << elementType;
    return {};
  }
  return parser.getChecked<TensorDescType>(
      loc, parser.getContext(), RankedTensorType::get(shape, elementType));
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getBlockType().getShape())
    printer << dim << "x";
  printer << getBlockType().getElementType() << ">";
}

RankedTensorType TensorDescType::getSignlessBlockType() const {
  RankedTensorType block = getBlockType();
  auto integer = dyn_cast<IntegerType>(block.getElementType());
  if (!integer || integer.isSignless())
    return block;
  return block.clone(
      IntegerType::get(getContext(), integer.getWidth(), IntegerType::Signless));
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (blockType.getRank() == 0)
    return emitError() << "tensor descriptor block must have rank >= 1";
  for (int64_t dim : blockType.getShape())
    if (dim <= 0)
      return emitError() << "tensor descriptor block dimensions must be "
                            "positive, got "
                         << blockType;
  if (!blockType.getElementType().isIntOrFloat())
    return emitError() << "tensor descriptor elements must be integers or "
                          "floats, got "
                       << blockType.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mtia::tt::getPointeeType(Type type) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return tensorType.clone(getPointeeType(tensorType.getElementType()));
  if (auto pointerType = dyn_cast<PointerType>(type))
    return pointerType.getPointeeType();
  return type;
}

Type mtia::tt::getBlockPointerBaseType(Type type) {
  auto pointerType = dyn_cast<PointerType>(type);
  if (!pointerType)
    return type;
  auto block = dyn_cast<RankedTensorType>(pointerType.getPointeeType());
  if (!block)
    return type;
  return PointerType::get(block.getElementType(),
                          pointerType.getAddressSpace());
}

Type mtia::tt::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return tensorType.clone(i1);
  return i1;
}
