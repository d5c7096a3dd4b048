"""Atomics whose old values a kernel uses, end to end: tensor atomics return
them through the DMA engine, scalar ones through the control core."""

from __future__ import annotations

import numpy as np

import mtia_compiler

#: Every program takes a ticket from a counter (a scalar atomic add whose old
#: value is used) and writes it at its program id; it also exchanges a row of
#: `slots` for its program id and keeps what it found.
TICKETS = """
module {
  tt.func public @tickets(%counter: !tt.ptr<i32> {tt.divisibility = 16 : i32},
                          %out: !tt.ptr<i32> {tt.divisibility = 16 : i32},
                          %slots: !tt.ptr<i32> {tt.divisibility = 16 : i32},
                          %found: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %ticket = tt.atomic_rmw add, acq_rel, gpu, %counter, %c1 : (!tt.ptr<i32>, i32) -> i32
    %slot = tt.addptr %out, %pid : !tt.ptr<i32>, i32
    tt.store %slot, %ticket : !tt.ptr<i32>
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %ss = tt.splat %slots : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %sp = tt.addptr %ss, %range : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %mine = tt.splat %pid : i32 -> tensor<16xi32>
    %old = tt.atomic_rmw exch, acq_rel, gpu, %sp, %mine
      : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
    %c16 = arith.constant 16 : i32
    %offset = arith.muli %pid, %c16 : i32
    %fb = tt.addptr %found, %offset : !tt.ptr<i32>, i32
    %fs = tt.splat %fb : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %fp = tt.addptr %fs, %range : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %fp, %old : tensor<16x!tt.ptr<i32>>
    tt.return
  }
}
"""


def test_old_values_of_scalar_and_tensor_atomics() -> None:
    programs = 12
    kernel = mtia_compiler.compile(TICKETS)
    counter = np.zeros(1, np.int32)
    out = np.full(programs, -1, np.int32)
    slots = np.full(16, -1, np.int32)
    found = np.full((programs, 16), -7, np.int32)
    kernel.run(counter, out, slots, found, grid=programs)
    # Every ticket was handed out once.
    assert counter[0] == programs
    assert sorted(out.tolist()) == list(range(programs))
    # The exchanges form one chain per element: each program found the id
    # of the one before it (or the initial -1), and the last one stayed.
    for element in range(16):
        seen = found[:, element].tolist()
        assert sorted([*seen, int(slots[element])]) == [-1, *range(programs)]
