// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i})' | FileCheck %s
// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-v1 num-stages=5})' | FileCheck %s --check-prefix=V1
// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{num-stages=1 max-stages=1})' | FileCheck %s --check-prefix=BOUND

// The target's figures are stamped on the module as a dictionary: whole
// numbers as i64, the others as f64, sections as nested dictionaries; the
// texts that say where the figures come from are left out. The launch's
// `num_stages` goes beside it (Triton's default of 3 unless given), and a
// bound of every loop's stages when one is given (BOUND).

// CHECK: module attributes {mtia.num_stages = 3 : i32, mtia.target = {
// CHECK-SAME: clock_ghz = 1.350000e+00 : f64
// CHECK-SAME: command_processor = {circular_buffers = 32 : i64
// CHECK-SAME: dram = {
// CHECK-SAME: reorder_window_ns = 160 : i64
// CHECK-SAME: name = "mtia-2i"
// CHECK-NOT: sources
// CHECK-NOT: description
// CHECK: tt.func @kernel

// BOUND: module attributes {mtia.max_stages = 1 : i32, mtia.num_stages = 1 : i32, mtia.target = {

// V1: module attributes {mtia.num_stages = 5 : i32, mtia.target = {
// V1-SAME: clock_ghz = 8.000000e-01 : f64
// V1-SAME: name = "mtia-v1"

tt.func @kernel() {
  tt.return
}
