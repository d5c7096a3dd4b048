// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-drop-assumes,canonicalize,cse)' | FileCheck %s
// RUN: not mtia-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mtia-opt %s --pass-pipeline='canonicalize' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not mtia-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1)' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-drop-assumes,canonicalize)' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=AFTER

// A Python pass (mtia-drop-assumes) and C++ passes in one pipeline: once the
// assume is gone, canonicalization folds the comparison that fed it, and CSE
// merges the two identical additions.

// CHECK-LABEL: tt.func @kernel
// CHECK-NOT: llvm.intr.assume
// CHECK-NOT: arith.cmpi
// CHECK: %[[SUM:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT: %[[PROD:.*]] = arith.muli %[[SUM]], %[[SUM]] : i32
// CHECK-NEXT: tt.return %[[PROD]] : i32
tt.func @kernel(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %n, %c0 : i32
  llvm.intr.assume %positive : i1
  %a = arith.addi %n, %n : i32
  %b = arith.addi %n, %n : i32
  %p = arith.muli %a, %b : i32
  tt.return %p : i32
}

// UNKNOWN: mtia-opt: error: 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// ANCHOR: mtia-opt: error: pass pipeline 'canonicalize' must be anchored on the module: builtin.module(...)
// UNBALANCED: mtia-opt: error: unterminated bracket or quote in pass pipeline
// AFTER: IR Dump After mtia-drop-assumes
// AFTER-NOT: llvm.intr.assume
// AFTER: IR Dump After Canonicalizer
