//===- LowerDataMovement.cpp - The data-movement stage --------------------===//
//
// Turns the memory accesses of the tile stage into DMA transfers through
// circular buffers, and connects the units of a PE with circular buffers
// wherever a tile computed by one unit is used by another:
//
//  * A `tt.load` whose pointer the pointer analysis decomposes becomes a
//    strided `dma.load` into a CB page, read by the consuming unit with
//    `cb.wait_front`/`cb.read_front` and freed after its last use; a store
//    is the reverse. Contiguous rows move as bursts, which the DMA engine
//    needs 32-byte aligned; where that cannot be proven the transfer is
//    versioned on the run-time alignment, and rows that are never aligned
//    (or elements picked by a mask tile) move element by element
//    (`elementwise`). Pointers without that structure are moved with an
//    index tile (`dma.gather`/`dma.scatter`).
//  * The CBs of loads and stores have two pages, so inside loops the DMA
//    engine fills one page while the consumer works on the other: loads of
//    the next iteration overlap the compute of the current one. CBs between
//    compute units have one page, to save local memory.
//
// Accesses the analysis cannot decompose are reported at their location.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/PointerAnalysis.h"
#include "passes/TileConversion.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/DMA/DMADialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include "llvm/ADT/MapVector.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

namespace mtia {
#define GEN_PASS_DEF_LOWERDATAMOVEMENT
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The DMA engine moves contiguous rows only from and to addresses aligned to
/// this many bytes.
constexpr int64_t kDMAAlignmentBytes = 32;
/// Pages of the buffers of loads and stores: two, so that the DMA engine
/// fills one page while the consumer works on the other.
constexpr int64_t kTransferPages = 2;
/// Loads in loops prefetch up to this many iterations ahead, so that the
/// memory latency (hundreds of cycles) hides behind the compute of several
/// iterations, within this many bytes of pages per buffer.
constexpr int64_t kLoopLoadPages = 8;
constexpr int64_t kLoopLoadBytes = 64 * 1024;
/// Pages of a buffer between two units for one tile; buffers that carry
/// several tiles at once get more (`shareBuffers`).
constexpr int64_t kForwardPages = 1;

int64_t getElementBytes(Type type) {
  return std::max<int64_t>(
      1, getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

/// The divisor every value of a scalar atom is known to have.
int64_t getAtomDivisibility(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::max<int64_t>(1, std::abs(constant.getSExtValue()));
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return 1;
  auto function = dyn_cast<tt::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return 1;
  auto divisibility = function.getArgAttrOfType<IntegerAttr>(
      argument.getArgNumber(), "tt.divisibility");
  return divisibility ? std::max<int64_t>(1, divisibility.getInt()) : 1;
}

/// The largest divisor of every value of `expr` the kernel's facts prove.
int64_t getDivisibility(const PointerAnalysis &analysis,
                        const LinearExpr &expr) {
  int64_t result = 0;
  for (const auto &[monomial, coefficient] : expr.getTerms()) {
    int64_t term = std::abs(coefficient);
    for (unsigned index : monomial) {
      const Atom &atom = analysis.getAtom(index);
      term *= atom.iterationOf ? 1 : getAtomDivisibility(atom.value);
    }
    result = std::gcd(result, term);
  }
  // Zero is divisible by anything.
  return result == 0 ? kDMAAlignmentBytes : result;
}

/// Whether every row of a strided access starts at an address the DMA
/// engine accepts: the base is a kernel argument (buffers are page-aligned)
/// and the offset and outer strides are multiples of the alignment.
bool isProvablyAligned(const PointerAnalysis &analysis,
                       const PointerAccess &access, int64_t elementBytes) {
  auto argument = dyn_cast<BlockArgument>(access.base);
  if (!argument || !isa<tt::FuncOp>(argument.getOwner()->getParentOp()))
    return false;
  auto aligned = [&](const LinearExpr &expr) {
    return getDivisibility(analysis, expr) * elementBytes %
               kDMAAlignmentBytes ==
           0;
  };
  ArrayRef<LinearExpr> strides = access.offsets.strides;
  if (strides.empty())
    return aligned(access.offsets.offset);
  // Rows with a non-unit innermost stride move element by element, which
  // has no alignment rule.
  std::optional<int64_t> innermost = strides.back().getConstant();
  if (innermost && *innermost != 1)
    return true;
  if (!innermost)
    return false;
  return aligned(access.offsets.offset) &&
         llvm::all_of(strides.drop_back(), aligned);
}

/// Whether a strided transfer of `access` can be aligned at run time: no
/// part of it is a constant that breaks the alignment (the DMA dialect
/// rejects those statically).
bool mayBeAligned(const PointerAccess &access, int64_t elementBytes) {
  ArrayRef<LinearExpr> strides = access.offsets.strides;
  if (strides.empty())
    return false;
  auto constantMisaligned = [&](const LinearExpr &expr) {
    std::optional<int64_t> value = expr.getConstant();
    return value && *value * elementBytes % kDMAAlignmentBytes != 0;
  };
  return !constantMisaligned(access.offsets.offset) &&
         llvm::none_of(strides.drop_back(), constantMisaligned);
}

Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

//===----------------------------------------------------------------------===//
// Units
//===----------------------------------------------------------------------===//

/// Decides which unit holds each tile value: the unit of the operation that
/// computes it, the consumer of the CB it is read from, or for values carried
/// by loops and conditionals the unit that computes what is yielded.
class UnitAssignment {
public:
  tile::Unit getOwner(Value value) {
    if (auto it = owners.find(value); it != owners.end())
      return it->second;
    // A cycle through loop-carried values is broken with the default unit;
    // the value that enters the loop decides then.
    owners[value] = tile::Unit::SIMD;
    tile::Unit owner = computeOwner(value);
    owners[value] = owner;
    return owner;
  }

  /// The unit that reads `use` from local memory, if it is a tile use.
  std::optional<tile::Unit> getUser(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto unitOp = dyn_cast<tile::UnitOpInterface>(user))
      return unitOp.getUnit();
    if (auto write = dyn_cast<cb::WriteBackOp>(user))
      return write.getCb().getDefiningOp<cb::AllocOp>().getProducer();
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      // The after region of a scf.while yields to the before region.
      if (auto loop = dyn_cast<scf::WhileOp>(yield->getParentOp()))
        return getOwner(loop.getBeforeArguments()[use.getOperandNumber()]);
      return getOwner(yield->getParentOp()->getResult(use.getOperandNumber()));
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
      if (use.getOperandNumber() == 0)
        return std::nullopt;
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      return getOwner(loop.getAfterArguments()[use.getOperandNumber() - 1]);
    }
    if (auto loop = dyn_cast<scf::WhileOp>(user))
      return getOwner(loop.getBeforeArguments()[use.getOperandNumber()]);
    if (auto loop = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() < loop.getNumControlOperands())
        return std::nullopt;
      return getOwner(loop.getTiedLoopRegionIterArg(&use));
    }
    return std::nullopt;
  }

private:
  tile::Unit computeOwner(Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
      if (loop && argument.getArgNumber() > 0)
        return getOwner(loop.getYieldedValues()[argument.getArgNumber() - 1]);
      // A scf.while passes the values its after region yields to the before
      // region, and the operands of scf.condition to the after region.
      if (auto whileLoop =
              dyn_cast<scf::WhileOp>(argument.getOwner()->getParentOp())) {
        unsigned number = argument.getArgNumber();
        if (argument.getOwner() == whileLoop.getBeforeBody())
          return getOwner(whileLoop.getYieldedValues()[number]);
        return getOwner(whileLoop.getConditionOp().getArgs()[number]);
      }
      return tile::Unit::SIMD;
    }
    Operation *op = value.getDefiningOp();
    if (auto unitOp = dyn_cast<tile::UnitOpInterface>(op))
      return unitOp.getUnit();
    if (auto read = dyn_cast<cb::ReadFrontOp>(op))
      return read.getCb().getDefiningOp<cb::AllocOp>().getConsumer();
    unsigned index = cast<OpResult>(value).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return getOwner(loop.getYieldedValues()[index]);
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return getOwner(loop.getConditionOp().getArgs()[index]);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return getOwner(branch.thenYield().getOperand(index));
    return tile::Unit::SIMD;
  }

  DenseMap<Value, tile::Unit> owners;
};

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

class DataMovementLowering {
public:
  DataMovementLowering(tt::FuncOp function, int64_t maxBuffers)
      : function(function),
        entry(&function.getBody().front(), function.getBody().front().begin()),
        maxBuffers(maxBuffers) {}

  LogicalResult run() {
    SmallVector<Operation *> accesses;
    function.walk([&](Operation *op) {
      if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
              tt::DescriptorLoadOp, tt::DescriptorStoreOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      LogicalResult result = success();
      if (auto load = dyn_cast<tt::LoadOp>(op))
        result = lowerLoad(load);
      else if (auto store = dyn_cast<tt::StoreOp>(op))
        result = lowerStore(store);
      else if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
        result = lowerDescriptorLoad(load);
      else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
        result = lowerDescriptorStore(store);
      else if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
        result = lowerAtomicCAS(cas);
      else
        result = lowerAtomic(cast<tt::AtomicRMWOp>(op));
      if (failed(result))
        return failure();
    }
    if (failed(retypeDescriptorArguments()))
      return failure();
    foldCastPairs();
    connectUnits();
    insertPops();
    shareBuffers();
    reserveWhereProduced();
    orderMemoryAccesses();
    releaseLoopCarriedPointers();
    return success();
  }

  /// Moves the reserve of a buffer that takes one tile from its write_back
  /// up to the operation computing that tile, when the tile has no other
  /// use: the unit can then compute it straight into the page rather than
  /// into storage of its own that the write_back copies from. The buffer
  /// has no other reserve, so the one moved still waits only for the pop of
  /// its previous use, earlier in program order.
  void reserveWhereProduced() {
    DenseMap<Value, SmallVector<cb::ReserveBackOp>> reserves;
    function.walk([&](cb::ReserveBackOp reserve) {
      reserves[reserve.getCb()].push_back(reserve);
    });
    function.walk([&](cb::WriteBackOp writeBack) {
      Operation *producer = writeBack.getTile().getDefiningOp();
      auto found = reserves.find(writeBack.getCb());
      if (!producer || !writeBack.getTile().hasOneUse() ||
          !isa<tile::TileDialect>(producer->getDialect()) ||
          found == reserves.end() || found->second.size() != 1)
        return;
      cb::ReserveBackOp reserve = found->second.front();
      Block *block = writeBack->getBlock();
      if (producer->getBlock() != block || reserve->getBlock() != block ||
          !producer->isBeforeInBlock(reserve) ||
          !reserve->isBeforeInBlock(writeBack))
        return;
      reserve->moveBefore(producer);
    });
  }

  /// Loops still carry the tensors of pointers of the accesses lowered here,
  /// though nothing reads them any more: each iteration yields the argument
  /// advanced by pure operations used by nothing else. Such an argument now
  /// yields itself, which lets canonicalization drop it and the advance.
  void releaseLoopCarriedPointers() {
    function.walk([&](scf::ForOp loop) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [argument, result, yielded] :
           llvm::zip_equal(loop.getRegionIterArgs(), loop.getResults(),
                           yield->getOpOperands())) {
        if (!isa<tt::PointerType>(getElementTypeOrSelf(argument.getType())) ||
            !result.use_empty() || !onlyAdvances(argument, yielded))
          continue;
        yielded.set(argument);
      }
    });
  }

  /// Whether every use of `value` is a pure operation whose only use leads,
  /// the same way, to `yielded`.
  static bool onlyAdvances(Value value, OpOperand &yielded) {
    for (OpOperand &use : value.getUses()) {
      if (&use == &yielded)
        continue;
      Operation *user = use.getOwner();
      if (!isPure(user) || user->getNumResults() != 1 ||
          !onlyAdvances(user->getResult(0), yielded))
        return false;
    }
    return true;
  }

  /// The kernel argument a scalar pointer is computed from (through
  /// addptr, bitcast and the initial values of loop-carried pointers), or
  /// null when it comes from elsewhere (a load, a select).
  static Value getRootPointer(Value pointer) {
    while (true) {
      if (auto addPtr = pointer.getDefiningOp<tt::AddPtrOp>()) {
        pointer = addPtr.getPtr();
        continue;
      }
      if (auto bitcast = pointer.getDefiningOp<tt::BitcastOp>()) {
        pointer = bitcast.getSrc();
        continue;
      }
      auto argument = dyn_cast<BlockArgument>(pointer);
      if (!argument)
        return nullptr;
      Operation *owner = argument.getOwner()->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(owner);
          loop && argument.getArgNumber() > 0) {
        pointer = loop.getInitArgs()[argument.getArgNumber() - 1];
        continue;
      }
      return isa<tt::FuncOp>(owner) ? argument : nullptr;
    }
  }

  /// Whether `writer` may run before `reader` in one program: it comes
  /// first in program order, or a loop encloses both.
  static bool mayPrecede(Operation *writer, Operation *reader) {
    for (Operation *readerAncestor = reader; readerAncestor;
         readerAncestor = readerAncestor->getParentOp()) {
      Block *block = readerAncestor->getBlock();
      if (!block)
        return true;
      Operation *writerAncestor = block->findAncestorOpInBlock(*writer);
      if (!writerAncestor)
        continue;
      if (writerAncestor == readerAncestor ||
          writerAncestor->isBeforeInBlock(readerAncestor))
        return true;
      for (Operation *enclosing = block->getParentOp(); enclosing;
           enclosing = enclosing->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(enclosing))
          return true;
      return false;
    }
    return true;
  }

  /// Orders reads of global memory after the DMA writes (stores, scatters,
  /// atomics) that may precede them in the program and touch the same
  /// kernel argument (accesses through pointers of unknown origin alias
  /// everything; distinct arguments are taken not to overlap). The DMA
  /// engine's inbound and outbound queues run independently, and the control
  /// core's scalar loads and stores bypass both, so such a read — a DMA
  /// load or gather, or a scalar access of the control core — waits for the
  /// transfers issued before it (`dma.wait` without tokens), as early as
  /// possible: before the outermost loop or branch around it that contains
  /// none of those writes. A scalar store or atomic of the control core
  /// waits for earlier DMA reads of its argument too.
  void orderMemoryAccesses() {
    // Each access: the operation, its root pointer, and whether it writes.
    struct Access {
      Operation *op;
      Value root;
      bool writes;
    };
    SmallVector<Access> transfers, ordered;
    function.walk([&](Operation *op) {
      if (auto store = dyn_cast<dma::StoreOp>(op))
        transfers.push_back({op, getRootPointer(store.getBase()), true});
      else if (auto scatter = dyn_cast<dma::ScatterOp>(op))
        transfers.push_back({op, getRootPointer(scatter.getBase()), true});
      else if (auto atomic = dyn_cast<dma::AtomicRMWOp>(op))
        transfers.push_back({op, getRootPointer(atomic.getBase()), true});
      else if (auto cas = dyn_cast<dma::AtomicCASOp>(op))
        transfers.push_back({op, getRootPointer(cas.getBase()), true});
      else if (auto load = dyn_cast<dma::LoadOp>(op))
        transfers.push_back({op, getRootPointer(load.getBase()), false});
      else if (auto gather = dyn_cast<dma::GatherOp>(op))
        transfers.push_back({op, getRootPointer(gather.getBase()), false});
      else if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(
                   op))
        ordered.push_back(
            {op, getRootPointer(op->getOperand(0)), !isa<tt::LoadOp>(op)});
    });
    // DMA reads wait for DMA writes; the control core's accesses also for
    // DMA reads when they write.
    for (const Access &transfer : transfers)
      if (!transfer.writes)
        ordered.push_back(transfer);
    for (const Access &access : ordered) {
      SmallVector<Operation *> conflicts;
      for (const Access &transfer : transfers)
        if ((transfer.writes || access.writes) &&
            (!access.root || !transfer.root || access.root == transfer.root) &&
            mayPrecede(transfer.op, access.op))
          conflicts.push_back(transfer.op);
      if (conflicts.empty())
        continue;
      Operation *at = access.op;
      for (Operation *parent = at->getParentOp();
           parent && !isa<tt::FuncOp>(parent); parent = parent->getParentOp()) {
        if (llvm::any_of(conflicts, [&](Operation *transfer) {
              return parent->isAncestor(transfer);
            }))
          break;
        at = parent;
      }
      if (isa_and_present<dma::WaitOp>(at->getPrevNode()))
        continue;
      OpBuilder builder(at);
      dma::WaitOp::create(builder, access.op->getLoc(), ValueRange{});
    }
  }

  /// Removes the casts between tiles and tensors that the conversion of
  /// address computations leaves around loaded tiles.
  void foldCastPairs() {
    SmallVector<UnrealizedConversionCastOp> casts;
    function.walk([&](UnrealizedConversionCastOp cast) {
      if (isa<tile::TileType>(cast.getResult(0).getType()))
        casts.push_back(cast);
    });
    for (UnrealizedConversionCastOp cast : casts)
      foldCastPair(cast);
  }

private:
  /// A circular buffer between two units, allocated at the function entry.
  cb::AllocOp allocate(StringRef role, tile::TileType pageType,
                       tile::Unit producer, tile::Unit consumer, Location loc,
                       int64_t pages = kTransferPages) {
    std::string name = (role + Twine(buffers++)).str();
    return cb::AllocOp::create(entry, loc,
                               cb::CircularBufferType::get(pageType, pages),
                               name, producer, consumer);
  }

  /// Where a tile read at `point` stops being used: right after the last
  /// operation of `point`'s block that (or whose regions) uses it.
  /// The SIMD engine may read a rank-0 tile where the tiles a
  /// `tile.splat_element` spreads it into are read (the program stage folds
  /// the splat into their operands), so those reads use it too.
  static Operation *findLastUse(Value tileValue, Block *block) {
    Operation *last = nullptr;
    auto consider = [&](Operation *user) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
        last = ancestor;
    };
    for (Operation *user : tileValue.getUsers()) {
      consider(user);
      if (isa<tile::SplatElementOp>(user))
        for (Operation *reader : user->getResult(0).getUsers())
          consider(reader);
    }
    return last;
  }

  /// Reads page 0 of `buffer` as the consumer at the builder's point. The
  /// page is freed once the lowering is complete, after the last use of the
  /// tile in its block.
  Value consume(cb::AllocOp buffer, OpBuilder &builder, Location loc,
                function_ref<void(Value)> replaceUses) {
    cb::WaitFrontOp::create(builder, loc, buffer, 1);
    auto read =
        cb::ReadFrontOp::create(builder, loc, buffer.getType().getPageType(),
                                buffer, static_cast<uint64_t>(0));
    replaceUses(read.getResult());
    pendingPops.push_back(read);
    return read.getResult();
  }

  /// Frees the page of every `cb.read_front` after the last use of its tile.
  void insertPops() {
    for (cb::ReadFrontOp read : pendingPops) {
      Operation *last = findLastUse(read.getResult(), read->getBlock());
      OpBuilder after(read.getContext());
      after.setInsertionPointAfter(last ? last : read.getOperation());
      cb::PopFrontOp::create(after, read.getLoc(), read.getCb(), 1);
    }
  }

  /// Writes `tileValue` into page 0 of `buffer` as its producer.
  void produce(cb::AllocOp buffer, Value tileValue, OpBuilder &builder,
               Location loc) {
    cb::ReserveBackOp::create(builder, loc, buffer, 1);
    cb::WriteBackOp::create(builder, loc, tileValue, buffer,
                            static_cast<uint64_t>(0));
    cb::PushBackOp::create(builder, loc, buffer, 1);
  }

  /// The per-dimension counts of valid indices of a structured mask without
  /// lower bounds, as index values.
  SmallVector<Value> materializeBounds(Location loc, const MaskBounds *bounds,
                                       ArrayRef<int64_t> shape,
                                       OpBuilder &builder) {
    SmallVector<Value> result;
    Type index = builder.getIndexType();
    for (auto [dim, size] : llvm::enumerate(shape)) {
      Value bound = indexConstant(builder, loc, size);
      if (bounds) {
        for (const LinearExpr &upper : bounds->uppers[dim])
          bound = arith::MinSIOp::create(
              builder, loc, bound,
              analysis.materialize(upper, builder, loc, index));
        bound = arith::MaxSIOp::create(builder, loc, bound,
                                       indexConstant(builder, loc, 0));
      }
      result.push_back(bound);
    }
    if (!bounds || result.empty())
      return result;
    // Tile-wide conditions switch the whole transfer off.
    Value enabled;
    auto conjoin = [&](Value condition) {
      enabled = enabled
                    ? arith::AndIOp::create(builder, loc, enabled, condition)
                    : condition;
    };
    for (Value condition : bounds->conditions)
      conjoin(condition);
    for (const LinearExpr &positive : bounds->positive)
      conjoin(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sgt,
          analysis.materialize(positive, builder, loc, index),
          indexConstant(builder, loc, 0)));
    if (enabled)
      result.front() =
          arith::SelectOp::create(builder, loc, enabled, result.front(),
                                  indexConstant(builder, loc, 0));
    return result;
  }

  /// The scalar a load reads where its mask is false, from its `other`.
  FailureOr<Value> getPadding(tt::LoadOp load, OpBuilder &builder) {
    Value other = load.getOther();
    if (!other)
      return Value();
    auto otherCast = other.getDefiningOp<UnrealizedConversionCastOp>();
    Operation *source =
        otherCast ? otherCast.getInputs().front().getDefiningOp() : nullptr;
    if (auto splat = dyn_cast_if_present<tile::SplatOp>(source))
      return splat.getScalar();
    if (auto constant = dyn_cast_if_present<tile::ConstantOp>(source)) {
      auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (elements && elements.isSplat())
        return arith::ConstantOp::create(
                   builder, load.getLoc(),
                   cast<TypedAttr>(elements.getSplatValue<Attribute>()))
            .getResult();
    }
    return load.emitError("a load whose 'other' value differs between "
                          "elements is not supported by the DMA lowering yet"),
           failure();
  }

  /// The index along `dim` of every element of a row-major tile of `shape`,
  /// computed on the SIMD engine from the tile's row-major positions `iota`
  /// (an i32 tile of `shape`): (position / inner) % size.
  static Value buildIndexAlong(int64_t dim, ArrayRef<int64_t> shape,
                               Value iota, OpBuilder &builder, Location loc) {
    auto indexType = cast<tile::TileType>(iota.getType());
    int64_t inner = 1;
    for (int64_t size : shape.drop_front(dim + 1))
      inner *= size;
    auto splat = [&](int64_t value) {
      return createIntegerSplat(builder, loc, indexType, value);
    };
    Value index = iota;
    if (inner != 1)
      index = tile::BinaryOp::create(
          builder, loc, indexType, tile::BinaryKind::DivSI, index, splat(inner));
    if (dim != 0)
      index = tile::BinaryOp::create(builder, loc, indexType,
                                     tile::BinaryKind::RemSI, index,
                                     splat(shape[dim]));
    return index;
  }

  /// The row-major position of every element of a tile of `shape`, as i32.
  static Value buildPositions(ArrayRef<int64_t> shape, OpBuilder &builder,
                              Location loc) {
    return tile::IotaOp::create(
        builder, loc, tile::TileType::get(shape, builder.getI32Type()), 0);
  }

  /// The element offsets `sum_d strides[d] * i_d` of a structured access
  /// relative to `base`, which becomes the access's pointer plus its scalar
  /// offset, as a tile of i32. Offsets within a block are 32-bit, as
  /// Triton's are; where the strides are only known at run time, the
  /// control core asserts that the block's span fits.
  Value buildIndexTile(Operation *op, const PointerAccess &access,
                       ArrayRef<int64_t> shape, OpBuilder &builder,
                       Value &base) {
    Location loc = op->getLoc();
    Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
    // `base` is the access's base (cast to the accessed element type) and
    // becomes the base advanced by the offset. A host descriptor's argument
    // becomes a pointer to its base tensor.
    Type pointerType = base.getType();
    if (auto descType = dyn_cast<tt::TensorDescType>(pointerType))
      pointerType =
          tt::PointerType::get(descType.getBlockType().getElementType());
    base = tt::AddPtrOp::create(
        builder, loc, pointerType, base,
        analysis.materialize(access.offsets.offset, builder, loc, i64));
    Value positions = buildPositions(shape, builder, loc);
    auto indexType = cast<tile::TileType>(positions.getType());
    Value indices = createIntegerSplat(builder, loc, indexType, 0);
    Value span = arith::ConstantIntOp::create(builder, loc, i64, 0);
    bool runtimeStrides = false;
    for (auto [dim, stride] : llvm::enumerate(access.offsets.strides)) {
      if (stride.isZero())
        continue;
      runtimeStrides |= !stride.getConstant();
      Value wide = analysis.materialize(stride, builder, loc, i64);
      Value negated = arith::SubIOp::create(
          builder, loc, arith::ConstantIntOp::create(builder, loc, i64, 0),
          wide);
      Value magnitude = arith::MaxSIOp::create(builder, loc, wide, negated);
      span = arith::AddIOp::create(
          builder, loc, span,
          arith::MulIOp::create(
              builder, loc, magnitude,
              arith::ConstantIntOp::create(builder, loc, i64, shape[dim] - 1)));
      Value along = buildIndexAlong(dim, shape, positions, builder, loc);
      Value strideTile = tile::SplatOp::create(
          builder, loc, indexType,
          analysis.materialize(stride, builder, loc, i32));
      Value term = tile::BinaryOp::create(
          builder, loc, indexType, tile::BinaryKind::MulI, along, strideTile);
      indices = tile::BinaryOp::create(builder, loc, indexType,
                                       tile::BinaryKind::AddI, indices, term);
    }
    if (runtimeStrides) {
      Value fits = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::slt, span,
          arith::ConstantIntOp::create(builder, loc, i64, int64_t(1) << 31));
      tt::AssertOp::create(builder, loc, fits,
                           "the element offsets of a block exceed 32 bits");
    }
    return indices;
  }

  /// The mask of an indexed transfer: the index is below each bound. A tile
  /// of rank 0 has no bounds and needs no mask.
  Value buildBoundsMask(ArrayRef<Value> bounds, ArrayRef<int64_t> shape,
                        OpBuilder &builder, Location loc) {
    Type i32 = builder.getI32Type();
    Value positions = buildPositions(shape, builder, loc);
    auto indexType = cast<tile::TileType>(positions.getType());
    auto boolType = indexType.withElementType(builder.getI1Type());
    Value mask;
    for (auto [dim, bound] : llvm::enumerate(bounds)) {
      // A bound that is the whole dimension holds everywhere.
      if (getConstantIntValue(bound) == shape[dim])
        continue;
      Value along = buildIndexAlong(dim, shape, positions, builder, loc);
      Value limit = tile::SplatOp::create(
          builder, loc, indexType,
          arith::IndexCastOp::create(builder, loc, i32, bound));
      Value inside = tile::CmpIOp::create(
          builder, loc, boolType, tile::CmpIPredicate::SLT, along, limit);
      mask = mask ? tile::BinaryOp::create(builder, loc, boolType,
                                           tile::BinaryKind::AndI, mask, inside)
                        .getResult()
                  : inside;
    }
    return mask;
  }

  /// How an access moves its elements: a strided window (`aligned`), or
  /// element offsets from `base` in an index tile with an optional mask tile.
  struct StructuredAccess {
    Value base;
    std::optional<PointerAccess> pointer;
    SmallVector<Value> bounds;
    bool aligned = false;
    /// Whether the choice between a strided transfer of bursts and a slower
    /// one is made at run time: by the alignment of the rows (the slower one
    /// moves the window element by element) and the assumptions of the
    /// pointer's structure (the slower one is indexed).
    bool versioned = false;
    /// Whether the strided window moves element by element, which has no
    /// alignment rule: its rows may be misaligned, or a mask tile (`mask`)
    /// picks its elements.
    bool elementwise = false;
    Value indices;
    Value mask;
    /// For a pointer structured only under assumptions: the base and index
    /// tile of its actual addresses, for when they do not hold.
    Value unstructuredBase, unstructuredIndices;
  };

  /// Analyses the pointer and mask of an access and materializes, before
  /// `op`, what its transfer needs. A structured pointer of a load or store
  /// (`strided`) gets a strided window: of bursts when every row is aligned
  /// (versioned at run time when that depends on run-time values), element
  /// by element otherwise or under a mask that is not a set of bounds (a
  /// mask tile). Other accesses get index and mask tiles, computed from the
  /// structure or, for what has none, by converting the address and mask
  /// computations to tile ops.
  FailureOr<StructuredAccess> analyzeAccess(Operation *op, Value pointer,
                                            Value mask, ArrayRef<int64_t> shape,
                                            OpBuilder &builder,
                                            bool strided = true) {
    Location loc = op->getLoc();
    StructuredAccess result;
    result.pointer = analysis.analyzePointer(pointer);
    std::optional<MaskBounds> bounds;
    if (mask)
      bounds = analysis.analyzeMask(mask);
    // A transfer's window starts at index 0 of every dimension; a mask with
    // lower bounds takes the indexed path with a mask tile.
    if (bounds && llvm::any_of(bounds->lowers, [](const auto &lowers) {
          return !lowers.empty();
        }))
      bounds.reset();
    if (!mask || bounds)
      result.bounds =
          materializeBounds(loc, bounds ? &*bounds : nullptr, shape, builder);
    int64_t elementBytes = getElementBytes(
        cast<tt::PointerType>(getElementTypeOrSelf(pointer.getType()))
            .getPointeeType());
    bool assumed = result.pointer && !result.pointer->offsets.assumptions.empty();
    if (result.pointer) {
      result.base = castBase(result.pointer->base, pointer, builder, loc);
      bool structuredMask = !mask || bounds;
      // A single element (a rank-0 tile) has no window: it is scattered.
      bool windowed = !shape.empty();
      if (windowed && strided && !assumed) {
        if (structuredMask &&
            isProvablyAligned(analysis, *result.pointer, elementBytes)) {
          result.aligned = true;
          return result;
        }
        if (structuredMask && mayBeAligned(*result.pointer, elementBytes)) {
          result.versioned = true;
          return result;
        }
        result.elementwise = true;
        if (!structuredMask) {
          FailureOr<Value> maskTile = convertToTile(op, mask, builder);
          if (failed(maskTile))
            return failure();
          result.mask = *maskTile;
        }
        return result;
      }
      result.versioned = windowed && strided && structuredMask &&
                         mayBeAligned(*result.pointer, elementBytes);
      if (!assumed)
        result.indices =
            buildIndexTile(op, *result.pointer, shape, builder, result.base);
    }
    if (!result.pointer || assumed) {
      FailureOr<std::pair<Value, Value>> offsets =
          buildOffsetTile(op, pointer, builder);
      if (failed(offsets))
        return failure();
      std::tie(result.unstructuredBase, result.unstructuredIndices) = *offsets;
      result.unstructuredBase =
          castBase(result.unstructuredBase, pointer, builder, loc);
      if (result.versioned)
        return result;
      result.base = result.unstructuredBase;
      result.indices = result.unstructuredIndices;
    }
    if (mask && !bounds) {
      FailureOr<Value> maskTile = convertToTile(op, mask, builder);
      if (failed(maskTile))
        return failure();
      result.mask = *maskTile;
    } else {
      result.mask = buildBoundsMask(result.bounds, shape, builder, loc);
    }
    return result;
  }

  /// `base` as a pointer to the elements `pointer` points to (the analyses
  /// see through bitcasts between pointers to elements of one size).
  static Value castBase(Value base, Value pointer, OpBuilder &builder,
                        Location loc) {
    auto type = cast<tt::PointerType>(getElementTypeOrSelf(pointer.getType()));
    if (base.getType() == type)
      return base;
    return tt::BitcastOp::create(builder, loc, type, base);
  }

  /// The scalar pointer a tensor of pointers is splat from, and the tensor
  /// of its element offsets from it, built as tensor ops before the
  /// builder's point. Offsets that one `tt.addptr` applies keep their type
  /// (i32 index tiles take half the local memory of i64 ones); offsets that
  /// combine several are summed in i64.
  FailureOr<std::pair<Value, Value>>
  buildOffsetTensor(Operation *op, Value pointer, OpBuilder &builder) {
    Location loc = op->getLoc();
    auto pointerType = cast<RankedTensorType>(pointer.getType());
    auto offsetType = pointerType.clone(builder.getI64Type());
    auto widen = [&](Value offsets) -> Value {
      if (getElementTypeOrSelf(offsets.getType()).isInteger(64))
        return offsets;
      return arith::ExtSIOp::create(builder, loc, offsetType, offsets);
    };
    // Pointers a loop advances uniformly: the offsets of their initial
    // value, computed before the loop, from a base advanced in this
    // iteration.
    if (auto argument = dyn_cast<BlockArgument>(pointer)) {
      std::optional<LoopAdvance> advance = analysis.analyzeLoopAdvance(argument);
      if (!advance) {
        const Unstructured &why = analysis.getFailure();
        InFlightDiagnostic error =
            op->emitError("the pointers of this access are carried by a loop "
                          "that the indexed DMA lowering cannot follow: ")
            << why.reason;
        if (why.op)
          error.attachNote(why.op->getLoc()) << "see the loop";
        return failure();
      }
      OpBuilder beforeLoop(argument.getOwner()->getParentOp());
      auto initial = buildOffsetTensor(op, advance->init, beforeLoop);
      if (failed(initial))
        return failure();
      Value elements = analysis.materialize(advance->elements, builder, loc,
                                            builder.getI64Type());
      Value base = tt::AddPtrOp::create(builder, loc, initial->first.getType(),
                                        initial->first, elements);
      return std::make_pair(base, initial->second);
    }
    Operation *def = pointer.getDefiningOp();
    if (auto splat = dyn_cast_if_present<tt::SplatOp>(def)) {
      Value zero = arith::ConstantOp::create(
          builder, loc,
          DenseElementsAttr::get(offsetType, builder.getI64IntegerAttr(0)));
      return std::make_pair(splat.getSrc(), zero);
    }
    if (auto addPtr = dyn_cast_if_present<tt::AddPtrOp>(def)) {
      auto inner = buildOffsetTensor(op, addPtr.getPtr(), builder);
      if (failed(inner))
        return failure();
      Value offset = addPtr.getOffset();
      if (matchPattern(inner->second, m_Zero()))
        return std::make_pair(inner->first, offset);
      return std::make_pair(
          inner->first, Value(arith::AddIOp::create(
                            builder, loc, widen(inner->second), widen(offset))));
    }
    // A choice between two tensors of pointers is a choice between their
    // offsets, those of the second taken from the base of the first.
    if (auto select = dyn_cast_if_present<arith::SelectOp>(def)) {
      auto chosen = buildOffsetTensor(op, select.getTrueValue(), builder);
      if (failed(chosen))
        return failure();
      auto other = buildOffsetTensor(op, select.getFalseValue(), builder);
      if (failed(other))
        return failure();
      Value chosenOffsets = chosen->second;
      Value otherOffsets = other->second;
      if (other->first != chosen->first ||
          chosenOffsets.getType() != otherOffsets.getType()) {
        chosenOffsets = widen(chosenOffsets);
        otherOffsets = widen(otherOffsets);
      }
      if (other->first != chosen->first) {
        Type i64 = builder.getI64Type();
        Value distance = arith::DivSIOp::create(
            builder, loc,
            arith::SubIOp::create(
                builder, loc,
                tt::PtrToIntOp::create(builder, loc, i64, other->first),
                tt::PtrToIntOp::create(builder, loc, i64, chosen->first)),
            arith::ConstantIntOp::create(builder, loc, i64,
                                         getPointeeBytes(pointer)));
        otherOffsets = arith::AddIOp::create(
            builder, loc, otherOffsets,
            tt::SplatOp::create(builder, loc, offsetType, distance));
      }
      Value offsets = arith::SelectOp::create(
          builder, loc, select.getCondition(), chosenOffsets, otherOffsets);
      return std::make_pair(chosen->first, offsets);
    }
    // Pointers reinterpreted as pointers to elements of the same size keep
    // their offsets (the access casts the base).
    if (auto bitcast = dyn_cast_if_present<tt::BitcastOp>(def);
        bitcast && getPointeeBytes(bitcast.getSrc()) == getPointeeBytes(pointer))
      return buildOffsetTensor(op, bitcast.getSrc(), builder);
    if (isa_and_present<tt::BroadcastOp, tt::ExpandDimsOp, tt::TransOp>(def)) {
      auto inner = buildOffsetTensor(op, def->getOperand(0), builder);
      if (failed(inner))
        return failure();
      OperationState state(
          loc, def->getName(), ValueRange{inner->second},
          TypeRange{pointerType.clone(getElementTypeOrSelf(inner->second))},
          def->getAttrs());
      Value reshaped = builder.create(state)->getResult(0);
      return std::make_pair(inner->first, reshaped);
    }
    return op->emitError("the pointers of this access are computed by '")
               << def->getName()
               << "', which the indexed DMA lowering does not support yet",
           failure();
  }

  /// The base and the index tile of an access with unstructured pointers.
  FailureOr<std::pair<Value, Value>>
  buildOffsetTile(Operation *op, Value pointer, OpBuilder &builder) {
    auto offsets = buildOffsetTensor(op, pointer, builder);
    if (failed(offsets))
      return failure();
    FailureOr<Value> tileValue = convertToTile(op, offsets->second, builder);
    if (failed(tileValue))
      return failure();
    return std::make_pair(offsets->first, *tileValue);
  }

  /// Converts the tensor computation of `value` to tile ops before the
  /// builder's point: the operations it depends on are copied and the
  /// copies converted, so the originals keep serving other accesses.
  FailureOr<Value> convertToTile(Operation *op, Value value,
                                 OpBuilder &builder) {
    // Index and mask computations broadcast rows and columns into blocks;
    // recomputed at the block's shape they need no memory-layout unit.
    SmallVector<Operation *> lifted;
    if (FailureOr<Value> full = liftToFullShape(value, lifted);
        succeeded(full))
      value = *full;
    llvm::scope_exit eraseLifted([&] {
      for (Operation *liftedOp : llvm::reverse(lifted))
        if (liftedOp->use_empty())
          liftedOp->erase();
    });
    // The tensor operations `value` depends on, definitions first.
    SetVector<Operation *> chain;
    std::function<LogicalResult(Value)> collect =
        [&](Value v) -> LogicalResult {
      if (!isValueTensor(v.getType()))
        return success();
      Operation *def = v.getDefiningOp();
      if (!def)
        return op->emitError("the addresses or mask of this access depend on "
                             "a tensor carried by a loop, which the indexed "
                             "DMA lowering does not support yet");
      // A tile already computed (a loaded tensor) ends the chain.
      if (auto toTensor = dyn_cast<UnrealizedConversionCastOp>(def);
          toTensor && isa<tile::TileType>(toTensor.getInputs()[0].getType()))
        return success();
      if (def->getNumRegions() != 0)
        return op->emitError("the addresses or mask of this access are "
                             "computed by '")
               << def->getName() << "', which the indexed DMA lowering does "
               << "not support yet";
      if (chain.contains(def))
        return success();
      for (Value operand : def->getOperands())
        if (failed(collect(operand)))
          return failure();
      chain.insert(def);
      return success();
    };
    if (failed(collect(value)))
      return failure();
    IRMapping mapping;
    SmallVector<Operation *> copies;
    for (Operation *original : chain) {
      OpBuilder after(original->getContext());
      after.setInsertionPointAfter(original);
      copies.push_back(after.clone(*original, mapping));
    }
    Value root = mapping.lookupOrDefault(value);
    auto tileType =
        cast<tile::TileType>(converter.convertType(value.getType()));
    auto anchor = UnrealizedConversionCastOp::create(builder, op->getLoc(),
                                                     tileType, root);
    ConversionTarget target(*function.getContext());
    DenseSet<Operation *> toConvert(copies.begin(), copies.end());
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *candidate) { return !toConvert.contains(candidate); });
    RewritePatternSet patterns(function.getContext());
    populateTileConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(copies, target, std::move(patterns))))
      return failure();
    Value tileValue = foldCastPair(anchor);
    return tileValue;
  }

  /// `value`, a tensor computed from `tt.make_range`, `tt.splat`, splat
  /// constants, `tt.expand_dims`, `tt.broadcast`, `tt.trans` and elementwise
  /// operations, recomputed with every operation at the shape of `value`: a
  /// range becomes the coordinate of its dimension (from the row-major
  /// positions, on the SIMD engine), and broadcasts, expansions and
  /// transpositions disappear. The new operations (appended to `created`)
  /// follow `value`'s definition. Fails, creating nothing that is used, for
  /// any other operation.
  FailureOr<Value> liftToFullShape(Value value,
                                   SmallVectorImpl<Operation *> &created) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    Operation *def = value.getDefiningOp();
    if (!type || type.getRank() == 0 || !def)
      return failure();
    ArrayRef<int64_t> shape = type.getShape();
    Location loc = def->getLoc();
    OpBuilder builder(def->getContext());
    builder.setInsertionPointAfter(def);
    auto fullType = [&](Type elementType) {
      return RankedTensorType::get(shape, elementType);
    };
    auto record = [&](Value result) {
      created.push_back(result.getDefiningOp());
      return result;
    };
    Value positions;
    std::map<std::pair<void *, SmallVector<int64_t>>, Value> cache;
    // `dims[i]` is the dimension of `value` that dimension i of `v` spans.
    std::function<FailureOr<Value>(Value, SmallVector<int64_t>)> lift =
        [&](Value v, SmallVector<int64_t> dims) -> FailureOr<Value> {
      auto key = std::make_pair(v.getAsOpaquePointer(), dims);
      if (auto found = cache.find(key); found != cache.end())
        return found->second;
      auto vType = dyn_cast<RankedTensorType>(v.getType());
      Operation *vDef = v.getDefiningOp();
      if (!vType || !vDef)
        return failure();
      Type elementType = vType.getElementType();
      FailureOr<Value> result = failure();
      bool identity = vType.getShape() == shape &&
                      llvm::equal(dims, llvm::seq<int64_t>(0, shape.size()));
      if (auto range = dyn_cast<tt::MakeRangeOp>(vDef)) {
        int64_t length = range.getEnd() - range.getStart();
        Value coordinates;
        if (length == 1) {
          coordinates = record(arith::ConstantOp::create(
              builder, loc,
              DenseElementsAttr::get(fullType(elementType),
                                     builder.getI32IntegerAttr(0))));
        } else if (length == shape[dims.front()]) {
          if (!positions)
            positions = buildPositions(shape, builder, loc);
          Value along =
              buildIndexAlong(dims.front(), shape, positions, builder, loc);
          coordinates = record(UnrealizedConversionCastOp::create(
                                   builder, loc, fullType(elementType), along)
                                   .getResult(0));
        } else {
          return failure();
        }
        result = coordinates;
        if (range.getStart() != 0)
          result = record(arith::AddIOp::create(
              builder, loc, coordinates,
              record(arith::ConstantOp::create(
                  builder, loc,
                  DenseElementsAttr::get(
                      fullType(elementType),
                      builder.getI32IntegerAttr(range.getStart()))))));
      } else if (auto splat = dyn_cast<tt::SplatOp>(vDef)) {
        result = record(tt::SplatOp::create(builder, loc, fullType(elementType),
                                            splat.getSrc()));
      } else if (auto constant = dyn_cast<arith::ConstantOp>(vDef)) {
        auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!elements || !elements.isSplat())
          return failure();
        result = record(arith::ConstantOp::create(
            builder, loc, elements.resizeSplat(fullType(elementType))));
      } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(vDef)) {
        SmallVector<int64_t> inner(dims);
        inner.erase(inner.begin() + expand.getAxis());
        result = lift(expand.getSrc(), inner);
      } else if (auto broadcast = dyn_cast<tt::BroadcastOp>(vDef)) {
        result = lift(broadcast.getSrc(), dims);
      } else if (auto trans = dyn_cast<tt::TransOp>(vDef)) {
        SmallVector<int64_t> inner(dims.size());
        for (auto [position, source] : llvm::enumerate(trans.getOrder()))
          inner[source] = dims[position];
        result = lift(trans.getSrc(), inner);
      } else if (identity && isa<UnrealizedConversionCastOp>(vDef)) {
        result = v;
      } else if (vDef->hasTrait<OpTrait::Elementwise>() &&
                 vDef->getNumResults() == 1 && vDef->getNumRegions() == 0) {
        SmallVector<Value> operands;
        for (Value operand : vDef->getOperands()) {
          if (!isa<RankedTensorType>(operand.getType())) {
            operands.push_back(operand);
            continue;
          }
          FailureOr<Value> liftedOperand = lift(operand, dims);
          if (failed(liftedOperand))
            return failure();
          operands.push_back(*liftedOperand);
        }
        OperationState state(loc, vDef->getName(), operands,
                             TypeRange{fullType(elementType)},
                             vDef->getAttrs());
        result = record(builder.create(state)->getResult(0));
      }
      if (succeeded(result))
        cache[key] = *result;
      return result;
    };
    return lift(value, llvm::to_vector(llvm::seq<int64_t>(0, shape.size())));
  }

  /// Replaces a tensor -> tile cast of a tile -> tensor cast by the tile.
  static Value foldCastPair(UnrealizedConversionCastOp toTile) {
    auto toTensor =
        toTile.getInputs()[0].getDefiningOp<UnrealizedConversionCastOp>();
    if (!toTensor ||
        toTensor.getInputs()[0].getType() != toTile.getResult(0).getType())
      return toTile.getResult(0);
    Value tileValue = toTensor.getInputs()[0];
    toTile.getResult(0).replaceAllUsesWith(tileValue);
    toTile.erase();
    if (toTensor->use_empty())
      toTensor.erase();
    return tileValue;
  }

  SmallVector<Value> materializeStrides(const PointerAccess &access,
                                        OpBuilder &builder, Location loc) {
    return llvm::to_vector(
        llvm::map_range(access.offsets.strides, [&](const LinearExpr &stride) {
          return analysis.materialize(stride, builder, loc,
                                      builder.getIndexType());
        }));
  }

  LogicalResult lowerLoad(tt::LoadOp load) {
    auto resultType = dyn_cast<RankedTensorType>(load.getType());
    if (!resultType)
      return success();
    // A loaded tensor stored as it is, which the tile stage left on
    // tensors, goes through a tile too.
    auto pageType =
        tile::TileType::get(resultType.getShape(), resultType.getElementType());
    for (OpOperand &use : llvm::make_early_inc_range(load->getUses())) {
      auto store = dyn_cast<tt::StoreOp>(use.getOwner());
      if (!store || use.get() != store.getValue())
        continue;
      OpBuilder before(use.getOwner());
      auto toTile = UnrealizedConversionCastOp::create(
          before, load.getLoc(), pageType, load.getResult());
      use.set(UnrealizedConversionCastOp::create(
                  before, load.getLoc(), resultType, toTile.getResult(0))
                  .getResult(0));
    }
    // A loaded tensor that computes addresses or masks (an index table)
    // becomes a tensor view of the loaded tile for the accesses that use it.
    Value addressing;
    SmallVector<UnrealizedConversionCastOp> casts;
    for (OpOperand &use : llvm::make_early_inc_range(load->getUses())) {
      if (auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner())) {
        casts.push_back(toTile);
        continue;
      }
      if (!addressing) {
        OpBuilder after(load->getContext());
        after.setInsertionPointAfter(load);
        auto toTile = UnrealizedConversionCastOp::create(
            after, load.getLoc(), pageType, load.getResult());
        casts.push_back(toTile);
        addressing = UnrealizedConversionCastOp::create(
                         after, load.getLoc(), resultType, toTile.getResult(0))
                         .getResult(0);
      }
      use.set(addressing);
    }
    OpBuilder builder(load);
    FailureOr<StructuredAccess> access = analyzeAccess(
        load, load.getPtr(), load.getMask(), resultType.getShape(), builder);
    if (failed(access))
      return failure();
    FailureOr<Value> padding = getPadding(load, builder);
    if (failed(padding))
      return failure();
    emitRead(load, *access, *padding, pageType, casts, builder);
    load.erase();
    return success();
  }

  /// Whether, at run time, every row of a strided access starts at an
  /// address the DMA engine accepts.
  Value buildAlignmentCondition(const PointerAccess &access,
                                int64_t elementBytes, OpBuilder &builder,
                                Location loc) {
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i64, value);
    };
    auto isAligned = [&](Value bytes) -> Value {
      Value remainder = arith::RemSIOp::create(builder, loc, bytes,
                                               constant(kDMAAlignmentBytes));
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                   remainder, constant(0));
    };
    Value address = arith::AddIOp::create(
        builder, loc, tt::PtrToIntOp::create(builder, loc, i64, access.base),
        arith::MulIOp::create(
            builder, loc,
            analysis.materialize(access.offsets.offset, builder, loc, i64),
            constant(elementBytes)));
    Value condition = isAligned(address);
    ArrayRef<LinearExpr> strides = access.offsets.strides;
    for (const LinearExpr &stride : strides.drop_back())
      condition = arith::AndIOp::create(
          builder, loc, condition,
          isAligned(arith::MulIOp::create(
              builder, loc, analysis.materialize(stride, builder, loc, i64),
              constant(elementBytes))));
    // Rows with a non-unit innermost stride move element by element, which
    // has no alignment rule.
    if (!strides.back().getConstant())
      condition = arith::OrIOp::create(
          builder, loc, condition,
          arith::CmpIOp::create(
              builder, loc, arith::CmpIPredicate::ne,
              analysis.materialize(strides.back(), builder, loc, i64),
              constant(1)));
    return condition;
  }

  /// Emits `strided` where the rows of a versioned access are aligned and
  /// `indexed`, with the index and mask tiles built in its branch, where not.
  void emitVersioned(
      Operation *op, StructuredAccess access, ArrayRef<int64_t> shape,
      int64_t elementBytes, OpBuilder &builder,
      function_ref<void(OpBuilder &, bool elementwise)> strided,
      function_ref<void(OpBuilder &, const StructuredAccess &)> indexed) {
    Location loc = op->getLoc();
    Value condition;
    auto conjoin = [&](Value term) {
      condition = condition
                      ? arith::AndIOp::create(builder, loc, condition, term)
                      : term;
    };
    if (!isProvablyAligned(analysis, *access.pointer, elementBytes))
      conjoin(
          buildAlignmentCondition(*access.pointer, elementBytes, builder, loc));
    for (const RangeAssumption &assumption : access.pointer->offsets.assumptions)
      conjoin(buildAssumptionCondition(assumption, builder, loc));
    auto branch = scf::IfOp::create(builder, loc, TypeRange{}, condition,
                                    /*withElseRegion=*/true);
    OpBuilder thenBuilder = branch.getThenBodyBuilder();
    strided(thenBuilder, /*elementwise=*/false);
    OpBuilder elseBuilder = branch.getElseBodyBuilder();
    if (!access.unstructuredIndices) {
      strided(elseBuilder, /*elementwise=*/true);
      return;
    }
    access.base = access.unstructuredBase;
    access.indices = access.unstructuredIndices;
    access.mask = buildBoundsMask(access.bounds, shape, elseBuilder, loc);
    indexed(elseBuilder, access);
  }

  /// Whether, at run time, every element of the affine tensor of
  /// `assumption` lies in [0, bound): its smallest element is at least 0 and
  /// its largest below the bound.
  Value buildAssumptionCondition(const RangeAssumption &assumption,
                                 OpBuilder &builder, Location loc) {
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i64, value);
    };
    Value smallest =
        analysis.materialize(assumption.offset, builder, loc, i64);
    Value largest = smallest;
    for (auto [stride, size] :
         llvm::zip_equal(assumption.strides, assumption.shape)) {
      if (stride.isZero() || size == 1)
        continue;
      Value span = arith::MulIOp::create(
          builder, loc, analysis.materialize(stride, builder, loc, i64),
          constant(size - 1));
      smallest = arith::AddIOp::create(
          builder, loc, smallest,
          arith::MinSIOp::create(builder, loc, span, constant(0)));
      largest = arith::AddIOp::create(
          builder, loc, largest,
          arith::MaxSIOp::create(builder, loc, span, constant(0)));
    }
    Value bound = analysis.materialize(assumption.bound, builder, loc, i64);
    return arith::AndIOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                              smallest, constant(0)),
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                              largest, bound));
  }

  /// The pages of the buffer of a load: more in a loop, where the DMA engine
  /// runs ahead of the compute by as many iterations as there are pages.
  static int64_t getLoadPages(Operation *op, tile::TileType pageType) {
    if (!op->getParentOfType<scf::ForOp>() &&
        !op->getParentOfType<scf::WhileOp>())
      return kTransferPages;
    int64_t fitting = kLoopLoadBytes / std::max<int64_t>(
                                           pageType.getSizeInBytes(), 1);
    return std::clamp(fitting, kTransferPages, kLoopLoadPages);
  }

  /// Moves the elements of `access` into a CB page and makes the tile read
  /// from it replace the casts of the tensor `op` produced.
  void emitRead(Operation *op, const StructuredAccess &access, Value padding,
                tile::TileType pageType,
                ArrayRef<UnrealizedConversionCastOp> casts,
                OpBuilder &builder) {
    Location loc = op->getLoc();
    // The buffer is read by the unit of the first user of the tile, which
    // forwards it to the units of the other users. The DPE forwards a tile
    // by multiplying it (f32 and i32 only), so another unit forwards what
    // the DPE shares. The MLU, which copies the tile out of the page, reads
    // a tile used in other blocks (reached on some paths only): the page is
    // freed in this one.
    SmallVector<tile::Unit> userUnits;
    for (UnrealizedConversionCastOp toTile : casts)
      for (OpOperand &use : toTile->getUses())
        if (std::optional<tile::Unit> unit = units.getUser(use))
          userUnits.push_back(*unit);
    tile::Unit consumer =
        userUnits.empty() ? tile::Unit::SIMD : userUnits.front();
    if (consumer == tile::Unit::DPE)
      for (tile::Unit unit : userUnits)
        if (unit != tile::Unit::DPE) {
          consumer = unit;
          break;
        }
    bool usedElsewhere = llvm::any_of(casts, [&](auto toTile) {
      return isUsedOutside(toTile.getResult(0), op->getBlock());
    });
    if (usedElsewhere)
      consumer = tile::Unit::MLU;
    cb::AllocOp buffer = allocate("load", pageType, tile::Unit::DMA, consumer,
                                  loc, getLoadPages(op, pageType));
    auto token = dma::TokenType::get(op->getContext());
    cb::ReserveBackOp::create(builder, loc, buffer, 1);
    auto strided = [&](OpBuilder &at, bool elementwise) {
      dma::LoadOp::create(
          at, loc, token, access.base,
          analysis.materialize(access.pointer->offsets.offset, at, loc,
                               at.getIndexType()),
          materializeStrides(*access.pointer, at, loc), access.bounds,
          access.elementwise ? access.mask : Value(), padding, buffer,
          at.getI64IntegerAttr(0),
          elementwise ? at.getUnitAttr() : UnitAttr());
    };
    auto indexed = [&](OpBuilder &at, const StructuredAccess &transfer) {
      dma::GatherOp::create(at, loc, token, transfer.base, transfer.indices,
                            transfer.mask, padding, buffer,
                            at.getI64IntegerAttr(0));
    };
    if (access.aligned || access.elementwise)
      strided(builder, access.elementwise);
    else if (access.versioned)
      emitVersioned(op, access, pageType.getShape(),
                    getElementBytes(pageType.getElementType()), builder,
                    strided, indexed);
    else
      indexed(builder, access);
    cb::PushBackOp::create(builder, loc, buffer, 1);
    Value page = consume(buffer, builder, loc, [&](Value tileValue) {
      for (UnrealizedConversionCastOp toTile : casts) {
        toTile.getResult(0).replaceAllUsesWith(tileValue);
        toTile.erase();
      }
    });
    if (usedElsewhere)
      copyOutOfPage(page, builder, loc);
  }

  /// Whether `value` is used outside `block`, not only in the regions of its
  /// operations.
  static bool isUsedOutside(Value value, Block *block) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return !block->findAncestorOpInBlock(*user);
    });
  }

  /// Makes the MLU copy the tile read from a page right after the read, and
  /// the copy replace it, so that the page is freed at once.
  static void copyOutOfPage(Value page, OpBuilder &builder, Location loc) {
    auto copy = tile::CopyOp::create(builder, loc, page);
    page.replaceAllUsesExcept(copy.getResult(), copy);
  }

  LogicalResult lowerStore(tt::StoreOp store) {
    Value value = store.getValue();
    Value tileValue;
    if (auto toTensor = value.getDefiningOp<UnrealizedConversionCastOp>())
      tileValue = toTensor.getInputs().front();
    else if (auto extract = value.getDefiningOp<tile::ExtractOp>())
      tileValue = extract.getTile();
    // A scalar the control core computed is stored by the core itself.
    if (!tileValue)
      return success();
    auto pageType = cast<tile::TileType>(tileValue.getType());
    OpBuilder builder(store);
    FailureOr<StructuredAccess> access = analyzeAccess(
        store, store.getPtr(), store.getMask(), pageType.getShape(), builder);
    if (failed(access))
      return failure();
    emitWrite(store, *access, tileValue, builder);
    Operation *scalarSource = store.getValue().getDefiningOp();
    store.erase();
    if (scalarSource && scalarSource->use_empty())
      scalarSource->erase();
    return success();
  }

  /// Moves `tileValue` through a CB page into the elements of `access`.
  void emitWrite(Operation *op, const StructuredAccess &access, Value tileValue,
                 OpBuilder &builder) {
    Location loc = op->getLoc();
    auto pageType = cast<tile::TileType>(tileValue.getType());
    cb::AllocOp buffer = allocate("store", pageType, units.getOwner(tileValue),
                                  tile::Unit::DMA, loc);
    produce(buffer, tileValue, builder, loc);
    cb::WaitFrontOp::create(builder, loc, buffer, 1);
    auto token = dma::TokenType::get(op->getContext());
    auto strided = [&](OpBuilder &at, bool elementwise) {
      dma::StoreOp::create(
          at, loc, token, buffer, at.getI64IntegerAttr(0), access.base,
          analysis.materialize(access.pointer->offsets.offset, at, loc,
                               at.getIndexType()),
          materializeStrides(*access.pointer, at, loc), access.bounds,
          access.elementwise ? access.mask : Value(),
          elementwise ? at.getUnitAttr() : UnitAttr());
    };
    auto indexed = [&](OpBuilder &at, const StructuredAccess &transfer) {
      dma::ScatterOp::create(at, loc, token, buffer, at.getI64IntegerAttr(0),
                             transfer.base, transfer.indices, transfer.mask);
    };
    if (access.aligned || access.elementwise)
      strided(builder, access.elementwise);
    else if (access.versioned)
      emitVersioned(op, access, pageType.getShape(),
                    getElementBytes(pageType.getElementType()), builder,
                    strided, indexed);
    else
      indexed(builder, access);
    cb::PopFrontOp::create(builder, loc, buffer, 1);
  }

  //===--------------------------------------------------------------------===//
  // Tensor descriptors
  //===--------------------------------------------------------------------===//

  /// The base, shape and strides of a tensor descriptor: the operands of
  /// `tt.make_tensor_descriptor`, or for a descriptor passed by the host the
  /// kernel arguments that follow it (its shape, then its strides).
  struct Descriptor {
    Value base;
    SmallVector<Value> shape, strides;
  };

  FailureOr<Descriptor> getDescriptor(Operation *op, Value desc) {
    int64_t rank =
        cast<tt::TensorDescType>(desc.getType()).getBlockType().getRank();
    if (auto make = desc.getDefiningOp<tt::MakeTensorDescOp>())
      return Descriptor{make.getBase(), llvm::to_vector(make.getShape()),
                        llvm::to_vector(make.getStrides())};
    auto argument = dyn_cast<BlockArgument>(desc);
    if (!argument || argument.getOwner() != &function.getBody().front() ||
        argument.getArgNumber() + 2 * rank >= function.getNumArguments())
      return op->emitError("the tensor descriptor is neither made in the "
                           "kernel nor a kernel argument followed by its "
                           "shape and strides"),
             failure();
    Block &entry = function.getBody().front();
    Descriptor descriptor{argument, {}, {}};
    for (int64_t dim = 0; dim < rank; ++dim) {
      descriptor.shape.push_back(
          entry.getArgument(argument.getArgNumber() + 1 + dim));
      descriptor.strides.push_back(
          entry.getArgument(argument.getArgNumber() + 1 + rank + dim));
    }
    return descriptor;
  }

  /// The block of a descriptor at `indices`: element offset
  /// sum_d indices[d] * strides[d], the descriptor's strides, and bounds
  /// that drop what lies past the tensor's shape (read as zero).
  /// The access of a descriptor's block at `indices`, moving a tile of
  /// `shape`: the block's shape, or that shape without leading dimensions of
  /// size 1 (Triton drops them from the loaded tensor), which then only place
  /// the tile.
  FailureOr<StructuredAccess> analyzeDescriptorAccess(Operation *op, Value desc,
                                                      ValueRange indices,
                                                      ArrayRef<int64_t> shape,
                                                      OpBuilder &builder) {
    FailureOr<Descriptor> descriptor = getDescriptor(op, desc);
    if (failed(descriptor))
      return failure();
    Location loc = op->getLoc();
    RankedTensorType block =
        cast<tt::TensorDescType>(desc.getType()).getBlockType();
    int64_t dropped = block.getRank() - static_cast<int64_t>(shape.size());
    ArrayRef<int64_t> blockShape = block.getShape();
    if (dropped < 0 || blockShape.drop_front(dropped) != shape ||
        llvm::any_of(blockShape.take_front(dropped),
                     [](int64_t size) { return size != 1; }))
      return op->emitError("the tensor of this access reshapes the "
                           "descriptor's block, which the DMA lowering does "
                           "not support"),
             failure();
    StructuredAccess access;
    access.base = descriptor->base;
    PointerAccess pointer{descriptor->base, AffineTensor{}};
    Type index = builder.getIndexType();
    Value dropsInside;
    for (auto [dim, position] : llvm::enumerate(indices)) {
      LinearExpr stride = analysis.analyzeScalar(descriptor->strides[dim]);
      pointer.offsets.offset =
          pointer.offsets.offset + analysis.analyzeScalar(position) * stride;
      Value remaining = arith::SubIOp::create(
          builder, loc,
          arith::IndexCastOp::create(builder, loc, index,
                                     descriptor->shape[dim]),
          arith::IndexCastOp::create(builder, loc, index, position));
      if (static_cast<int64_t>(dim) < dropped) {
        // A dropped dimension only decides whether the block is inside.
        Value inside = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::sgt, remaining,
            indexConstant(builder, loc, 0));
        dropsInside =
            dropsInside ? arith::AndIOp::create(builder, loc, dropsInside, inside)
                        : inside;
        continue;
      }
      pointer.offsets.strides.push_back(stride);
      Value bound = arith::MinSIOp::create(
          builder, loc, remaining,
          indexConstant(builder, loc, block.getDimSize(dim)));
      access.bounds.push_back(arith::MaxSIOp::create(
          builder, loc, bound, indexConstant(builder, loc, 0)));
    }
    if (dropsInside)
      access.bounds.front() =
          arith::SelectOp::create(builder, loc, dropsInside,
                                  access.bounds.front(),
                                  indexConstant(builder, loc, 0));
    int64_t elementBytes = getElementBytes(block.getElementType());
    access.aligned = isProvablyAligned(analysis, pointer, elementBytes);
    access.versioned = !access.aligned;
    access.pointer = pointer;
    return access;
  }

  LogicalResult lowerDescriptorLoad(tt::DescriptorLoadOp load) {
    auto resultType = cast<RankedTensorType>(load.getType());
    auto pageType =
        tile::TileType::get(resultType.getShape(), resultType.getElementType());
    SmallVector<UnrealizedConversionCastOp> casts;
    for (Operation *user : load->getUsers()) {
      auto toTile = dyn_cast<UnrealizedConversionCastOp>(user);
      if (!toTile)
        return load.emitError("the loaded block is used by '")
               << user->getName() << "', which the tile stage left on tensors";
      casts.push_back(toTile);
    }
    OpBuilder builder(load);
    FailureOr<StructuredAccess> access =
        analyzeDescriptorAccess(load, load.getDesc(), load.getIndices(),
                                resultType.getShape(), builder);
    if (failed(access))
      return failure();
    // Out of bounds, a descriptor reads zero.
    Value zero = arith::ConstantOp::create(
        builder, load.getLoc(),
        builder.getZeroAttr(resultType.getElementType()));
    emitRead(load, *access, zero, pageType, casts, builder);
    load.erase();
    return success();
  }

  LogicalResult lowerDescriptorStore(tt::DescriptorStoreOp store) {
    auto toTensor = store.getSrc().getDefiningOp<UnrealizedConversionCastOp>();
    if (!toTensor)
      return store.emitError("the stored block was not computed as a tile");
    OpBuilder builder(store);
    FailureOr<StructuredAccess> access = analyzeDescriptorAccess(
        store, store.getDesc(), store.getIndices(),
        cast<RankedTensorType>(store.getSrc().getType()).getShape(), builder);
    if (failed(access))
      return failure();
    emitWrite(store, *access, toTensor.getInputs().front(), builder);
    store.erase();
    if (toTensor->use_empty())
      toTensor.erase();
    return success();
  }

  /// Descriptors passed by the host are pointers to their base tensor once
  /// their accesses are lowered.
  LogicalResult retypeDescriptorArguments() {
    Block &entry = function.getBody().front();
    SmallVector<Type> inputs;
    for (BlockArgument argument : entry.getArguments()) {
      if (auto descType = dyn_cast<tt::TensorDescType>(argument.getType())) {
        for (Operation *user : argument.getUsers())
          if (!isa<dma::DMADialect>(user->getDialect()) &&
              !isa<tt::AddPtrOp, tt::PtrToIntOp>(user))
            return user->emitError("this use of a tensor descriptor is not "
                                   "supported by the DMA lowering");
        argument.setType(
            tt::PointerType::get(descType.getBlockType().getElementType()));
      }
      inputs.push_back(argument.getType());
    }
    function.setFunctionType(
        FunctionType::get(function.getContext(), inputs,
                          function.getFunctionType().getResults()));
    return success();
  }

  /// Which DMA queue a buffer serves: 1 for reads from global memory (the
  /// loads and gathers that fill it or use its tiles), 2 for writes, 0 for
  /// none. A buffer serves one queue only.
  static int getDMAQueue(cb::AllocOp alloc) {
    auto queueOf = [](Operation *op) {
      if (isa<dma::LoadOp, dma::GatherOp>(op))
        return 1;
      if (isa<dma::StoreOp, dma::ScatterOp, dma::AtomicRMWOp, dma::AtomicCASOp>(
              op))
        return 2;
      return 0;
    };
    for (Operation *user : alloc->getUsers()) {
      if (int queue = queueOf(user))
        return queue;
      if (auto read = dyn_cast<cb::ReadFrontOp>(user))
        for (Operation *tileUser : read->getUsers())
          if (int queue = queueOf(tileUser))
            return queue;
    }
    return 0;
  }

  /// One use of a buffer: its operations, all in one block.
  struct Span {
    cb::AllocOp buffer;
    Block *block;
    Operation *first, *last;
    int dmaQueue;
    /// For a buffer between two units (one tile written by one, read by the
    /// other): its reserve, push, wait, read and pop, and the last operation
    /// of the block that uses the tile read.
    cb::ReserveBackOp reserve;
    cb::PushBackOp push;
    cb::WaitFrontOp wait;
    cb::ReadFrontOp read;
    cb::PopFrontOp pop;
    Operation *lastUse = nullptr;

    bool isForward() const { return reserve && push && wait && read && pop; }
    int64_t getPageBytes() {
      return buffer.getType().getPageType().getSizeInBytes();
    }
  };

  /// A group of forward spans sharing one buffer: where their pops go and
  /// what the buffer needs, computed on positions in the block.
  struct FifoPlan {
    /// Per span, in push order: the operation its pop moves after (none: it
    /// stays), and the page its read finds the tile at.
    SmallVector<Operation *> popAfter;
    SmallVector<int64_t> readPage;
    int64_t pages = 1;
    int64_t pageBytes = 0;

    int64_t getBytes() const { return pages * pageBytes; }
  };

  /// Pops free pages in push order, and never while a tile read from a page
  /// behind them is in use: a page is addressed relative to the read
  /// pointer, so a pop would move the tiles held behind it; such a pop moves
  /// after the last use of that tile. Then a read finds its tile behind the
  /// pages still held, and a reserve needs a page besides them.
  FifoPlan planFifo(ArrayRef<Span> group) {
    auto position = [&](Operation *op) -> double {
      return static_cast<double>(blockPositions.lookup(op));
    };
    // Keys order the pops among the block's operations: an operation's
    // position, plus a half to follow an operation, plus a little to follow
    // another pop placed there. Keys only grow, so this reaches a fixed
    // point.
    constexpr double kAfter = 0.5, kNextPop = 1e-6;
    size_t count = group.size();
    FifoPlan plan;
    plan.popAfter.assign(count, nullptr);
    SmallVector<double> key;
    for (const Span &span : group) {
      key.push_back(position(span.pop));
      plan.pageBytes = std::max(
          plan.pageBytes, const_cast<Span &>(span).getPageBytes());
    }
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j = 0; j < count; ++j) {
        if (j > 0 && key[j] <= key[j - 1]) {
          key[j] = key[j - 1] + kNextPop;
          plan.popAfter[j] = group[j - 1].pop;
          moved = true;
        }
        for (size_t i = j + 1; i < count; ++i) {
          double lastUse = position(group[i].lastUse);
          if (position(group[i].read) < key[j] && key[j] < lastUse) {
            key[j] = lastUse + kAfter;
            plan.popAfter[j] = group[i].lastUse;
            moved = true;
          }
        }
      }
    }
    // Sweep the block in order: 0 reserve, 1 push, 2 read, 3 pop.
    SmallVector<std::tuple<double, int, size_t>> events;
    for (auto [index, span] : llvm::enumerate(group)) {
      events.emplace_back(position(span.reserve), 0, index);
      events.emplace_back(position(span.push), 1, index);
      events.emplace_back(position(span.read), 2, index);
      events.emplace_back(key[index], 3, index);
    }
    llvm::sort(events);
    plan.readPage.assign(count, 0);
    int64_t pushed = 0, popped = 0;
    for (auto [at, kind, index] : events) {
      if (kind == 0)
        plan.pages = std::max(plan.pages, pushed - popped + 1);
      else if (kind == 1)
        ++pushed;
      else if (kind == 2)
        plan.readPage[index] = static_cast<int64_t>(index) - popped;
      else
        ++popped;
    }
    return plan;
  }

  /// Lets buffers of one producer and consumer carry their transfers one
  /// after another, which keeps the plan within the command processor's
  /// buffer count. Every operation of a buffer must lie in one block.
  ///
  /// A buffer between two compute units (or from one to the DMA engine)
  /// joins a first-in first-out group when its tile is pushed after, and
  /// read after, every tile of the group (see planFifo): the buffer gets as
  /// many pages as are ever held at a reserve, plus one, and each page
  /// access views the largest page of the group as its own tile. Program
  /// order stays a valid schedule, so the units cannot deadlock. A span
  /// joins a group only if that costs no more local memory than a buffer of
  /// its own, unless the buffers would then exceed `maxBuffers`: then it
  /// may cost more, up to a growing allowance.
  ///
  /// Buffers the DMA engine fills or drains share only with buffers of
  /// their page type (the transfer's shape is the page's), when the first
  /// transfer ends before the next begins.
  void shareBuffers() {
    SmallVector<Span> spans;
    function.walk([&](cb::AllocOp alloc) {
      Span span{alloc, nullptr, nullptr, nullptr, getDMAQueue(alloc)};
      for (Operation *user : alloc->getUsers()) {
        if (span.block && user->getBlock() != span.block)
          return;
        span.block = user->getBlock();
        if (!span.first || user->isBeforeInBlock(span.first))
          span.first = user;
        if (!span.last || span.last->isBeforeInBlock(user))
          span.last = user;
      }
      // The one user of each kind, if there is exactly one.
      auto onlyUser = [&](auto kind) -> decltype(kind) {
        using OpT = decltype(kind);
        OpT found;
        for (Operation *user : alloc->getUsers()) {
          if (!isa<OpT>(user))
            continue;
          if (found)
            return OpT();
          found = cast<OpT>(user);
        }
        return found;
      };
      if (llvm::any_of(alloc->getUsers(), llvm::IsaPred<cb::WriteBackOp>)) {
        span.reserve = onlyUser(cb::ReserveBackOp());
        span.push = onlyUser(cb::PushBackOp());
        span.wait = onlyUser(cb::WaitFrontOp());
        span.read = onlyUser(cb::ReadFrontOp());
        span.pop = onlyUser(cb::PopFrontOp());
        if (span.read)
          span.lastUse = findLastUse(span.read.getResult(), span.block);
        if (!span.lastUse)
          span.lastUse = span.read;
      }
      if (span.block)
        spans.push_back(span);
    });
    llvm::sort(spans, [](const Span &a, const Span &b) {
      return a.block == b.block ? a.first->isBeforeInBlock(b.first)
                                : a.block < b.block;
    });
    for (const Span &span : spans)
      if (!blockPositions.count(&span.block->front()))
        for (auto [index, op] : llvm::enumerate(*span.block))
          blockPositions[&op] = index;
    // Growing allowances of extra bytes a join may cost, until the buffers
    // fit the command processor.
    const int64_t allowances[] = {0, 16 * 1024, 64 * 1024,
                                  std::numeric_limits<int64_t>::max() / 4};
    SmallVector<SmallVector<Span>> groups;
    for (int64_t allowance : allowances) {
      groups = groupSpans(spans, allowance);
      if (static_cast<int64_t>(groups.size()) <= maxBuffers)
        break;
    }
    for (SmallVector<Span> &group : groups)
      mergeGroup(group);
  }

  /// Groups `spans` (see shareBuffers), each join costing at most
  /// `allowance` more bytes than a buffer of the span's own.
  SmallVector<SmallVector<Span>> groupSpans(ArrayRef<Span> spans,
                                            int64_t allowance) {
    SmallVector<SmallVector<Span>> groups;
    SmallVector<int64_t> groupBytes;
    for (const Span &candidate : spans) {
      Span span = candidate;
      bool joined = false;
      for (auto [group, bytes] : llvm::zip_equal(groups, groupBytes)) {
        Span &head = group.front(), &tail = group.back();
        if (tail.block != span.block ||
            head.buffer.getProducer() != span.buffer.getProducer() ||
            head.buffer.getConsumer() != span.buffer.getConsumer() ||
            head.dmaQueue != span.dmaQueue)
          continue;
        if (!head.isForward() || !span.isForward()) {
          if (head.isForward() || span.isForward() ||
              head.buffer.getType() != span.buffer.getType() ||
              !tail.last->isBeforeInBlock(span.first))
            continue;
          group.push_back(span);
          joined = true;
          break;
        }
        if (!tail.push->isBeforeInBlock(span.push) ||
            !tail.read->isBeforeInBlock(span.read))
          continue;
        group.push_back(span);
        int64_t joinedBytes = planFifo(group).getBytes();
        if (joinedBytes - bytes <= span.getPageBytes() + allowance) {
          bytes = joinedBytes;
          joined = true;
          break;
        }
        group.pop_back();
      }
      if (joined)
        continue;
      groups.push_back({span});
      groupBytes.push_back(span.isForward() ? planFifo(groups.back()).getBytes()
                                            : 0);
    }
    return groups;
  }

  /// Makes the buffers of `group` one: the first span's.
  void mergeGroup(MutableArrayRef<Span> group) {
    cb::AllocOp buffer = group.front().buffer;
    cb::CircularBufferType type = buffer.getType();
    std::optional<FifoPlan> plan;
    if (group.front().isForward())
      plan = planFifo(group);
    for (Span &span : group.drop_front()) {
      type = getLargerPages(type, span.buffer.getType());
      span.buffer.getResult().replaceAllUsesWith(buffer.getResult());
      span.buffer.erase();
    }
    if (!plan) {
      buffer.getResult().setType(type);
      return;
    }
    for (auto [span, after, page] :
         llvm::zip_equal(group, plan->popAfter, plan->readPage)) {
      if (after)
        span.pop->moveAfter(after);
      span.read.setPage(page);
      span.wait.setPages(page + 1);
    }
    buffer.getResult().setType(
        cb::CircularBufferType::get(type.getPageType(), plan->pages));
  }

  static cb::CircularBufferType getLargerPages(cb::CircularBufferType a,
                                               cb::CircularBufferType b) {
    return b.getPageType().getSizeInBytes() > a.getPageType().getSizeInBytes()
               ? b
               : a;
  }

  /// The tile holding the elements of a value the tile stage left on
  /// tensors or in a scalar: the tile it was cast from, the tile a scalar was
  /// read from, or a tile filled with a scalar of the control core.
  static Value getTileOf(Value value, tile::TileType type, OpBuilder &builder,
                         Location loc) {
    if (auto toTensor = value.getDefiningOp<UnrealizedConversionCastOp>())
      return toTensor.getInputs().front();
    if (auto extract = value.getDefiningOp<tile::ExtractOp>())
      return extract.getTile();
    return tile::SplatOp::create(builder, loc, type, value);
  }

  static dma::AtomicKind getAtomicKind(tt::RMWOp op) {
    switch (op) {
    case tt::RMWOp::AND:
      return dma::AtomicKind::And;
    case tt::RMWOp::OR:
      return dma::AtomicKind::Or;
    case tt::RMWOp::XOR:
      return dma::AtomicKind::XOr;
    case tt::RMWOp::ADD:
      return dma::AtomicKind::Add;
    case tt::RMWOp::FADD:
      return dma::AtomicKind::FAdd;
    case tt::RMWOp::MAX:
      return dma::AtomicKind::Max;
    case tt::RMWOp::MIN:
      return dma::AtomicKind::Min;
    case tt::RMWOp::UMAX:
      return dma::AtomicKind::UMax;
    case tt::RMWOp::UMIN:
      return dma::AtomicKind::UMin;
    case tt::RMWOp::XCHG:
      return dma::AtomicKind::Exchange;
    }
    llvm_unreachable("unknown atomic kind");
  }

  static dma::MemoryOrder getMemoryOrder(tt::MemSemantic semantic) {
    switch (semantic) {
    case tt::MemSemantic::RELAXED:
      return dma::MemoryOrder::Relaxed;
    case tt::MemSemantic::ACQUIRE:
      return dma::MemoryOrder::Acquire;
    case tt::MemSemantic::RELEASE:
      return dma::MemoryOrder::Release;
    case tt::MemSemantic::ACQUIRE_RELEASE:
      return dma::MemoryOrder::AcquireRelease;
    }
    llvm_unreachable("unknown memory semantic");
  }

  static dma::MemoryScope getMemoryScope(tt::MemSyncScope scope) {
    switch (scope) {
    case tt::MemSyncScope::CTA:
      return dma::MemoryScope::PE;
    case tt::MemSyncScope::GPU:
      return dma::MemoryScope::Chip;
    case tt::MemSyncScope::SYSTEM:
      return dma::MemoryScope::System;
    }
    llvm_unreachable("unknown memory scope");
  }

  /// An atomic read-modify-write becomes an indexed atomic of the DMA
  /// engine: the values and the element offsets are tiles.
  LogicalResult lowerAtomic(tt::AtomicRMWOp atomic) {
    Type valueType = atomic.getVal().getType();
    // A scalar atomic whose old value is used runs on the control core,
    // which waits for that value.
    if (!isa<RankedTensorType>(valueType) && !atomic.getResult().use_empty())
      return success();
    SmallVector<int64_t> shape;
    if (auto tensorType = dyn_cast<RankedTensorType>(valueType))
      shape.assign(tensorType.getShape().begin(), tensorType.getShape().end());
    auto tileType = tile::TileType::get(shape, getElementTypeOrSelf(valueType));
    Location loc = atomic.getLoc();
    OpBuilder builder(atomic);
    // A scalar mask is a condition on the whole access; a tensor mask must
    // be structured, like the masks of loads and stores.
    Value scalarMask;
    Value tensorMask = atomic.getMask();
    if (tensorMask && !isa<RankedTensorType>(tensorMask.getType())) {
      scalarMask = tensorMask;
      tensorMask = Value();
    }
    FailureOr<StructuredAccess> access =
        analyzeAccess(atomic, atomic.getPtr(), tensorMask, shape, builder,
                      /*strided=*/false);
    if (failed(access))
      return failure();
    Value values = getTileOf(atomic.getVal(), tileType, builder, loc);
    Value base = access->base;
    Value indices = access->indices ? access->indices
                                    : buildIndexTile(atomic, *access->pointer,
                                                     shape, builder, base);
    Value mask = access->aligned
                     ? buildBoundsMask(access->bounds, shape, builder, loc)
                     : access->mask;
    APInt alwaysTrue;
    if (scalarMask && !(matchPattern(scalarMask, m_ConstantInt(&alwaysTrue)) &&
                        alwaysTrue.isOne())) {
      Value condition = tile::SplatOp::create(
          builder, loc, tileType.withElementType(builder.getI1Type()),
          scalarMask);
      mask =
          mask ? tile::BinaryOp::create(builder, loc, condition.getType(),
                                        tile::BinaryKind::AndI, mask, condition)
                     .getResult()
               : condition;
    }
    cb::AllocOp oldValues = reserveOldValues(atomic, tileType, builder);
    dma::AtomicRMWOp::create(
        builder, loc, dma::TokenType::get(atomic.getContext()),
        getAtomicKind(atomic.getAtomicRmwOp()), getMemoryOrder(atomic.getSem()),
        getMemoryScope(atomic.getScope()), base, indices, values, mask,
        oldValues ? oldValues.getResult() : Value(),
        oldValues ? builder.getI64IntegerAttr(0) : IntegerAttr());
    consumeOldValues(atomic, oldValues, builder);
    Operation *valueSource = atomic.getVal().getDefiningOp();
    atomic.erase();
    if (valueSource && valueSource->use_empty() &&
        isa<UnrealizedConversionCastOp, tile::ExtractOp>(valueSource))
      valueSource->erase();
    return success();
  }

  /// Whether the values an atomic read are used outside its block (as a
  /// tensor, or as the tile the tile stage casts it to).
  static bool areOldValuesUsedElsewhere(Operation *atomic) {
    Value result = atomic->getResult(0);
    Block *block = atomic->getBlock();
    return isUsedOutside(result, block) ||
           llvm::any_of(result.getUsers(), [&](Operation *user) {
             return isa<UnrealizedConversionCastOp>(user) &&
                    isUsedOutside(user->getResult(0), block);
           });
  }

  /// The buffer a tensor atomic writes the values it read into, reserved,
  /// when they are used; null otherwise.
  cb::AllocOp reserveOldValues(Operation *atomic, tile::TileType tileType,
                               OpBuilder &builder) {
    Value result = atomic->getResult(0);
    if (result.use_empty())
      return nullptr;
    tile::Unit consumer = tile::Unit::SIMD;
    for (OpOperand &use : result.getUses())
      if (auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner()))
        for (OpOperand &tileUse : toTile->getUses())
          if (std::optional<tile::Unit> unit = units.getUser(tileUse)) {
            consumer = *unit;
            break;
          }
    // See emitRead: the MLU copies old values used in other blocks.
    if (areOldValuesUsedElsewhere(atomic))
      consumer = tile::Unit::MLU;
    cb::AllocOp buffer = allocate("atomic", tileType, tile::Unit::DMA,
                                  consumer, atomic->getLoc());
    cb::ReserveBackOp::create(builder, atomic->getLoc(), buffer, 1);
    return buffer;
  }

  /// Publishes the values an atomic read into `buffer` (if any) and makes
  /// the tile read from it replace the atomic's result.
  void consumeOldValues(Operation *atomic, cb::AllocOp buffer,
                        OpBuilder &builder) {
    if (!buffer)
      return;
    Location loc = atomic->getLoc();
    cb::PushBackOp::create(builder, loc, buffer, 1);
    Value result = atomic->getResult(0);
    bool usedElsewhere = areOldValuesUsedElsewhere(atomic);
    Value page = consume(buffer, builder, loc, [&](Value tileValue) {
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        auto toTile = dyn_cast<UnrealizedConversionCastOp>(use.getOwner());
        if (toTile && toTile.getResult(0).getType() == tileValue.getType()) {
          toTile.getResult(0).replaceAllUsesWith(tileValue);
          toTile.erase();
          continue;
        }
        // Addressing, stores of the tensor as it is: a tensor view.
        use.set(UnrealizedConversionCastOp::create(builder, loc,
                                                   result.getType(), tileValue)
                    .getResult(0));
      }
    });
    if (usedElsewhere)
      copyOutOfPage(page, builder, loc);
  }

  /// A compare-and-swap of a tensor becomes an indexed atomic of the DMA
  /// engine; a scalar one runs on the control core.
  LogicalResult lowerAtomicCAS(tt::AtomicCASOp atomic) {
    auto tensorType = dyn_cast<RankedTensorType>(atomic.getVal().getType());
    if (!tensorType)
      return success();
    auto tileType = tile::TileType::get(tensorType.getShape(),
                                        tensorType.getElementType());
    Location loc = atomic.getLoc();
    OpBuilder builder(atomic);
    FailureOr<StructuredAccess> access =
        analyzeAccess(atomic, atomic.getPtr(), Value(), tensorType.getShape(),
                      builder, /*strided=*/false);
    if (failed(access))
      return failure();
    Value indices = access->indices
                        ? access->indices
                        : buildIndexTile(atomic, *access->pointer,
                                         tensorType.getShape(), builder,
                                         access->base);
    Value compare = getTileOf(atomic.getCmp(), tileType, builder, loc);
    Value value = getTileOf(atomic.getVal(), tileType, builder, loc);
    cb::AllocOp oldValues = reserveOldValues(atomic, tileType, builder);
    dma::AtomicCASOp::create(
        builder, loc, dma::TokenType::get(atomic.getContext()),
        getMemoryOrder(atomic.getSem()), getMemoryScope(atomic.getScope()),
        access->base, indices, compare, value,
        oldValues ? oldValues.getResult() : Value(),
        oldValues ? builder.getI64IntegerAttr(0) : IntegerAttr());
    consumeOldValues(atomic, oldValues, builder);
    atomic.erase();
    return success();
  }

  /// Inserts a circular buffer wherever a tile is used by a unit other than
  /// the one that holds it.
  void connectUnits() {
    SmallVector<Value> tiles;
    function.walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (isa<tile::TileType>(result.getType()))
          tiles.push_back(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (isa<tile::TileType>(argument.getType()))
              tiles.push_back(argument);
    });
    for (Value tileValue : tiles)
      connect(tileValue);
  }

  /// The first operation of `block` that is or contains one of `uses`.
  static Operation *getFirstUse(ArrayRef<OpOperand *> uses, Block *block) {
    Operation *first = nullptr;
    for (OpOperand *use : uses) {
      Operation *ancestor = block->findAncestorOpInBlock(*use->getOwner());
      if (!first || ancestor->isBeforeInBlock(first))
        first = ancestor;
    }
    return first;
  }

  /// Whether `tileValue` is a `tile.constant` of +0.0 (f32) or 0 (i32), an
  /// accumulator the DPE can clear itself.
  static bool isZeroAccumulator(Value tileValue) {
    auto constant = tileValue.getDefiningOp<tile::ConstantOp>();
    if (!constant)
      return false;
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!elements || !elements.isSplat())
      return false;
    Type elementType = elements.getElementType();
    if (elementType.isF32())
      return elements.getSplatValue<APFloat>().isPosZero();
    return elementType.isInteger(32) && elements.getSplatValue<APInt>().isZero();
  }

  void connect(Value tileValue) {
    tile::Unit owner = units.getOwner(tileValue);
    // The uses of other units, by unit and by the block of the value's
    // region they lie in (the block of the value, or another block of a
    // region with several, which the value dominates).
    Block *block = tileValue.getParentBlock();
    Region *region = block->getParent();
    llvm::MapVector<std::pair<tile::Unit, Block *>, SmallVector<OpOperand *>>
        foreignUses;
    for (OpOperand &use : tileValue.getUses()) {
      std::optional<tile::Unit> user = units.getUser(use);
      if (!user || *user == owner)
        continue;
      Operation *ancestor = region->findAncestorOpInRegion(*use.getOwner());
      foreignUses[{*user, ancestor->getBlock()}].push_back(&use);
    }
    Location loc = tileValue.getLoc();
    auto pageType = cast<tile::TileType>(tileValue.getType());
    for (auto &[key, uses] : foreignUses) {
      auto [unit, useBlock] = key;
      // The consumer reads the tile before the first operation of the block
      // that uses it.
      Operation *first = getFirstUse(uses, useBlock);
      // The DPE clears an accumulator itself rather than receiving zeros.
      if (unit == tile::Unit::DPE && isZeroAccumulator(tileValue)) {
        OpBuilder builder(first);
        auto zeros = tile::ZerosOp::create(builder, loc, pageType);
        for (OpOperand *use : uses)
          use->set(zeros.getResult());
        continue;
      }
      // In the value's block the producer passes it on as soon as it is
      // computed; in another block (reached on some paths only) right
      // before its use there, so that every push meets its pop.
      OpBuilder producer(tileValue.getContext());
      if (useBlock != block)
        producer.setInsertionPoint(first);
      else if (isa<BlockArgument>(tileValue))
        producer.setInsertionPointToStart(block);
      else
        producer.setInsertionPointAfter(tileValue.getDefiningOp());
      cb::AllocOp buffer =
          allocate("forward", pageType, owner, unit, loc, kForwardPages);
      produce(buffer, tileValue, producer, loc);
      OpBuilder consumer(first);
      consume(buffer, consumer, loc, [&](Value copy) {
        for (OpOperand *use : uses)
          use->set(copy);
      });
    }
  }

  tt::FuncOp function;
  OpBuilder entry;
  PointerAnalysis analysis;
  UnitAssignment units;
  TileTypeConverter converter;
  SmallVector<cb::ReadFrontOp> pendingPops;
  unsigned buffers = 0;
  /// The buffers `shareBuffers` aims to stay within.
  int64_t maxBuffers;
  /// The positions of the operations in the blocks of shared buffers.
  DenseMap<Operation *, int64_t> blockPositions;
};

struct LowerDataMovementPass
    : public mtia::impl::LowerDataMovementBase<LowerDataMovementPass> {
  using LowerDataMovementBase::LowerDataMovementBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](tt::FuncOp function) {
      if (failed(DataMovementLowering(function, maxBuffers).run()))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
