// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-narrow-masked-dimensions)' | FileCheck %s

// A head dimension of 80 in blocks of 128: every load and store masks the
// columns past 80, the loads give zeros there, and the dot over the columns
// multiplies two such blocks. The columns are cut to 80 in every tensor,
// the dot over them included, and the mask is true throughout.

// CHECK-LABEL: tt.func @padded_head
// CHECK-DAG: tt.make_range {end = 80 : i32, start = 0 : i32} : tensor<80xi32>
// CHECK-DAG: arith.constant dense<true> : tensor<80xi1>
// CHECK-NOT: arith.cmpi
// CHECK: tt.load {{.*}} : tensor<16x80x!tt.ptr<f16>>
// CHECK: tt.load {{.*}} : tensor<32x80x!tt.ptr<f16>>
// CHECK: tt.dot {{.*}} : tensor<16x80xf16> * tensor<80x32xf16> -> tensor<16x32xf32>
// CHECK: tt.dot {{.*}} : tensor<16x32xf16> * tensor<32x80xf16> -> tensor<16x80xf32>
// CHECK: tt.store {{.*}} : tensor<16x80x!tt.ptr<f32>>
tt.func @padded_head(%q_ptr: !tt.ptr<f16>, %k_ptr: !tt.ptr<f16>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<80> : tensor<128xi32>
  %q_zero = arith.constant dense<0.000000e+00> : tensor<16x128xf16>
  %k_zero = arith.constant dense<0.000000e+00> : tensor<32x128xf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
  %out_acc = arith.constant dense<0.000000e+00> : tensor<16x128xf32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %in_head = arith.cmpi slt, %cols, %bound : tensor<128xi32>
  %in_head_row = tt.expand_dims %in_head {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
  %cols_row = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  // Q: 16 rows of 128 columns, row-major with a stride of 80.
  %q_mask = tt.broadcast %in_head_row : tensor<1x128xi1> -> tensor<16x128xi1>
  %q_rows = tt.expand_dims %rows16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %stride16 = arith.constant dense<80> : tensor<16x1xi32>
  %q_row_offsets = arith.muli %q_rows, %stride16 : tensor<16x1xi32>
  %q_rows_wide = tt.broadcast %q_row_offsets : tensor<16x1xi32> -> tensor<16x128xi32>
  %q_cols_wide = tt.broadcast %cols_row : tensor<1x128xi32> -> tensor<16x128xi32>
  %q_offsets = arith.addi %q_rows_wide, %q_cols_wide : tensor<16x128xi32>
  %q_base = tt.splat %q_ptr : !tt.ptr<f16> -> tensor<16x128x!tt.ptr<f16>>
  %q_ptrs = tt.addptr %q_base, %q_offsets : tensor<16x128x!tt.ptr<f16>>, tensor<16x128xi32>
  %q = tt.load %q_ptrs, %q_mask, %q_zero : tensor<16x128x!tt.ptr<f16>>
  // K: 32 rows.
  %k_mask = tt.broadcast %in_head_row : tensor<1x128xi1> -> tensor<32x128xi1>
  %k_rows = tt.expand_dims %rows32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %stride32 = arith.constant dense<80> : tensor<32x1xi32>
  %k_row_offsets = arith.muli %k_rows, %stride32 : tensor<32x1xi32>
  %k_rows_wide = tt.broadcast %k_row_offsets : tensor<32x1xi32> -> tensor<32x128xi32>
  %k_cols_wide = tt.broadcast %cols_row : tensor<1x128xi32> -> tensor<32x128xi32>
  %k_offsets = arith.addi %k_rows_wide, %k_cols_wide : tensor<32x128xi32>
  %k_base = tt.splat %k_ptr : !tt.ptr<f16> -> tensor<32x128x!tt.ptr<f16>>
  %k_ptrs = tt.addptr %k_base, %k_offsets : tensor<32x128x!tt.ptr<f16>>, tensor<32x128xi32>
  %k = tt.load %k_ptrs, %k_mask, %k_zero : tensor<32x128x!tt.ptr<f16>>
  %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<32x128xf16> -> tensor<128x32xf16>
  %scores = tt.dot %q, %kt, %acc : tensor<16x128xf16> * tensor<128x32xf16> -> tensor<16x32xf32>
  %p = arith.truncf %scores : tensor<16x32xf32> to tensor<16x32xf16>
  %o = tt.dot %p, %k, %out_acc : tensor<16x32xf16> * tensor<32x128xf16> -> tensor<16x128xf32>
  %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %q_offsets : tensor<16x128x!tt.ptr<f32>>, tensor<16x128xi32>
  tt.store %out_ptrs, %o, %q_mask : tensor<16x128x!tt.ptr<f32>>
  tt.return
}

// -----

// The rows and the columns of a square block share their range; only the
// columns are masked by a constant. Each use gets its own range, so the
// columns are cut to 48 and the rows keep their 64.

// CHECK-LABEL: tt.func @shared_range
// CHECK: tt.load {{.*}} : tensor<64x48x!tt.ptr<f32>>
// CHECK: tt.store {{.*}} : tensor<64x48x!tt.ptr<f32>>
tt.func @shared_range(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %stride = arith.constant dense<48> : tensor<64x1xi32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %in_row = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %mask_row = tt.expand_dims %in_row {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
  %mask = tt.broadcast %mask_row : tensor<1x64xi1> -> tensor<64x64xi1>
  %rows = tt.expand_dims %range {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %row_offsets = arith.muli %rows, %stride : tensor<64x1xi32>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %row_wide = tt.broadcast %row_offsets : tensor<64x1xi32> -> tensor<64x64xi32>
  %col_wide = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %offsets = arith.addi %row_wide, %col_wide : tensor<64x64xi32>
  %in_base = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %offsets : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %x = tt.load %in_ptrs, %mask : tensor<64x64x!tt.ptr<f32>>
  %y = arith.addf %x, %x : tensor<64x64xf32>
  %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %offsets : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %out_ptrs, %y, %mask : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// What keeps the padding: a store without the mask writes it, a sum over
// the columns of ones past the bound adds them, and a dot over columns
// loaded with ones past the bound multiplies them. Nothing is cut.

// CHECK-LABEL: tt.func @unmasked_store
// CHECK: tt.store {{.*}} : tensor<64x!tt.ptr<f32>>
tt.func @unmasked_store(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %in_base = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %in_ptrs, %mask : tensor<64x!tt.ptr<f32>>
  %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %out_ptrs, %x : tensor<64x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: tt.func @sum_over_ones
// CHECK: tt.load {{.*}} : tensor<64x!tt.ptr<f32>>
tt.func @sum_over_ones(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %zero = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %in_base = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %in_ptrs, %mask, %zero : tensor<64x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<64xf32>) -> f32
  tt.store %out_ptr, %sum : !tt.ptr<f32>
  tt.return
}

// CHECK-LABEL: tt.func @dot_over_ones
// CHECK: tt.dot {{.*}} : tensor<16x64xf16> * tensor<64x16xf16>
tt.func @dot_over_ones(%a_ptr: !tt.ptr<f16>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %ones = arith.constant dense<1.000000e+00> : tensor<16x64xf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %in_row = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %mask_row = tt.expand_dims %in_row {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
  %mask = tt.broadcast %mask_row : tensor<1x64xi1> -> tensor<16x64xi1>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %offsets = tt.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %a_base = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %a_ptrs = tt.addptr %a_base, %offsets : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
  %a = tt.load %a_ptrs, %mask, %ones : tensor<16x64x!tt.ptr<f16>>
  %at = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x64xf16> -> tensor<64x16xf16>
  %d = tt.dot %a, %at, %acc : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rw = tt.broadcast %r : tensor<16x1xi32> -> tensor<16x16xi32>
  %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rw : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %out_ptrs, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// Padding that a select sets to zeros, under a dot over it; reductions over
// the padding where it holds the combine's neutral element: a sum over zeros
// a load puts there, a maximum over the -inf a select puts there. The
// columns are cut to the bound.

// CHECK-LABEL: tt.func @dot_over_selected_zeros
// CHECK: tt.dot {{.*}} : tensor<16x48xf16> * tensor<48x16xf16>
tt.func @dot_over_selected_zeros(%a_ptr: !tt.ptr<f16>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %in_row = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %mask_row = tt.expand_dims %in_row {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
  %mask = tt.broadcast %mask_row : tensor<1x64xi1> -> tensor<16x64xi1>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %offsets = tt.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %a_base = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %a_ptrs = tt.addptr %a_base, %offsets : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
  %loaded = tt.load %a_ptrs, %mask : tensor<16x64x!tt.ptr<f16>>
  %a = arith.select %mask, %loaded, %zeros : tensor<16x64xi1>, tensor<16x64xf16>
  %at = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x64xf16> -> tensor<64x16xf16>
  %d = tt.dot %a, %at, %acc : tensor<16x64xf16> * tensor<64x16xf16> -> tensor<16x16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rw = tt.broadcast %r : tensor<16x1xi32> -> tensor<16x16xi32>
  %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rw : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %out_ptrs, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: tt.func @neutral_padding
// CHECK: tt.load {{.*}} : tensor<48x!tt.ptr<f32>>
// CHECK: "tt.reduce"({{.*}}) <{axis = 0 : i32}>
// CHECK: (tensor<48xf32>) -> f32
// CHECK: "tt.reduce"({{.*}}) <{axis = 0 : i32}>
// CHECK: (tensor<48xf32>) -> f32
tt.func @neutral_padding(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
  %bound = arith.constant dense<48> : tensor<64xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %lowest = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
  %in_base = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %in_ptrs, %mask, %zero : tensor<64x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<64xf32>) -> f32
  %y = arith.select %mask, %x, %lowest : tensor<64xi1>, tensor<64xf32>
  %max = "tt.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<64xf32>) -> f32
  %both = arith.addf %sum, %max : f32
  tt.store %out_ptr, %both : !tt.ptr<f32>
  tt.return
}
