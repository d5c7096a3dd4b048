"""Scalar code on the control core: scf.for/if/while, cf branches, integer
widths and scalar loads and stores."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import rng, run

import mtia_compiler

CONTROL = """
#loc = loc("control.py":1:1)
module {
  tt.func public @control(%out: !tt.ptr<i32> loc("out_ptr"(#loc)), %n: i32 loc("n"(#loc)),
                          %data: !tt.ptr<i8> loc("data_ptr"(#loc))) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c36 = arith.constant 36 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %parity = arith.remsi %i, %c2 : i32
      %odd = arith.cmpi ne, %parity, %c0 : i32
      %term = scf.if %odd -> (i32) {
        %tripled = arith.muli %i, %c3 : i32
        scf.yield %tripled : i32
      } else {
        scf.yield %i : i32
      }
      %next = arith.addi %acc, %term : i32
      scf.yield %next : i32
    }
    tt.store %out, %sum : !tt.ptr<i32>
    %steps:2 = scf.while (%x = %n, %k = %c0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi sgt, %x, %c1 : i32
      scf.condition(%more) %x, %k : i32, i32
    } do {
    ^bb0(%x: i32, %k: i32):
      %low = arith.andi %x, %c1 : i32
      %even = arith.cmpi eq, %low, %c0 : i32
      %half = arith.shrsi %x, %c1 : i32
      %times = arith.muli %x, %c3 : i32
      %triple = arith.addi %times, %c1 : i32
      %nx = arith.select %even, %half, %triple : i32
      %nk = arith.addi %k, %c1 : i32
      scf.yield %nx, %nk : i32, i32
    }
    %p1 = tt.addptr %out, %c1 : !tt.ptr<i32>, i32
    tt.store %p1, %steps#1 : !tt.ptr<i32>
    cf.br ^gcd(%n, %c36 : i32, i32)
  ^gcd(%a: i32, %b: i32):
    %done = arith.cmpi eq, %b, %c0 : i32
    cf.cond_br %done, ^exit(%a : i32), ^step
  ^step:
    %r = arith.remsi %a, %b : i32
    cf.br ^gcd(%b, %r : i32, i32)
  ^exit(%g: i32):
    %p2 = tt.addptr %out, %c2 : !tt.ptr<i32>, i32
    tt.store %p2, %g : !tt.ptr<i32>
    %big = arith.constant 2147483647 : i32
    %wrapped = arith.muli %n, %big : i32
    %p3 = tt.addptr %out, %c3 : !tt.ptr<i32>, i32
    tt.store %p3, %wrapped : !tt.ptr<i32>
    %minus = arith.constant -7 : i32
    %udiv = arith.divui %minus, %c2 : i32
    %c4 = arith.constant 4 : i32
    %p4 = tt.addptr %out, %c4 : !tt.ptr<i32>, i32
    tt.store %p4, %udiv : !tt.ptr<i32>
    %byte = tt.load %data : !tt.ptr<i8>
    %widened = arith.extui %byte : i8 to i32
    %signed = arith.extsi %byte : i8 to i32
    %c5 = arith.constant 5 : i32
    %p5 = tt.addptr %out, %c5 : !tt.ptr<i32>, i32
    tt.store %p5, %widened : !tt.ptr<i32>
    %c6 = arith.constant 6 : i32
    %p6 = tt.addptr %out, %c6 : !tt.ptr<i32>, i32
    tt.store %p6, %signed : !tt.ptr<i32>
    %sum8 = arith.addi %byte, %byte : i8
    %back = arith.extsi %sum8 : i8 to i32
    %c7 = arith.constant 7 : i32
    %p7 = tt.addptr %out, %c7 : !tt.ptr<i32>, i32
    tt.store %p7, %back : !tt.ptr<i32>
    %f = arith.uitofp %byte : i8 to f32
    %half_f = arith.constant 0.5 : f32
    %scaled = arith.mulf %f, %half_f : f32
    %truncated = arith.fptosi %scaled : f32 to i32
    %c8 = arith.constant 8 : i32
    %p8 = tt.addptr %out, %c8 : !tt.ptr<i32>, i32
    %never = arith.cmpi slt, %n, %c0 : i32
    tt.store %p8, %truncated : !tt.ptr<i32>
    %c9 = arith.constant 9 : i32
    %p9 = tt.addptr %out, %c9 : !tt.ptr<i32>, i32
    tt.store %p9, %c9, %never : !tt.ptr<i32>
    tt.return
  }
}
"""


def collatz_steps(x: int) -> int:
    steps = 0
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


def test_loops_branches_and_integer_widths() -> None:
    n = 27
    out = np.full(10, -1, dtype=np.int32)
    data = np.array([200], dtype=np.uint8)
    run(CONTROL, [out, n, data])
    expected_sum = sum(3 * i if i % 2 else i for i in range(n))
    byte = np.int8(-56)  # 200 read as a signed byte
    assert out.tolist() == [
        expected_sum,
        collatz_steps(n),
        int(np.gcd(n, 36)),
        int(np.int64(n * 2147483647).astype(np.int32)),  # i32 multiplication wraps
        (2**32 - 7) // 2,  # -7 divided as an unsigned 32-bit integer
        200,
        int(byte),
        int(np.int8(byte + byte)),  # i8 addition wraps: -112
        100,
        -1,  # the masked store leaves the element alone
    ]


WHILE_CARRIED_TILE = """
module {
  tt.func public @while_tile(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %half = arith.constant dense<5.000000e-01> : tensor<128xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32>
    %offsets = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %x_base = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %x_ptrs = tt.addptr %x_base, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %x_ptrs : tensor<128x!tt.ptr<f32>>
    %init = arith.addf %x, %one : tensor<128xf32>
    %r:2 = scf.while (%acc = %init, %k = %c0) : (tensor<128xf32>, i32) -> (tensor<128xf32>, i32) {
      %sum = arith.addf %acc, %x : tensor<128xf32>
      %more = arith.cmpi slt, %k, %n : i32
      scf.condition(%more) %sum, %k : tensor<128xf32>, i32
    } do {
    ^bb0(%sum: tensor<128xf32>, %k: i32):
      %scaled = arith.mulf %sum, %half : tensor<128xf32>
      %next = arith.addi %k, %c1 : i32
      scf.yield %scaled, %next : tensor<128xf32>, i32
    }
    %total = arith.addf %r#0, %init : tensor<128xf32>
    %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %out_ptrs = tt.addptr %out_base, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %out_ptrs, %total : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""


@pytest.mark.parametrize("n", [0, 1, 3, 6])
def test_tile_carried_by_while(n: int) -> None:
    """A tile computed in the before region leaves through scf.condition to
    the after region on every iteration but the last and to the loop's
    result on the last; the after region yields a new tile back to the
    before region, and the initial tile stays live past the loop."""
    x = rng().standard_normal(128).astype(np.float32)
    out = np.zeros(128, dtype=np.float32)
    mtia_compiler.compile(WHILE_CARRIED_TILE).run(x, out, n, grid=(1,))
    init = x + np.float32(1.0)
    acc = init
    for _ in range(n):
        acc = (acc + x) * np.float32(0.5)
    np.testing.assert_array_equal(out, (acc + x) + init)


WHILE_CARRIED_ACCUMULATOR = """
module {
  tt.func public @while_dot(%a_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %s16 = tt.splat %c16 : i32 -> tensor<16x1xi32>
    %rs = arith.muli %rows, %s16 : tensor<16x1xi32>
    %rb = tt.broadcast %rs : tensor<16x1xi32> -> tensor<16x16xi32>
    %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
    %offs = arith.addi %rb, %cb : tensor<16x16xi32>
    %a_base = tt.splat %a_ptr : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %a_ptrs = tt.addptr %a_base, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %a = tt.load %a_ptrs : tensor<16x16x!tt.ptr<f32>>
    %res:2 = scf.while (%acc = %zero, %k = %c0)
        : (tensor<16x16xf32>, i32) -> (tensor<16x16xf32>, i32) {
      %more = arith.cmpi slt, %k, %n : i32
      scf.condition(%more) %acc, %k : tensor<16x16xf32>, i32
    } do {
    ^bb0(%acc: tensor<16x16xf32>, %k: i32):
      %d = tt.dot %a, %a, %acc, inputPrecision = ieee
          : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
      %next = arith.addi %k, %c1 : i32
      scf.yield %d, %next : tensor<16x16xf32>, i32
    }
    %out_base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %out_ptrs = tt.addptr %out_base, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %out_ptrs, %res#0 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
"""


@pytest.mark.parametrize("n", [0, 1, 3])
def test_matmul_accumulator_carried_by_while(n: int) -> None:
    """The DPE holds an accumulator carried by scf.while (the data-movement
    pass gives the loop's arguments and results the unit of what flows into
    them, so no buffer is placed between the DPE and itself)."""
    a = (np.arange(256, dtype=np.float32).reshape(16, 16) % 5 - 2).astype(np.float32)
    out = np.full((16, 16), 7.0, dtype=np.float32)
    mtia_compiler.compile(WHILE_CARRIED_ACCUMULATOR).run(a, out, n, grid=(1,))
    expected = np.zeros((16, 16), dtype=np.float32)
    for _ in range(n):
        expected = expected + a @ a
    np.testing.assert_array_equal(out, expected)
