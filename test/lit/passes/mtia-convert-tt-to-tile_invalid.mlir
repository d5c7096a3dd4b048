// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile)' --verify-diagnostics

// Constructs the tile stage does not support are reported at their location.

tt.func @unsupported_libdevice(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls '__nv_lgammaf' with 1 operands, which is not a supported libdevice function}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_lgammaf"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}


// -----

// The DPE has no f64 datapath: an f64 dot is reported at its location
// rather than widened or narrowed.
tt.func @dot_f64(%a: tensor<16x16xf64>, %b: tensor<16x16xf64>, %c: tensor<16x16xf64>) {
  // expected-error @+1 {{the DPE multiplies f16, bf16, f32 or i8, got 'f64'}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x16xf64>
  tt.return
}

// -----

// Pointers read as integers must come from what the tile stage can follow.
tt.func @loaded_pointers(%pp: tensor<8x!tt.ptr<!tt.ptr<f32>>>, %out: tensor<8x!tt.ptr<i64>>) {
  %p = tt.load %pp : tensor<8x!tt.ptr<!tt.ptr<f32>>>
  // expected-error @+1 {{'tt.ptr_to_int' op reads as integers pointers that 'tt.load' computes, which the tile stage cannot compute as integers}}
  %i = tt.ptr_to_int %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  tt.store %out, %i : tensor<8x!tt.ptr<i64>>
  tt.return
}
