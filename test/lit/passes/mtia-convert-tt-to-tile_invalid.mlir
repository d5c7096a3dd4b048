// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile)' --verify-diagnostics

// Constructs the tile stage does not support are reported at their location.

tt.func @unsupported_libdevice(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls '__nv_lgammaf' with 1 operands, which is not a supported libdevice function}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_lgammaf"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}


// -----

// tt.dot_scaled of fp6 (which the frontend never makes, and whose packing
// is not defined) and with float scales (nvfp4's e4m3, which Triton's
// interpreter does not define either) are refused at their location.
tt.func @dot_scaled_fp6(%a: tensor<16x64xi8>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operands of format 'e2m3' (fp6) are not supported}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m3 rhs = fp16 {fastMath = false} : tensor<16x64xi8> * tensor<64x8xf16> -> tensor<16x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_float_scales(%a: tensor<16x32xi8>, %sa: tensor<16x4xf8E4M3FN>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{scales of type 'f8E4M3FN' are not supported: only e8m0 scales (i8) are}}
  %0 = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16x32xi8>, tensor<16x4xf8E4M3FN> * tensor<64x8xf16> -> tensor<16x8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<16x8xf32>
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

// -----

// Calls in the `mtia` library must name a language extension the compiler
// knows, with operands that fit it.
tt.func @unknown_extension(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls 'mtia.all_reduce.prod.grid', which is not an MTIA language extension}}
  %0 = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_reduce.prod.grid"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}

// -----

tt.func @unsigned_float_reduction(%x: tensor<8xf32>) {
  // expected-error @+1 {{'umax' (an unsigned reduction) of floats}}
  %0 = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_reduce.umax.row"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}

// -----

tt.func @bad_group(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls 'mtia.broadcast.diagonal.0', which is not an MTIA language extension}}
  %0 = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.broadcast.diagonal.0"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}

// -----

tt.func @arg_reduce_index_type(%x: tensor<8xf32>, %i: tensor<8xi64>) {
  // expected-error @+1 {{takes and gives i32 indices}}
  %0 = tt.extern_elementwise %x, %i {libname = "mtia", libpath = "", pure = false, symbol = "mtia.all_argmax.grid"} : (tensor<8xf32>, tensor<8xi64>) -> tensor<8xi64>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xi64>
  tt.return
}

// -----

tt.func @off_grid_direction(%x: tensor<8xf32>) {
  // expected-error @+1 {{calls 'mtia.shift.up', which is not an MTIA language extension}}
  %0 = tt.extern_elementwise %x {libname = "mtia", libpath = "", pure = false, symbol = "mtia.shift.up"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.print "" {hex = false, isSigned = array<i32: 0>} : %0 : tensor<8xf32>
  tt.return
}
