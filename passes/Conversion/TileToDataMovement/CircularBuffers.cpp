//===- CircularBuffers.cpp - Buffers and their pages ----------------------===//
//
// Allocates circular buffers at a kernel's entry and moves tiles through
// their pages: a producer reserves, writes and pushes a page; a consumer
// waits for it and reads it.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TileToDataMovement/TileToDataMovement.h"

using namespace mlir;
using namespace mtia;

BufferBuilder::BufferBuilder(tt::FuncOp function)
    : entry(function.getContext()) {
  Block &block = function.getBody().front();
  auto first =
      llvm::find_if(block, [](Operation &op) { return !isa<cb::AllocOp>(op); });
  entry.setInsertionPoint(&block, first);
  buffers = llvm::count_if(block, llvm::IsaPred<cb::AllocOp>);
}

/// A circular buffer between two agents, allocated at the function entry.
cb::AllocOp BufferBuilder::allocate(StringRef role, tile::TileType pageType,
                                    cb::Endpoint producer,
                                    cb::Endpoint consumer, Location loc,
                                    int64_t pages, int64_t runAheadPages) {
  std::string name = (role + Twine(buffers++)).str();
  return cb::AllocOp::create(entry, loc,
                             cb::CircularBufferType::get(pageType, pages), name,
                             producer, consumer, runAheadPages);
}

/// Writes `tileValue` into page 0 of `buffer` as its producer.
void BufferBuilder::produce(cb::AllocOp buffer, Value tileValue,
                            OpBuilder &builder, Location loc) {
  cb::ReserveBackOp::create(builder, loc, buffer, 1);
  cb::WriteBackOp::create(builder, loc, tileValue, buffer,
                          static_cast<uint64_t>(0));
  cb::PushBackOp::create(builder, loc, buffer, 1);
}

/// Reads page 0 of `buffer` as the consumer at the builder's point. The
/// page is freed after the last use of the tile in its block, once the
/// units are connected (ConnectUnits.cpp).
Value BufferBuilder::consume(cb::AllocOp buffer, OpBuilder &builder,
                             Location loc,
                             function_ref<void(Value)> replaceUses) {
  cb::WaitFrontOp::create(builder, loc, buffer, 1);
  auto read =
      cb::ReadFrontOp::create(builder, loc, buffer.getType().getPageType(),
                              buffer, static_cast<uint64_t>(0));
  replaceUses(read.getResult());
  return read.getResult();
}
