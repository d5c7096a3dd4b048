//===- PipelineDots.cpp - Dots of later iterations, computed ahead --------===//
//
// A PE's units run their instructions in program order, each from its own
// queue. In a loop whose body is one dependent chain across the units
// (attention: the DPE's Q·K^T, the SIMD engine's and the reduction engine's
// online softmax, then the DPE's P·V), the DPE's next Q·K^T waits in its
// queue behind this iteration's P·V, which waits for the whole chain: the
// units take turns instead of working at once.
//
// A `tt.dot` of the body that depends only on the induction variable and on
// values defined outside the loop (and its loads and index arithmetic) can
// be computed one iteration ahead, and so can what is computed from such
// products alone (attention's scaling, masking and row maximum of the
// scores). This pass software-pipelines such loops when they have two
// stages or more (Triton's `num_stages`, passes/Analysis/PipelineStages.h;
// the loads stream ahead through their buffers' pages whatever the stages): the
// loop carries the values of that part which the rest of the body uses,
// computed for the first iteration before the loop and for the next one in the
// body: its loads and dots at the start of the body, so that the DPE multiplies
// the next operands while the other units work on this iteration, and the rest
// at the end, after this iteration's chain. The last iteration runs after
// the loop, in a loop of its own (of one iteration, or none), on the values
// computed ahead for it: nothing is computed past the end, so no access
// leaves the iteration space and no product is wasted; the first iteration's
// values, before the loop, are computed only when the loop runs an iteration
// (an `scf.if` that yields zeros otherwise): a loop that runs none, such as
// the part of a loop `mtia-split-masked-loops` splits off, neither reads nor
// multiplies anything. The first products get an `scf.if` of their own,
// what follows from them without waiting for a reduction of them (a mask,
// a select, a row maximum) another of the same condition, and what waits
// for a reduction (the scaling of the row maximum) a third. When the loop
// follows another pipelined loop (the diagonal block of causal attention
// after the blocks below it), the products' `scf.if` moves above that
// loop's last iterations, which wait for the other units' softmax of the
// last blocks: the DPE multiplies the next loop's first blocks meanwhile;
// the second moves above the last iteration only, so that the other units
// take it one iteration ahead, as in the pipelined body. In the pipelined
// body and the last iteration's, updates of carried values that nothing
// else in the iteration needs go last.
//
// Loops that write memory (stores, atomics, prints) are left alone: a load of
// the next iteration must not pass a write of this one. A loop may carry a
// product itself (attention's scores, when the SIMD engine reads them
// unscaled, as Triton's tutorial writes it): the DPE computes the next one
// straight into a page of the buffer the loop carries it in, which has a
// second page for it, or the reduction engine relays it
// (`mtia-relay-shared-products`), so the DPE never copies it.
//
// With three stages or more, the dots of a pipelined loop are pipelined once
// more in the loop the first round made, which then carries their products:
// `mtia-carry-in-buffers` keeps each in the buffer to the unit that reads
// it, so the DPE does not copy it. The DPE then multiplies the operands of
// the iteration after the next before this iteration's products, and what
// follows from the product computed for the next iteration (attention's
// scaling and row maximum), in that loop and in the loop of the first
// round's last iteration, moves up to right after this iteration's last use
// of the values it replaces: the reduction engine takes the next row
// maximum while the SIMD engine works on this iteration, rather than the
// SIMD engine waiting for it at the start of the next. That pays when the
// SIMD engine bounds the loop and costs when the DPE does (a page more, a
// longer fill). So a loop takes the rounds its estimated modulo schedule
// needs (passes/Analysis/LoopSchedule.h: one stage of the initiation
// interval per round beyond the first, as many as the body's critical path
// spans), within what its stages allow: attention with 64-wide heads, whose
// softmax on the SIMD engine is about as long as its products on the DPE,
// spans three; with 128-wide heads, the DPE's time doubles and it spans
// two.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/LoopSchedule.h"
#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/TargetDescription.h"
#include "passes/Passes.h"
#include "passes/Transforms/LoopSplitting.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

namespace mtia {
#define GEN_PASS_DEF_PIPELINEDOTS
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether `op` and everything nested in it at most read memory.
bool onlyReads(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects && effects.onlyHasEffect<MemoryEffects::Read>())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// What a loop computes one iteration ahead: the operations of its body that
/// the next iteration's products need (`feeding`: the `tt.dot`s whose
/// operands come only from the induction variable and from outside the loop,
/// and their loads and index arithmetic), those that go on computing from
/// the products with such operands alone (`following`: attention's scaling,
/// masking and row maximum of the scores), each in body order, and the
/// values of either that the rest of the body uses (`carried`).
struct PipelinedSlice {
  SmallVector<Operation *> feeding;
  SmallVector<Operation *> following;
  SmallVector<Value> carried;
};

/// Whether `op`, its regions included, at most reads memory and uses no
/// value of the body that `isAvailable` rejects.
template <typename Predicate>
bool canComputeAhead(Operation &op, Predicate isAvailable) {
  if (!onlyReads(&op))
    return false;
  WalkResult result = op.walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (!op.isAncestor(operand.getParentRegion()->getParentOp()) &&
          !isAvailable(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The slice of `loop` computed ahead: with `feedingOnly`, only the feeding
/// operations, which then carry the products themselves (each to another
/// unit, which `mtia-carry-in-buffers` keeps in the buffer between them).
PipelinedSlice findSlice(scf::ForOp loop, bool feedingOnly) {
  Block *body = loop.getBody();
  llvm::SmallPtrSet<Operation *, 16> ahead;
  auto isAvailable = [&](Value value) {
    if (value == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(value))
      return true;
    Operation *producer = value.getDefiningOp();
    return producer && ahead.contains(producer);
  };
  for (Operation &op : body->without_terminator())
    if (canComputeAhead(op, isAvailable))
      ahead.insert(&op);
  // The operations of the body that `roots` need, `roots` included.
  auto needs = [&](ArrayRef<Operation *> roots) {
    llvm::SmallPtrSet<Operation *, 16> needed;
    SmallVector<Operation *> worklist(roots);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!needed.insert(op).second)
        continue;
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *producer = operand.getDefiningOp();
              producer && producer->getBlock() == body)
            worklist.push_back(producer);
      });
    }
    return needed;
  };
  SmallVector<Operation *> dots;
  for (Operation &op : body->without_terminator())
    if (isa<tt::DotOp>(op) && ahead.contains(&op))
      dots.push_back(&op);
  PipelinedSlice slice;
  if (dots.empty())
    return slice;
  // What is computed from the products (in body order, so that operands
  // come first), then what that needs besides the feeding operations.
  llvm::SmallPtrSet<Operation *, 16> fromDots(dots.begin(), dots.end());
  for (Operation &op : body->without_terminator())
    if (ahead.contains(&op) &&
        llvm::any_of(op.getOperands(), [&](Value operand) {
          Operation *producer = operand.getDefiningOp();
          return producer && fromDots.contains(producer);
        }))
      fromDots.insert(&op);
  llvm::SmallPtrSet<Operation *, 16> feeding = needs(dots);
  llvm::SmallPtrSet<Operation *, 16> following;
  if (feedingOnly)
    fromDots = llvm::SmallPtrSet<Operation *, 16>(dots.begin(), dots.end());
  else
    following =
        needs(SmallVector<Operation *>(fromDots.begin(), fromDots.end()));
  // Every read must be a load through pointers or a tensor descriptor (as
  // Triton's attention tutorial reads its blocks), not through a block
  // pointer.
  auto isSupportedRead = [](Operation *op) {
    if (isMemoryEffectFree(op) || isa<tt::DescriptorLoadOp>(op))
      return true;
    auto load = dyn_cast<tt::LoadOp>(op);
    auto pointer = load ? dyn_cast<tt::PointerType>(load.getPtr().getType())
                        : tt::PointerType();
    return load &&
           !(pointer && isa<RankedTensorType>(pointer.getPointeeType()));
  };
  if (!llvm::all_of(feeding, isSupportedRead) ||
      !llvm::all_of(following, isSupportedRead))
    return PipelinedSlice();
  for (Operation &op : body->without_terminator()) {
    if (feeding.contains(&op))
      slice.feeding.push_back(&op);
    else if (following.contains(&op))
      slice.following.push_back(&op);
  }
  auto inSlice = [&](Operation *user) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    return feeding.contains(inBody) || following.contains(inBody);
  };
  for (Operation &op : body->without_terminator())
    if (fromDots.contains(&op))
      for (Value result : op.getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !inSlice(user); }))
          slice.carried.push_back(result);
  // A loop that runs no iteration carries zeros instead, which only integers
  // and floats have.
  if (llvm::any_of(slice.carried, [](Value value) {
        return !getElementTypeOrSelf(value.getType()).isIntOrFloat();
      }))
    return PipelinedSlice();
  return slice;
}

/// Clones `ops` at `builder`'s insertion point, extending `mapping`.
void cloneAll(OpBuilder &builder, ArrayRef<Operation *> ops,
              IRMapping &mapping) {
  for (Operation *op : ops)
    builder.clone(*op, mapping);
}

/// The values `mapping` maps `values` to.
SmallVector<Value> lookupAll(const IRMapping &mapping, ValueRange values) {
  return llvm::map_to_vector(
      values, [&](Value value) { return mapping.lookup(value); });
}

/// Compares `lhs < rhs` as `loop` compares its induction variable with its
/// upper bound.
Value isBefore(OpBuilder &builder, Location loc, scf::ForOp loop, Value lhs,
               Value rhs) {
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs);
}

/// Moves the elementwise updates of carried values that nothing else in the
/// iteration uses (attention's running sum, `l * correction + sum(p)`) to the
/// end of `body`: a unit that runs them in program order would otherwise
/// wait there for their operands (the row sum, on the reduction engine)
/// while work of this iteration that does not need them is queued behind.
/// Dots stay: the DPE's products are the work the loop overlaps.
void sinkCarriedUpdates(Block *body) {
  Operation *terminator = body->getTerminator();
  llvm::SmallPtrSet<Operation *, 8> sunk;
  SmallVector<Operation *> updates;
  for (Operation &op : llvm::reverse(body->without_terminator())) {
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        op.getNumResults() == 0 || isa<tt::DotOp>(op))
      continue;
    if (llvm::all_of(op.getUsers(), [&](Operation *user) {
          return user == terminator || sunk.contains(user);
        })) {
      sunk.insert(&op);
      updates.push_back(&op);
    }
  }
  for (Operation *op : llvm::reverse(updates))
    op->moveBefore(terminator);
}

/// Erases the operations of `slice` that nothing uses any more, users
/// first: those of the body, or with `copy`, of the copy of the body that
/// `copy` maps them to.
void eraseUnused(RewriterBase &rewriter, const PipelinedSlice &slice,
                 const IRMapping *copy = nullptr) {
  for (ArrayRef<Operation *> ops : {slice.following, slice.feeding})
    for (Operation *op : llvm::reverse(ops)) {
      Operation *erased = copy ? copy->lookup(op) : op;
      if (erased->use_empty())
        rewriter.eraseOp(erased);
    }
}

/// Runs the last iteration of `loop` in a loop of its own after it, a copy
/// of the body (`mapping` maps the body's operations and values to the
/// copy's), and makes `loop` stop before it: the pipelined loop then never
/// computes past its end. The loop of the last iteration runs one
/// iteration, or none when `loop` runs none; the results of `loop` become
/// its initial values.
scf::ForOp peelLastIteration(RewriterBase &rewriter, scf::ForOp loop,
                             IRMapping &mapping) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  // last = lower + ((upper - lower - 1) / step) * step when the loop runs
  // an iteration, else lower. Steps are positive, and when lower < upper
  // the difference, taken as unsigned, is exact even for a signed loop
  // whose bounds are far apart, and so is the sum.
  Value lower = loop.getLowerBound();
  Value upper = loop.getUpperBound();
  Value step = loop.getStep();
  Value one = arith::ConstantOp::create(
      rewriter, loc, rewriter.getOneAttr(lower.getType()));
  Value span = arith::SubIOp::create(
      rewriter, loc, arith::SubIOp::create(rewriter, loc, upper, lower), one);
  Value steps = arith::DivUIOp::create(rewriter, loc, span, step);
  Value last = arith::AddIOp::create(
      rewriter, loc, lower, arith::MulIOp::create(rewriter, loc, steps, step));
  last = arith::SelectOp::create(rewriter, loc,
                                 isBefore(rewriter, loc, loop, lower, upper),
                                 last, lower);
  return splitLoopAt(rewriter, loop, last, mapping);
}

/// The operations of `ops` (in body order) that use a `tt.reduce` among
/// them, directly or through others that do: their unit would wait for the
/// reduction engine where they stand.
llvm::SmallPtrSet<Operation *, 8>
getWaitingForReductions(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 16> among(ops.begin(), ops.end());
  llvm::SmallPtrSet<Operation *, 8> waiting;
  for (Operation *op : ops)
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          Operation *producer = operand.getDefiningOp();
          return producer && among.contains(producer) &&
                 (isa<tt::ReduceOp>(producer) || waiting.contains(producer));
        }))
      waiting.insert(op);
  return waiting;
}

/// Whether a loop that runs no iteration can carry zeros instead of
/// `values`, which only integers and floats have.
bool haveZeros(ValueRange values) {
  return llvm::all_of(values, [](Value value) {
    return getElementTypeOrSelf(value.getType()).isIntOrFloat();
  });
}

/// Creates `if (runs) { build() } else { zeros }` at `builder`'s insertion
/// point, yielding values of `types`: what `build` returns, or zeros, unused,
/// when the loop the values are for runs no iteration.
scf::IfOp createGuard(OpBuilder &builder, Location loc, Value runs,
                      TypeRange types,
                      function_ref<SmallVector<Value>()> build) {
  auto guard = scf::IfOp::create(builder, loc, types, runs,
                                 /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertionGuard(builder);
  builder.setInsertionPointToStart(guard.thenBlock());
  scf::YieldOp::create(builder, loc, build());
  builder.setInsertionPointToStart(guard.elseBlock());
  SmallVector<Value> zeros = llvm::map_to_vector(types, [&](Type type) {
    return arith::ConstantOp::create(builder, loc,
                                     cast<TypedAttr>(builder.getZeroAttr(type)))
        .getResult();
  });
  scf::YieldOp::create(builder, loc, zeros);
  return guard;
}

/// A pipelined loop, the loop of its last iteration, which follows it, and
/// the `scf.if`s before it that compute its first iteration's products
/// (null when the other one computes them too), its first iteration's
/// values (the same `scf.if` when nothing follows from the products) and
/// among them those that wait for no reduction of the products, when they
/// have an `scf.if` of their own.
struct PipelinedLoop {
  scf::ForOp loop;
  scf::ForOp lastIteration;
  scf::IfOp firstProducts;
  scf::IfOp firstValues;
  scf::IfOp firstReady;
};

/// Pipelines `loop` (see the file comment); returns the pipelined loop and
/// its last iteration's, or nothing when they could not be built.
std::optional<PipelinedLoop> pipeline(scf::ForOp loop,
                                      const PipelinedSlice &slice) {
  Location loc = loop.getLoc();
  IRRewriter rewriter(loop);
  // The first iteration's values, before the loop, computed only when the
  // loop runs an iteration (zeros, unused, otherwise): a loop that runs
  // none neither reads nor multiplies anything ahead. The feeding
  // operations get a guard of their own, which `hoistFirstProducts` can
  // move above the loops before this one, and what follows from their
  // products others (see the file comment).
  rewriter.setInsertionPoint(loop);
  Value runs = isBefore(rewriter, loc, loop, loop.getLowerBound(),
                        loop.getUpperBound());
  // The products: what the loop carries of the feeding operations' values,
  // and the values of the dots and loads among them that what follows
  // reads. The pure operations between those and what follows (index
  // arithmetic, masks) are computed again with it.
  llvm::SmallPtrSet<Operation *, 16> feeding(slice.feeding.begin(),
                                             slice.feeding.end());
  llvm::SetVector<Value> products;
  for (Value value : slice.carried)
    if (feeding.contains(value.getDefiningOp()))
      products.insert(value);
  llvm::SmallPtrSet<Operation *, 16> recomputed;
  SmallVector<Value> worklist;
  for (Operation *op : slice.following)
    op->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *producer = value.getDefiningOp();
    if (!producer || !feeding.contains(producer))
      continue;
    if (isa<tt::DotOp>(producer) || producer->getNumRegions() != 0 ||
        !isMemoryEffectFree(producer))
      products.insert(value);
    else if (recomputed.insert(producer).second)
      llvm::append_range(worklist, producer->getOperands());
  }
  IRMapping firstMapping;
  firstMapping.map(loop.getInductionVar(), loop.getLowerBound());
  // A guard that computes `values` with the operations of the body that
  // `clones` picks (in body order), from what earlier guards computed; the
  // values are its results from then on.
  auto createGuardOf = [&](ArrayRef<Value> values,
                           function_ref<bool(Operation *)> clones) {
    IRMapping mapping = firstMapping;
    scf::IfOp created =
        createGuard(rewriter, loc, runs, ValueRange(values).getTypes(), [&] {
          for (Operation &op : loop.getBody()->without_terminator())
            if (clones(&op))
              rewriter.clone(op, mapping);
          return lookupAll(mapping, values);
        });
    for (auto [value, first] : llvm::zip_equal(values, created.getResults()))
      firstMapping.map(value, first);
    return created;
  };
  llvm::SmallPtrSet<Operation *, 16> following(slice.following.begin(),
                                               slice.following.end());
  scf::IfOp firstProducts;
  if (following.empty() || haveZeros(products.getArrayRef()))
    firstProducts = createGuardOf(products.getArrayRef(), [&](Operation *op) {
      return feeding.contains(op);
    });
  // What the loop carries besides the products comes from the other guards.
  auto notComputed = [&](ArrayRef<Value> values) {
    return llvm::filter_to_vector(
        values, [&](Value value) { return !firstMapping.contains(value); });
  };
  SmallVector<Value> computed = notComputed(slice.carried);
  // What follows from the products without waiting for a reduction of them
  // (attention's mask, select and row maximum) gets a guard of its own,
  // which moves up with the products'; what uses a reduction (the scaling
  // of the row maximum) stays where the loop starts.
  llvm::SmallPtrSet<Operation *, 8> waiting =
      getWaitingForReductions(slice.following);
  SmallVector<Value> ready;
  for (Operation *op : slice.following)
    if (!waiting.contains(op))
      for (Value result : op->getResults())
        if (llvm::is_contained(computed, result) ||
            llvm::any_of(result.getUsers(), [&](Operation *user) {
              return waiting.contains(
                  loop.getBody()->findAncestorOpInBlock(*user));
            }))
          ready.push_back(result);
  scf::IfOp firstReady;
  if (firstProducts && !waiting.empty() && !ready.empty() && haveZeros(ready)) {
    firstReady = createGuardOf(ready, [&](Operation *op) {
      return recomputed.contains(op) ||
             (following.contains(op) && !waiting.contains(op));
    });
    computed = notComputed(computed);
  }
  scf::IfOp guard = firstProducts;
  if (!computed.empty())
    guard = createGuardOf(computed, [&](Operation *op) {
      if (feeding.contains(op))
        return !firstProducts || recomputed.contains(op);
      return following.contains(op) && (!firstReady || waiting.contains(op));
    });
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> first = lookupAll(firstMapping, slice.carried);

  // The next iteration's values are built in the body before it moves to
  // the new loop, whose arguments carry this iteration's.
  auto yieldNext = [&](OpBuilder &builder, Location,
                       ArrayRef<BlockArgument> arguments) {
    Block *body = loop.getBody();
    Operation *terminator = body->getTerminator();
    llvm::SmallPtrSet<Operation *, 16> sliceOps(slice.feeding.begin(),
                                                slice.feeding.end());
    sliceOps.insert(slice.following.begin(), slice.following.end());
    for (auto [carried, argument] : llvm::zip_equal(slice.carried, arguments))
      Value(carried).replaceUsesWithIf(argument, [&](OpOperand &use) {
        return !sliceOps.contains(body->findAncestorOpInBlock(*use.getOwner()));
      });
    // The feeding operations go first, so that the DPE multiplies the next
    // operands before this iteration's chain reaches it.
    builder.setInsertionPointToStart(body);
    Value iv = loop.getInductionVar();
    IRMapping mapping;
    mapping.map(iv, arith::AddIOp::create(builder, loc, iv, loop.getStep()));
    cloneAll(builder, slice.feeding, mapping);
    // What follows from the products goes last, after this iteration's
    // chain: the units that run it are busy with that chain until then.
    builder.setInsertionPoint(terminator);
    cloneAll(builder, slice.following, mapping);
    return lookupAll(mapping, slice.carried);
  };
  IRMapping lastMapping;
  scf::ForOp lastIteration = peelLastIteration(rewriter, loop, lastMapping);
  FailureOr<LoopLikeOpInterface> pipelined =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, first,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       yieldNext);
  if (failed(pipelined))
    return std::nullopt;
  // The last iteration takes the values the pipelined loop computed ahead
  // for it (or, when the pipelined loop runs none, the first iteration's)
  // instead of computing them again.
  ValueRange ahead = pipelined->getOperation()->getResults().take_back(
      slice.carried.size());
  for (auto [carried, value] : llvm::zip_equal(slice.carried, ahead))
    rewriter.replaceAllUsesWith(lastMapping.lookup(carried), value);
  eraseUnused(rewriter, slice, &lastMapping);
  // What only the next iteration's values needed is dead now.
  eraseUnused(rewriter, slice);
  auto pipelinedLoop = cast<scf::ForOp>(pipelined->getOperation());
  sinkCarriedUpdates(pipelinedLoop.getBody());
  sinkCarriedUpdates(lastIteration.getBody());
  return PipelinedLoop{pipelinedLoop, lastIteration, firstProducts, guard,
                       firstReady};
}

/// Moves what the body of `loop` computes from `products` (the products of
/// the next iteration that it carries, or, in the loop of the last
/// iteration, those the pipelined loop computed for it) up to right after
/// the last use of the iteration arguments it computes the next values of:
/// attention's scaling and row maximum of the next scores then run before
/// this iteration's exponentials, so that the reduction engine takes the
/// maximum while the SIMD engine works on this iteration, and the next
/// scores take the place of this iteration's, whose last use they follow.
/// Operations they need that the body computes later (a splat of the scale)
/// move with them when they are pure; otherwise nothing moves. What uses a
/// reduction of the chain stays.
void hoistFollowing(scf::ForOp loop, ValueRange products) {
  Block *body = loop.getBody();
  Operation *terminator = body->getTerminator();
  llvm::SmallPtrSet<Operation *, 16> following;
  for (Value product : products)
    for (Operation *user : product.getUsers())
      if (Operation *inBody = body->findAncestorOpInBlock(*user))
        following.insert(inBody);
  for (Operation &op : body->without_terminator())
    if (llvm::any_of(op.getOperands(), [&](Value operand) {
          Operation *producer = operand.getDefiningOp();
          return producer && following.contains(producer);
        }))
      following.insert(&op);
  following.erase(terminator);
  // What uses a row reduction of the next scores stays where it is (the
  // scaling of the next row maximum `max(qk) * scale`, as Triton's tutorial
  // writes attention): moved up, its unit would wait there for the
  // reduction engine, with this iteration's work queued behind it.
  SmallVector<Operation *> ordered;
  for (Operation &op : body->without_terminator())
    if (following.contains(&op))
      ordered.push_back(&op);
  for (Operation *op : getWaitingForReductions(ordered))
    following.erase(op);
  if (following.empty())
    return;
  // The last use of an iteration argument whose next value they compute.
  Operation *lastUse = nullptr;
  for (OpOperand &yielded : terminator->getOpOperands()) {
    Operation *producer = yielded.get().getDefiningOp();
    if (!producer || !following.contains(producer))
      continue;
    for (Operation *user :
         loop.getRegionIterArg(yielded.getOperandNumber()).getUsers()) {
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody != terminator &&
          (!lastUse || lastUse->isBeforeInBlock(inBody)))
        lastUse = inBody;
    }
  }
  if (!lastUse)
    return;
  // The operations to move, in body order: those that follow from the
  // products, and the pure operations after `lastUse` that they need.
  llvm::SmallPtrSet<Operation *, 16> moved(following.begin(),
                                           following.end());
  SmallVector<Operation *> worklist(following.begin(), following.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (op->isBeforeInBlock(lastUse) || op == lastUse)
      return;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != body ||
          producer->isBeforeInBlock(lastUse) || producer == lastUse ||
          moved.contains(producer))
        continue;
      if (!isMemoryEffectFree(producer) || producer->getNumRegions() != 0)
        return;
      moved.insert(producer);
      worklist.push_back(producer);
    }
  }
  Operation *insertAfter = lastUse;
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    if (moved.contains(&op)) {
      op.moveAfter(insertAfter);
      insertAfter = &op;
    }
}

/// Moves `guard`, which computes the first products of a pipelined loop (or
/// what follows from them), up past at most `limit` of the operations right
/// before it that `passable` holds (the loops of the last iterations of
/// loops pipelined before, and the guards of their first values), with the
/// pure operations among them that it needs (its condition). The DPE then
/// multiplies this loop's first operands while the last iterations of the
/// loops before wait for the other units. Everything it passes at most
/// reads memory, as it does.
void hoistFirstProducts(scf::IfOp guard,
                        const llvm::SmallPtrSetImpl<Operation *> &passable,
                        unsigned limit = ~0u) {
  llvm::SmallPtrSet<Operation *, 8> needed;
  auto isNeeded = [&](Operation *op) {
    return llvm::any_of(op->getUsers(), [&](Operation *user) {
      return guard->isAncestor(user) || needed.contains(user);
    });
  };
  Operation *target = nullptr;
  for (Operation *op = guard->getPrevNode(); op; op = op->getPrevNode()) {
    if (limit && passable.contains(op) && onlyReads(op) && !isNeeded(op)) {
      target = op;
      --limit;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      break;
    if (isNeeded(op))
      needed.insert(op);
  }
  if (!target)
    return;
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(target->getIterator(), guard->getIterator())))
    if (needed.contains(&op))
      op.moveBefore(target);
  guard->moveBefore(target);
}

struct PipelineDotsPass
    : public mtia::impl::PipelineDotsBase<PipelineDotsPass> {
  using PipelineDotsBase::PipelineDotsBase;

  void runOnOperation() override {
    FailureOr<TargetDesc> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // What the first products of a later loop may move above.
    llvm::SmallPtrSet<Operation *, 16> passable;
    auto hoistAndPass = [&](const PipelinedLoop &round) {
      if (round.firstProducts)
        hoistFirstProducts(round.firstProducts, passable);
      // What follows from them without waiting for a reduction moves above
      // the last iteration of the loop before only: the other units take it
      // one iteration ahead, as in a pipelined body, while the DPE waits
      // for that iteration's softmax; further up, they would take it before
      // work the DPE waits for.
      if (round.firstReady) {
        hoistFirstProducts(round.firstReady, passable, /*limit=*/1);
        passable.insert(round.firstReady);
      }
      passable.insert(round.lastIteration);
      // A guard that also computes the products is not passed.
      if (round.firstProducts && round.firstValues != round.firstProducts)
        passable.insert(round.firstValues);
    };
    for (scf::ForOp loop : loops) {
      // Each stage beyond the first computes the dots one more iteration
      // ahead, as many as the body's critical path needs to keep its
      // busiest unit busy (at most two).
      int64_t needed =
          estimateLoopSchedule(*loop.getBody(), *target).getStages() - 1;
      int64_t rounds = std::min({getNumStages(loop) - 1, needed, int64_t{2}});
      if (rounds < 1 || !onlyReads(loop))
        continue;
      PipelinedSlice slice = findSlice(loop, /*feedingOnly=*/false);
      if (slice.carried.empty())
        continue;
      std::optional<PipelinedLoop> pipelined = pipeline(loop, slice);
      if (!pipelined)
        continue;
      hoistAndPass(*pipelined);
      if (rounds == 1)
        continue;
      // The dots two iterations ahead, what follows from them one: the DPE
      // multiplies the next operands before this iteration's products, and
      // the other units compute from the next product while this
      // iteration's chain runs.
      PipelinedSlice dots = findSlice(pipelined->loop, /*feedingOnly=*/true);
      if (dots.carried.empty())
        continue;
      std::optional<PipelinedLoop> twice = pipeline(pipelined->loop, dots);
      if (!twice)
        continue;
      hoistAndPass(*twice);
      unsigned products = dots.carried.size();
      hoistFollowing(twice->loop,
                     twice->loop.getRegionIterArgs().take_back(products));
      // The last iteration of the loop the first round made reads the
      // products computed for it as the twice pipelined loop's results.
      hoistFollowing(twice->lastIteration,
                     twice->loop.getResults().take_back(products));
    }
  }
};

} // namespace
