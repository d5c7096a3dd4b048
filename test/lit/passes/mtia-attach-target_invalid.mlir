// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-9z})' --verify-diagnostics

// A target that is not installed is an error at the module.

// expected-error @+1 {{cannot load target 'mtia-9z' from}}
module {
  tt.func @kernel() {
    tt.return
  }
}
