// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-test-pointer-analysis)' --verify-diagnostics

// The pointer and mask analysis behind the strided-DMA lowering: each access
// is described as base + offset + strides (in elements) and per-dimension
// bounds, or reported as unstructured with the reason.

tt.func @vector_add(%x: !tt.ptr<f32>, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offsets = arith.addi %starts, %range : tensor<1024xi32>
  %bound = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offsets, %bound : tensor<1024xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  // expected-remark @+1 {{base %arg0, offset 1024*%0, strides [1]; mask d0 < -1024*%0 + %arg1}}
  %v = tt.load %ptrs, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// Rows and columns of a 2-d tile: expand_dims and broadcast give one stride
// per dimension; the mask bounds each dimension separately.
tt.func @tile_2d(%x: !tt.ptr<f16>, %stride: i32, %m: i32, %n: i32) {
  %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %strides = tt.splat %stride : i32 -> tensor<32x1xi32>
  %rowOffsets = arith.muli %r, %strides : tensor<32x1xi32>
  %ro = tt.broadcast %rowOffsets : tensor<32x1xi32> -> tensor<32x64xi32>
  %co = tt.broadcast %c : tensor<1x64xi32> -> tensor<32x64xi32>
  %offsets = arith.addi %ro, %co : tensor<32x64xi32>
  %mb = tt.splat %m : i32 -> tensor<32x1xi32>
  %rm = arith.cmpi slt, %r, %mb : tensor<32x1xi32>
  %nb = tt.splat %n : i32 -> tensor<1x64xi32>
  %cm = arith.cmpi slt, %c, %nb : tensor<1x64xi32>
  %rmb = tt.broadcast %rm : tensor<32x1xi1> -> tensor<32x64xi1>
  %cmb = tt.broadcast %cm : tensor<1x64xi1> -> tensor<32x64xi1>
  %mask = arith.andi %rmb, %cmb : tensor<32x64xi1>
  %base = tt.splat %x : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %ptrs = tt.addptr %base, %offsets : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  // expected-remark @+1 {{base %arg0, offset 0, strides [%arg1, 1]; mask d0 < %arg2 and d1 < %arg3}}
  %v = tt.load %ptrs, %mask : tensor<32x64x!tt.ptr<f16>>
  tt.return
}

// -----

// A pointer advanced by a loop-invariant step: iteration k reads base + k*32.
// Offsets that depend on the induction variable directly are affine in it.
tt.func @k_loop(%x: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %step = arith.constant dense<32> : tensor<32xi32>
  %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %end = scf.for %iv = %c0 to %k step %c32 iter_args(%p = %ptrs) -> (tensor<32x!tt.ptr<f32>>) : i32 {
    %bound = tt.splat %k : i32 -> tensor<32xi32>
    %ivs = tt.splat %iv : i32 -> tensor<32xi32>
    %offs = arith.addi %ivs, %range : tensor<32xi32>
    %mask = arith.cmpi slt, %offs, %bound : tensor<32xi32>
    // expected-remark @+1 {{base %arg0, offset 32*iter(%arg2), strides [1]; mask d0 < -1*%arg2 + %arg1}}
    %v = tt.load %p, %mask : tensor<32x!tt.ptr<f32>>
    %next = tt.addptr %p, %step : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    scf.yield %next : tensor<32x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Loop-carried integer offsets advance like pointers.
tt.func @loop_carried_offsets(%x: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<16> : tensor<16xi32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %end = scf.for %iv = %c0 to %n step %c1 iter_args(%o = %range) -> (tensor<16xi32>) : i32 {
    %ptrs = tt.addptr %base, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    // expected-remark @+1 {{base %arg0, offset 16*iter(%arg2), strides [1]; no mask}}
    %v = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
    %next = arith.addi %o, %step : tensor<16xi32>
    scf.yield %next : tensor<16xi32>
  }
  tt.return
}

// -----

// A value that is not advanced by a fixed increment is not structured.
tt.func @loop_doubling(%x: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %end = scf.for %iv = %c0 to %n step %c1 iter_args(%o = %range) -> (tensor<16xi32>) : i32 {
    %ptrs = tt.addptr %base, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    // expected-remark @+1 {{unstructured pointer (loop-carried value #0 is advanced by an amount that depends on itself); no mask}}
    %v = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
    %next = arith.addi %o, %o : tensor<16xi32>
    scf.yield %next : tensor<16xi32>
  }
  tt.return
}

// -----

// Offsets from memory or from a select take the indexed path; a modulo of
// affine offsets is structured if they stay below the divisor, which the
// lowering checks at run time.
tt.func @unstructured(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %m: i32, %flag: i1) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ib = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %ip = tt.addptr %ib, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  // expected-remark @+1 {{base %arg1, offset 0, strides [1]; no mask}}
  %loaded = tt.load %ip : tensor<64x!tt.ptr<i32>>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p1 = tt.addptr %base, %loaded : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-remark @+1 {{unstructured pointer (offsets computed by 'tt.load'); no mask}}
  %a = tt.load %p1 : tensor<64x!tt.ptr<f32>>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %range, %ms : tensor<64xi32>
  %p2 = tt.addptr %base, %wrapped : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-remark @+1 {{base %arg0, offset 0, strides [1], if 0 + [1] * i in [0, %arg2); no mask}}
  %b = tt.load %p2 : tensor<64x!tt.ptr<f32>>
  %chosen = arith.select %flag, %range, %wrapped : tensor<64xi32>
  %p3 = tt.addptr %base, %chosen : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-remark @+1 {{unstructured pointer (a select of offsets by a mask that is not a comparison); no mask}}
  %c = tt.load %p3 : tensor<64x!tt.ptr<f32>>
  %sq = arith.muli %range, %range : tensor<64xi32>
  %p4 = tt.addptr %base, %sq : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-remark @+1 {{unstructured pointer (a product of two index-dependent offsets); no mask}}
  %d = tt.load %p4 : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Every form of bound: lower and upper, strict and not, reversed operands,
// tile-wide conditions from scalars and broadcasts, constant masks.
tt.func @mask_forms(%x: !tt.ptr<f32>, %lo: i32, %hi: i32, %flag: i1) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %los = tt.splat %lo : i32 -> tensor<64xi32>
  %his = tt.splat %hi : i32 -> tensor<64xi32>
  %ge = arith.cmpi sge, %range, %los : tensor<64xi32>
  // expected-remark @+1 {{base %arg0, offset 0, strides [1]; mask d0 >= %arg1}}
  %a = tt.load %ptrs, %ge : tensor<64x!tt.ptr<f32>>
  %le = arith.cmpi sle, %range, %his : tensor<64xi32>
  // expected-remark @+1 {{mask d0 < %arg2 + 1}}
  %b = tt.load %ptrs, %le : tensor<64x!tt.ptr<f32>>
  %gt = arith.cmpi sgt, %his, %range : tensor<64xi32>
  // expected-remark @+1 {{mask d0 < %arg2}}
  %c = tt.load %ptrs, %gt : tensor<64x!tt.ptr<f32>>
  %gtl = arith.cmpi sgt, %range, %los : tensor<64xi32>
  // expected-remark @+1 {{mask d0 >= %arg1 + 1}}
  %d = tt.load %ptrs, %gtl : tensor<64x!tt.ptr<f32>>
  %both = arith.andi %ge, %gt : tensor<64xi1>
  %flags = tt.splat %flag : i1 -> tensor<64xi1>
  %all = arith.andi %both, %flags : tensor<64xi1>
  // expected-remark @+1 {{mask d0 >= %arg1 and d0 < %arg2 and %arg3}}
  %e = tt.load %ptrs, %all : tensor<64x!tt.ptr<f32>>
  %scalar = arith.cmpi slt, %los, %his : tensor<64xi32>
  // expected-remark @+1 {{mask -1*%arg1 + %arg2 > 0}}
  %f = tt.load %ptrs, %scalar : tensor<64x!tt.ptr<f32>>
  %true = arith.constant dense<true> : tensor<64xi1>
  // expected-remark @+1 {{mask all}}
  %g = tt.load %ptrs, %true : tensor<64x!tt.ptr<f32>>
  %false = arith.constant dense<false> : tensor<64xi1>
  // expected-remark @+1 {{mask 0 > 0}}
  %h = tt.load %ptrs, %false : tensor<64x!tt.ptr<f32>>
  %ult = arith.cmpi ult, %range, %his : tensor<64xi32>
  // expected-remark @+1 {{unstructured mask (a mask comparison with predicate 'ult')}}
  %i = tt.load %ptrs, %ult : tensor<64x!tt.ptr<f32>>
  %or = arith.ori %ge, %gt : tensor<64xi1>
  // expected-remark @+1 {{unstructured mask (a mask computed by 'arith.ori')}}
  %j = tt.load %ptrs, %or : tensor<64x!tt.ptr<f32>>
  %twice = arith.addi %range, %range : tensor<64xi32>
  %strided = arith.cmpi slt, %twice, %his : tensor<64xi32>
  // expected-remark @+1 {{unstructured mask (a mask bound with a stride other than 1 or -1)}}
  %k = tt.load %ptrs, %strided : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// A broadcast row mask holds for the whole tile or not at all; a causal mask
// (row index against column index) depends on two dimensions.
tt.func @two_dimensional_masks(%x: !tt.ptr<f32>, %n: i32) {
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c = tt.expand_dims %rows {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %r : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %c : tensor<1x16xi32> -> tensor<16x16xi32>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %cb : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %causal = arith.cmpi sge, %rb, %cb : tensor<16x16xi32>
  // expected-remark @+1 {{base %arg0, offset 0, strides [0, 1]; unstructured mask (a mask that depends on more than one dimension)}}
  %a = tt.load %ptrs, %causal : tensor<16x16x!tt.ptr<f32>>
  %one = tt.splat %n : i32 -> tensor<1x16xi32>
  %lt = arith.cmpi slt, %c, %one : tensor<1x16xi32>
  %col = tt.broadcast %lt : tensor<1x16xi1> -> tensor<16x16xi1>
  // expected-remark @+1 {{mask d1 < %arg1}}
  %b = tt.load %ptrs, %col : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// Scalar accesses and atomics.
tt.func @scalars(%x: !tt.ptr<f32>, %i: i32, %v: f32, %t: i1) {
  %p = tt.addptr %x, %i : !tt.ptr<f32>, i32
  // expected-remark @+1 {{base %arg0, offset %arg1, strides []; no mask}}
  %s = tt.load %p : !tt.ptr<f32>
  // expected-remark @+1 {{base %arg0, offset %arg1, strides []; mask %arg3}}
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %t : (!tt.ptr<f32>, f32, i1) -> f32
  // expected-remark @+1 {{base %arg0, offset %arg1, strides []; no mask}}
  tt.store %p, %s : !tt.ptr<f32>
  tt.return
}

// -----

// The modulo of Triton's matmul tutorial: rows wrap around the matrix.
tt.func @wrapped_rows(%a: !tt.ptr<f16>, %m: i32, %pid: i32, %stride: i32) {
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %starts = tt.splat %start : i32 -> tensor<64xi32>
  %rows = arith.addi %starts, %range : tensor<64xi32>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %rows, %ms : tensor<64xi32>
  %col = tt.expand_dims %wrapped {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<64x1xi32>
  %rowOffsets = arith.muli %col, %strides : tensor<64x1xi32>
  %rowBroadcast = tt.broadcast %rowOffsets : tensor<64x1xi32> -> tensor<64x32xi32>
  %k = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %kRow = tt.expand_dims %k {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %kBroadcast = tt.broadcast %kRow : tensor<1x32xi32> -> tensor<64x32xi32>
  %offsets = arith.addi %rowBroadcast, %kBroadcast : tensor<64x32xi32>
  %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %p = tt.addptr %base, %offsets : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  // expected-remark @+1 {{base %arg0, offset 64*%arg2*%arg3, strides [%arg3, 1], if 64*%arg2 + [1] * i in [0, %arg1); no mask}}
  %v = tt.load %p : tensor<64x32x!tt.ptr<f16>>
  tt.return
}

// -----

// Pointers reinterpreted as pointers to elements of the same size keep their
// structure (a bool buffer stored as i8); other sizes have none.
tt.func @bitcast_pointers(%b: !tt.ptr<i1>, %f: !tt.ptr<f32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %bs = tt.splat %b : !tt.ptr<i1> -> tensor<64x!tt.ptr<i1>>
  %bp = tt.addptr %bs, %range : tensor<64x!tt.ptr<i1>>, tensor<64xi32>
  %bytes = tt.bitcast %bp : tensor<64x!tt.ptr<i1>> -> tensor<64x!tt.ptr<i8>>
  // expected-remark @+1 {{base %arg0, offset 0, strides [1]; no mask}}
  %v = tt.load %bytes : tensor<64x!tt.ptr<i8>>
  %fs = tt.splat %f : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %fp = tt.addptr %fs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %halves = tt.bitcast %fp : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f16>>
  // expected-remark @+1 {{unstructured pointer (a bitcast of pointers to elements of another size); no mask}}
  %h = tt.load %halves : tensor<64x!tt.ptr<f16>>
  tt.return
}

// -----

// Masks expanded themselves (`mask[:, None]`, `mask[None, :]`) gain an
// unbounded dimension, also as their last one.
tt.func @expanded_masks(%x: !tt.ptr<f32>, %m: i32, %n: i32) {
  %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %ms = tt.splat %m : i32 -> tensor<8xi32>
  %rowMask = arith.cmpi slt, %rows, %ms : tensor<8xi32>
  %ns = tt.splat %n : i32 -> tensor<8xi32>
  %colMask = arith.cmpi slt, %rows, %ns : tensor<8xi32>
  %r = tt.expand_dims %rowMask {axis = 1 : i32} : tensor<8xi1> -> tensor<8x1xi1>
  %c = tt.expand_dims %colMask {axis = 0 : i32} : tensor<8xi1> -> tensor<1x8xi1>
  %rb = tt.broadcast %r : tensor<8x1xi1> -> tensor<8x8xi1>
  %cb = tt.broadcast %c : tensor<1x8xi1> -> tensor<8x8xi1>
  %mask = arith.andi %rb, %cb : tensor<8x8xi1>
  %base = tt.splat %x : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  // expected-remark @+1 {{base %arg0, offset 0, strides [0, 0]; mask d0 < %arg1 and d1 < %arg2}}
  %v = tt.load %base, %mask : tensor<8x8x!tt.ptr<f32>>
  tt.return
}

// -----

// Offsets clamped into the tensor, `where(rows < m, rows, 0)` (Triton's
// persistent matmul), are the rows themselves where every row lies in
// [0, m): structured under that assumption, like a remainder. A clamp by
// another bound than the compared one is not.
tt.func @clamped_rows(%a: !tt.ptr<f16>, %m: i32, %other: i32, %pid: i32) {
  %c64 = arith.constant 64 : i32
  %zeros = arith.constant dense<0> : tensor<64xi32>
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %start = arith.muli %pid, %c64 : i32
  %starts = tt.splat %start : i32 -> tensor<64xi32>
  %rows = arith.addi %starts, %range : tensor<64xi32>
  %ms = tt.splat %m : i32 -> tensor<64xi32>
  %inside = arith.cmpi slt, %rows, %ms : tensor<64xi32>
  %clamped = arith.select %inside, %rows, %zeros : tensor<64xi1>, tensor<64xi32>
  %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %p = tt.addptr %base, %clamped : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  // expected-remark @+1 {{base %arg0, offset 64*%arg3, strides [1], if 64*%arg3 + [1] * i in [0, %arg1); no mask}}
  %v = tt.load %p : tensor<64x!tt.ptr<f16>>
  %reversed = arith.cmpi sgt, %ms, %rows : tensor<64xi32>
  %also = arith.select %reversed, %rows, %zeros : tensor<64xi1>, tensor<64xi32>
  %q = tt.addptr %base, %also : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  // expected-remark @+1 {{base %arg0, offset 64*%arg3, strides [1], if 64*%arg3 + [1] * i in [0, %arg1); no mask}}
  %w = tt.load %q : tensor<64x!tt.ptr<f16>>
  %others = tt.splat %other : i32 -> tensor<64xi32>
  %swapped = arith.select %inside, %others, %rows : tensor<64xi1>, tensor<64xi32>
  %r = tt.addptr %base, %swapped : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  // expected-remark @+1 {{unstructured pointer (a select of offsets other than `where(x < bound, x, other)`); no mask}}
  %u = tt.load %r : tensor<64x!tt.ptr<f16>>
  tt.return
}
