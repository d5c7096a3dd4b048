"""Tiles that cross a `cf.cond_br` (an early `return`): loaded or computed before
the branch, used after it. Every buffer push must meet its pop on every path."""

from __future__ import annotations

import numpy as np

import mtia_compiler

LOAD_USED_AFTER_BRANCH = """
module {
  tt.func public @load_used_after_branch(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %cst = arith.constant dense<1.000000e+00> : tensor<32xf32>
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %p2 = tt.addptr %p, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %v = tt.load %p2 : tensor<32x!tt.ptr<f32>>
    %c = arith.cmpi eq, %pid, %c1 : i32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %q = tt.splat %z : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %q2 = tt.addptr %q, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %m = arith.addf %v, %cst : tensor<32xf32>
    tt.store %q2, %m : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}
"""

REDUCED_BEFORE_BRANCH = """
module {
  tt.func public @forward_after_branch(%x: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %p2 = tt.addptr %p, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %v = tt.load %p2 : tensor<32x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %5 = arith.addf %a, %b : f32
      tt.reduce.return %5 : f32
    }) : (tensor<32xf32>) -> f32
    %c = arith.cmpf ogt, %s, %cst : f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    tt.return
  ^bb2:
    %q = tt.splat %z : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %q2 = tt.addptr %q, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %m = arith.mulf %v, %v : tensor<32xf32>
    tt.store %q2, %m : tensor<32x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_load_used_after_an_early_return() -> None:
    # Program 1 returns early; program 0 adds one to x.
    kernel = mtia_compiler.compile(LOAD_USED_AFTER_BRANCH)
    x = np.arange(32, dtype=np.float32)
    z = np.zeros(32, np.float32)
    kernel.run(x, z, grid=2)
    np.testing.assert_array_equal(z, x + 1)


def test_branch_on_a_reduction_of_the_tile_it_uses() -> None:
    kernel = mtia_compiler.compile(REDUCED_BEFORE_BRANCH)
    for sign in (1, -1):
        x = sign * np.arange(1, 33, dtype=np.float32)
        z = np.full(32, -5, np.float32)
        kernel.run(x, z)
        # A positive sum returns before the store.
        expected = np.full(32, -5, np.float32) if sign > 0 else x * x
        np.testing.assert_array_equal(z, expected)
