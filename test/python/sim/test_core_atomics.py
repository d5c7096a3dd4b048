"""The control core's scalar atomic (``amo``): old values, masks and a spin lock."""

from __future__ import annotations

import numpy as np
import pytest

from mtia_compiler.program import ProgramBuilder, Reg
from mtia_compiler.sim import SimulationError, Simulator


def spin_lock_program(release: bool) -> bytes:
    """Every program takes the lock with cas, increments the counter with a
    plain load/store and (if ``release``) frees the lock with xchg."""
    b = ProgramBuilder("spin_lock")
    lock = b.param(b.param_ptr("lock", "i32"))
    counter = b.param(b.param_ptr("counter", "i32"))
    zero, one = b.const(0), b.const(1)
    top = b.label()
    b.bind(top)
    old = b.atomic_scalar("cas", lock, one, "i32", "acq_rel", cmp=zero)
    assert isinstance(old, Reg)
    b.branch_if_nonzero(b.icmp("eq", old, 1), top)
    value = b.load_scalar(counter, "i32")
    assert isinstance(value, Reg)
    b.store_scalar(counter, b.add(value, 1), "i32")
    if release:
        b.atomic_scalar("xchg", lock, zero, "i32", "release")
    return b.build()


def test_spin_lock_counts_every_program() -> None:
    lock, counter = np.zeros(1, np.int32), np.array([5], np.int32)
    Simulator().run(spin_lock_program(release=True), [lock, counter], (200,))
    assert int(counter[0]) == 205
    assert int(lock[0]) == 0


def test_lock_never_released_times_out() -> None:
    lock, counter = np.zeros(1, np.int32), np.zeros(1, np.int32)
    with pytest.raises(SimulationError) as error:
        Simulator().run(spin_lock_program(release=False), [lock, counter], (2,))
    assert error.value.kind == "timeout"


def test_old_values_and_mask() -> None:
    b = ProgramBuilder("amo")
    data = b.param(b.param_ptr("data", "i32"))
    out = b.param(b.param_ptr("out", "i32"))
    pid = b.program_id(0)
    old = b.atomic_scalar("add", data, b.add(pid, 1), "i32", "relaxed")
    b.store_scalar(b.add(out, b.mul(pid, 4)), old, "i32")
    b.atomic_scalar("max", b.add(data, 4), pid, "i32", "acquire", mask=b.icmp("ne", pid, 2))
    data_buf = np.array([10, -1], np.int32)
    out_buf = np.zeros(3, np.int32)
    Simulator().run(b.build(), [data_buf, out_buf], (3,))
    # Programs run in order of their PEs here: one program per PE.
    assert data_buf.tolist() == [16, 1]
    assert sorted(out_buf.tolist()) == [10, 11, 13]
