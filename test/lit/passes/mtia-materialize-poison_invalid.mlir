// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-materialize-poison)' --verify-diagnostics

tt.func @descriptor() -> !tt.tensordesc<16x16xf32> {
  // expected-error @+1 {{'ub.poison' op of type '!tt.tensordesc<16x16xf32>' has no value to stand for it (integers, floats and pointers, and tensors of them, have zero)}}
  %0 = ub.poison : !tt.tensordesc<16x16xf32>
  tt.return %0 : !tt.tensordesc<16x16xf32>
}
