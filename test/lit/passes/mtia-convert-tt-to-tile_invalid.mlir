// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile)' --verify-diagnostics

// Constructs the tile stage does not support are reported at their location.

tt.func @unsupported_libdevice(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls '__nv_lgammaf' with 1 operands, which is not a supported libdevice function}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_lgammaf"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}

