// RUN: mtia-opt %s | mtia-opt | FileCheck %s
// RUN: mtia-opt %s --mlir-print-op-generic | mtia-opt | FileCheck %s

// `ttg.barrier`, the one TritonGPU operation in TTIR from Triton 3.9
// (`tl.debug_barrier()` prints `ttg.barrier all`), with its address spaces.

// CHECK-LABEL: tt.func @barriers
tt.func @barriers() {
  // CHECK-NEXT: ttg.barrier all
  ttg.barrier all
  // CHECK-NEXT: ttg.barrier local
  ttg.barrier local
  // CHECK-NEXT: ttg.barrier local|global_read|global_write
  ttg.barrier local|global_read|global_write
  // CHECK-NEXT: ttg.barrier tensor_read|tensor_write
  ttg.barrier tensor_write|tensor_read
  // CHECK-NEXT: ttg.barrier none
  ttg.barrier none
  tt.return
}
