"""A K-loop matmul on the DPE: operands streamed through double-buffered CBs,
the accumulator fed by SIMD through a CB and carried by the loop."""

from __future__ import annotations

import numpy as np
from program_stage_support import rng, run

MATMUL = """
#loc = loc("matmul.py":1:1)
!a_page = !cb.cb<32x16xf32, pages = 2>
!b_page = !cb.cb<16x32xf32, pages = 2>
!acc_page = !cb.cb<32x32xf32, pages = 1>
!acc = !tile.tile<32x32xf32>
module {
  tt.func public @matmul(%a: !tt.ptr<f32> loc("a_ptr"(#loc)), %b: !tt.ptr<f32> loc("b_ptr"(#loc)),
                         %c: !tt.ptr<f32> loc("c_ptr"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 4 : index
    %block_k = arith.constant 16 : index
    %k_total = arith.constant 64 : index
    %n = arith.constant 32 : index
    %a_cb = cb.alloc "a", dma_in -> dpe : !a_page
    %b_cb = cb.alloc "b", dma_in -> dpe : !b_page
    %init_cb = cb.alloc "acc_init", simd -> dpe : !acc_page
    %c_cb = cb.alloc "c", dpe -> dma_out : !acc_page
    cb.reserve_back %init_cb, 1 : !acc_page
    %zeros = tile.constant dense<0.0> : tensor<32x32xf32> : !acc
    cb.write_back %zeros, %init_cb[0] : !acc_page
    cb.push_back %init_cb, 1 : !acc_page
    cb.wait_front %init_cb, 1 : !acc_page
    %init = cb.read_front %init_cb[0] : !acc_page
    %result = scf.for %k = %c0 to %steps step %c1 iter_args(%sum = %init) -> (!acc) : index {
      %a_offset = arith.muli %k, %block_k : index
      %b_row = arith.muli %k, %block_k : index
      %b_offset = arith.muli %b_row, %n : index
      cb.reserve_back %a_cb, 1 : !a_page
      %ta = dma.load %a[%a_offset] strides [%k_total, %c1] into %a_cb[0] : !tt.ptr<f32>, !a_page
      cb.push_back %a_cb, 1 : !a_page
      cb.reserve_back %b_cb, 1 : !b_page
      %tb = dma.load %b[%b_offset] strides [%n, %c1] into %b_cb[0] : !tt.ptr<f32>, !b_page
      cb.push_back %b_cb, 1 : !b_page
      cb.wait_front %a_cb, 1 : !a_page
      cb.wait_front %b_cb, 1 : !b_page
      %lhs = cb.read_front %a_cb[0] : !a_page
      %rhs = cb.read_front %b_cb[0] : !b_page
      %next = tile.matmul %lhs, %rhs, %sum : !tile.tile<32x16xf32>, !tile.tile<16x32xf32> -> !acc
      cb.pop_front %a_cb, 1 : !a_page
      cb.pop_front %b_cb, 1 : !b_page
      scf.yield %next : !acc
    }
    cb.pop_front %init_cb, 1 : !acc_page
    cb.reserve_back %c_cb, 1 : !acc_page
    cb.write_back %result, %c_cb[0] : !acc_page
    cb.push_back %c_cb, 1 : !acc_page
    cb.wait_front %c_cb, 1 : !acc_page
    %tc = dma.store %c_cb[0] to %c[%c0] strides [%n, %c1] : !acc_page, !tt.ptr<f32>
    cb.pop_front %c_cb, 1 : !acc_page
    tt.return
  }
}
"""


def test_k_loop_matmul_with_a_cb_fed_accumulator() -> None:
    generator = rng()
    a = generator.standard_normal((32, 64)).astype(np.float32)
    b = generator.standard_normal((64, 32)).astype(np.float32)
    c = np.zeros((32, 32), dtype=np.float32)
    result = run(MATMUL, [a, b, c])
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    assert result.units["dpe"]["instructions"] >= 4


def test_dpe_copies_keep_negative_zero() -> None:
    """With no iterations, the accumulator only passes through the DPE's
    copies into and out of the loop's storage (`acc + (+0) × (-0)` in bf16):
    -0.0 must come out as -0.0."""
    text = MATMUL.replace("dense<0.0>", "dense<-0.0>").replace(
        "%steps = arith.constant 4", "%steps = arith.constant 0")
    a = np.ones((32, 64), dtype=np.float32)
    b = np.ones((64, 32), dtype=np.float32)
    c = np.ones((32, 32), dtype=np.float32)
    run(text, [a, b, c])
    assert (c.view(np.uint32) == 0x80000000).all()
