// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i}, mtia-subtile-epilogues)' | FileCheck %s

// A K loop accumulates a 128 x 64 block in its dot; the epilogue converts
// it and stores it through a tensor of pointers under a row mask. The store
// becomes four stores of 32 rows (mtia-2i's DPE output tile), in order,
// each of the rows of the accumulator, converted on its own, through the
// pointers and mask of its rows, computed from the strip's range; the whole
// block's conversion, pointers and mask go away.

// CHECK-LABEL: tt.func @k_loop
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: scf.yield
// CHECK-NOT: tensor<128x1xi32>
// CHECK-NOT: tensor<128x64x!tt.ptr<f16>>
// CHECK-NOT: tensor<128x64xf16>
// CHECK: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK: %[[PTRS0:.*]] = tt.addptr %{{.*}} : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
// CHECK-NEXT: %[[ROWS0:.*]] = tensor.extract_slice %[[ACC]][0, 0] [32, 64] [1, 1] : tensor<128x64xf32> to tensor<32x64xf32>
// CHECK-NEXT: %[[HALF0:.*]] = arith.truncf %[[ROWS0]] : tensor<32x64xf32> to tensor<32x64xf16>
// CHECK: tt.store %[[PTRS0]], %[[HALF0]], %{{.*}} : tensor<32x64x!tt.ptr<f16>>
// CHECK: tt.make_range {end = 64 : i32, start = 32 : i32} : tensor<32xi32>
// CHECK: tensor.extract_slice %[[ACC]][32, 0] [32, 64] [1, 1]
// CHECK: tt.store
// CHECK: tensor.extract_slice %[[ACC]][64, 0] [32, 64] [1, 1]
// CHECK: tt.store
// CHECK: tt.make_range {end = 128 : i32, start = 96 : i32} : tensor<32xi32>
// CHECK: tensor.extract_slice %[[ACC]][96, 0] [32, 64] [1, 1]
// CHECK: tt.store
// CHECK-NOT: tt.store
// CHECK: tt.return
tt.func @k_loop(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %c: !tt.ptr<f16>, %m: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %acc = scf.for %i = %c0 to %k step %c1 iter_args(%sum = %zero) -> (tensor<128x64xf32>) : i32 {
    %next = tt.dot %a, %b, %sum : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
    scf.yield %next : tensor<128x64xf32>
  }
  %half = arith.truncf %acc : tensor<128x64xf32> to tensor<128x64xf16>
  %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %stride = arith.constant dense<64> : tensor<128x1xi32>
  %rowOffsets = arith.muli %rows2, %stride : tensor<128x1xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowOffsetsB = tt.broadcast %rowOffsets : tensor<128x1xi32> -> tensor<128x64xi32>
  %colsB = tt.broadcast %cols2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %offsets = arith.addi %rowOffsetsB, %colsB : tensor<128x64xi32>
  %base = tt.splat %c : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %ptrs = tt.addptr %base, %offsets : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %bound = tt.splat %m : i32 -> tensor<128x1xi32>
  %inside = arith.cmpi slt, %rows2, %bound : tensor<128x1xi32>
  %mask = tt.broadcast %inside : tensor<128x1xi1> -> tensor<128x64xi1>
  tt.store %ptrs, %half, %mask : tensor<128x64x!tt.ptr<f16>>
  tt.return
}

// -----

// A descriptor store of a descriptor the kernel makes goes through a
// descriptor of blocks of 32 rows over the same tensor, at the strip's row.

// CHECK-LABEL: tt.func @descriptor
// CHECK-NOT: <64x64xf16>
// CHECK: %[[STRIPS:.*]] = tt.make_tensor_descriptor %arg2, [%arg3, %arg3], [%{{.*}}, %{{.*}}] : <f16>, <32x64xf16>
// CHECK: %[[PRODUCT:.*]] = tt.dot
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ROW0:.*]] = arith.addi %arg4, %[[C0]] : i32
// CHECK-NEXT: %[[TOP:.*]] = tensor.extract_slice %[[PRODUCT]][0, 0] [32, 64] [1, 1]
// CHECK-NEXT: %[[TOPHALF:.*]] = arith.truncf %[[TOP]]
// CHECK-NEXT: tt.descriptor_store %[[STRIPS]][%[[ROW0]], %arg4], %[[TOPHALF]] : !tt.tensordesc<32x64xf16>, tensor<32x64xf16>
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[ROW1:.*]] = arith.addi %arg4, %[[C32]] : i32
// CHECK-NEXT: %[[BOTTOM:.*]] = tensor.extract_slice %[[PRODUCT]][32, 0] [32, 64] [1, 1]
// CHECK-NEXT: %[[BOTTOMHALF:.*]] = arith.truncf %[[BOTTOM]]
// CHECK-NEXT: tt.descriptor_store %[[STRIPS]][%[[ROW1]], %arg4], %[[BOTTOMHALF]]
// CHECK-NOT: tt.descriptor_store
tt.func @descriptor(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: !tt.ptr<f16>, %n: i32, %row: i32) {
  %c1 = arith.constant 1 : i64
  %n64 = arith.extsi %n : i32 to i64
  %desc = tt.make_tensor_descriptor %c, [%n, %n], [%n64, %c1] : <f16>, <64x64xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %product = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %half = arith.truncf %product : tensor<64x64xf32> to tensor<64x64xf16>
  tt.descriptor_store %desc[%row, %row], %half : !tt.tensordesc<64x64xf16>, tensor<64x64xf16>
  tt.return
}

// -----

// A whole block the epilogue alone loads (a residual) is loaded in strips,
// each under its rows' pointers.

// CHECK-LABEL: tt.func @residual
// CHECK-NOT: tensor<64x64xf32>, tensor<64x64x!tt.ptr<f32>>
// CHECK: %[[R0:.*]] = tt.load %{{.*}} : tensor<32x64x!tt.ptr<f32>>
// CHECK: arith.addf %{{.*}}, %[[R0]] : tensor<32x64xf32>
// CHECK: tt.store %{{.*}} : tensor<32x64x!tt.ptr<f32>>
// CHECK: %[[R1:.*]] = tt.load %{{.*}} : tensor<32x64x!tt.ptr<f32>>
// CHECK: arith.addf %{{.*}}, %[[R1]] : tensor<32x64xf32>
// CHECK: tt.store %{{.*}} : tensor<32x64x!tt.ptr<f32>>
tt.func @residual(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %product = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %stride = arith.constant dense<64> : tensor<64x1xi32>
  %rowOffsets = arith.muli %rows2, %stride : tensor<64x1xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowOffsetsB = tt.broadcast %rowOffsets : tensor<64x1xi32> -> tensor<64x64xi32>
  %colsB = tt.broadcast %cols2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offsets = arith.addi %rowOffsetsB, %colsB : tensor<64x64xi32>
  %xBase = tt.splat %x : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %xPtrs = tt.addptr %xBase, %offsets : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  %residual = tt.load %xPtrs : tensor<64x64x!tt.ptr<f32>>
  %sum = arith.addf %product, %residual : tensor<64x64xf32>
  %yBase = tt.splat %y : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %yPtrs = tt.addptr %yBase, %offsets : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %yPtrs, %sum : tensor<64x64x!tt.ptr<f32>>
  tt.return
}

// -----

// Left whole: an accumulator whose epilogue also reduces it (its values
// have a use that is not elementwise), one a loop rescales on another unit
// before its dot accumulates (attention's), and one of no more rows than a
// strip.

// CHECK-LABEL: tt.func @left_whole
// CHECK-NOT: tensor.extract_slice
// CHECK: tt.return
tt.func @left_whole(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %s: tensor<32x32xf16>,
                    %y: tensor<64x64x!tt.ptr<f32>>, %z: tensor<32x64x!tt.ptr<f32>>,
                    %r: tensor<64x!tt.ptr<f32>>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %product = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %exp = math.exp %product : tensor<64x64xf32>
  tt.store %y, %exp : tensor<64x64x!tt.ptr<f32>>
  %total = "tt.reduce"(%exp) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %m: f32):
    %add = arith.addf %l, %m : f32
    tt.reduce.return %add : f32
  }) : (tensor<64x64xf32>) -> tensor<64xf32>
  tt.store %r, %total : tensor<64x!tt.ptr<f32>>
  %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32>
  %rescaled = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %scaled = arith.mulf %acc, %half : tensor<64x64xf32>
    %next = tt.dot %a, %b, %scaled : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tt.store %y, %rescaled : tensor<64x64x!tt.ptr<f32>>
  %zero32 = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
  %small = tt.dot %s, %b, %zero32 : tensor<32x32xf16> * tensor<32x64xf16> -> tensor<32x64xf32>
  tt.store %z, %small : tensor<32x64x!tt.ptr<f32>>
  tt.return
}
