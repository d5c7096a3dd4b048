// RUN: mtia-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the tt dialect.

tt.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires source and result element types of the same bit width}}
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi16>
  tt.return
}

// -----

tt.func @fp_to_fp_narrowing_needs_rounding(%x: tensor<8xf16>) {
  // expected-error @+1 {{narrowing conversion from 'f16' to 'f8E5M2' requires a rounding mode}}
  %0 = tt.fp_to_fp %x : tensor<8xf16> -> tensor<8xf8E5M2>
  tt.return
}

// -----

tt.func @fp_to_fp_widening_has_no_rounding(%x: tensor<8xf16>) {
  // expected-error @+1 {{rounding mode is only meaningful for conversions that do not widen}}
  %0 = tt.fp_to_fp %x, rounding = rtz : tensor<8xf16> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @advance_offsets(%b: !tt.ptr<tensor<16x32xf16>>, %i: i32) {
  // expected-error @+1 {{expects one offset per dimension of the block (2), got 1}}
  %0 = tt.advance %b, [%i] : <tensor<16x32xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_rank(%p: !tt.ptr<f16>, %m: i64, %i: i32) {
  // expected-error @+1 {{expects shape, strides, offsets and order of the block's rank 2}}
  %0 = tt.make_tensor_ptr %p, [%m], [%m], [%i] {order = array<i32: 0>} : <tensor<16x32xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_base(%p: !tt.ptr<f32>, %m: i64, %i: i32) {
  // expected-error @+1 {{base points to the block's elements}}
  %0 = "tt.make_tensor_ptr"(%p, %m, %m, %i) <{order = array<i32: 0>}> : (!tt.ptr<f32>, i64, i64, i32) -> !tt.ptr<tensor<16xf16>>
  tt.return
}

// -----

tt.func @load_padding_needs_block_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{padding requires a block pointer}}
  %0 = tt.load %p {padding = 1 : i32} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_other_needs_mask(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<8xf32>) {
  // expected-error @+1 {{'other' requires a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_boundary_check_needs_block_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{boundaryCheck requires a block pointer}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_boundary_check_range(%b: !tt.ptr<tensor<16x32xf16>>) {
  // expected-error @+1 {{boundaryCheck dimension 2 is out of range for a block of rank 2}}
  %0 = tt.load %b {boundaryCheck = array<i32: 2>} : !tt.ptr<tensor<16x32xf16>>
  tt.return
}

// -----

tt.func @load_result_type(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{result type matches the pointee of ptr}}
  %0 = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x!tt.ptr<f32>>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{mask type 'tensor<4xi1>' must be i1 with the shape of 'tensor<8xf32>'}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!tt.ptr<f32>>, tensor<4xi1>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_other_type(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf16>) {
  // expected-error @+1 {{'other' type 'tensor<8xf16>' must be the loaded type 'tensor<8xf32>'}}
  %0 = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<8x!tt.ptr<f32>>, tensor<8xi1>, tensor<8xf16>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_needs_pointer(%x: tensor<8xf32>) {
  // expected-error @+1 {{'ptr' must be pointer or ranked tensor of pointer values or block pointer, but got 'tensor<8xf32>'}}
  %0 = tt.load %x : tensor<8xf32>
  tt.return
}

// -----

tt.func @store_value_type(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf16>) {
  // expected-error @+1 {{value type matches the pointee of ptr}}
  "tt.store"(%p, %v) : (tensor<8x!tt.ptr<f32>>, tensor<8xf16>) -> ()
  tt.return
}

// -----

tt.func @store_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8xi32>) {
  // expected-error @+1 {{operand #2 must be}}
  "tt.store"(%p, %v, %m) : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi32>) -> ()
  tt.return
}

// -----

tt.func @store_boundary_check(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{boundaryCheck requires a block pointer}}
  tt.store %p, %v {boundaryCheck = array<i32: 0>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @addptr_offset_shape(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape}}
  %0 = tt.addptr %p, %o : tensor<8x!tt.ptr<f32>>, tensor<4xi32>
  tt.return
}

// -----

tt.func @addptr_result_type(%p: !tt.ptr<f32>, %o: i32) {
  // expected-error @+1 {{all of {ptr, result} have same type}}
  %0 = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
  tt.return
}

// -----

tt.func @atomic_rmw_mask(%p: tensor<8x!tt.ptr<i32>>, %v: tensor<8xi32>, %m: tensor<8xi32>) {
  // expected-error @+1 {{operand #2 must be}}
  %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @atomic_rmw_float_op_on_int(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{atomic fadd does not apply to 'i32' values}}
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_rmw_int_op_on_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{atomic max does not apply to 'f32' values}}
  %0 = tt.atomic_rmw max, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @atomic_rmw_value_type(%p: !tt.ptr<i32>, %v: i64) {
  // expected-error @+1 {{val type matches the pointee of ptr}}
  %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, i64) -> i64
  tt.return
}

// -----

tt.func @atomic_cas_types(%p: !tt.ptr<i32>, %c: i32, %v: i64) {
  // expected-error @+1 {{all of {cmp, val, result} have same type}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, i64) -> i32
  tt.return
}

// -----

tt.func @splat_of_tensor(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires a scalar operand}}
  %0 = tt.splat %x : tensor<8xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @unsplat_of_many_elements(%x: tensor<2x1xf32>) {
  // expected-error @+1 {{expects a tensor of one element, got 'tensor<2x1xf32>'}}
  %0 = tt.unsplat %x : tensor<2x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 1}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{with a dimension of size 1 inserted at 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @reshape_size(%x: tensor<8xf32>) {
  // expected-error @+1 {{cannot reshape 'tensor<8xf32>' (8 elements) to 'tensor<4x4xf32>' (16 elements)}}
  %0 = tt.reshape %x : tensor<8xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires source and result of the same rank}}
  %0 = tt.broadcast %x : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @broadcast_non_unit(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{dimension 0 of size 2 can only be broadcast from size 1 (to 4)}}
  %0 = tt.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @cat_size(%x: tensor<8xf32>) {
  // expected-error @+1 {{twice their number of elements}}
  %0 = tt.cat %x, %x : tensor<8xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{must be the operand shape with a new minor dimension of size 2}}
  %0 = tt.join %x, %x : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @split_last_dimension(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{requires a last dimension of size 2}}
  %0, %1 = tt.split %x : tensor<8x4xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @split_result(%x: tensor<8x2xf32>) {
  // expected-error @+1 {{results must be 'tensor<8x2xf32>' without its last dimension}}
  %0, %1 = tt.split %x : tensor<8x2xf32> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @trans_order_length(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order has 3 entries for a tensor of rank 2}}
  %0 = tt.trans %x {order = array<i32: 2, 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, 2)}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{does not match the permuted source shape}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @gather_rank(%x: tensor<4x8xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{indices and source must have the same rank}}
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<4x8xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_axis(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = tt.gather %x[%i] {axis = 1 : i32} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_result(%x: tensor<8xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{result must have the shape of the indices}}
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<8xf32>, tensor<4xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_other_dimension(%x: tensor<4x2xf32>, %i: tensor<4x4xi32>) {
  // expected-error @+1 {{indices dimension 1 is larger than the source's}}
  %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<4x2xf32>, tensor<4x4xi32>) -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @histogram_result(%x: tensor<8xi32>) {
  // expected-error @+1 {{result must be a 1-d tensor of bins}}
  %0 = tt.histogram %x : tensor<8xi32> -> tensor<2x4xi32>
  tt.return
}

// -----

tt.func @histogram_mask(%x: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{mask type 'tensor<4xi1>' must be i1 with the shape of 'tensor<8xi32>'}}
  %0 = "tt.histogram"(%x, %m) : (tensor<8xi32>, tensor<4xi1>) -> tensor<4xi32>
  tt.return
}

// -----

tt.func @make_range_type() {
  // expected-error @+1 {{result must be a 1-d tensor of i32}}
  %0 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi64>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{end 4 must be greater than start 4}}
  %0 = tt.make_range {end = 4 : i32, start = 4 : i32} : tensor<1xi32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{result has 8 elements, but the range [0, 4) has 4}}
  %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<4xf16>, %b: tensor<4xf16>, %c: tensor<4xf32>) {
  // expected-error @+1 {{operands must all be 2-d or all be 3-d (batched)}}
  %0 = tt.dot %a, %b, %c : tensor<4xf16> * tensor<4xf16> -> tensor<4xf32>
  tt.return
}

// -----

tt.func @dot_batch(%a: tensor<2x4x8xf16>, %b: tensor<3x8x4xf16>, %c: tensor<2x4x4xf32>) {
  // expected-error @+1 {{batch dimensions do not match}}
  %0 = tt.dot %a, %b, %c : tensor<2x4x8xf16> * tensor<3x8x4xf16> -> tensor<2x4x4xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{reduction dimension of a (32) does not match that of b (16)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_accumulator_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator shape must be 16x8}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_operand_types(%a: tensor<16x32xf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operand element types 'f16' and 'bf16' do not match}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_accumulator_type(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{accumulator element type 'f32' does not fit operands of type 'i8'}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{must have one result per operand}}
  %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @reduce_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result type 'tensor<8xf32>' must be 'tensor<4xf32>'}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @reduce_region_arguments(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must take 2 arguments, got 1}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_argument_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region argument 1 has type 'f16', expected 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_yield_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must yield 1 values, got 2}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_yield_type(%x: tensor<8xf32>, %i: i32) {
  // expected-error @+1 {{combine region yields 'i32' as value 0, expected 'f32'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    tt.reduce.return %c : i32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_operand_shapes(%x: tensor<8xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{requires the same shape for all operands}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tt.reduce.return %a, %ai : f32, i32
  }) : (tensor<8xf32>, tensor<4xi32>) -> (f32, i32)
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{result type 'tensor<8xf16>' must match the operand type 'tensor<8xf32>'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @scan_region(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region yields 'f16' as value 0, expected 'f32'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.truncf %a : f32 to f16
    tt.scan.return %s : f16
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @print_is_signed(%x: i32) {
  // expected-error @+1 {{isSigned must hold one flag per argument (1), got 0}}
  tt.print "x" {hex = false, isSigned = array<i32>} : %x : i32
  tt.return
}

// -----

tt.func @make_tensor_descriptor_rank(%p: !tt.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{expects one shape and one stride per block dimension (2), got 1}}
  %0 = tt.make_tensor_descriptor %p, [%m], [%s] : <f16>, <64x64xf16>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_base(%p: !tt.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{base pointee type 'f32' does not match the block element type 'f16'}}
  %0 = tt.make_tensor_descriptor %p, [%m, %m], [%s, %s] : <f32>, <64x64xf16>
  tt.return
}

// -----

tt.func @descriptor_load_indices(%d: !tt.tensordesc<64x32xf16>, %i: i32) {
  // expected-error @+1 {{expects one index per block dimension (2), got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<64x32xf16> -> tensor<64x32xf16>
  tt.return
}

// -----

tt.func @descriptor_load_block(%d: !tt.tensordesc<64x32xf16>, %i: i32) {
  // expected-error @+1 {{tensor type 'tensor<64x64xf16>' does not match the descriptor block 'tensor<64x32xf16>'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<64x32xf16> -> tensor<64x64xf16>
  tt.return
}

// -----

tt.func @descriptor_store_block(%d: !tt.tensordesc<64x32xf16>, %i: i32, %t: tensor<64x32xf32>) {
  // expected-error @+1 {{does not match the descriptor block}}
  tt.descriptor_store %d[%i, %i], %t : !tt.tensordesc<64x32xf16>, tensor<64x32xf32>
  tt.return
}

// -----

// expected-error @+1 {{tensor descriptor block dimensions must be positive}}
tt.func @tensordesc_empty_dimension(%d: !tt.tensordesc<0x32xf16>) {
  tt.return
}

// -----

tt.func @call_unknown(%x: f32) {
  // expected-error @+1 {{'missing' does not reference a valid tt.func}}
  %0 = tt.call @missing(%x) : (f32) -> f32
  tt.return
}

// -----

tt.func private @callee(%x: f32) -> f32 {
  tt.return %x : f32
}

tt.func @call_operands(%x: i32) {
  // expected-error @+1 {{operand types do not match the signature of @callee}}
  %0 = tt.call @callee(%x) : (i32) -> f32
  tt.return
}

// -----

tt.func private @callee(%x: f32) -> f32 {
  tt.return %x : f32
}

tt.func @call_results(%x: f32) {
  // expected-error @+1 {{result types do not match the signature of @callee}}
  %0 = tt.call @callee(%x) : (f32) -> i32
  tt.return
}

// -----

tt.func @return_types(%x: f32) -> i32 {
  // expected-error @+1 {{operand types must match the result types of @return_types}}
  tt.return %x : f32
}

// -----

// The form of Triton before 3.9.
// expected-error @+1 {{tensor descriptor elements must be integers or floats, got 'tensor<16x16xf16>'}}
tt.func @old_descriptor_form(%d: !tt.tensordesc<tensor<16x16xf16>>) {
  tt.return
}

// -----

tt.func @signed_descriptor_pointee(%p: !tt.ptr<i16>, %m: i32, %s: i64) {
  // expected-error @+1 {{base pointee type 'i16' does not match the block element type 'si32'}}
  %desc = tt.make_tensor_descriptor %p, [%m, %m], [%s, %s] : <i16>, <16x16xsi32>
  tt.return
}

// -----

// expected-error @+1 {{unknown address space "shared" (expected "constant" or a number)}}
tt.func @named_address_space(%p: !tt.ptr<f32, "shared">) {
  tt.return
}

// -----

// expected-error @+1 {{pointers point to integers, floats, pointers or tensors of them, got 'none'}}
tt.func @pointer_to_none(%p: tensor<64x!tt.ptr<none>>) {
  tt.return
}

// -----

// expected-error @+1 {{pointers point to integers, floats, pointers or tensors of them, got 'index'}}
tt.func @pointer_to_index(%p: !tt.ptr<index>) {
  tt.return
}

// -----

tt.func @dot_scaled_rank(%a: tensor<16xi8>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operands must all be 2-d or all be 3-d (batched)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16xi8> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_batch(%a: tensor<2x16x32xf16>, %b: tensor<3x32x8xf16>, %c: tensor<2x16x8xf32>) {
  // expected-error @+1 {{batch dimensions do not match}}
  %0 = tt.dot_scaled %a, %b, %c lhs = fp16 rhs = fp16 {fastMath = false} : tensor<2x16x32xf16> * tensor<3x32x8xf16> -> tensor<2x16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_format(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operand a of format e4m3 cannot have elements of type 'f16'}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = fp16 {fastMath = false} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_k_pack(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{only e2m1 operands can be packed along a dimension other than K, but a is fp16}}
  %0 = tt.dot_scaled %a, %b, %c lhs = fp16 rhs = fp16 {fastMath = false, lhs_k_pack = false} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_k(%a: tensor<16x32xi8>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{reduction dimension of a (64) does not match that of b (32)}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<16x32xi8> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_accumulator(%a: tensor<16x32xi8>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{accumulator shape must be 32x8}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false, lhs_k_pack = false} : tensor<16x32xi8> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_factor(%a: tensor<16x64xf16>, %b: tensor<64x8xf16>, %sb: tensor<8x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{scale factor must be 16 or 32, got 8}}
  %0 = tt.dot_scaled %a, %b scale %sb, %c lhs = fp16 rhs = fp16 {fastMath = false} : tensor<16x64xf16> * tensor<64x8xf16>, tensor<8x8xi8> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_factors(%a: tensor<16x64xf16>, %sa: tensor<16x2xi8>, %b: tensor<64x8xf16>, %sb: tensor<8x4xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{operands must have one scale factor, got 32 and 16}}
  %0 = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = fp16 rhs = fp16 {fastMath = false} : tensor<16x64xf16>, tensor<16x2xi8> * tensor<64x8xf16>, tensor<8x4xi8> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_shape(%a: tensor<16x64xf16>, %sa: tensor<8x2xi8>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{scale of a must have one factor per 32 elements of K, of shape 16x2, got 'tensor<8x2xi8>'}}
  %0 = tt.dot_scaled %a scale %sa, %b, %c lhs = fp16 rhs = fp16 {fastMath = false} : tensor<16x64xf16>, tensor<8x2xi8> * tensor<64x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_arguments(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region must take the element type of each operand 2 time(s) (the pack)}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: i32):
    tt.map_elementwise.return %a, %a : i32, i32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @map_elementwise_returns(%x: tensor<8xi32>) {
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: i32):
    %f = arith.sitofp %a : i32 to f32
    // expected-error @+1 {{'tt.map_elementwise.return' op must return the element type of each result 1 time(s) (the pack)}}
    tt.map_elementwise.return %f : f32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @map_elementwise_pack(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op attribute 'pack' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = "tt.map_elementwise"(%x) <{pack = 0 : i32}> ({
  ^bb0:
    tt.map_elementwise.return
  }) : (tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

// Triton's cache modifiers of loads are ca, cg, cs and cv (its frontend's
// _str_to_load_cache_modifier); those of stores wb, cg, cs and wt.
tt.func @store_modifier_on_a_load(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{cache modifier wb is not valid for a load}}
  %v = tt.load %p {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_modifier_on_a_store(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{cache modifier ca is not valid for a store}}
  tt.store %p, %v {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @store_modifier_on_a_descriptor_load(%d: !tt.tensordesc<8x8xf16>, %i: i32) {
  // expected-error @+1 {{cache modifier wt is not valid for a load}}
  %v = tt.descriptor_load %d[%i, %i] {cachePolicy = #tt.cache_policy<cache_modifier = wt, eviction_policy = evict_normal>} : !tt.tensordesc<8x8xf16> -> tensor<8x8xf16>
  tt.return
}
