//===- TestPointerAnalysis.cpp - Report the pointer analysis as remarks ---===//
//
// `mtia-test-pointer-analysis` attaches to every load, store and atomic a
// remark that describes its pointer and mask as PointerAnalysis sees them,
// so that the analysis can be tested with --verify-diagnostics and FileCheck.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/PointerAnalysis.h"

#include "dialects/TT/TTDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

namespace mtia {
#define GEN_PASS_DEF_TESTPOINTERANALYSIS
#include "test/lib/TestPasses.h.inc"
} // namespace mtia

using namespace mlir;
using namespace mtia;

namespace {

void describePointer(PointerAnalysis &analysis, Value pointer, raw_ostream &os,
                     AsmState &state) {
  std::optional<PointerAccess> access = analysis.analyzePointer(pointer);
  if (!access) {
    os << "unstructured pointer (" << analysis.getFailure().reason << ")";
    return;
  }
  os << "base ";
  access->base.printAsOperand(os, state);
  os << ", offset ";
  analysis.print(access->offsets.offset, os, state);
  os << ", strides [";
  llvm::interleaveComma(access->offsets.strides, os, [&](const LinearExpr &s) {
    analysis.print(s, os, state);
  });
  os << "]";
  for (const RangeAssumption &assumption : access->offsets.assumptions) {
    os << ", if ";
    analysis.print(assumption.offset, os, state);
    os << " + [";
    llvm::interleaveComma(assumption.strides, os, [&](const LinearExpr &s) {
      analysis.print(s, os, state);
    });
    os << "] * i in [0, ";
    analysis.print(assumption.bound, os, state);
    os << ")";
  }
}

void describeMask(PointerAnalysis &analysis, Value mask, raw_ostream &os,
                  AsmState &state) {
  if (!mask) {
    os << "no mask";
    return;
  }
  std::optional<MaskBounds> bounds = analysis.analyzeMask(mask);
  if (!bounds) {
    os << "unstructured mask (" << analysis.getFailure().reason << ")";
    return;
  }
  SmallVector<std::string> parts;
  auto describe = [&](auto callback) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    callback(stream);
    parts.push_back(text);
  };
  for (auto [dim, lowers] : llvm::enumerate(bounds->lowers))
    for (const LinearExpr &lower : lowers)
      describe([&](raw_ostream &s) {
        s << "d" << dim << " >= ";
        analysis.print(lower, s, state);
      });
  for (auto [dim, uppers] : llvm::enumerate(bounds->uppers))
    for (const LinearExpr &upper : uppers)
      describe([&](raw_ostream &s) {
        s << "d" << dim << " < ";
        analysis.print(upper, s, state);
      });
  for (const LinearExpr &positive : bounds->positive)
    describe([&](raw_ostream &s) {
      analysis.print(positive, s, state);
      s << " > 0";
    });
  for (Value condition : bounds->conditions)
    describe([&](raw_ostream &s) { condition.printAsOperand(s, state); });
  os << "mask ";
  if (parts.empty())
    os << "all";
  llvm::interleave(parts, os, " and ");
}

struct TestPointerAnalysisPass
    : public mtia::impl::TestPointerAnalysisBase<TestPointerAnalysisPass> {
  void runOnOperation() override {
    PointerAnalysis analysis;
    AsmState state(getOperation());
    getOperation()->walk([&](Operation *op) {
      Value pointer, mask;
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        pointer = load.getPtr();
        mask = load.getMask();
      } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
        pointer = store.getPtr();
        mask = store.getMask();
      } else if (auto atomic = dyn_cast<tt::AtomicRMWOp>(op)) {
        pointer = atomic.getPtr();
        mask = atomic.getMask();
      } else {
        return;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      describePointer(analysis, pointer, os, state);
      os << "; ";
      describeMask(analysis, mask, os, state);
      op->emitRemark(text);
    });
  }
};

} // namespace
