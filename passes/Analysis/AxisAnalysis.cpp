//===- AxisAnalysis.cpp - The axes a kernel's tensor work runs along ------===//
//
// Dimensions are tied in classes (union-find) by the operations that keep
// them in step (AxisAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/AxisAnalysis.h"
#include "passes/Analysis/PointerAnalysis.h"

#include "dialects/DMA/DMADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mtia;

RankedTensorType mtia::getTensorType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

void mtia::forEachDefinedValue(Operation *op, function_ref<void(Value)> visit) {
  op->walk([&](Operation *nested) {
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          visit(argument);
    for (Value result : nested->getResults())
      visit(result);
  });
}

bool mtia::hasSideEffects(Operation *op) {
  if (auto load = dyn_cast<tt::LoadOp>(op); load && load.getIsVolatile())
    return true;
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps())
        if (hasSideEffects(&nested))
          return true;
    return false;
  }
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  return effects.hasEffect<MemoryEffects::Write>() ||
         effects.hasEffect<MemoryEffects::Allocate>() ||
         effects.hasEffect<MemoryEffects::Free>();
}

Value mtia::createSplatConstant(OpBuilder &builder, Location loc,
                                RankedTensorType type, int64_t value) {
  return arith::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(
          type, builder.getIntegerAttr(type.getElementType(), value)));
}

bool mtia::isIndex(Value value, DenseMap<Value, bool> &known) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  Operation *producer = value.getDefiningOp();
  bool index = producer && producer->getNumRegions() == 0 &&
               isMemoryEffectFree(producer) &&
               llvm::all_of(producer->getOperands(), [&](Value operand) {
                 return !isa<RankedTensorType>(operand.getType()) ||
                        isIndex(operand, known);
               });
  known[value] = index;
  return index;
}

Value mtia::buildRowMajorOffsets(OpBuilder &builder, Location loc,
                                 RankedTensorType type,
                                 ArrayRef<int64_t> layout,
                                 std::optional<int64_t> skippedDim) {
  if (layout.empty())
    layout = type.getShape();
  Value offsets;
  int64_t stride = 1;
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    int64_t length = type.getDimSize(dim);
    if (length != 1 && dim != skippedDim) {
      auto rangeType = RankedTensorType::get({length}, type.getElementType());
      Value expanded =
          tt::MakeRangeOp::create(builder, loc, rangeType, 0, length);
      // Ones before the dimension, then after it.
      for (int64_t position = 0; position < type.getRank(); ++position) {
        if (position == dim)
          continue;
        auto current = cast<RankedTensorType>(expanded.getType());
        SmallVector<int64_t> shape(current.getShape());
        shape.insert(shape.begin() + position, 1);
        expanded = tt::ExpandDimsOp::create(builder, loc, current.clone(shape),
                                            expanded, position);
      }
      Value broadcast = tt::BroadcastOp::create(builder, loc, type, expanded);
      if (stride != 1)
        broadcast = arith::MulIOp::create(
            builder, loc, broadcast,
            createSplatConstant(builder, loc, type, stride));
      offsets = offsets
                    ? arith::AddIOp::create(builder, loc, offsets, broadcast)
                          .getResult()
                    : broadcast;
    }
    stride *= layout[dim];
  }
  return offsets ? offsets : createSplatConstant(builder, loc, type, 0);
}

void mtia::expandRangeReshapes(tt::FuncOp function) {
  SmallVector<tt::ReshapeOp> reshapes;
  function.walk([&](tt::ReshapeOp reshape) {
    if (reshape.getSrc().getDefiningOp<tt::MakeRangeOp>())
      reshapes.push_back(reshape);
  });
  for (tt::ReshapeOp reshape : reshapes) {
    auto range = reshape.getSrc().getDefiningOp<tt::MakeRangeOp>();
    auto type = cast<RankedTensorType>(reshape.getType());
    Location loc = reshape.getLoc();
    OpBuilder builder(reshape);
    Value offsets = buildRowMajorOffsets(builder, loc, type);
    if (int64_t start = range.getStart())
      offsets = arith::AddIOp::create(
          builder, loc, offsets,
          arith::ConstantOp::create(
              builder, loc,
              DenseElementsAttr::get(
                  type, builder.getIntegerAttr(type.getElementType(), start))));
    reshape.replaceAllUsesWith(offsets);
    reshape.erase();
  }
}

void mtia::separateIndexUses(tt::FuncOp function) {
  DenseSet<Value> indexValues;
  SmallVector<Operation *> indexOps;
  function.walk([&](Operation *op) {
    if (op->getNumRegions() != 0 || op->getNumResults() != 1 ||
        !getTensorType(op->getResult(0)) || !isMemoryEffectFree(op))
      return;
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && !isa<SplatElementsAttr>(constant.getValue()))
      return;
    bool fromIndices = llvm::all_of(op->getOperands(), [&](Value operand) {
      return !getTensorType(operand) || indexValues.contains(operand);
    });
    if (!fromIndices)
      return;
    indexValues.insert(op->getResult(0));
    indexOps.push_back(op);
  });
  for (Operation *op : llvm::reverse(indexOps)) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        op->getResult(0).getUses(), [](OpOperand &use) { return &use; });
    if (uses.size() < 2)
      continue;
    OpBuilder builder(op);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(builder.clone(*op)->getResult(0));
  }
}

unsigned AxisAnalysis::getId(Value value, unsigned dim) {
  auto [it, inserted] = ids.try_emplace({value, dim}, parents.size());
  if (inserted) {
    parents.push_back(it->second);
    dimsById.push_back({value, dim});
  }
  return it->second;
}

void AxisAnalysis::tie(Value a, unsigned dimA, Value b, unsigned dimB) {
  unsigned rootA = find(getId(a, dimA));
  unsigned rootB = find(getId(b, dimB));
  if (rootA != rootB)
    parents[std::max(rootA, rootB)] = std::min(rootA, rootB);
}

void AxisAnalysis::forbidAll(Operation *op) {
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (RankedTensorType type = getTensorType(value))
      for (unsigned dim = 0; dim < type.getRank(); ++dim)
        forbid(value, dim);
}

void AxisAnalysis::tieElementwise(ValueRange values) {
  SmallVector<Value> tensors = llvm::filter_to_vector(
      values, [](Value value) { return getTensorType(value) != nullptr; });
  for (Value tensor : tensors)
    for (unsigned dim = 0; dim < getTensorType(tensor).getRank(); ++dim)
      tie(tensors.front(), dim, tensor, dim);
}

AxisAnalysis::AxisAnalysis(tt::FuncOp function) {
  function.walk([&](Operation *op) { visit(op); });
  for (auto [id, valueDim] : llvm::enumerate(dimsById)) {
    auto [value, dim] = valueDim;
    int64_t length = getTensorType(value).getDimSize(dim);
    auto [it, inserted] = lengths.try_emplace(find(id), length);
    if (!inserted && it->second != length)
      it->second = ShapedType::kDynamic;
  }
  findSplittableAxes();
}

void AxisAnalysis::visit(Operation *op) {
  auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
  if (isa<tt::CallOp>(op)) {
    opaque = true;
    return;
  }
  if (isa<scf::YieldOp, scf::ConditionOp, tt::ReduceReturnOp, tt::ScanReturnOp,
          tt::MapElementwiseReturnOp, tt::ReturnOp>(op))
    return;
  // Ranges and splats start dimensions; nothing ties them.
  if (isa<tt::MakeRangeOp, tt::SplatOp>(op))
    return;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (!isa<SplatElementsAttr>(constant.getValue()))
      forbidAll(op);
    return;
  }
  // A histogram counts every element of its source into each bin: the bins
  // run in strips (each strip counts the values shifted to its first bin;
  // narrower values than Triton's 32 bits could wrap there), the source
  // does not.
  if (auto histogram = dyn_cast<tt::HistogramOp>(op)) {
    if (getTensorType(histogram.getSrc()).getElementTypeBitWidth() < 32) {
      forbidAll(op);
      return;
    }
    tieElementwise(op->getOperands());
    forbid(histogram.getSrc(), 0);
    return;
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    unsigned rank = getTensorType(expand.getSrc()).getRank();
    for (unsigned dim = 0; dim < rank; ++dim)
      tie(expand.getSrc(), dim, expand.getResult(),
          dim < expand.getAxis() ? dim : dim + 1);
    return;
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
    RankedTensorType source = getTensorType(broadcast.getSrc());
    RankedTensorType result = getTensorType(broadcast.getResult());
    for (unsigned dim = 0; dim < source.getRank(); ++dim)
      if (source.getDimSize(dim) == result.getDimSize(dim))
        tie(broadcast.getSrc(), dim, broadcast.getResult(), dim);
    return;
  }
  if (auto trans = dyn_cast<tt::TransOp>(op)) {
    for (auto [dim, from] : llvm::enumerate(trans.getOrder()))
      tie(trans.getSrc(), from, trans.getResult(), dim);
    return;
  }
  // A join stacks its operands along a new last dimension and a split takes
  // them apart: the other dimensions stay in step.
  if (auto join = dyn_cast<tt::JoinOp>(op)) {
    unsigned rank = getTensorType(join.getLhs()).getRank();
    for (unsigned dim = 0; dim < rank; ++dim)
      for (Value operand : {join.getLhs(), join.getRhs()})
        tie(operand, dim, join.getResult(), dim);
    forbid(join.getResult(), rank);
    return;
  }
  if (auto split = dyn_cast<tt::SplitOp>(op)) {
    unsigned rank = getTensorType(split.getOutLHS()).getRank();
    for (unsigned dim = 0; dim < rank; ++dim)
      for (Value result : split.getResults())
        tie(split.getSrc(), dim, result, dim);
    forbid(split.getSrc(), rank);
    return;
  }
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    tieElementwise(reduce.getSrcs());
    unsigned axis = reduce.getAxis();
    Value source = reduce.getSrcs().front();
    for (Value result : reduce.getResults())
      if (RankedTensorType type = getTensorType(result))
        for (unsigned dim = 0; dim < type.getRank(); ++dim)
          tie(source, dim < axis ? dim : dim + 1, result, dim);
    reductions.push_back({getId(source, axis), reduce});
    return;
  }
  if (auto scan = dyn_cast<tt::ScanOp>(op)) {
    tieElementwise(llvm::to_vector(
        llvm::concat<Value>(scan.getSrcs(), scan.getResults())));
    scans.push_back({getId(scan.getSrcs().front(), scan.getAxis()), scan});
    return;
  }
  if (isa<tt::DotOp, tt::DotScaledOp>(op)) {
    Value a = op->getOperand(0), b = op->getOperand(1), c = op->getOperand(2);
    Value d = op->getResult(0);
    unsigned rank = getTensorType(d).getRank();
    for (unsigned dim = 0; dim + 2 < rank; ++dim) {
      tie(a, dim, d, dim);
      tie(b, dim, d, dim);
    }
    tie(a, rank - 2, d, rank - 2);
    tie(b, rank - 1, d, rank - 1);
    tieElementwise({c, d});
    forbid(a, rank - 1);
    forbid(b, rank - 2);
    if (auto scaled = dyn_cast<tt::DotScaledOp>(op)) {
      // A scale holds a row of factors per row of `a` (per column of `b`).
      for (auto [scale, operand, dim] :
           {std::tuple(scaled.getAScale(), a, rank - 2),
            std::tuple(scaled.getBScale(), b, rank - 1)}) {
        if (!scale)
          continue;
        tie(scale, 0, operand, dim);
        forbid(scale, 1);
      }
    }
    return;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    for (auto [init, argument, yielded, result] :
         llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                   loop.getYieldedValues(), loop.getResults()))
      tieElementwise({init, argument, yielded, result});
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (auto [index, result] : llvm::enumerate(branch.getResults())) {
      SmallVector<Value> tied = {result};
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          tied.push_back(region->front().getTerminator()->getOperand(index));
      tieElementwise(tied);
    }
    return;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    for (auto [init, argument, yielded] :
         llvm::zip(loop.getInits(), loop.getBeforeArguments(),
                   loop.getYieldedValues()))
      tieElementwise({init, argument, yielded});
    for (auto [forwarded, argument, result] :
         llvm::zip(loop.getConditionOp().getArgs(), loop.getAfterArguments(),
                   loop.getResults()))
      tieElementwise({forwarded, argument, result});
    return;
  }
  bool touchesTensors = llvm::any_of(op->getOperandTypes(), isTensor) ||
                        llvm::any_of(op->getResultTypes(), isTensor);
  if (!touchesTensors)
    return;
  if (hasSideEffects(op))
    effects.push_back(op);
  if (isGlobalMemoryAccess(op) && getTensorType(op->getOperand(0)))
    accesses.push_back(op);
  // Accesses through block pointers address their block as a whole.
  bool blockAccess =
      (isa<tt::LoadOp>(op) && !getTensorType(op->getOperand(0))) ||
      (isa<tt::StoreOp>(op) && !getTensorType(op->getOperand(0)));
  // Element-by-element operations: the arithmetic, and Triton's operations
  // on tensors of one shape (pointer arithmetic, accesses through tensors of
  // pointers, conversions, library calls, mapped regions, assertions). Their
  // scalar operands (a select's condition) are the same for every element.
  SmallVector<Value> tensors;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (getTensorType(value))
      tensors.push_back(value);
  bool oneShape = llvm::all_of(tensors, [&](Value value) {
    return getTensorType(value).getShape() ==
           getTensorType(tensors.front()).getShape();
  });
  bool elementwise =
      isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) ||
      isa<tt::AddPtrOp, tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp,
          tt::AtomicCASOp, tt::IntToPtrOp, tt::PtrToIntOp, tt::BitcastOp,
          tt::FpToFpOp, tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
          tt::MulhiUIOp, tt::ExternElementwiseOp, tt::MapElementwiseOp,
          tt::AssertOp>(op);
  if (elementwise && oneShape && !blockAccess) {
    tieElementwise(tensors);
    return;
  }
  forbidAll(op);
}

void AxisAnalysis::findSplittableAxes() {
  DenseSet<unsigned> excluded;
  for (unsigned id : forbidden)
    excluded.insert(find(id));
  // A tensor with two dimensions on one axis pairs every strip with every
  // other (an outer product): splitting it would drop the other pairs.
  DenseMap<Value, SmallVector<unsigned>> axesOfValue;
  for (auto [id, valueDim] : llvm::enumerate(dimsById)) {
    SmallVector<unsigned> &seen = axesOfValue[valueDim.first];
    if (llvm::is_contained(seen, find(id)))
      excluded.insert(find(id));
    seen.push_back(find(id));
  }
  DenseMap<unsigned, DenseSet<unsigned>> sharingAValue;
  for (auto &[value, axes] : axesOfValue)
    for (unsigned axis : axes)
      sharingAValue[axis].insert(axes.begin(), axes.end());
  // The blocks that hold each axis's reductions, scans and effects: its
  // strips run in a block that holds them all.
  DenseMap<unsigned, llvm::SmallPtrSet<Block *, 2>> anchorBlocks;
  DenseMap<unsigned, llvm::SetVector<Operation *>> effectsOn;
  for (auto [id, reduce] : reductions)
    anchorBlocks[find(id)].insert(reduce->getBlock());
  for (auto [id, scan] : scans)
    anchorBlocks[find(id)].insert(scan->getBlock());
  for (Operation *op : effects)
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (RankedTensorType type = getTensorType(value))
        for (unsigned dim = 0; dim < type.getRank(); ++dim)
          if (std::optional<unsigned> axis = getAxis(value, dim)) {
            anchorBlocks[*axis].insert(op->getBlock());
            effectsOn[*axis].insert(op);
          }
  auto anchoredApart = [&](unsigned a, unsigned b) {
    const auto &blocksA = anchorBlocks[a];
    const auto &blocksB = anchorBlocks[b];
    return llvm::any_of(blocksA, [&](Block *block) {
      return llvm::any_of(blocksB,
                          [&](Block *other) { return other != block; });
    });
  };
  // The strips of axes split together run their effects in one loop at the
  // place of the last: whether an effect on none of `group` lies among
  // theirs, which the loop would pass (the load of what a store to scratch
  // memory wrote, on the axes of the reshaped block).
  auto passesOtherEffects = [&](ArrayRef<unsigned> group) {
    SmallVector<Operation *> own;
    for (unsigned member : group)
      llvm::append_range(own, effectsOn[member]);
    if (own.empty())
      return false;
    Block *block = own.front()->getBlock();
    auto isBefore = [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    };
    Operation *first = *llvm::min_element(own, isBefore);
    Operation *last = *llvm::max_element(own, isBefore);
    return llvm::any_of(effects, [&](Operation *other) {
      Operation *ancestor = block->findAncestorOpInBlock(*other);
      return ancestor && !llvm::is_contained(own, other) &&
             first->isBeforeInBlock(ancestor) &&
             ancestor->isBeforeInBlock(last);
    });
  };
  // Whether an access on `a` and one on `b` may touch the same memory, one
  // of them writing: each element of one strip may then depend on any of
  // the other axis' strips (the gather from what a store to scratch wrote).
  // The scratch spills store and load whole tensors in row-major order,
  // through indices: there, accesses of one size address the same rows in
  // their leading dimension (a reshape's store and load), or rows apart (a
  // concatenation's stores), never each other's other rows.
  DenseMap<unsigned, SmallVector<Operation *>> accessesOn;
  DenseMap<Operation *, Value> roots;
  for (Operation *op : accesses) {
    Value pointers = op->getOperand(0);
    roots[op] = getRootPointer(pointers);
    for (unsigned dim = 0; dim < getTensorType(pointers).getRank(); ++dim)
      if (std::optional<unsigned> axis = getAxis(pointers, dim))
        accessesOn[*axis].push_back(op);
  }
  DenseMap<Value, bool> indices;
  auto addressesRows = [&](Operation *op, unsigned axis) {
    Value pointers = op->getOperand(0);
    Value root = roots.lookup(op);
    return root && root.getDefiningOp<dma::ScratchOp>() &&
           getDimOnAxis(pointers, axis) == 0u && isIndex(pointers, indices);
  };
  auto shareMemory = [&](unsigned a, unsigned b) {
    return llvm::any_of(accessesOn[a], [&](Operation *x) {
      return llvm::any_of(accessesOn[b], [&](Operation *y) {
        bool sameRows = addressesRows(x, a) && addressesRows(y, b) &&
                        getTensorType(x->getOperand(0)).getNumElements() ==
                            getTensorType(y->getOperand(0)).getNumElements();
        return x != y && !sameRows &&
               mayConflict(x, roots.lookup(x), y, roots.lookup(y));
      });
    });
  };
  // Axes of one length that no tensor has two of are independent parts of
  // the block (a volatile load beside the computation it does not feed, an
  // index whose uses were separated): they run in the same strips, so that
  // no part of the block stays whole; unless their reductions, scans or
  // effects lie in different blocks (two loops over a row, each over blocks
  // of its own), where each axis is split in its own block, or effects on
  // other axes lie among theirs, or they access the same memory.
  SmallVector<SmallVector<unsigned>> groups;
  for (unsigned id = 0; id < parents.size(); ++id) {
    unsigned axis = find(id);
    int64_t length = lengths.lookup(axis);
    if (axis != id || excluded.contains(axis) ||
        length == ShapedType::kDynamic || length <= 1)
      continue;
    auto independent = llvm::find_if(groups, [&](ArrayRef<unsigned> group) {
      if (lengths.lookup(group.front()) != length ||
          llvm::any_of(group, [&](unsigned member) {
            return sharingAValue[axis].contains(member) ||
                   anchoredApart(axis, member) || shareMemory(axis, member);
          }))
        return false;
      SmallVector<unsigned> joined(group);
      joined.push_back(axis);
      return !passesOtherEffects(joined);
    });
    if (independent == groups.end())
      groups.push_back({axis});
    else
      independent->push_back(axis);
  }
  for (ArrayRef<unsigned> group : groups) {
    for (unsigned axis : group.drop_front())
      parents[axis] = group.front();
    splittable.push_back(group.front());
  }
}
