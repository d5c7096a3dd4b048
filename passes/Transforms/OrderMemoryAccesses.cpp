//===- OrderMemoryAccesses.cpp - DMA waits --------------------------------===//
//
// Makes reads of global memory wait for the DMA writes to the same kernel
// argument or scratch region that may precede them, and writes to scratch
// for the reads of it, since the DMA engine's two queues and the control
// core run independently.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/PointerAnalysis.h"
#include "passes/Passes.h"

#include "dialects/DMA/DMADialect.h"
#include "dialects/TT/TTDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mtia {
#define GEN_PASS_DEF_ORDERMEMORYACCESSES
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// Whether `writer` may run before `reader` in one program: it comes
/// first in program order, or a loop encloses both.
bool mayPrecede(Operation *writer, Operation *reader) {
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

/// Makes `access` wait for the transfers issued before it (`dma.wait`
/// without tokens) when any of `conflicts` may precede it, as early as
/// possible: before the outermost loop or branch around it that contains
/// none of them.
void waitForConflicts(Operation *access, ArrayRef<Operation *> conflicts) {
  if (conflicts.empty())
    return;
  Operation *at = access;
  for (Operation *parent = at->getParentOp();
       parent && !isa<tt::FuncOp>(parent); parent = parent->getParentOp()) {
    if (llvm::any_of(conflicts, [&](Operation *transfer) {
          return parent->isAncestor(transfer);
        }))
      break;
    at = parent;
  }
  if (isa_and_present<dma::WaitOp>(at->getPrevNode()))
    return;
  OpBuilder builder(at);
  dma::WaitOp::create(builder, access->getLoc(), ValueRange{});
}

/// Orders reads of global memory after the DMA writes (stores, scatters,
/// atomics) that may precede them in the program and touch the same
/// kernel argument or scratch region (accesses through pointers of unknown
/// origin alias every argument; distinct arguments are taken not to
/// overlap). The DMA engine's inbound and outbound queues run
/// independently, and the control core's scalar loads and stores bypass
/// both, so such a read — a DMA load or gather, or a scalar access of the
/// control core — waits for the transfers issued before it. A scalar store
/// or atomic of the control core waits for earlier DMA reads of its
/// argument too, and so does a DMA write to a scratch region: the compiler
/// reuses the region at each iteration of a loop, whose next writes must
/// not overtake the reads of the last.
void orderMemoryAccesses(tt::FuncOp function) {
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
    else if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op))
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
    waitForConflicts(access.op, conflicts);
  }
  for (const Access &write : transfers) {
    if (!write.writes || !write.root ||
        !write.root.getDefiningOp<dma::ScratchOp>())
      continue;
    SmallVector<Operation *> conflicts;
    for (const Access &read : transfers)
      if (!read.writes && read.root == write.root &&
          mayPrecede(read.op, write.op))
        conflicts.push_back(read.op);
    waitForConflicts(write.op, conflicts);
  }
}

struct OrderMemoryAccessesPass
    : public mtia::impl::OrderMemoryAccessesBase<OrderMemoryAccessesPass> {
  void runOnOperation() override {
    getOperation().walk(
        [](tt::FuncOp function) { orderMemoryAccesses(function); });
  }
};

} // namespace
