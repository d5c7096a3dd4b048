// RUN: mtia-opt --show-dialects | FileCheck %s
// RUN: mtia-opt --list-passes | FileCheck %s --check-prefix=PASSES

// CHECK: Available Dialects:
// CHECK-SAME: arith,
// CHECK-SAME: scf,
// CHECK-SAME: tt,
// CHECK-SAME: ttg,
// CHECK-SAME: ub,

// PASSES: --canonicalize
// PASSES: Python passes:
// PASSES-NEXT: --mtia-drop-assumes: Remove llvm.intr.assume hints
