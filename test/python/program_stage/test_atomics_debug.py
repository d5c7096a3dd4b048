"""Atomics on the outbound DMA queue, print and assert, and the source
locations the simulator reports."""

from __future__ import annotations

import numpy as np
import pytest
from program_stage_support import rng, run

from mtia_compiler.sim import SimulationError

ATOMICS = """
#loc = loc("atomics.py":1:1)
!values = !cb.cb<64xf32, pages = 1>
!indices = !cb.cb<64xi32, pages = 1>
!words = !cb.cb<4xi32, pages = 1>
module {
  tt.func public @atomics(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                          %bins: !tt.ptr<f32> loc("bins"(#loc)),
                          %locks: !tt.ptr<i32> loc("locks"(#loc)),
                          %seen: !tt.ptr<i32> loc("seen"(#loc))) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %block = arith.constant 64 : i32
    %four = arith.constant 4 : i32
    %zero = arith.constant 0 : i32
    %five = arith.constant 5 : i32
    %vals = cb.alloc "values", dma_in -> dma_out : !values
    %idx = cb.alloc "indices", simd -> dma_out : !indices
    %cmp = cb.alloc "compare", simd -> dma_out : !words
    %new = cb.alloc "new", simd -> dma_out : !words
    %lane = cb.alloc "lanes", simd -> dma_out : !words
    %old = cb.alloc "old", dma_out -> dma_out : !words
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %block : i32
    %offset = arith.index_cast %start : i32 to index
    cb.reserve_back %vals, 1 : !values
    %t0 = dma.load %x[%offset] strides [%c1] into %vals[0] : !tt.ptr<f32>, !values
    cb.push_back %vals, 1 : !values
    cb.reserve_back %idx, 1 : !indices
    %iota = tile.iota 0 : !tile.tile<64xi32>
    %modulus = tile.splat %four : !tile.tile<64xi32>
    %bin = tile.binary remsi %iota, %modulus : !tile.tile<64xi32>
    cb.write_back %bin, %idx[0] : !indices
    cb.push_back %idx, 1 : !indices
    cb.wait_front %vals, 1 : !values
    cb.wait_front %idx, 1 : !indices
    %v = cb.read_front %vals[0] : !values
    %i = cb.read_front %idx[0] : !indices
    %t1 = dma.atomic_rmw fadd, relaxed, chip %bins[%i], %v
        : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xf32>
    cb.pop_front %vals, 1 : !values
    cb.pop_front %idx, 1 : !indices
    %first = arith.cmpi eq, %pid, %zero : i32
    scf.if %first {
      cb.reserve_back %cmp, 1 : !words
      %expected = tile.splat %zero : !tile.tile<4xi32>
      cb.write_back %expected, %cmp[0] : !words
      cb.push_back %cmp, 1 : !words
      cb.reserve_back %new, 1 : !words
      %desired = tile.splat %five : !tile.tile<4xi32>
      cb.write_back %desired, %new[0] : !words
      cb.push_back %new, 1 : !words
      cb.reserve_back %lane, 1 : !words
      %lanes = tile.iota 0 : !tile.tile<4xi32>
      cb.write_back %lanes, %lane[0] : !words
      cb.push_back %lane, 1 : !words
      cb.wait_front %cmp, 1 : !words
      cb.wait_front %new, 1 : !words
      cb.wait_front %lane, 1 : !words
      %c = cb.read_front %cmp[0] : !words
      %n = cb.read_front %new[0] : !words
      %l = cb.read_front %lane[0] : !words
      cb.reserve_back %old, 1 : !words
      %t2 = dma.atomic_cas acq_rel, chip %locks[%l], %c, %n into %old[0]
          : !tt.ptr<i32>, !tile.tile<4xi32>, !tile.tile<4xi32>, !words
      cb.push_back %old, 1 : !words
      cb.pop_front %cmp, 1 : !words
      cb.pop_front %new, 1 : !words
      cb.pop_front %lane, 1 : !words
      cb.wait_front %old, 1 : !words
      %t3 = dma.store %old[0] to %seen[%c0] strides [%c1] : !words, !tt.ptr<i32>
      cb.pop_front %old, 1 : !words
    }
    tt.return
  }
}
"""


def test_atomic_add_over_a_grid_and_compare_and_swap() -> None:
    x = rng().standard_normal(128).astype(np.float32)
    bins = np.zeros(4, dtype=np.float32)
    locks = np.array([0, 3, 0, 7], dtype=np.int32)
    seen = np.full(4, -1, dtype=np.int32)
    run(ATOMICS, [x, bins, locks, seen], grid=(2,))
    np.testing.assert_allclose(bins, x.reshape(-1, 4).sum(axis=0, dtype=np.float64),
                               rtol=1e-5, atol=1e-5)
    assert locks.tolist() == [5, 3, 5, 7]
    assert seen.tolist() == [0, 3, 0, 7]


DEBUG = """
#loc = loc("debug.py":1:1)
module {
  tt.func public @debug(%x: !tt.ptr<i32> loc("x_ptr"(#loc)), %limit: i32 loc("limit"(#loc))) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %pid = tt.get_program_id x : i32
    tt.print " pid: " {hex = false, isSigned = array<i32: 1, 1>} : %pid, %limit : i32, i32
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32
      %v = tt.load %p : !tt.ptr<i32>
      tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %v : i32
      %ok = arith.cmpi slt, %v, %limit : i32
      tt.assert %ok, "x must stay below the limit" : i1 loc("debug.py":9:5)
    }
    tt.return
  }
}
"""


def test_print_and_a_passing_assert() -> None:
    x = np.array([3, -1, 4, 1], dtype=np.int32)
    result = run(DEBUG, [x, 10])
    lines = result.output.splitlines()
    assert lines[0] == "pid (0, 0, 0) idx () pid:  0 10"
    assert lines[1:] == [f"pid (0, 0, 0) idx () x:  {v % 2**32}" for v in x.tolist()]


def test_a_failing_assert_names_its_source_line() -> None:
    x = np.array([3, 4, 12, 1], dtype=np.int32)
    with pytest.raises(SimulationError) as failure:
        run(DEBUG, [x, 10])
    assert failure.value.kind == "assert"
    assert failure.value.location == "debug.py:9:5"
    assert "x must stay below the limit" in str(failure.value)
