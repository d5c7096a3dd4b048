//===- LiftFunctionControlFlow.cpp - Structure functions' branches --------===//
//
// A `@triton.jit` function that returns from inside an `if` reaches TTIR as
// a `tt.func` of several blocks: a `cf.cond_br` and a `tt.return` in each
// branch. The inliner cannot put such a body into a region of one block (an
// `scf.if`), so its `tt.call` would stay, and the program stage has no
// calls. This pass lifts the control flow of every function of several
// blocks that is called inside another op to `scf` with MLIR's CFG-to-SCF
// transformation, leaving one block that ends in one `tt.return`. Other
// functions keep their branches: the kernel's own, and a helper's called
// directly in a function body, which the inliner takes as they are.
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

#include "llvm/ADT/StringSet.h"

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

struct LiftFunctionControlFlowPass
    : public mtia::impl::LiftFunctionControlFlowBase<
          LiftFunctionControlFlowPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The functions called inside an op (an scf.if, a loop), whose region
    // has room for one block only.
    llvm::StringSet<> nested;
    module.walk([&](tt::CallOp call) {
      if (!isa<tt::FuncOp>(call->getParentOp()))
        nested.insert(call.getCallee());
    });
    TTFuncToSCF transformation;
    for (auto function : module.getOps<tt::FuncOp>()) {
      Region &body = function.getBody();
      if (body.hasOneBlock() || !nested.contains(function.getSymName()))
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
    }
  }
};

} // namespace
