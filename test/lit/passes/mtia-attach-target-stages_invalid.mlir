// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{num-stages=0})' --verify-diagnostics

// A launch's num_stages below one is an error at the module, as Triton's
// own backends refuse it.

// expected-error @+1 {{num_stages must be at least 1, got 0}}
module {
  tt.func @kernel() {
    tt.return
  }
}
