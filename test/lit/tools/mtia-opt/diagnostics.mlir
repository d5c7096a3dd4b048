// RUN: not mtia-opt %s 2>&1 | FileCheck %s
// RUN: mtia-opt %s --verify-diagnostics

// Errors are located at the offending operation and quote the source line.

// expected-note @+1 {{prior use here}}
tt.func @wrong_value_type(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf16>) {
  // CHECK: diagnostics.mlir:[[@LINE+3]]:16: error: use of value '%v' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<8xf16>'
  // CHECK-NEXT: tt.store %p, %v : tensor<8x!tt.ptr<f32>>
  // expected-error @+1 {{use of value '%v' expects different type than prior uses}}
  tt.store %p, %v : tensor<8x!tt.ptr<f32>>
  tt.return
}
