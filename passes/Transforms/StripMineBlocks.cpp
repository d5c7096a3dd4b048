//===- StripMineBlocks.cpp - Blocks larger than local memory in strips ----===//
//
// A program whose block is larger than a PE's local memory computes it in
// strips: when every tensor operation of the kernel works element by element
// on one-dimensional blocks of one size, or reduces such a block to scalars,
// the tensor part of the kernel moves into loops over strips of the block,
// and each range the block is indexed by becomes the strip's slice of it.
// Each reduction is a loop of its own, which combines the strips' partial
// results with the reduction's combine region; the stores run in a last
// loop, which recomputes from the loads what they need.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallVectorExtras.h"

namespace mtia {
#define GEN_PASS_DEF_STRIPMINEBLOCKS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// A strip takes at most this fraction of local memory for the tiles of its
/// data, so that the buffers of the next strip's transfers fit beside it.
constexpr int64_t kStripShareOfLocalMemory = 8;

/// Returns whether `op` computes each element of its tensor results from the
/// same element of its tensor operands, and nothing else: then a strip of
/// its operands gives the strip of its results.
bool isElementwise(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isa<tt::MakeRangeOp, tt::SplatOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  // Accesses through tensors of pointers; block pointers and descriptors
  // address their block as a whole.
  if (auto load = dyn_cast<tt::LoadOp>(op))
    return isa<RankedTensorType>(load.getPtr().getType());
  if (auto store = dyn_cast<tt::StoreOp>(op))
    return isa<RankedTensorType>(store.getPtr().getType());
  if (auto call = dyn_cast<tt::ExternElementwiseOp>(op))
    return call.getPure();
  return op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op);
}

/// Returns whether `value` holds data (rather than indices, masks or
/// pointers, which the later stages fold into the addressing of transfers):
/// a tensor of numbers computed from loads.
bool holdsData(Value value, const DenseSet<Value> &indexValues) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && !isa<tt::PointerType>(type.getElementType()) &&
         !indexValues.contains(value);
}

/// Returns whether `op` reduces one-dimensional blocks to scalars.
bool isBlockReduction(Operation *op) {
  auto reduce = dyn_cast<tt::ReduceOp>(op);
  return reduce && llvm::none_of(reduce.getResultTypes(), [](Type type) {
           return isa<RankedTensorType>(type);
         });
}

/// The tensor part of a kernel that can run in strips.
struct StripMining {
  /// The tensor operations, in the kernel's order: elementwise operations
  /// and reductions of the block to scalars.
  SmallVector<Operation *> ops;
  /// The length of every tensor of the kernel.
  int64_t blockSize = 0;
  /// The bytes per element of the block taken by tensors of data.
  int64_t dataBytesPerElement = 0;
};

/// Returns the tensor part of `function` when it can run in strips: one
/// block, no scalar operation with regions or side effects but stores after
/// the last reduction, every tensor one-dimensional and of one length, every
/// tensor operation elementwise or a reduction of the block to scalars, and
/// no store before a reduction (the tensor stores run in the last loop).
std::optional<StripMining> analyze(tt::FuncOp function) {
  if (!function.getBody().hasOneBlock())
    return std::nullopt;
  StripMining mining;
  DenseSet<Value> indexValues;
  bool stored = false;
  for (Operation &op : function.getBody().front().without_terminator()) {
    auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
    bool touchesTensors = llvm::any_of(op.getOperandTypes(), isTensor) ||
                          llvm::any_of(op.getResultTypes(), isTensor);
    if (!touchesTensors) {
      if (op.getNumRegions() != 0 ||
          (!isa<tt::StoreOp>(op) && !isMemoryEffectFree(&op)))
        return std::nullopt;
      stored |= isa<tt::StoreOp>(op);
      continue;
    }
    bool reduces = isBlockReduction(&op);
    if ((!reduces && !isElementwise(&op)) || (reduces && stored))
      return std::nullopt;
    stored |= isa<tt::StoreOp>(op);
    for (Type type :
         llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        continue;
      if (tensor.getRank() != 1 || tensor.isDynamicDim(0) ||
          (mining.blockSize && tensor.getDimSize(0) != mining.blockSize))
        return std::nullopt;
      mining.blockSize = tensor.getDimSize(0);
    }
    // Ranges, splats, constants and what is computed from nothing else are
    // indices and masks.
    bool fromIndices = llvm::all_of(op.getOperands(), [&](Value operand) {
      return !isa<RankedTensorType>(operand.getType()) ||
             indexValues.contains(operand);
    });
    if (fromIndices && !isa<tt::LoadOp>(op))
      indexValues.insert(op.getResults().begin(), op.getResults().end());
    for (Value result : op.getResults())
      if (holdsData(result, indexValues))
        mining.dataBytesPerElement += llvm::divideCeil(
            getElementTypeOrSelf(result.getType()).getIntOrFloatBitWidth(), 8);
    mining.ops.push_back(&op);
  }
  if (mining.ops.empty())
    return std::nullopt;
  return mining;
}

/// Returns the largest power of two that divides the block and whose strip
/// of data takes at most `budget` bytes, or 0 if none below the block does.
int64_t chooseStripSize(const StripMining &mining, int64_t budget) {
  int64_t strip = mining.blockSize & -mining.blockSize;
  while (strip > 1 && strip * mining.dataBytesPerElement > budget)
    strip /= 2;
  return strip < mining.blockSize ? strip : 0;
}

/// Clones `ops` (tensor operations of the kernel, in order) for the strip
/// of `stripSize` elements from `stripStart`: a range becomes the strip's
/// slice of it, splat constants and splats take the strip's length, and every
/// other operation is the same on strips. `mapping` maps the kernel's values
/// to the strip's.
void cloneStrip(ArrayRef<Operation *> ops, Value stripStart, int64_t stripSize,
                OpBuilder &builder, IRMapping &mapping) {
  Type i32 = builder.getI32Type();
  for (Operation *op : ops) {
    if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
      Location loc = range.getLoc();
      auto type = RankedTensorType::get({stripSize}, i32);
      Value offsets = tt::MakeRangeOp::create(builder, loc, type, 0, stripSize);
      Value first = stripStart;
      if (int64_t start = range.getStart())
        first = arith::AddIOp::create(
            builder, loc, stripStart,
            arith::ConstantIntOp::create(builder, loc, i32, start));
      Value firsts = tt::SplatOp::create(builder, loc, type, first);
      mapping.map(range.getResult(),
                  arith::AddIOp::create(builder, loc, offsets, firsts));
      continue;
    }
    if (auto splat = dyn_cast<arith::ConstantOp>(op)) {
      auto value = cast<SplatElementsAttr>(splat.getValue());
      auto type = cast<RankedTensorType>(value.getType()).clone({stripSize});
      mapping.map(splat.getResult(),
                  arith::ConstantOp::create(builder, splat.getLoc(),
                                            value.resizeSplat(type)));
      continue;
    }
    Operation *strip = builder.clone(*op, mapping);
    for (Value result : strip->getResults())
      if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
        result.setType(tensor.clone({stripSize}));
  }
}

/// Returns the operations of `ops` (in order) that `roots` need, through
/// tensor operands: what a strip computes for them.
SmallVector<Operation *> getStripSlice(ArrayRef<Operation *> ops,
                                       ArrayRef<Operation *> roots) {
  DenseSet<Operation *> needed(roots.begin(), roots.end());
  for (Operation *op : llvm::reverse(ops)) {
    if (!needed.contains(op))
      continue;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        if (Operation *producer = operand.getDefiningOp())
          needed.insert(producer);
  }
  return llvm::filter_to_vector(
      ops, [&](Operation *op) { return needed.contains(op); });
}

/// Replaces `reduce`, a reduction of the block to scalars, by a loop over
/// strips at its place: the first strip's partial results start the loop,
/// which combines every later strip's with them through the combine region.
void stripMineReduction(tt::ReduceOp reduce, ArrayRef<Operation *> ops,
                        const StripMining &mining, int64_t stripSize) {
  SmallVector<Operation *> slice = getStripSlice(ops, reduce.getOperation());
  Location loc = reduce.getLoc();
  OpBuilder builder(reduce);
  Type i32 = builder.getI32Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i32, value);
  };
  IRMapping first;
  cloneStrip(slice, constant(0), stripSize, builder, first);
  SmallVector<Value> partials = llvm::map_to_vector(
      reduce.getResults(), [&](Value result) { return first.lookup(result); });
  auto loop = scf::ForOp::create(builder, loc, constant(stripSize),
                                 constant(mining.blockSize),
                                 constant(stripSize), partials);
  builder.setInsertionPointToStart(loop.getBody());
  IRMapping strip;
  cloneStrip(slice, loop.getInductionVar(), stripSize, builder, strip);
  Block &combine = reduce.getCombineOp().front();
  IRMapping combined;
  size_t count = reduce.getNumResults();
  for (auto [index, argument] : llvm::enumerate(combine.getArguments()))
    combined.map(argument,
                 index < count
                     ? loop.getRegionIterArgs()[index]
                     : strip.lookup(reduce->getResult(index - count)));
  for (Operation &op : combine.without_terminator())
    builder.clone(op, combined);
  SmallVector<Value> results = llvm::map_to_vector(
      combine.getTerminator()->getOperands(),
      [&](Value value) { return combined.lookupOrDefault(value); });
  scf::YieldOp::create(builder, loc, results);
  reduce->replaceAllUsesWith(loop.getResults());
}

/// Moves the tensor operations of `function` into loops over strips of
/// `stripSize` elements: one per reduction, at its place, and one for the
/// stores (and volatile loads, which must happen even if unused), at the end
/// of the kernel.
void stripMine(tt::FuncOp function, const StripMining &mining,
               int64_t stripSize) {
  for (Operation *op : mining.ops)
    if (auto reduce = dyn_cast<tt::ReduceOp>(op))
      stripMineReduction(reduce, mining.ops, mining, stripSize);
  SmallVector<Operation *> stores =
      llvm::filter_to_vector(mining.ops, [](Operation *op) {
        auto load = dyn_cast<tt::LoadOp>(op);
        return isa<tt::StoreOp>(op) || (load && load.getIsVolatile());
      });
  if (!stores.empty()) {
    Block &body = function.getBody().front();
    Location loc = stores.front()->getLoc();
    OpBuilder builder(body.getTerminator());
    Type i32 = builder.getI32Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i32, value);
    };
    auto loop =
        scf::ForOp::create(builder, loc, constant(0),
                           constant(mining.blockSize), constant(stripSize));
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    IRMapping mapping;
    cloneStrip(getStripSlice(mining.ops, stores), loop.getInductionVar(),
               stripSize, builder, mapping);
  }
  for (Operation *op : llvm::reverse(mining.ops))
    op->erase();
}

struct StripMineBlocksPass
    : public mtia::impl::StripMineBlocksBase<StripMineBlocksPass> {
  using StripMineBlocksBase::StripMineBlocksBase;

  void runOnOperation() override {
    FailureOr<TargetDesc> desc = loadTargetDescription(getOperation(), target);
    if (failed(desc))
      return signalPassFailure();
    auto localBytes = static_cast<int64_t>(desc->localMemoryBytes);
    getOperation().walk([&](tt::FuncOp function) {
      std::optional<StripMining> mining = analyze(function);
      // A block whose data fits in local memory stays whole.
      if (!mining ||
          mining->blockSize * mining->dataBytesPerElement <= localBytes)
        return;
      if (int64_t stripSize =
              chooseStripSize(*mining, localBytes / kStripShareOfLocalMemory))
        stripMine(function, *mining, stripSize);
    });
  }
};

} // namespace
