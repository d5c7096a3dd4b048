// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{max-stages=-1})' --verify-diagnostics

// A bound of every loop's stages below zero (0: no bound) is an error at
// the module.

// expected-error @+1 {{max-stages must be at least 0, got -1}}
module {
  tt.func @kernel() {
    tt.return
  }
}
