"""The PE's one local-memory port: the DMA queues and the compute units book
their local-memory bytes on the same calendar, so they contend for it."""

from __future__ import annotations

import math

import numpy as np

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Result, Simulator, load_target

# The SIMD adds: each reads two f32 tiles and writes one, 12 bytes per
# element, a little more than the port moves in the cycles the SIMD engine
# computes them, so alone they run at the port's rate.
ADD_N, ADDS = 4096, 24
# The MLU's contiguous copies of 16 KiB: 32 KiB read and written each.
COPY_N, COPIES = 4096, 6
# A stream of 1 MiB from SRAM in blocks of 16 KiB, bounded by the PE's
# network interface.
BLOCK, STEPS, PAGES = 4096, 64, 12


def run(adds: bool, copies: bool = False, stream: bool = False) -> Result:
    """SIMD adds, MLU copies and a DMA stream (consumed by the RE, which
    only pops it) on one PE, on tiles of their own."""
    b = ProgramBuilder("port")
    src = b.param_ptr("src", "f32", "sram")
    cin = b.cb("in", BLOCK * 4, PAGES)
    simd_tiles = b.cb("simd", ADD_N * 4 * 3, 1)
    mlu_tiles = b.cb("mlu", COPY_N * 4 * 2, 1)
    if adds:
        b.reserve(Unit.SIMD, simd_tiles)
        x, y = simd_tiles.back(), simd_tiles.back(offset=ADD_N * 4)
        for _ in range(ADDS):
            b.simd_binary("add", "f32", simd_tiles.back(offset=2 * ADD_N * 4), x, y, ADD_N)
        b.push(Unit.SIMD, simd_tiles)
        b.wait(Unit.DPE, simd_tiles)
        b.pop(Unit.DPE, simd_tiles)
    if copies:
        b.reserve(Unit.MLU, mlu_tiles)
        for _ in range(COPIES):
            b.mlu_copy(mlu_tiles.back(offset=COPY_N * 4), mlu_tiles.back(), 4, [COPY_N], [1],
                       [1])
        b.push(Unit.MLU, mlu_tiles)
        b.wait(Unit.DPE, mlu_tiles)
        b.pop(Unit.DPE, mlu_tiles)
    if stream:
        with b.for_range(0, STEPS) as i:
            b.reserve(Unit.DMA_IN, cin)
            b.dma_load(cin.back(), b.add(b.param(src), b.mul(i, BLOCK * 4)), "f32", [BLOCK],
                       [1])
            b.push(Unit.DMA_IN, cin)
            b.wait(Unit.RE, cin)
            b.pop(Unit.RE, cin)
    return Simulator().run(b.build(), [np.zeros(BLOCK * STEPS, np.float32)])


def simd_busy(result: Result) -> int:
    return int(result.units["simd"]["busy_cycles"])


def test_simd_alone_runs_at_the_port_rate() -> None:
    rate = load_target().to_dict()["local_bytes_per_cycle"]
    assert simd_busy(run(adds=True)) == ADDS * math.ceil(ADD_N * 12 / rate)


def test_simd_and_mlu_share_the_local_memory_port() -> None:
    """Each unit alone moves its bytes at its own rate; together they need
    the port for the sum of their bytes, so the later of them ends no
    earlier than the port moves both (the port serves the bookings in
    stepping order, so which of them waits is the model's choice)."""
    target = load_target().to_dict()
    rate = target["local_bytes_per_cycle"]
    simd_bytes, mlu_bytes = ADDS * ADD_N * 12, COPIES * COPY_N * 8
    mlu_alone = int(run(adds=False, copies=True).units["mlu"]["busy_cycles"])
    assert mlu_alone == COPIES * math.ceil(COPY_N * 8 / target["mlu_bytes_per_cycle"])
    simd_alone = simd_busy(run(adds=True))
    both = run(adds=True, copies=True)
    # Both units start their queues at the launch and run them back to back.
    span = max(simd_busy(both), int(both.units["mlu"]["busy_cycles"]))
    assert span >= 0.97 * (simd_bytes + mlu_bytes) / rate
    assert span >= 1.15 * max(simd_alone, mlu_alone)


def test_a_dma_stream_takes_its_share_of_the_port_from_the_simd_engine() -> None:
    """A stream from SRAM on the same PE moves its bytes through the port
    too: the adds beside it take longer than alone."""
    alone = simd_busy(run(adds=True))
    assert simd_busy(run(adds=True, stream=True)) >= 1.04 * alone


def test_compute_bound_exponentials_are_not_slowed_by_the_port() -> None:
    """Exponentials at the SFU's rate need a fraction of the port: beside
    MLU copies they take their compute cycles."""
    target = load_target().to_dict()
    b = ProgramBuilder("sfu")
    tiles = b.cb("simd", ADD_N * 4 * 2, 1)
    mlu_tiles = b.cb("mlu", COPY_N * 4 * 2, 1)
    b.reserve(Unit.SIMD, tiles)
    for _ in range(4):
        b.simd_unary("exp", "f32", tiles.back(offset=ADD_N * 4), tiles.back(), ADD_N)
    b.push(Unit.SIMD, tiles)
    b.wait(Unit.DPE, tiles)
    b.pop(Unit.DPE, tiles)
    b.reserve(Unit.MLU, mlu_tiles)
    for _ in range(COPIES):
        b.mlu_copy(mlu_tiles.back(offset=COPY_N * 4), mlu_tiles.back(), 4, [COPY_N], [1], [1])
    b.push(Unit.MLU, mlu_tiles)
    b.wait(Unit.DPE, mlu_tiles)
    b.pop(Unit.DPE, mlu_tiles)
    result = Simulator().run(b.build(), [])
    exp_cycles = math.ceil(ADD_N / (target["simd_ops_per_cycle_per_pe"]["f32"]
                                    * target["sfu_fraction"]))
    assert simd_busy(result) == 4 * exp_cycles
