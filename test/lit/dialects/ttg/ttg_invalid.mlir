// RUN: mtia-opt %s --split-input-file --verify-diagnostics

tt.func @unknown_address_space() {
  // expected-error @+1 {{unknown address space 'shared' (expected none, local, global_read, global_write, tensor_read, tensor_write or all)}}
  ttg.barrier local|shared
  tt.return
}

// -----

tt.func @none_combined() {
  // expected-error @+1 {{'none' cannot be combined with other address spaces}}
  ttg.barrier none|local
  tt.return
}
