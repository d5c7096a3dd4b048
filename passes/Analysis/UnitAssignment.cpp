//===- UnitAssignment.cpp - The unit that holds each tile -----------------===//
//
// Follows tiles through circular buffers, loops and conditionals to the
// unit that computes them.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/UnitAssignment.h"

#include "dialects/CB/CBDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mtia;

tile::Unit UnitAssignment::getOwner(Value value) {
  if (auto it = owners.find(value); it != owners.end())
    return it->second;
  // A cycle through loop-carried values is broken with the default unit;
  // the value that enters the loop decides then.
  owners[value] = tile::Unit::SIMD;
  tile::Unit owner = computeOwner(value);
  owners[value] = owner;
  return owner;
}

std::optional<tile::Unit> UnitAssignment::getUser(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto unitOp = dyn_cast<tile::UnitOpInterface>(user))
    return unitOp.getUnit();
  // A subview is read where its source is held.
  if (auto subview = dyn_cast<tile::SubviewOp>(user))
    return getOwner(subview.getSource());
  if (auto write = dyn_cast<cb::WriteBackOp>(user))
    return write.getCb().getDefiningOp<cb::AllocOp>().getProducerUnit();
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

tile::Unit UnitAssignment::computeOwner(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (loop && argument.getArgNumber() > 0) {
      unsigned index = argument.getArgNumber() - 1;
      // A tile the loop carries unchanged is held where it enters the loop.
      Value yielded = loop.getYieldedValues()[index];
      if (yielded == argument)
        return getOwner(loop.getInitArgs()[index]);
      return getOwner(yielded);
    }
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
  if (auto subview = dyn_cast<tile::SubviewOp>(op))
    return getOwner(subview.getSource());
  if (auto read = dyn_cast<cb::ReadFrontOp>(op))
    return read.getCb().getDefiningOp<cb::AllocOp>().getConsumerUnit();
  if (auto read = dyn_cast<cb::ReadPushedOp>(op))
    return read.getCb().getDefiningOp<cb::AllocOp>().getProducerUnit();
  unsigned index = cast<OpResult>(value).getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return getOwner(loop.getYieldedValues()[index]);
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return getOwner(loop.getConditionOp().getArgs()[index]);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return getOwner(branch.thenYield().getOperand(index));
  return tile::Unit::SIMD;
}
