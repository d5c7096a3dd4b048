//===- CBDialect.cpp - The `cb` dialect -----------------------------------===//

#include "dialects/CB/CBDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mtia::cb;

#include "dialects/CB/CBDialect.cpp.inc"
#include "dialects/CB/CBEnums.cpp.inc"
#include "dialects/CB/CBInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/CB/CBTypes.cpp.inc"

mtia::tile::Unit mtia::cb::getUnit(Endpoint endpoint) {
  if (endpoint == Endpoint::DMAIn || endpoint == Endpoint::DMAOut)
    return tile::Unit::DMA;
  return static_cast<tile::Unit>(static_cast<uint32_t>(endpoint));
}

Endpoint mtia::cb::getEndpoint(tile::Unit unit) {
  assert(unit != tile::Unit::DMA && "the DMA engine's queue is not known");
  return static_cast<Endpoint>(static_cast<uint32_t>(unit));
}

std::optional<Endpoint> mtia::cb::getEndpointOf(Operation *op) {
  auto unitOp = dyn_cast<tile::UnitOpInterface>(op);
  if (!unitOp)
    return std::nullopt;
  if (unitOp.getUnit() != tile::Unit::DMA)
    return getEndpoint(unitOp.getUnit());
  // A DMA transfer names its queue as an endpoint of the buffer it accesses.
  if (auto endpoint = dyn_cast<EndpointOpInterface>(op))
    return endpoint.getEndpoint();
  return std::nullopt;
}

bool mtia::cb::fillsBuffer(Operation *op, Value buffer) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (auto reserve = dyn_cast<ReserveBackOp>(nested))
      return reserve.getCb() == buffer ? WalkResult::interrupt()
                                       : WalkResult::advance();
    if (auto push = dyn_cast<PushBackOp>(nested))
      return push.getCb() == buffer ? WalkResult::interrupt()
                                    : WalkResult::advance();
    auto endpoint = dyn_cast<EndpointOpInterface>(nested);
    if (endpoint && endpoint.fillsBack() &&
        endpoint.getCircularBuffer() == buffer)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool mtia::cb::usesBufferBetween(Value buffer, Operation *first,
                                 Operation *last) {
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    WalkResult result = op->walk([&](Operation *nested) {
      return llvm::is_contained(nested->getOperands(), buffer)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
  }
  return false;
}

void CBDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/CB/CBOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/CB/CBTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// CircularBufferType
//===----------------------------------------------------------------------===//

Type CircularBufferType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  bool parsedTrailingComma;
  mtia::tile::TileType pageType =
      mtia::tile::TileType::parseBody(parser, parsedTrailingComma);
  if (!pageType)
    return {};
  int64_t numPages;
  if ((!parsedTrailingComma && parser.parseComma()) ||
      parser.parseKeyword("pages") || parser.parseEqual() ||
      parser.parseInteger(numPages) || parser.parseGreater())
    return {};
  return parser.getChecked<CircularBufferType>(loc, parser.getContext(),
                                               pageType, numPages);
}

void CircularBufferType::print(AsmPrinter &printer) const {
  printer << "<";
  getPageType().printBody(printer);
  printer << ", pages = " << getNumPages() << ">";
}

LogicalResult
CircularBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                           mtia::tile::TileType pageType, int64_t numPages) {
  if (numPages < 1)
    return emitError() << "a circular buffer needs at least one page, got "
                       << numPages;
  return success();
}
