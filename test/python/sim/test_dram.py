"""The DRAM and network-on-chip timing: channels, refresh, read/write
turnarounds, row misses, and what one PE can draw."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import copy_program

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Result, Simulator, Target, load_target

TARGETS = Path(__file__).resolve().parents[3] / "targets"
PEAK = load_target().to_dict()["dram_bytes_per_cycle"]


def target_with(**dram: Any) -> Simulator:
    """mtia-2i with the given `dram` fields changed and no SRAM cache, so
    that every transaction reaches DRAM."""
    data = json.loads((TARGETS / "mtia-2i.json").read_text())
    data["dram"].update(dram)
    data["sram"]["cache_bytes"] = 0
    return Simulator(Target.from_json(json.dumps(data)))


def read_program(block: int, stride: int) -> bytes:
    """Each program reads `block` f32 elements `stride` elements apart."""
    b = ProgramBuilder("read")
    src = b.param_ptr("src", "f32")
    cb = b.cb("t", block * 4, pages=2)
    start = b.mul(b.program_id(0), block * stride * 4)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.add(b.param(src), start), "f32", [block], [stride])
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.SIMD, cb)
    b.pop(Unit.SIMD, cb)
    return b.build()


def read(sim: Simulator, n: int, block: int, stride: int = 1, grid: int | None = None
         ) -> Result:
    data = np.zeros(n * stride, np.float32)
    return sim.run(read_program(block, stride), [data], (grid or n // block,))


def copy(sim: Simulator, n: int, block: int) -> Result:
    src, dst = np.arange(n, dtype=np.float32), np.zeros(n, np.float32)
    result = sim.run(copy_program(block), [src, dst, n], (n // block,))
    np.testing.assert_array_equal(src, dst)
    return result


def test_streams_sustain_less_than_the_peak_and_mixing_costs_more() -> None:
    """Reading 16 MiB on every PE reaches 85-92% of the peak (refresh and
    row activations cost the rest); a copy, which mixes reads and writes on
    every channel, reaches less; reading one 32-byte sector per 4 KiB opens
    a row for almost every transaction and reaches far less."""
    sim = target_with()
    n = 1 << 22
    streaming = n * 4 / read(sim, n, 16384).cycles / PEAK
    mixed = 2 * n * 4 / copy(sim, n, 16384).cycles / PEAK
    strided = (n // 16) * 32 / read(sim, n // 16, 1024, stride=1024).cycles / PEAK
    assert 0.85 <= streaming <= 0.92
    assert 0.75 <= mixed < streaming - 0.02
    assert strided < 0.6 * streaming


def test_refresh_windows_cost_their_share_of_the_time() -> None:
    """Without refresh (a window too short to matter) a stream is faster by
    about the refresh's share, tRFC / tREFI = 280 / 3904 = 7%."""
    n = 1 << 22
    with_refresh = read(target_with(), n, 16384).cycles
    without = read(target_with(trfc_ns=0.001), n, 16384).cycles
    assert 0.04 <= 1 - without / with_refresh <= 0.09


def test_turnarounds_cost_only_a_mix_of_directions() -> None:
    """Free turnarounds make a copy faster; a read-only stream does not
    change."""
    n = 1 << 22
    assert copy(target_with(turnaround_ns=0.001), n, 16384).cycles \
        < 0.95 * copy(target_with(), n, 16384).cycles
    assert read(target_with(turnaround_ns=0.001), n, 16384).cycles \
        == read(target_with(), n, 16384).cycles


def test_a_longer_reorder_window_charges_a_copy_more_turnarounds() -> None:
    """The reads and writes of a channel within one reorder window share its
    turnarounds: the rarer direction over a longer window is never less, so
    a copy gets slower as the window grows (buckets of 64 cycles, mtia-2i's
    256, 32 thousand)."""
    n = 1 << 22
    cycles = [copy(target_with(reorder_window_ns=window), n, 16384).cycles
              for window in (24, 160, 20000)]
    assert cycles[0] < cycles[1] < cycles[2]


def test_row_misses_are_limited_by_the_four_activate_window() -> None:
    """Scattered reads open a row each: a wider activation window makes
    them slower in proportion, a contiguous stream (64 transactions per
    row) barely."""
    n = 1 << 18
    narrow = read(target_with(), n // 16, 1024, stride=1024).cycles
    wide = read(target_with(tfaw_ns=80), n // 16, 1024, stride=1024).cycles
    assert wide > 2.5 * narrow
    streaming = read(target_with(), n * 4, 16384).cycles
    assert read(target_with(tfaw_ns=80), n * 4, 16384).cycles < 1.05 * streaming


def test_one_pe_cannot_draw_the_whole_dram_bandwidth() -> None:
    """A single PE's stream is bound by the transactions it may keep in
    flight over the DRAM round trip (Little's law); 16 PEs reach the
    chip's streaming rate."""
    target = load_target().to_dict()
    round_trip = target["dram_latency_cycles"] + target["dma_latency_cycles"] \
        + 2 * target["noc_hop_cycles"]
    rate = target["dma_max_outstanding"] * target["dma_transaction_bytes"] / round_trip
    assert rate < target["noc_pe_bytes_per_cycle"]
    sim = target_with()
    n = 1 << 20
    spread = n * 4 / read(sim, n, 16384).cycles
    # A grid of one program runs on PE 0: its load's span, requests and
    # transfers, moves at the request rate, less the pieces a refresh window
    # or a row activation holds back ...
    single = sim.run(read_program(16384, 1), [np.zeros(n, np.float32)], (1,), trace=True)
    assert single.trace is not None
    (span,) = [e["args"]["cycles"] for e in json.loads(single.trace)["traceEvents"]
               if e["ph"] == "X" and e["name"] == "dma.load"]
    assert 0.8 * rate <= 16384 * 4 / span <= rate
    # ... and 64 programs spread over the PEs go far faster.
    assert spread > 4 * rate


def test_a_pe_far_from_the_edge_waits_longer() -> None:
    """Requests and data cross the mesh: a load by a PE in the grid's middle
    becomes visible later than one by a PE on its edge."""
    target = load_target().to_dict()
    b = ProgramBuilder("probe")
    src = b.param_ptr("src", "f32", "sram")
    cb = b.cb("t", 128, pages=1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.param(src), "f32", [32], [1])
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.SIMD, cb)
    b.pop(Unit.SIMD, cb)
    program = b.build()
    # PE 0 is one hop from the edge; PE 27 (row 3, column 3) four, as many
    # as any PE before it.
    cycles = {pe: Simulator().run(program, [np.zeros(32, np.float32)], (pe + 1,)).cycles
              for pe in (0, 27)}
    assert cycles[27] - cycles[0] == 2 * 3 * target["noc_hop_cycles"]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("interleave_bytes", 16, "field 'dram.interleave_bytes' must be a multiple of "
                             "'dma.transaction_bytes' (32)"),
    ("row_bytes", 128, "field 'dram.row_bytes' must be a multiple of "
                       "'dram.interleave_bytes' (256)"),
    ("channels", 12, "field 'dram.channels' must be a power of two"),
    ("trfc_ns", 5000, "field 'dram.trfc_ns' must be less than 'dram.trefi_ns'"),
    ("channels", 0, "field 'dram.channels' must be a positive integer"),
    ("reorder_window_ns", 0, "field 'dram.reorder_window_ns' must be a positive number"),
    ("reorder_window_ns", 1e12, "field 'dram.reorder_window_ns' must be at most 1e9 (a second)"),
])
def test_target_rejects_an_inconsistent_dram(field: str, value: float, message: str) -> None:
    data = json.loads((TARGETS / "mtia-2i.json").read_text())
    data["dram"][field] = value
    with pytest.raises(ValueError, match=re.escape(message)):
        Target.from_json(json.dumps(data))
