// RUN: not mtia-opt %s --split-input-file | FileCheck %s
// RUN: not mtia-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize)' -o %t 2>&1 | FileCheck %s --check-prefix=ERR

// Each chunk is parsed on its own; the outputs are joined by the marker, and
// errors keep the line numbers of the whole file.

// CHECK-LABEL: tt.func @first
tt.func @first() {
  tt.return
}

// CHECK: // -----
// -----

// CHECK-LABEL: tt.func @second
tt.func @second(%x: i32) -> i32 {
  tt.return %x : i32
}

// -----

tt.func @third() {
  // ERR: split-input-file.mlir:[[@LINE+1]]:8: error: custom op 'tt.not_an_op' is unknown
  %0 = tt.not_an_op : i32
  tt.return
}
