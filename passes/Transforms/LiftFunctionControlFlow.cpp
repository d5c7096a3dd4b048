//===- LiftFunctionControlFlow.cpp - Structure functions' branches --------===//
//
// A `@triton.jit` function that returns from inside an `if` reaches TTIR as
// a `tt.func` of several blocks: a `cf.cond_br` and a `tt.return` in each
// branch. The inliner cannot put such a body into a region of one block (an
// `scf.if`), so its `tt.call` would stay, and the passes after it work on
// structured control flow: the strip-miner, for one, runs only the blocks of
// a kernel of one block in strips. This pass lifts the control flow of every
// function of several blocks to `scf` with MLIR's CFG-to-SCF transformation,
// leaving one block that ends in one `tt.return`. Where several paths return
// (a return nested in two `if`s), the transformation chooses among them with
// an `scf.index_switch`, which this pass turns into a chain of `scf.if`s.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mtia {
#define GEN_PASS_DEF_LIFTFUNCTIONCONTROLFLOW
#include "passes/Passes.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

/// The `cf`-to-`scf` lifting of MLIR, with the `tt.return` of poison values
/// that `tt.func` needs where a path can never return.
class TTFuncToSCF : public ControlFlowToSCFTransformation {
public:
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    auto function = dyn_cast<tt::FuncOp>(region.getParentOp());
    if (!function)
      return emitError(loc, "a region of several blocks outside a tt.func "
                            "cannot be structured");
    SmallVector<Value> poisons;
    for (Type type : function.getResultTypes())
      poisons.push_back(ub::PoisonOp::create(builder, loc, type));
    return tt::ReturnOp::create(builder, loc, poisons).getOperation();
  }
};

/// Replaces `switchOp` with a chain of `scf.if`s that test its cases in
/// order, the last one's else region running the default region.
void convertSwitchToIfs(scf::IndexSwitchOp switchOp, RewriterBase &rewriter) {
  Location loc = switchOp.getLoc();
  TypeRange resultTypes = switchOp.getResultTypes();
  rewriter.setInsertionPoint(switchOp);
  if (switchOp.getNumCases() == 0) {
    Block &defaultBlock = switchOp.getDefaultBlock();
    Operation *yield = defaultBlock.getTerminator();
    SmallVector<Value> results = yield->getOperands();
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&defaultBlock, switchOp);
    rewriter.replaceOp(switchOp, results);
    return;
  }
  scf::IfOp outermost;
  for (auto [value, region] :
       llvm::zip(switchOp.getCases(), switchOp.getCaseRegions())) {
    Value caseValue = arith::ConstantIndexOp::create(rewriter, loc, value);
    Value matches = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, switchOp.getArg(), caseValue);
    auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, matches,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    ifOp.getThenRegion().takeBody(region);
    // Each `if` but the outermost is the whole else branch of the one before.
    if (outermost)
      scf::YieldOp::create(rewriter, loc, ifOp.getResults());
    else
      outermost = ifOp;
    rewriter.setInsertionPointToStart(
        rewriter.createBlock(&ifOp.getElseRegion()));
  }
  Block *elseBlock = rewriter.getInsertionBlock();
  elseBlock->getParent()->takeBody(switchOp.getDefaultRegion());
  rewriter.replaceOp(switchOp, outermost.getResults());
}

struct LiftFunctionControlFlowPass
    : public mtia::impl::LiftFunctionControlFlowBase<
          LiftFunctionControlFlowPass> {
  void runOnOperation() override {
    TTFuncToSCF transformation;
    for (auto function : getOperation().getOps<tt::FuncOp>()) {
      Region &body = function.getBody();
      if (body.hasOneBlock())
        continue;
      IRRewriter rewriter(function.getContext());
      (void)eraseUnreachableBlocks(rewriter, body);
      if (body.hasOneBlock())
        continue;
      DominanceInfo dominance(function);
      if (failed(transformCFGToSCF(body, transformation, dominance))) {
        function.emitError("the branches of this function cannot be "
                           "structured into scf.if and scf.while");
        return signalPassFailure();
      }
      function.walk([&](scf::IndexSwitchOp switchOp) {
        convertSwitchToIfs(switchOp, rewriter);
      });
    }
  }
};

} // namespace
