// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-convert-tt-to-tile,mtia-lower-data-movement)' --verify-diagnostics

// Accesses the data-movement stage cannot lower are reported at their
// location, with the reason the pointer analysis gives.

tt.func @offsets_from_memory(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ib = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %ip = tt.addptr %ib, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %offsets = tt.load %ip : tensor<64x!tt.ptr<i32>>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %base, %offsets : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-error @+1 {{unstructured access (offsets computed by 'tt.load') is not supported by the DMA lowering yet}}
  %v = tt.load %p : tensor<64x!tt.ptr<f32>>
  // expected-error @+1 {{unstructured access (offsets computed by 'tt.load') is not supported by the DMA lowering yet}}
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @lower_bound_mask(%x: !tt.ptr<f32>, %lo: i32) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %los = tt.splat %lo : i32 -> tensor<64xi32>
  %mask = arith.cmpi sge, %range, %los : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-error @+1 {{masks with a lower bound on an index are not supported by the DMA lowering yet}}
  %v = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  tt.return
}
