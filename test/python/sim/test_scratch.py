"""A program's scratch (`scratch_bytes`, `scratch`): a slot of global memory
per PE for the launch, in the SRAM's software-managed part when it fits and
in DRAM otherwise, which the programs of one PE use one after another."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import copy_through_page

from mtia_compiler.program import ProgramBuilder
from mtia_compiler.sim import SimulationError, Simulator, load_target

PES = 64


def round_trip_program(n: int, scratch_bytes: int) -> bytes:
    """Each program copies its block of `n` f32 of `src` to its scratch
    slot, fences, copies it back to its block of `dst`, writes the slot's
    address to `slots[pid]` and fences again before it ends."""
    b = ProgramBuilder("round_trip")
    src, dst, slots = (b.param_ptr(name, dtype) for name, dtype in
                       (("src", "f32"), ("dst", "f32"), ("slots", "i64")))
    b.scratch_bytes = scratch_bytes
    cb = b.cb("t", n * 4, pages=1)
    pid = b.program_id(0)
    offset = b.mul(pid, n * 4)
    scratch = b.scratch()
    copy_through_page(b, cb, b.add(b.param(src), offset), scratch, "f32", n)
    b.fence()
    copy_through_page(b, cb, scratch, b.add(b.param(dst), offset), "f32", n)
    b.store_scalar(b.add(b.param(slots), b.mul(pid, 8)), scratch, "i64")
    b.fence()
    return b.build()


@pytest.mark.parametrize("programs", [1, 2 * PES + 3])
def test_each_pe_has_a_slot_its_programs_reuse(programs: int) -> None:
    n = 256
    src = np.arange(programs * n, dtype=np.float32)
    dst = np.zeros_like(src)
    slots = np.zeros(programs, np.int64)
    Simulator().run(round_trip_program(n, n * 4), [src, dst, slots], (programs,))
    np.testing.assert_array_equal(dst, src)
    pes = np.arange(programs) % PES
    np.testing.assert_array_equal(slots - slots[0], pes * n * 4)


def test_scratch_lives_in_sram_when_it_fits_and_in_dram_otherwise() -> None:
    target = load_target().to_dict()
    sram_scratch = target["sram_bytes"] - target["sram_cache_bytes"]
    n = 256
    src = np.ones(n, np.float32)
    small = Simulator().run(round_trip_program(n, n * 4),
                            [src, np.zeros_like(src), np.zeros(1, np.int64)], (1,))
    assert small.bytes["sram_write"] == small.bytes["sram_read"] == n * 4
    # A slot whose 64 copies exceed the SRAM's software-managed part.
    large = Simulator().run(round_trip_program(n, sram_scratch // PES + 4096),
                            [src, np.zeros_like(src), np.zeros(1, np.int64)], (1,))
    assert large.bytes["sram_write"] == 0
    assert large.bytes["dram_write"] >= 2 * n * 4


def test_scratch_without_scratch_bytes_is_rejected() -> None:
    b = ProgramBuilder("no_scratch")
    b.scratch()
    with pytest.raises(SimulationError, match="scratch needs the program's scratch_bytes"):
        Simulator().run(b.build(), [], (1,))


def test_a_scratch_beyond_the_limit_fails_the_launch() -> None:
    b = ProgramBuilder("huge_scratch")
    b.scratch_bytes = 1 << 30
    b.scratch()
    with pytest.raises(SimulationError, match="scratch needs") as info:
        Simulator().run(b.build(), [], (1,))
    assert info.value.kind == "invalid_launch"
