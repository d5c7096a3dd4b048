//===- LiveBytes.cpp - The peak of the data a block holds -----------------===//

#include "passes/Analysis/LiveBytes.h"
#include "passes/Analysis/PipelineStages.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mtia;

int64_t mtia::estimatePeakLiveBytes(Block &block,
                                    function_ref<Type(Value)> typeOf,
                                    const DenseSet<Value> &uncounted,
                                    bool countPrefetch, Operation *first,
                                    Operation *last) {
  auto bytesOf = [&](Value value) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(typeOf(value));
    if (!type || !type.getElementType().isIntOrFloat() ||
        uncounted.contains(value))
      return 0;
    return type.getNumElements() *
           llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  };
  SmallVector<Operation *> positions =
      llvm::map_to_vector(block, [](Operation &op) { return &op; });
  DenseMap<Operation *, int64_t> indexOf;
  for (auto [index, op] : llvm::enumerate(positions))
    indexOf[op] = index;
  // The position of the last use of `value` in this block, or `from`.
  auto getLastUse = [&](Value value, int64_t from) {
    int64_t last = from;
    for (Operation *user : value.getUsers())
      if (Operation *ancestor = block.findAncestorOpInBlock(*user))
        last = std::max(last, indexOf.lookup(ancestor));
    return last;
  };
  // A load in a loop holds the pages its buffer prefetches ahead.
  auto pagesOf = [&](Value value) -> int64_t {
    Operation *load = value.getDefiningOp();
    if (!countPrefetch ||
        !isa_and_present<tt::LoadOp, tt::DescriptorLoadOp>(load))
      return 1;
    Operation *loop = load->getParentOfType<LoopLikeOpInterface>();
    return loop ? getLoopLoadPages(loop, bytesOf(value)) : 1;
  };
  // The bytes live at each position: from a value's definition to its last
  // use in this block.
  SmallVector<int64_t> live(positions.size() + 1, 0);
  auto addLiveRange = [&](Value value, int64_t from) {
    int64_t bytes = bytesOf(value) * pagesOf(value);
    if (!bytes)
      return;
    int64_t last = getLastUse(value, from);
    for (int64_t index = std::max<int64_t>(from, 0); index <= last; ++index)
      live[index] += bytes;
  };
  for (BlockArgument argument : block.getArguments())
    addLiveRange(argument, 0);
  int64_t peak = 0;
  int64_t firstCounted = first ? indexOf.lookup(first) : 0;
  int64_t lastCounted =
      last ? indexOf.lookup(last) : static_cast<int64_t>(positions.size()) - 1;
  for (auto [index, op] : llvm::enumerate(positions)) {
    // A loop's results are the values its body carries (counted in the
    // body's peak); the DPE copies a dot's accumulator in before it reads
    // the other operands, so the result overwrites an accumulator read last.
    auto position = static_cast<int64_t>(index);
    int64_t from = position;
    if (isa<LoopLikeOpInterface>(op))
      from = position + 1;
    if (auto dot = dyn_cast<tt::DotOp>(op);
        dot && dot.getC().getParentBlock() == &block &&
        getLastUse(dot.getC(), position) == position &&
        bytesOf(dot.getC()) == bytesOf(dot.getD()))
      from = position + 1;
    for (Value result : op->getResults())
      addLiveRange(result, from);
    if (position < firstCounted || position > lastCounted)
      continue;
    int64_t nested = 0;
    for (Region &region : op->getRegions())
      for (Block &inner : region)
        nested = std::max(nested, estimatePeakLiveBytes(
                                      inner, typeOf, uncounted, countPrefetch));
    peak = std::max(peak, live[index] + nested);
  }
  return peak;
}
