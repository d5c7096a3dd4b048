//===- SubtileEpilogues.cpp - Epilogues in strips of rows -----------------===//
//
// A matmul's accumulator is large (a 128 x 256 block of f32 is 128 KB) and
// its epilogue (conversion, bias, activation, store) runs on other units
// than the DPE that holds it: computed whole, the epilogue needs a page of
// the whole block to hand it to the SIMD engine and pages of the whole
// result to hand that to the DMA engine, as much local memory again as the
// accumulator, and no unit starts before the previous one is done. Computed
// in strips of rows (Triton's `EPILOGUE_SUBTILE`, along the rows), each
// hand-off takes a strip, and the DPE passes the next strip while the SIMD
// engine converts this one and the DMA engine stores the previous one.
//
// A strip is as many rows as the DPE's output tile has (`dpe.tile_m` of the
// target): the rows of the accumulator are a contiguous part of it in local
// memory, which the units read in place (`tile.subview`).
//
// The epilogue of a rank-2 value a dot computes (a dot's result, or the
// result of a loop whose dot accumulates into what it carries: the
// accumulator the DPE holds, whose hand-off the strips split) is what the
// block after it computes from it, element by element, up to the stores
// (`tt.store` through tensors of pointers, or `tt.descriptor_store` of a
// descriptor the kernel makes), and the loads whose every use is in it (a
// residual, a bias as a whole block). It is subtiled when nothing else
// uses its values. Each store then becomes one store per strip, of the
// strip of its operands: values of the epilogue are computed again on
// strips; index computations (ranges, splats, broadcasts and integer
// arithmetic, which the DMA lowering reads as strided windows) are computed
// on the strip's rows; anything else is sliced (`tensor.extract_slice`,
// a subview or a copy on the memory-layout unit). The whole-block
// operations left without uses are erased.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mtia {
#define GEN_PASS_DEF_SUBTILEEPILOGUES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether `op` computes its results element by element from operands of
/// their shape (scalars aside).
bool isElementwise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
      op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && llvm::all_of(op->getOperandTypes(), [&](Type operand) {
           auto tensor = dyn_cast<RankedTensorType>(operand);
           return !tensor || tensor.getShape() == type.getShape();
         });
}

/// Whether `op` only computes indices, offsets, pointers or masks from
/// ranges, splats and constants: integer, pointer and boolean arithmetic,
/// which is cheap to compute again on a strip and which the DMA lowering
/// must see whole to address a strided window.
bool isIndexComputation(Operation *op) {
  if (isa<tt::MakeRangeOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  if (!isElementwise(op))
    return false;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  return isa<IntegerType, IndexType, tt::PointerType>(element);
}

/// The epilogue of one value: its operations in block order (loads, then
/// what computes from them, then the stores).
struct Epilogue {
  SetVector<Operation *> ops;
  SmallVector<Operation *> stores;
};

/// Collects in `epilogue` what `root`'s block computes from it element by
/// element up to stores; fails when a value of it has another use, or the
/// stores are of a kind that cannot be split.
LogicalResult collectEpilogue(Value root, Epilogue &epilogue) {
  Block *block = root.getParentBlock();
  auto shape = cast<RankedTensorType>(root.getType()).getShape();
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (epilogue.ops.contains(user))
        continue;
      if (user->getBlock() != block)
        return failure();
      if (auto store = dyn_cast<tt::StoreOp>(user)) {
        auto pointers = dyn_cast<RankedTensorType>(store.getPtr().getType());
        if (!pointers || store.getValue() != value ||
            !store.getBoundaryCheck().empty())
          return failure();
        epilogue.ops.insert(user);
        epilogue.stores.push_back(user);
        continue;
      }
      if (auto store = dyn_cast<tt::DescriptorStoreOp>(user)) {
        if (store.getSrc() != value ||
            !store.getDesc().getDefiningOp<tt::MakeTensorDescOp>())
          return failure();
        epilogue.ops.insert(user);
        epilogue.stores.push_back(user);
        continue;
      }
      if (!isElementwise(user) ||
          cast<RankedTensorType>(user->getResult(0).getType()).getShape() !=
              shape)
        return failure();
      epilogue.ops.insert(user);
      worklist.push_back(user->getResult(0));
    }
  }
  if (epilogue.stores.empty())
    return failure();
  // The loads of whole blocks that only the epilogue reads.
  SmallVector<Operation *> loads;
  for (Operation *op : epilogue.ops)
    for (Value operand : op->getOperands())
      if (auto load = operand.getDefiningOp<tt::LoadOp>();
          load && load->getBlock() == block &&
          isa<RankedTensorType>(load.getPtr().getType()) &&
          load.getBoundaryCheck().empty() && !load.getIsVolatile() &&
          llvm::all_of(load->getUsers(), [&](Operation *user) {
            return epilogue.ops.contains(user);
          }))
        loads.push_back(load);
  epilogue.ops.insert(loads.begin(), loads.end());
  return success();
}

/// Builds the strips of an epilogue's stores.
class StripBuilder {
public:
  StripBuilder(const Epilogue &epilogue, int64_t rows)
      : epilogue(epilogue), rows(rows) {}

  /// Replaces `store` by one store per strip, each before it.
  void splitStore(Operation *store, int64_t strips) {
    OpBuilder builder(store);
    for (int64_t strip = 0; strip < strips; ++strip) {
      if (auto descriptorStore = dyn_cast<tt::DescriptorStoreOp>(store)) {
        splitDescriptorStore(descriptorStore, strip, builder);
        continue;
      }
      IRMapping mapping;
      for (Value operand : store->getOperands())
        mapping.map(operand, getStrip(operand, strip, builder));
      builder.clone(*store, mapping);
    }
    store->erase();
  }

private:
  /// The rows of `value` (a tensor whose first dimension is the epilogue's)
  /// in strip `strip`, built at the builder's point.
  Value getStrip(Value value, int64_t strip, OpBuilder &builder) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return value;
    if (Value known = sliced.lookup({value, strip}))
      return known;
    Value result = buildStrip(value, type, strip, builder);
    sliced[{value, strip}] = result;
    return result;
  }

  RankedTensorType getStripType(RankedTensorType type) {
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = rows;
    return type.clone(shape);
  }

  Value buildStrip(Value value, RankedTensorType type, int64_t strip,
                   OpBuilder &builder) {
    Location loc = value.getLoc();
    RankedTensorType stripType = getStripType(type);
    Operation *def = value.getDefiningOp();
    if (auto range = dyn_cast_if_present<tt::MakeRangeOp>(def)) {
      int32_t start = range.getStart() + strip * rows;
      return tt::MakeRangeOp::create(builder, loc, stripType, start,
                                     start + rows);
    }
    if (auto splat = dyn_cast_if_present<tt::SplatOp>(def))
      return tt::SplatOp::create(builder, loc, stripType, splat.getSrc());
    if (auto constant = dyn_cast_if_present<arith::ConstantOp>(def))
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        return arith::ConstantOp::create(
            builder, loc, stripType,
            SplatElementsAttr::get(stripType,
                                   splat.getSplatValue<Attribute>()));
    if (auto broadcast = dyn_cast_if_present<tt::BroadcastOp>(def)) {
      // The source's rows broadcast only when it has one.
      Value source = broadcast.getSrc();
      if (cast<RankedTensorType>(source.getType()).getDimSize(0) != 1)
        source = getStrip(source, strip, builder);
      return tt::BroadcastOp::create(builder, loc, stripType, source);
    }
    if (auto expand = dyn_cast_if_present<tt::ExpandDimsOp>(def);
        expand && expand.getAxis() > 0)
      return tt::ExpandDimsOp::create(builder, loc, stripType,
                                      getStrip(expand.getSrc(), strip, builder),
                                      expand.getAxis());
    if (def && (epilogue.ops.contains(def) || isIndexComputation(def))) {
      IRMapping mapping;
      for (Value operand : def->getOperands())
        mapping.map(operand, getStrip(operand, strip, builder));
      Operation *clone = builder.clone(*def, mapping);
      clone->getResult(0).setType(stripType);
      return clone->getResult(0);
    }
    // Anything else (the value the epilogue starts from) is read in rows.
    SmallVector<int64_t> offsets(type.getRank(), 0);
    offsets[0] = strip * rows;
    SmallVector<int64_t> strides(type.getRank(), 1);
    return tensor::ExtractSliceOp::create(
        builder, loc, stripType, value, ValueRange{}, ValueRange{},
        ValueRange{}, offsets, stripType.getShape(), strides);
  }

  /// A descriptor store of the strip's rows, through a descriptor of blocks
  /// of the strip's shape over the same tensor.
  void splitDescriptorStore(tt::DescriptorStoreOp store, int64_t strip,
                            OpBuilder &builder) {
    Location loc = store.getLoc();
    auto make = store.getDesc().getDefiningOp<tt::MakeTensorDescOp>();
    Value &descriptor = descriptors[make];
    if (!descriptor) {
      OpBuilder afterMake(make->getBlock(), std::next(make->getIterator()));
      auto block = cast<tt::TensorDescType>(make.getType()).getBlockType();
      Operation *clone = afterMake.clone(*make);
      clone->getResult(0).setType(tt::TensorDescType::get(getStripType(block)));
      descriptor = clone->getResult(0);
    }
    SmallVector<Value> indices(store.getIndices());
    Value offset = arith::ConstantIntOp::create(
        builder, loc, indices[0].getType(), strip * rows);
    indices[0] = arith::AddIOp::create(builder, loc, indices[0], offset);
    tt::DescriptorStoreOp::create(builder, loc, descriptor,
                                  getStrip(store.getSrc(), strip, builder),
                                  indices);
  }

  const Epilogue &epilogue;
  int64_t rows;
  /// The strips built so far, by value and strip: stores after the first
  /// use those built before it.
  DenseMap<std::pair<Value, int64_t>, Value> sliced;
  /// The descriptor of strips made for each descriptor of whole blocks.
  DenseMap<Operation *, Value> descriptors;
};

/// Whether a loop carries `argument` as the accumulator of a dot that
/// yields `yielded` (`acc = tl.dot(a, b, acc)`): the DPE then keeps it in
/// its own storage for the whole loop and hands it over after it. (A value
/// the loop also rescales on another unit, as attention's is, already moves
/// between units in the loop, in pages the epilogue reads.)
bool accumulatesInPlace(BlockArgument argument, Value yielded) {
  if (auto dot = yielded.getDefiningOp<tt::DotOp>())
    return dot.getC() == argument;
  if (auto dot = yielded.getDefiningOp<tt::DotScaledOp>())
    return dot.getC() == argument;
  return false;
}

/// Erases `ops` and what computed only their operands, once unused.
void eraseDead(ArrayRef<Operation *> ops) {
  SetVector<Operation *> candidates(ops.begin(), ops.end());
  while (!candidates.empty()) {
    Operation *op = candidates.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        candidates.insert(def);
    op->erase();
  }
}

/// Subtiles the epilogue of `root` (a dot's result, or a loop's that a dot
/// accumulates in place: the DPE holds it and hands it over) in strips of
/// `rows` rows, when it has one and more rows than a strip.
void subtile(Value root, int64_t rows) {
  auto type = dyn_cast<RankedTensorType>(root.getType());
  if (!type || type.getRank() != 2 || type.getDimSize(0) <= rows ||
      type.getDimSize(0) % rows != 0)
    return;
  Epilogue epilogue;
  if (failed(collectEpilogue(root, epilogue)))
    return;
  // What the stores read whole, and the epilogue's other operations, go
  // once the strips replace them.
  SmallVector<Operation *> whole;
  for (Operation *store : epilogue.stores)
    for (Value operand : store->getOperands())
      if (Operation *def = operand.getDefiningOp())
        whole.push_back(def);
  for (Operation *op : epilogue.ops)
    if (!llvm::is_contained(epilogue.stores, op))
      whole.push_back(op);
  StripBuilder builder(epilogue, rows);
  for (Operation *store : epilogue.stores)
    builder.splitStore(store, type.getDimSize(0) / rows);
  eraseDead(whole);
}

struct SubtileEpiloguesPass
    : public mtia::impl::SubtileEpiloguesBase<SubtileEpiloguesPass> {
  void runOnOperation() override {
    FailureOr<TargetDesc> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    int64_t rows = target->dpeTileM;
    SmallVector<Value> roots;
    getOperation().walk([&](Operation *op) {
      if (isa<tt::DotOp, tt::DotScaledOp>(op))
        roots.push_back(op->getResult(0));
      if (auto loop = dyn_cast<scf::ForOp>(op))
        for (auto [result, argument, yielded] :
             llvm::zip_equal(loop.getResults(), loop.getRegionIterArgs(),
                             loop.getYieldedValues()))
          if (accumulatesInPlace(argument, yielded))
            roots.push_back(result);
    });
    for (Value root : roots)
      subtile(root, rows);
  }
};

} // namespace
