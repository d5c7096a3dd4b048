// RUN: mtia-opt %s --pass-pipeline='builtin.module(mtia-strip-mine-blocks)' --verify-diagnostics

// The pass needs the machine: on a module without a target description it
// says which pass stamps one.

// expected-error @+1 {{the module has no target description (its `mtia.target` attribute): run mtia-attach-target first}}
module {
  tt.func @kernel() {
    tt.return
  }
}
