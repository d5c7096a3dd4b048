//===- CBOps.cpp - Operations of the `cb` dialect -------------------------===//
//
// Verifiers of page counts, page indices and of the one-producer,
// one-consumer rule of each circular buffer.
//
//===----------------------------------------------------------------------===//

#include "dialects/CB/CBDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mtia::cb;

/// Parses the type of a page access: the buffer's type, then `view` and the
/// tile type when the tile is not the page type.
static ParseResult parsePageView(OpAsmParser &parser, Type &cbType,
                                 Type &tileType) {
  CircularBufferType bufferType;
  if (parser.parseType(bufferType))
    return failure();
  cbType = bufferType;
  tileType = bufferType.getPageType();
  if (succeeded(parser.parseOptionalKeyword("view")))
    return parser.parseType(tileType);
  return success();
}

static void printPageView(OpAsmPrinter &printer, Operation *, Type cbType,
                          Type tileType) {
  printer << cbType;
  if (tileType != cast<CircularBufferType>(cbType).getPageType())
    printer << " view " << tileType;
}

/// Checks that a tile read from or written to a page fits in it.
static LogicalResult verifyPageView(Operation *op, CircularBufferType cbType,
                                    mtia::tile::TileType tileType) {
  int64_t pageBytes = cbType.getPageType().getSizeInBytes();
  if (tileType.getSizeInBytes() <= pageBytes)
    return success();
  return op->emitOpError("tile of ")
         << tileType.getSizeInBytes() << " bytes does not fit in a page of "
         << pageBytes << " bytes";
}

#define GET_OP_CLASSES
#include "dialects/CB/CBOps.cpp.inc"

LogicalResult mtia::cb::verifyPageIndex(Operation *op,
                                        CircularBufferType cbType,
                                        int64_t page) {
  if (page < cbType.getNumPages())
    return success();
  return op->emitOpError("page ")
         << page << " is out of range for a circular buffer of "
         << cbType.getNumPages() << " pages";
}

/// Returns the agents of the operations that read `tile` (for a DMA
/// transfer its queue), ordered by the Endpoint enum and without repetitions.
static SmallVector<Endpoint> getReadingEndpoints(Value tile) {
  SmallVector<Endpoint> endpoints;
  for (Operation *user : tile.getUsers()) {
    std::optional<Endpoint> endpoint = getEndpointOf(user);
    if (endpoint && !llvm::is_contained(endpoints, *endpoint))
      endpoints.push_back(*endpoint);
  }
  llvm::sort(endpoints);
  return endpoints;
}

/// Checks that a pointer operation moves at most all pages of `cb`.
static LogicalResult verifyPageCount(Operation *op, Value cb, int64_t pages) {
  auto cbType = cast<CircularBufferType>(cb.getType());
  if (pages <= cbType.getNumPages())
    return success();
  return op->emitOpError("moves ")
         << pages << " pages of a circular buffer of " << cbType.getNumPages()
         << " pages";
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

/// Checks the pointer protocol of `alloc`'s buffer in the straight-line code
/// that follows the allocation in its block, where each side's page counts
/// are known exactly: the producer holds the pages it reserved and has not
/// pushed, the consumer those it waited for and has not popped (repeated
/// reserves and waits are cumulative, not additive), and its pushed pages
/// are those it has not reserved again. Pushing, popping or accessing more
/// pages than are held is an error. The counts become unknown at the first
/// operation whose regions use the buffer.
static LogicalResult verifyStraightLineProtocol(AllocOp alloc) {
  Value buffer = alloc.getResult();
  const int64_t pages = alloc.getType().getNumPages();
  int64_t reserved = 0;
  int64_t waited = 0;
  int64_t pushed = 0;
  Block *block = alloc->getBlock();
  for (Operation &op :
       llvm::make_range(std::next(alloc->getIterator()), block->end())) {
    if (op.getNumRegions() > 0 &&
        llvm::any_of(buffer.getUsers(), [&](Operation *user) {
          return user != &op && op.isAncestor(user);
        }))
      return success();
    if (auto reserve = dyn_cast<ReserveBackOp>(op)) {
      if (reserve.getCb() == buffer)
        reserved = std::max<int64_t>(reserved, reserve.getPages());
      continue;
    }
    if (auto wait = dyn_cast<WaitFrontOp>(op)) {
      if (wait.getCb() == buffer)
        waited = std::max<int64_t>(waited, wait.getPages());
      continue;
    }
    if (auto push = dyn_cast<PushBackOp>(op)) {
      if (push.getCb() != buffer)
        continue;
      if (static_cast<int64_t>(push.getPages()) > reserved)
        return push.emitOpError("pushes ")
               << push.getPages() << " pages of \"" << alloc.getName()
               << "\" but the producer holds " << reserved
               << " reserved pages";
      reserved -= push.getPages();
      pushed += push.getPages();
      continue;
    }
    if (auto read = dyn_cast<ReadPushedOp>(op)) {
      if (read.getCb() != buffer)
        continue;
      int64_t held = std::min(pushed, pages - reserved);
      if (static_cast<int64_t>(read.getPage()) >= held)
        return read.emitOpError("reads pushed page ")
               << read.getPage() << " of \"" << alloc.getName()
               << "\" but the producer holds " << held
               << " pushed pages it has not reserved again";
      continue;
    }
    if (auto pop = dyn_cast<PopFrontOp>(op)) {
      if (pop.getCb() != buffer)
        continue;
      if (static_cast<int64_t>(pop.getPages()) > waited)
        return pop.emitOpError("pops ")
               << pop.getPages() << " pages of \"" << alloc.getName()
               << "\" but the consumer holds " << waited
               << " waited-for pages";
      waited -= pop.getPages();
      continue;
    }
    auto endpoint = dyn_cast<EndpointOpInterface>(op);
    if (!endpoint || endpoint.getCircularBuffer() != buffer)
      continue;
    bool fills = endpoint.fillsBack();
    int64_t held = fills ? reserved : waited;
    if (endpoint.getPageIndex() >= held)
      return op.emitOpError("accesses page ")
             << endpoint.getPageIndex() << " of \"" << alloc.getName()
             << "\" but the " << (fills ? "producer" : "consumer")
             << " holds " << held << (fills ? " reserved" : " waited-for")
             << " pages";
  }
  return success();
}

LogicalResult AllocOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  int64_t pages = getType().getNumPages();
  if (getRunAheadPages() < 0 || getRunAheadPages() >= pages)
    return emitOpError("circular buffer \"")
           << getName() << "\" of " << pages
           << " pages needs 0 <= run_ahead_pages < pages, got "
           << getRunAheadPages();
  // The DMA engine's queues run transfers in order, so a buffer that DMA
  // both fills and drains (a copy through local memory) is allowed.
  if (getProducer() == getConsumer() && getProducerUnit() != tile::Unit::DMA)
    return emitOpError("circular buffer \"")
           << getName() << "\" needs distinct producer and consumer units, "
           << "got " << stringifyEndpoint(getProducer()) << " for both";
  for (Operation *user : getResult().getUsers()) {
    auto readPushed = dyn_cast<ReadPushedOp>(user);
    if (!readPushed || readPushed.getCb() != getResult())
      continue;
    SmallVector<Endpoint> readers = getReadingEndpoints(readPushed.getResult());
    if (readers.empty() || readers.front() == getProducer())
      continue;
    return emitOpError("circular buffer \"")
               .append(getName(), "\" has producer ",
                       stringifyEndpoint(getProducer()),
                       " but a pushed page is read by ",
                       stringifyEndpoint(readers.front()))
               .attachNote(user->getLoc())
           << "by this operation";
  }
  for (Operation *user : getResult().getUsers()) {
    auto endpoint = dyn_cast<EndpointOpInterface>(user);
    if (!endpoint || endpoint.getCircularBuffer() != getResult())
      continue;
    std::optional<Endpoint> agent = endpoint.getEndpoint();
    bool fills = endpoint.fillsBack();
    Endpoint expected = fills ? getProducer() : getConsumer();
    if (!agent || *agent == expected)
      continue;
    return emitOpError("circular buffer \"")
               .append(getName(), "\" has ", fills ? "producer " : "consumer ",
                       stringifyEndpoint(expected), " but is ",
                       fills ? "filled" : "drained", " by ",
                       stringifyEndpoint(*agent))
               .attachNote(user->getLoc())
           << "by this operation";
  }
  return verifyStraightLineProtocol(*this);
}

//===----------------------------------------------------------------------===//
// Pointer operations
//===----------------------------------------------------------------------===//

LogicalResult ReserveBackOp::verify() {
  return verifyPageCount(*this, getCb(), getPages());
}

LogicalResult PushBackOp::verify() {
  return verifyPageCount(*this, getCb(), getPages());
}

LogicalResult WaitFrontOp::verify() {
  return verifyPageCount(*this, getCb(), getPages());
}

LogicalResult PopFrontOp::verify() {
  return verifyPageCount(*this, getCb(), getPages());
}

//===----------------------------------------------------------------------===//
// Page access
//===----------------------------------------------------------------------===//

/// Checks a read of page `page` of `cb` as the tile `result`: the page
/// exists, the tile fits in it, and one unit reads it (`reader` says which
/// one may).
static LogicalResult verifyPageRead(Operation *op, Value cb, int64_t page,
                                    Value result, StringRef reader) {
  auto cbType = cast<CircularBufferType>(cb.getType());
  if (failed(verifyPageIndex(op, cbType, page)) ||
      failed(verifyPageView(op, cbType,
                            cast<mtia::tile::TileType>(result.getType()))))
    return failure();
  SmallVector<Endpoint> endpoints = getReadingEndpoints(result);
  if (endpoints.size() > 1)
    return op->emitOpError("page is read by units ")
           << stringifyEndpoint(endpoints[0]) << " and "
           << stringifyEndpoint(endpoints[1]) << ", but " << reader;
  return success();
}

LogicalResult ReadFrontOp::verify() {
  return verifyPageRead(*this, getCb(), getPage(), getResult(),
                        "a circular buffer has one consumer");
}

int64_t ReadFrontOp::getPageIndex() { return getPage(); }

TypedValue<CircularBufferType> ReadFrontOp::getCircularBuffer() {
  return getCb();
}

bool ReadFrontOp::fillsBack() { return false; }

std::optional<Endpoint> ReadFrontOp::getEndpoint() {
  SmallVector<Endpoint> endpoints = getReadingEndpoints(getResult());
  if (endpoints.empty())
    return std::nullopt;
  return endpoints.front();
}

LogicalResult ReadPushedOp::verify() {
  return verifyPageRead(*this, getCb(), getPage(), getResult(),
                        "only the buffer's producer reads a pushed page");
}

LogicalResult WriteBackOp::verify() {
  if (failed(verifyPageIndex(*this, getCb().getType(), getPage())))
    return failure();
  return verifyPageView(*this, getCb().getType(), getTile().getType());
}

int64_t WriteBackOp::getPageIndex() { return getPage(); }

TypedValue<CircularBufferType> WriteBackOp::getCircularBuffer() {
  return getCb();
}

bool WriteBackOp::fillsBack() { return true; }

std::optional<Endpoint> WriteBackOp::getEndpoint() {
  Operation *producer = getTile().getDefiningOp();
  if (!producer)
    return std::nullopt;
  return getEndpointOf(producer);
}
