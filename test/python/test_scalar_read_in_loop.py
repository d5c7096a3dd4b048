"""A scalar that the reduction engine's sum gives, stored and then read in a
loop after a second scalar is stored through the same buffer (FlagGems'
layer_norm): the loop reads the first scalar, not the page the second one
was pushed in. The splat of the scalar has no storage of its own, so its
readers in the loop read the scalar where it is kept."""

from __future__ import annotations

import numpy as np
import pytest

import mtia_compiler

#: `mean = sum(x) / BLOCK; stats[0] = mean; stats[1] = sum(x - mean) / N`,
#: then `out[o] = x[o] - mean` over blocks of 64 in an `scf.for`, as the
#: Triton 3.9 frontend prints it.
KERNEL = """
module {
  tt.func public @centre(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>,
                         %stats_ptr: !tt.ptr<f32>, %N: i32) {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %block = arith.constant 6.400000e+01 : f32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %x_ptrs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %x_addrs = tt.addptr %x_ptrs, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x = tt.load %x_addrs : tensor<64x!tt.ptr<f32>>
    %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64xf32>) -> f32
    %mean = arith.divf %sum, %block : f32
    tt.store %stats_ptr, %mean : !tt.ptr<f32>
    %second_ptr = tt.addptr %stats_ptr, %c1_i32 : !tt.ptr<f32>, i32
    %means = tt.splat %mean : f32 -> tensor<64xf32>
    %centred = arith.subf %x, %means : tensor<64xf32>
    %residue = "tt.reduce"(%centred) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64xf32>) -> f32
    %n = arith.sitofp %N : i32 to f32
    %second = arith.divf %residue, %n : f32
    tt.store %second_ptr, %second : !tt.ptr<f32>
    %out_ptrs = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    scf.for %start = %c0_i32 to %N step %c64_i32 : i32 {
      %starts = tt.splat %start : i32 -> tensor<64xi32>
      %o = arith.addi %starts, %range : tensor<64xi32>
      %out_addrs = tt.addptr %out_ptrs, %o : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %in_addrs = tt.addptr %x_ptrs, %o : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %in = tt.load %in_addrs : tensor<64x!tt.ptr<f32>>
      %r = arith.subf %in, %means : tensor<64xf32>
      tt.store %out_addrs, %r : tensor<64x!tt.ptr<f32>>
    }
    tt.return
  }
}
"""


@pytest.mark.parametrize("n", [64, 256])
def test_the_mean_stored_before_a_loop_is_subtracted_in_it(n: int) -> None:
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    stats = np.zeros(2, np.float32)
    mtia_compiler.compile(KERNEL).run(x, out, stats, n, grid=1)
    block = x[:64]
    mean = block.sum(dtype=np.float32) / np.float32(64)
    np.testing.assert_array_equal(stats, [mean, (block - mean).sum(dtype=np.float32) / n])
    np.testing.assert_array_equal(out, x - mean)
