//===- CheckLocalMemory.cpp - The local-memory plan check -----------------===//
//
// Sums what each kernel keeps in a PE's local memory: its circular buffers
// for the whole kernel, and its scratch tiles while they are live.
//
//===----------------------------------------------------------------------===//

#include "dialects/CB/CBDialect.h"
#include "dialects/Tile/TileDialect.h"
#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mtia {
#define GEN_PASS_DEF_CHECKLOCALMEMORY
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Returns a short name of a tile value for diagnostics: the source name
/// Triton attached to its location, else the operation that defines it.
std::string describeTile(Value tile) {
  Location loc = tile.getLoc();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().str();
  if (Operation *op = tile.getDefiningOp())
    return ("result of '" + op->getName().getStringRef() + "'").str();
  return "block argument";
}

/// The tiles live at one point of a kernel and the bytes they take.
struct LiveTiles {
  SmallVector<Value> tiles;
  int64_t bytes = 0;
};

/// Returns whether `value` is a tile that takes memory of its own, rather
/// than living in a circular-buffer page.
bool isScratchTile(Value value) {
  return isa<tile::TileType>(value.getType()) &&
         !value.getDefiningOp<cb::ReadFrontOp>();
}

/// Returns whether `value` dies at `op`: `op` is its last user in `op`'s
/// block and it is not live out of the block.
bool diesAt(Value value, Operation *op, const LivenessBlockInfo &block) {
  return !block.isLiveOut(value) && block.getEndOperation(value, op) == op;
}

/// Returns the scratch tiles that take memory while `op` executes, in its
/// block: the tiles live at `op`, except that a result takes the place of a
/// tile operand of its type that dies at `op` (units update such tiles in
/// place), and that an enclosing operation's results and the initial values
/// it hands to its regions as iteration arguments are represented inside the
/// regions by the arguments (`isEnclosing`).
SmallVector<Value> getTilesTakingMemory(Operation *op, const Liveness &liveness,
                                        bool isEnclosing) {
  const LivenessBlockInfo *blockInfo = liveness.getLiveness(op->getBlock());
  // Liveness has no information on blocks it did not reach.
  if (!blockInfo)
    return {};
  const LivenessBlockInfo &block = *blockInfo;
  SmallVector<Value> inits;
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    inits = SmallVector<Value>(loop.getInits());

  SmallVector<Value> reusable;
  for (Value operand : op->getOperands())
    if (isScratchTile(operand) && diesAt(operand, op, block) &&
        !llvm::is_contained(reusable, operand))
      reusable.push_back(operand);
  SmallVector<Value> inPlaceResults;
  for (Value result : op->getResults()) {
    auto *reused = llvm::find_if(reusable, [&](Value operand) {
      return operand.getType() == result.getType();
    });
    if (reused == reusable.end())
      continue;
    inPlaceResults.push_back(result);
    reusable.erase(reused);
  }

  SmallVector<Value> tiles;
  for (Value value : block.currentlyLiveValues(op)) {
    if (!isScratchTile(value) || llvm::is_contained(inPlaceResults, value))
      continue;
    if (isEnclosing &&
        (value.getDefiningOp() == op ||
         (llvm::is_contained(inits, value) && diesAt(value, op, block))))
      continue;
    tiles.push_back(value);
  }
  return tiles;
}

/// Returns the scratch tiles that take memory while `op` executes: those of
/// its block and of the blocks of every enclosing operation of the kernel,
/// in the order of `definitionOrder`.
LiveTiles getLiveTilesAt(Operation *op, Operation *kernel,
                         const Liveness &liveness,
                         const DenseMap<Value, unsigned> &definitionOrder) {
  llvm::SetVector<Value> live;
  for (Value tile : getTilesTakingMemory(op, liveness, /*isEnclosing=*/false))
    live.insert(tile);
  for (Operation *parent = op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    for (Value tile :
         getTilesTakingMemory(parent, liveness, /*isEnclosing=*/true))
      live.insert(tile);
  LiveTiles result;
  result.tiles = live.takeVector();
  llvm::sort(result.tiles, [&](Value lhs, Value rhs) {
    return definitionOrder.lookup(lhs) < definitionOrder.lookup(rhs);
  });
  for (Value tile : result.tiles)
    result.bytes += cast<tile::TileType>(tile.getType()).getSizeInBytes();
  return result;
}

/// Returns the scratch tiles at the first point of the kernel where they take
/// the most memory.
LiveTiles getPeakLiveTiles(FunctionOpInterface kernel) {
  // Number the values in the order the kernel defines them, so that
  // diagnostics list tiles in source order.
  DenseMap<Value, unsigned> definitionOrder;
  kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value result : op->getResults())
      definitionOrder.try_emplace(result, definitionOrder.size());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value argument : block.getArguments())
          definitionOrder.try_emplace(argument, definitionOrder.size());
  });

  Liveness liveness(kernel);
  LiveTiles peak;
  kernel->walk([&](Operation *op) {
    if (op == kernel.getOperation())
      return;
    LiveTiles live = getLiveTilesAt(op, kernel, liveness, definitionOrder);
    if (live.bytes > peak.bytes)
      peak = std::move(live);
  });
  return peak;
}

struct CheckLocalMemoryPass
    : public mtia::impl::CheckLocalMemoryBase<CheckLocalMemoryPass> {
  using CheckLocalMemoryBase::CheckLocalMemoryBase;

  void runOnOperation() override {
    FailureOr<TargetDesc> loaded =
        loadTargetDescription(getOperation(), target);
    if (failed(loaded))
      return signalPassFailure();
    const TargetDesc &desc = *loaded;
    bool fits = true;
    getOperation().walk([&](FunctionOpInterface kernel) {
      fits &= succeeded(checkKernel(kernel, desc));
    });
    if (!fits)
      signalPassFailure();
  }

  /// Checks the plan of one kernel against the target.
  LogicalResult checkKernel(FunctionOpInterface kernel,
                            const TargetDesc &desc) {
    SmallVector<cb::AllocOp> buffers;
    kernel.walk([&](cb::AllocOp alloc) { buffers.push_back(alloc); });
    StringRef kernelName = SymbolTable::getSymbolName(kernel).getValue();

    if (buffers.size() > desc.numCircularBuffers) {
      return kernel.emitError("kernel @")
             << kernelName << " allocates " << buffers.size()
             << " circular buffers but the command processor of " << desc.name
             << " tracks " << desc.numCircularBuffers;
    }

    int64_t bufferBytes = 0;
    for (cb::AllocOp alloc : buffers)
      bufferBytes += alloc.getType().getSizeInBytes();
    LiveTiles tiles = getPeakLiveTiles(kernel);
    int64_t totalBytes = bufferBytes + tiles.bytes;
    if (totalBytes <= static_cast<int64_t>(desc.localMemoryBytes))
      return success();

    InFlightDiagnostic diag = kernel.emitError();
    diag << "kernel @" << kernelName << " needs " << totalBytes
         << " bytes of local memory per PE but " << desc.name << " has "
         << desc.localMemoryBytes << ":";
    llvm::ListSeparator separator(",");
    for (cb::AllocOp alloc : buffers)
      diag << StringRef(separator) << " circular buffer \"" << alloc.getName()
           << "\" (" << alloc.getType().getSizeInBytes() << " bytes)";
    for (Value tile : tiles.tiles)
      diag << StringRef(separator) << " tile " << describeTile(tile) << " ("
           << cast<tile::TileType>(tile.getType()).getSizeInBytes()
           << " bytes)";
    for (cb::AllocOp alloc : buffers)
      diag.attachNote(alloc.getLoc())
          << "circular buffer \"" << alloc.getName() << "\" allocated here";
    for (Value tile : tiles.tiles)
      diag.attachNote(tile.getLoc())
          << "tile " << describeTile(tile) << " live at the peak";
    return diag;
  }
};

} // namespace
