// RUN: mtia-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the tile dialect.

// expected-error @+1 {{tile dimensions must be positive, got 0}}
tt.func @zero_dimension(%a: !tile.tile<0x4xf32>) {
  tt.return
}

// -----

// expected-error @+1 {{tile elements must be signless integers or floats, got 'index'}}
tt.func @index_elements(%a: !tile.tile<4xindex>) {
  tt.return
}

// -----

// expected-error @+1 {{tile order must list each of the 2 dimensions once}}
tt.func @order_rank(%a: !tile.tile<4x4xf32, order = [0]>) {
  tt.return
}

// -----

// expected-error @+1 {{tile order must be a permutation of the dimensions, got [0, 0]}}
tt.func @order_permutation(%a: !tile.tile<4x4xf32, order = [0, 0]>) {
  tt.return
}

// -----

// expected-error @+1 {{the row-major order is the default and must be omitted}}
tt.func @order_default(%a: !tile.tile<4x4xf32, order = [1, 0]>) {
  tt.return
}

// -----

tt.func @matmul_rank(%a: !tile.tile<64xf16>, %b: !tile.tile<64x32xf16>, %c: !tile.tile<64x32xf32>) {
  // expected-error @+1 {{operands must be rank-2 tiles, or rank-3 tiles of one batch size}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<64xf16>, !tile.tile<64x32xf16> -> !tile.tile<64x32xf32>
  tt.return
}

// -----

tt.func @matmul_batches(%a: !tile.tile<2x64x16xf16>, %b: !tile.tile<3x16x32xf16>, %c: !tile.tile<2x64x32xf32>) {
  // expected-error @+1 {{shapes must be [B×]M×K, [B×]K×N and [B×]M×N, got}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<2x64x16xf16>, !tile.tile<3x16x32xf16> -> !tile.tile<2x64x32xf32>
  tt.return
}

// -----

tt.func @matmul_shapes(%a: !tile.tile<64x16xf16>, %b: !tile.tile<32x64xf16>, %c: !tile.tile<64x64xf32>) {
  // expected-error @+1 {{shapes must be [B×]M×K, [B×]K×N and [B×]M×N}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<64x16xf16>, !tile.tile<32x64xf16> -> !tile.tile<64x64xf32>
  tt.return
}

// -----

tt.func @matmul_mixed_inputs(%a: !tile.tile<64x32xf16>, %b: !tile.tile<32x64xbf16>, %c: !tile.tile<64x64xf32>) {
  // expected-error @+1 {{operands must have one element type, got 'f16' and 'bf16'}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<64x32xf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
  tt.return
}

// -----

tt.func @matmul_input_type(%a: !tile.tile<64x32xi16>, %b: !tile.tile<32x64xi16>, %c: !tile.tile<64x64xi32>) {
  // expected-error @+1 {{the DPE multiplies f16, bf16, f32 or i8, got 'i16'}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<64x32xi16>, !tile.tile<32x64xi16> -> !tile.tile<64x64xi32>
  tt.return
}

// -----

tt.func @matmul_accumulator(%a: !tile.tile<64x32xf16>, %b: !tile.tile<32x64xf16>, %c: !tile.tile<64x64xf16>) {
  // expected-error @+1 {{products of 'f16' accumulate in 'f32', got 'f16'}}
  %0 = tile.matmul %a, %b, %c : !tile.tile<64x32xf16>, !tile.tile<32x64xf16> -> !tile.tile<64x64xf16>
  tt.return
}

// -----

tt.func @binary_kind(%a: !tile.tile<8xi32>) {
  // expected-error @+1 {{kind 'addf' applies to float tiles, got '!tile.tile<8xi32>'}}
  %0 = tile.binary addf %a, %a : !tile.tile<8xi32>
  tt.return
}

// -----

tt.func @unary_kind(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{kind 'absi' applies to integer tiles, got '!tile.tile<8xf32>'}}
  %0 = tile.unary absi %a : !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @cast_shape(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{source and result must have one shape and layout}}
  %0 = tile.cast truncf %a rounding = rtne : !tile.tile<8xf32> -> !tile.tile<4xf16>
  tt.return
}

// -----

tt.func @cast_types(%a: !tile.tile<8xf16>) {
  // expected-error @+1 {{'truncf' cannot convert 'f16' to 'f32'}}
  %0 = tile.cast truncf %a rounding = rtne : !tile.tile<8xf16> -> !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @cast_needs_rounding(%a: !tile.tile<8xi32>) {
  // expected-error @+1 {{'sitofp' requires a rounding mode}}
  %0 = tile.cast sitofp %a : !tile.tile<8xi32> -> !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @cast_takes_no_rounding(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{'fptosi' is exact or rounds toward zero and takes no rounding mode}}
  %0 = tile.cast fptosi %a rounding = rtne : !tile.tile<8xf32> -> !tile.tile<8xi32>
  tt.return
}

// -----


tt.func @constant_type() {
  // expected-error @+1 {{does not have the shape and element type of '!tile.tile<8xf32>'}}
  %0 = tile.constant dense<0.0> : tensor<4xf32> : !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @extract_indices(%a: !tile.tile<4x4xf32>, %i: index) {
  // expected-error @+1 {{expects one index per dimension (2), got 1}}
  %0 = tile.extract %a[%i] : !tile.tile<4x4xf32>
  tt.return
}

// -----

tt.func @reduce_kind(%a: !tile.tile<8x8xf32>) {
  // expected-error @+1 {{kind 'addi' applies to integer tiles}}
  %0 = tile.reduce addi %a axis = 0 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%a: !tile.tile<8x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tile of rank 2}}
  %0 = tile.reduce addf %a axis = 2 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @reduce_result(%a: !tile.tile<8x16xf32>) {
  // expected-error @+1 {{must have the shape of '!tile.tile<8x16xf32>' without axis 1}}
  %0 = tile.reduce addf %a axis = 1 : !tile.tile<8x16xf32> -> !tile.tile<16xf32>
  tt.return
}

// -----

tt.func @reduce_region_shapes(%a: !tile.tile<8xf32>, %b: !tile.tile<4xi32>) {
  // expected-error @+1 {{sources must have one shape}}
  %0:2 = tile.reduce_region %a, %b axis = 0 : (!tile.tile<8xf32>, !tile.tile<4xi32>) -> (!tile.tile<f32>, !tile.tile<i32>) {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tile.yield %x, %i : f32, i32
  }
  tt.return
}

// -----

tt.func @reduce_region_results(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{must have one result per source}}
  %0:2 = tile.reduce_region %a axis = 0 : (!tile.tile<8xf32>) -> (!tile.tile<f32>, !tile.tile<f32>) {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  tt.return
}

// -----

tt.func @reduce_region_arguments(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{combine region must take the element types of the sources twice}}
  %0 = tile.reduce_region %a axis = 0 : (!tile.tile<8xf32>) -> !tile.tile<f32> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tt.return
}

// -----

tt.func @reduce_region_yield(%a: !tile.tile<8xf32>) {
  %0 = tile.reduce_region %a axis = 0 : (!tile.tile<8xf32>) -> !tile.tile<f32> {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 0 : i32
    // expected-error @+1 {{must yield one value of each source's element type}}
    tile.yield %c : i32
  }
  tt.return
}

// -----

tt.func @scan_results(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{results must have the types of the sources}}
  %0 = tile.scan %a axis = 0 : (!tile.tile<8xf32>) -> !tile.tile<8xf16> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  tt.return
}

// -----

tt.func @arg_reduce_result(%a: !tile.tile<8x16xf32>) {
  // expected-error @+1 {{must have the shape of '!tile.tile<8x16xf32>' without axis 0}}
  %0 = tile.arg_reduce argmax %a axis = 0 : !tile.tile<8x16xf32> -> !tile.tile<8xi32>
  tt.return
}

// -----

tt.func @histogram_rank(%a: !tile.tile<64xi32>) {
  // expected-error @+1 {{result must be a rank-1 tile of bins, got '!tile.tile<2x4xi32>'}}
  %0 = tile.histogram %a : !tile.tile<64xi32> -> !tile.tile<2x4xi32>
  tt.return
}

// -----

tt.func @histogram_mask(%a: !tile.tile<64xi32>, %m: !tile.tile<32xi1>) {
  // expected-error @+1 {{mask is an i1 tile with the shape of source}}
  %0 = "tile.histogram"(%a, %m) : (!tile.tile<64xi32>, !tile.tile<32xi1>) -> !tile.tile<8xi32>
  tt.return
}

// -----

tt.func @cross_pe_reduce_kind(%a: !tile.tile<8xi32>) {
  // expected-error @+1 {{kind 'maximumf' applies to float tiles}}
  %0 = tile.cross_pe_reduce maximumf %a over column : !tile.tile<8xi32>
  tt.return
}

// -----

tt.func @cross_pe_broadcast_root(%a: !tile.tile<8xi32>) {
  // expected-error @+1 {{attribute 'root' failed to satisfy constraint}}
  %0 = "tile.cross_pe_broadcast"(%a) {root = -1 : i64, group = 0 : i32} : (!tile.tile<8xi32>) -> !tile.tile<8xi32>
  tt.return
}

// -----

tt.func @transpose_permutation(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{permutation [1, 1] is not a permutation of the 2 dimensions}}
  %0 = tile.transpose %a [1, 1] : !tile.tile<4x8xf32> -> !tile.tile<8x4xf32>
  tt.return
}

// -----

tt.func @transpose_shape(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{result dimension 0 must be source dimension 1 (8), got 4}}
  %0 = tile.transpose %a [1, 0] : !tile.tile<4x8xf32> -> !tile.tile<4x8xf32>
  tt.return
}

// -----

tt.func @transpose_element_type(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{source and result must have one element type}}
  %0 = tile.transpose %a [1, 0] : !tile.tile<4x8xf32> -> !tile.tile<8x4xf16>
  tt.return
}

// -----

tt.func @convert_layout_shape(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{source and result must differ in layout only}}
  %0 = tile.convert_layout %a : !tile.tile<4x8xf32> -> !tile.tile<8x4xf32, order = [0, 1]>
  tt.return
}

// -----

tt.func @reshape_count(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{source and result must have one element count}}
  %0 = tile.reshape %a : !tile.tile<4x8xf32> -> !tile.tile<16xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{source and result must have one rank}}
  %0 = tile.broadcast %a : !tile.tile<8xf32> -> !tile.tile<4x8xf32>
  tt.return
}

// -----

tt.func @broadcast_dimensions_order(%a: !tile.tile<8x4xf32>) {
  // expected-error @+1 {{dimensions must increase within the rank of}}
  %0 = tile.broadcast %a {dimensions = array<i64: 2, 0>} : !tile.tile<8x4xf32> -> !tile.tile<4x2x8xf32>
  tt.return
}

// -----

tt.func @broadcast_dimensions_count(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{needs one dimension per source dimension, got 2}}
  %0 = tile.broadcast %a {dimensions = array<i64: 0, 1>} : !tile.tile<8xf32> -> !tile.tile<8x4xf32>
  tt.return
}

// -----

tt.func @broadcast_dimensions_size(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{only dimensions of size 1 broadcast}}
  %0 = tile.broadcast %a {dimensions = array<i64: 1>} : !tile.tile<8xf32> -> !tile.tile<8x4xf32>
  tt.return
}

// -----

tt.func @broadcast_dimension(%a: !tile.tile<2x8xf32>) {
  // expected-error @+1 {{only dimensions of size 1 broadcast}}
  %0 = tile.broadcast %a : !tile.tile<2x8xf32> -> !tile.tile<4x8xf32>
  tt.return
}

// -----

tt.func @slice_rank(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{source, result and offsets must have one rank}}
  %0 = tile.slice %a [0] : !tile.tile<4x8xf32> -> !tile.tile<4x4xf32>
  tt.return
}

// -----

tt.func @slice_bounds(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{slice at [0, 6] of shape '!tile.tile<4x4xf32>' exceeds '!tile.tile<4x8xf32>'}}
  %0 = tile.slice %a [0, 6] : !tile.tile<4x8xf32> -> !tile.tile<4x4xf32>
  tt.return
}

// -----

tt.func @subview_bounds(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{subview at [2, 0] of shape '!tile.tile<4x8xf32>' exceeds '!tile.tile<4x8xf32>'}}
  %0 = tile.subview %a [2, 0] : !tile.tile<4x8xf32> -> !tile.tile<4x8xf32>
  tt.return
}

// -----

tt.func @subview_strided(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{the block at [0, 4] of shape '!tile.tile<2x4xf32>' is not contiguous in '!tile.tile<4x8xf32>' (a strided block is a 'tile.slice')}}
  %0 = tile.subview %a [0, 4] : !tile.tile<4x8xf32> -> !tile.tile<2x4xf32>
  tt.return
}

// -----

tt.func @subview_column_major(%a: !tile.tile<4x8xf32, order = [0, 1]>) {
  // expected-error @+1 {{is not contiguous}}
  %0 = tile.subview %a [2, 0] : !tile.tile<4x8xf32, order = [0, 1]> -> !tile.tile<2x8xf32>
  tt.return
}

// -----

tt.func @gather_rank(%a: !tile.tile<4x8xf32>, %i: !tile.tile<8xi32>) {
  // expected-error @+1 {{indices and source must have one rank}}
  %0 = tile.gather %a[%i] axis = 0 : (!tile.tile<4x8xf32>, !tile.tile<8xi32>) -> !tile.tile<8xf32>
  tt.return
}

// -----

tt.func @gather_result(%a: !tile.tile<4x8xf32>, %i: !tile.tile<2x8xi32>) {
  // expected-error @+1 {{result must have the shape of the indices and the element type of the source}}
  %0 = tile.gather %a[%i] axis = 0 : (!tile.tile<4x8xf32>, !tile.tile<2x8xi32>) -> !tile.tile<2x8xf16>
  tt.return
}

// -----

tt.func @gather_other_dimension(%a: !tile.tile<4x8xf32>, %i: !tile.tile<2x16xi32>) {
  // expected-error @+1 {{indices dimension 1 is larger than the source's}}
  %0 = tile.gather %a[%i] axis = 0 : (!tile.tile<4x8xf32>, !tile.tile<2x16xi32>) -> !tile.tile<2x16xf32>
  tt.return
}

// -----

tt.func @concat_axis(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a tile of rank 2}}
  %0 = tile.concat %a, %a axis = 2 : !tile.tile<4x8xf32>, !tile.tile<4x8xf32> -> !tile.tile<8x8xf32>
  tt.return
}

// -----

tt.func @concat_other_dimensions(%a: !tile.tile<4x8xf32>, %b: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{sources must match the result '!tile.tile<8x8xf32>' except along axis 0}}
  %0 = tile.concat %a, %b axis = 0 : !tile.tile<4x8xf32>, !tile.tile<4x4xf32> -> !tile.tile<8x8xf32>
  tt.return
}

// -----

tt.func @concat_size(%a: !tile.tile<4x8xf32>) {
  // expected-error @+1 {{sources add up to 8 along axis 0, the result has 12}}
  %0 = tile.concat %a, %a axis = 0 : !tile.tile<4x8xf32>, !tile.tile<4x8xf32> -> !tile.tile<12x8xf32>
  tt.return
}

// -----

tt.func @splat_element_rank(%t: !tile.tile<4xf32>) {
  // expected-error @+1 {{source must be a rank-0 tile}}
  %0 = tile.splat_element %t : !tile.tile<4xf32> -> !tile.tile<4x4xf32>
  tt.return
}

// -----

tt.func @scan_kind_of_several(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{with a combine kind must scan one tile}}
  %0:2 = tile.scan %a, %a axis = 0 kind addf : (!tile.tile<8xf32>, !tile.tile<8xf32>) -> (!tile.tile<8xf32>, !tile.tile<8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    tile.yield %x, %y : f32, f32
  }
  tt.return
}

// -----

tt.func @scan_kind_elements(%a: !tile.tile<8xi32>) {
  // expected-error @+1 {{kind 'addf' applies to float tiles}}
  %0 = tile.scan %a axis = 0 kind addf : (!tile.tile<8xi32>) -> !tile.tile<8xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    tile.yield %s : i32
  }
  tt.return
}

// -----

tt.func @scan_kind_region(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{combine region must apply 'maximumf' to its two arguments}}
  %0 = tile.scan %a axis = 0 kind maximumf : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  tt.return
}

// -----

tt.func @simd_matmul_type(%a: !tile.tile<8x4xf32>, %b: !tile.tile<4x8xf32>, %c: !tile.tile<8x8xf32>) {
  // expected-error @+1 {{the SIMD engine multiplies and accumulates matrices of f64 only (other types go to the DPE's tile.matmul), got 'f32', 'f32' and 'f32'}}
  %0 = tile.simd_matmul %a, %b, %c : !tile.tile<8x4xf32>, !tile.tile<4x8xf32> -> !tile.tile<8x8xf32>
  tt.return
}

// -----

tt.func @simd_matmul_shapes(%a: !tile.tile<8x4xf64>, %b: !tile.tile<8x8xf64>, %c: !tile.tile<8x8xf64>) {
  // expected-error @+1 {{shapes must be [B×]M×K, [B×]K×N and [B×]M×N}}
  %0 = tile.simd_matmul %a, %b, %c : !tile.tile<8x4xf64>, !tile.tile<8x8xf64> -> !tile.tile<8x8xf64>
  tt.return
}

// -----

tt.func @map_elementwise_shapes(%a: !tile.tile<8xi32>, %b: !tile.tile<4xi32>) {
  // expected-error @+1 {{'tile.map_elementwise' op sources and results must have one shape}}
  %r = tile.map_elementwise %a, %b pack = 1 : (!tile.tile<8xi32>, !tile.tile<4xi32>) -> !tile.tile<8xi32> {
  ^bb0(%x: i32, %y: i32):
    tile.yield %x : i32
  }
  tt.return
}

// -----

tt.func @map_elementwise_yield(%a: !tile.tile<8xi32>) {
  %r = tile.map_elementwise %a pack = 1 : (!tile.tile<8xi32>) -> !tile.tile<8xi32> {
  ^bb0(%x: i32):
    %f = arith.sitofp %x : i32 to f32
    // expected-error @+1 {{'tile.yield' op must yield the element type of each result 1 time(s) (the pack)}}
    tile.yield %f : f32
  }
  tt.return
}

// -----

tt.func @cross_pe_arg_reduce_shapes(%v: !tile.tile<8xf32>, %i: !tile.tile<4xi32>) {
  // expected-error @+1 {{values and indices must have one shape}}
  %0 = tile.cross_pe_arg_reduce argmax %v, %i over row : !tile.tile<8xf32>, !tile.tile<4xi32>
  tt.return
}

// -----

tt.func @cross_pe_arg_reduce_index_type(%v: !tile.tile<8xf32>, %i: !tile.tile<8xi64>) {
  // expected-error @+1 {{indices must be i32}}
  %0 = tile.cross_pe_arg_reduce argmax %v, %i over row : !tile.tile<8xf32>, !tile.tile<8xi64>
  tt.return
}
