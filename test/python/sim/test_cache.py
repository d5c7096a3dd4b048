"""The SRAM's hardware-cache part, a last-level cache in front of DRAM: re-reads
are served from the SRAM, data larger than the cache is evicted (LRU) and
misses again, writes go through to DRAM and stay cached, results do not
depend on the cache, and invalid cache fields in a target name the field."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import copy_through_page, page_bytes

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Result, SimulationError, Simulator, Target, load_target

TARGETS = Path(__file__).resolve().parents[3] / "targets"
LINE = 128
SECTOR = 32  # dma.transaction_bytes of mtia-2i: one cache sector.


def target_data(**sram: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((TARGETS / "mtia-2i.json").read_text())
    data["sram"].update(sram)
    return data


def simulator(cache_bytes: int, ways: int = 16, line: int = LINE) -> Simulator:
    """mtia-2i with a cache of ``cache_bytes`` (0: none) in ``line``-byte lines."""
    data = target_data(cache_bytes=cache_bytes, cache_line_bytes=line, cache_ways=ways)
    return Simulator(Target.from_json(json.dumps(data)))


def copy_program(n: int, block: int, every: int) -> bytes:
    """Programs whose id is a multiple of ``every`` copy all of ``src`` (n f32)
    to ``dst[(pid // every) * n:]`` in blocks; the others do nothing."""
    b = ProgramBuilder("shared_copy")
    src, dst = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32")
    cb = b.cb("t", block * 4, pages=2)
    pid = b.program_id(0)
    done = b.label()
    b.branch_if_nonzero(b.iop("rem", pid, every), done)
    out = b.add(b.param(dst), b.mul(b.iop("div", pid, every), n * 4))
    with b.for_range(0, n * 4, block * 4) as offset:
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(src), offset), "f32", [block], [1])
        b.push(Unit.DMA_IN, cb)
        b.wait(Unit.DMA_OUT, cb)
        b.dma_store(cb.front(), b.add(out, offset), "f32", [block], [1])
        b.pop(Unit.DMA_OUT, cb)
    b.bind(done)
    return b.build()


def reader_program(loads: Sequence[tuple[int, int]]) -> bytes:
    """One program reading the (byte offset, byte length) windows of ``src``
    in order into a CB whose pages the SIMD unit drops: no DRAM writes."""
    b = ProgramBuilder("reader")
    src = b.param_ptr("src", "i8")
    cb = b.cb("t", max(length for _, length in loads), pages=2)
    for offset, length in loads:
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(src), offset), "i8", [length], [1])
        b.push(Unit.DMA_IN, cb)
        b.wait(Unit.SIMD, cb)
        b.pop(Unit.SIMD, cb)
    return b.build()


def run_copy(sim: Simulator, n: int, every: int, grid: int) -> tuple[Result, np.ndarray]:
    copies = (grid - 1) // every + 1
    src = np.arange(n, dtype=np.float32)
    dst = np.zeros(copies * n, np.float32)
    result = sim.run(copy_program(n, 8192, every), [src, dst], (grid,))
    np.testing.assert_array_equal(dst, np.tile(src, copies))
    return result, dst


def spans(result: Result, pe: int, op: str) -> list[tuple[int, int]]:
    """(start cycle, cycles) of the trace spans of ``op`` on ``pe``."""
    assert result.trace is not None
    return [(e["args"]["start_cycle"], e["args"]["cycles"])
            for e in json.loads(result.trace)["traceEvents"]
            if e["ph"] == "X" and e["pid"] == pe and e["name"] == op]


def test_targets_describe_their_cache() -> None:
    two = load_target("mtia-2i").to_dict()
    assert (two["sram_cache_bytes"], two["sram_cache_line_bytes"], two["sram_cache_ways"]) \
        == (128 << 20, 128, 16)
    assert two["sram_cache_bytes"] % (32 << 20) == 0 < two["sram_cache_bytes"] < two["sram_bytes"]
    one = load_target("mtia-v1").to_dict()
    assert (one["sram_cache_bytes"], one["sram_cache_line_bytes"], one["sram_cache_ways"]) \
        == (64 << 20, 128, 16)


@pytest.mark.parametrize(("every", "grid"), [(1, 2), (64, 65)])
def test_a_second_program_reads_the_same_dram_data_from_sram(every: int, grid: int) -> None:
    """Two programs copy the same 256 KiB: on PEs 0 and 1 at once (the
    second finds the lines in flight) or as programs 0 and 64, one after
    the other on PE 0. With the cache the second read costs SRAM, not DRAM."""
    n = 65536
    nbytes = n * 4
    cached, _ = run_copy(Simulator(), n, every, grid)
    uncached, _ = run_copy(simulator(0), n, every, grid)

    assert uncached.bytes["dram_read"] == 2 * nbytes
    assert uncached.bytes["cache_read"] == 0
    assert uncached.cache == {"hits": 0, "misses": 0, "evictions": 0}
    assert cached.bytes["dram_read"] == nbytes == cached.bytes["cache_read"]
    assert cached.cache == {"hits": nbytes // SECTOR, "misses": nbytes // SECTOR,
                            "evictions": 0}
    assert cached.bytes["dram_write"] == uncached.bytes["dram_write"] == 2 * nbytes
    assert cached.cycles < uncached.cycles
    if every == 1:
        # At once on two PEs the loads are bound by the requests each PE
        # can keep in flight over the DRAM round trip; the second PE's
        # hits wait for the first one's fills, no longer.
        rate = request_rate(load_target().to_dict(), "dram")
        assert uncached.cycles >= nbytes / rate
        assert nbytes / rate <= cached.cycles < uncached.cycles


def request_rate(target: dict[str, Any], memory: str) -> float:
    """The bytes per cycle at which PE 0 (one hop from the grid's edge)
    sends the requests of a transfer to `memory`."""
    round_trip = target[f"{memory}_latency_cycles"] + target["dma_latency_cycles"] \
        + 2 * target["noc_hop_cycles"]
    outstanding = target["dma_max_outstanding"] * target["dma_transaction_bytes"]
    return min(target["noc_pe_bytes_per_cycle"], outstanding / round_trip)


def twice_program(n: int) -> bytes:
    """Each program copies ``src`` (n f32) to its two slots of ``dst``, the
    second time after a fence, so after the first copy has completed."""
    b = ProgramBuilder("twice")
    src, dst = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32")
    cb = b.cb("t", n * 4, pages=1)
    out = b.add(b.param(dst), b.mul(b.program_id(0), 2 * n * 4))
    for copy in range(2):
        if copy:
            b.fence()
        copy_through_page(b, cb, b.param(src), b.add(out, copy * n * 4), "f32", n)
    return b.build()


def test_hits_wait_for_fills_in_flight_and_then_take_sram_latency() -> None:
    """PEs 0 and 1 read the same 4 KiB at once, then again after a fence. A
    DMA store starts when its load's data is visible and handed over: PE 0's
    first load misses (DRAM bandwidth, then DRAM latency); PE 1's finds the
    lines in flight (SRAM-side occupancy, data when PE 0's fill arrives); the
    second loads hit arrived lines (SRAM latency)."""
    n = 1024
    target = load_target().to_dict()
    dma_latency = target["dma_latency_cycles"]
    # PEs 0 and 1 are one hop from the grid's edge; requests and data cross
    # it once each.
    network = 2 * target["noc_hop_cycles"]
    # The store's queue sees the loaded page when the command processor
    # hands it over.
    handoff = target["cb_handoff_cycles"]
    src, dst = np.arange(n, dtype=np.float32), np.zeros(4 * n, np.float32)
    result = Simulator().run(twice_program(n), [src, dst], (2,), trace=True)
    np.testing.assert_array_equal(dst, np.tile(src, 4))
    (miss, miss_cycles), (hit, hit_cycles) = spans(result, 0, "dma.load")
    (miss_store, _), (hit_store, _) = spans(result, 0, "dma.store")
    (merged, merged_cycles), (hit1, hit1_cycles) = spans(result, 1, "dma.load")
    (merged_store, _), (hit1_store, _) = spans(result, 1, "dma.store")

    # Each load's requests leave at the rate its outstanding transactions
    # allow over its memory's round trip: the miss's over DRAM's, where it
    # also waits for the channels (one of which refreshes at cycle 0) and
    # its row activations; the hits' over the SRAM's.
    miss_paced = int(np.ceil(4096 / request_rate(target, "dram")))
    hit_paced = int(np.ceil(4096 / request_rate(target, "sram")))
    assert miss_cycles >= miss_paced > hit_paced
    assert miss_store >= miss + miss_cycles + target["dram_latency_cycles"] + dma_latency \
        + network
    assert merged_cycles == hit_cycles == hit1_cycles == hit_paced
    assert merged == miss and merged_store == miss_store
    for load, store in ((hit, hit_store), (hit1, hit1_store)):
        assert load > miss_store
        assert store == load + hit_paced + target["sram_latency_cycles"] + dma_latency \
            + network \
            + handoff
    assert result.cache == {"hits": 3 * 4096 // SECTOR, "misses": 4096 // SECTOR,
                            "evictions": 0}


def test_data_larger_than_the_cache_is_evicted_and_misses_again() -> None:
    """A 16 KiB cache (32 sets of 4 lines) read twice in 4 KiB blocks: 8 KiB
    fit, so the second pass hits; 32 KiB stream through LRU sets, so every
    line is evicted before its reuse and the second pass misses again."""
    sim = simulator(16 << 10, ways=4)
    for size, hits, misses, evictions in (
            (8 << 10, 256, 256, 0),
            # 256 lines per pass; the first 128 fill the cache, every later
            # line evicts one.
            (32 << 10, 0, 2048, 2 * 256 - 128)):
        loads = [(offset, 4096) for _ in range(2) for offset in range(0, size, 4096)]
        result = sim.run(reader_program(loads), [np.zeros(size, np.int8)])
        assert result.cache == {"hits": hits, "misses": misses, "evictions": evictions}, size
        assert result.bytes["dram_read"] == misses * SECTOR
        assert result.bytes["cache_read"] == hits * SECTOR


def test_replacement_is_least_recently_used() -> None:
    """One set of two ways; lines A, B, A, C, A. LRU evicts B for C, so the
    last A hits (first-in-first-out would evict A and miss)."""
    a, b_, c = 0, LINE, 2 * LINE
    loads = [(line, LINE) for line in (a, b_, a, c, a)]
    result = simulator(2 * LINE, ways=2).run(reader_program(loads), [np.zeros(3 * LINE, np.int8)])
    per_line = LINE // SECTOR
    assert result.cache == {"hits": 2 * per_line, "misses": 3 * per_line, "evictions": 1}


def lru_reference(loads: Sequence[tuple[int, int]], sets: int, ways: int,
                  line_bytes: int = LINE) -> dict[str, int]:
    """Hits, misses (in sectors) and evictions (in lines) of an LRU cache whose
    lines are tagged and replaced whole and filled sector by sector."""
    lines: list[OrderedDict[int, set[int]]] = [OrderedDict() for _ in range(sets)]
    hits = misses = evictions = 0
    for offset, length in loads:
        for line in range(offset // line_bytes, (offset + length - 1) // line_bytes + 1):
            cached = lines[line % sets]
            if line in cached:
                cached.move_to_end(line)
            else:
                if len(cached) == ways:
                    cached.popitem(last=False)
                    evictions += 1
                cached[line] = set()
            first = max(offset, line * line_bytes) // SECTOR
            last = min(offset + length, (line + 1) * line_bytes) // SECTOR
            for sector in range(first, last):
                if sector in cached[line]:
                    hits += 1
                else:
                    misses += 1
                    cached[line].add(sector)
    return {"hits": hits, "misses": misses, "evictions": evictions}


@pytest.mark.parametrize("line, sets, ways", [(LINE, 4, 4), (512, 2, 3), (1024, 4, 2),
                                              (2048, 1, 5)])
def test_counts_match_a_reference_lru_cache(line: int, sets: int, ways: int) -> None:
    """Random windows (whole and partial lines) through a cache of ``sets``
    sets of ``ways`` lines, against the Python reference model. Lines of 32
    sectors or more keep their sectors' fill times in the simulator's
    mixed-fill table. (The buffer starts at a multiple of the sets' bytes, so
    line numbers relative to it index the same sets.)"""
    rng = np.random.default_rng(7)
    size = 3 * sets * ways * line
    loads = []
    for _ in range(300):
        length = int(rng.integers(1, 17)) * SECTOR
        loads.append((int(rng.integers(0, (size - length) // SECTOR + 1)) * SECTOR, length))
    sim = simulator(sets * ways * line, ways=ways, line=line)
    result = sim.run(reader_program(loads), [np.zeros(size, np.int8)])
    expected = lru_reference(loads, sets=sets, ways=ways, line_bytes=line)
    assert expected["hits"] > 0 and expected["evictions"] > 0
    assert result.cache == expected


def test_writes_go_through_to_dram_and_stay_cached() -> None:
    """Copy src to dst, fence, then read dst back: the writes cost DRAM
    bytes with or without the cache, and with it the read-back hits."""
    n = 8192
    b = ProgramBuilder("write_then_read")
    src, dst = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32")
    back = b.param_ptr("back", "f32", memory="sram")
    ct, cr = b.cb("t", n * 4, 1), b.cb("r", n * 4, 1)
    copy_through_page(b, ct, b.param(src), b.param(dst), "f32", n)
    b.fence()
    copy_through_page(b, cr, b.param(dst), b.param(back), "f32", n)
    program = b.build()
    nbytes = n * 4
    results = {}
    for cache_bytes in (0, 128 << 20):
        data = np.arange(n, dtype=np.float32)
        dst_out, back_out = np.zeros(n, np.float32), np.zeros(n, np.float32)
        results[cache_bytes] = simulator(cache_bytes).run(program, [data, dst_out, back_out])
        np.testing.assert_array_equal(dst_out, data)
        np.testing.assert_array_equal(back_out, data)
    uncached, cached = results[0], results[128 << 20]
    assert uncached.bytes["dram_write"] == cached.bytes["dram_write"] == nbytes
    assert uncached.bytes["dram_read"] == 2 * nbytes
    assert cached.bytes["dram_read"] == nbytes == cached.bytes["cache_read"]
    assert cached.cache == {"hits": nbytes // SECTOR, "misses": nbytes // SECTOR,
                            "evictions": 0}
    assert cached.cycles < uncached.cycles


def indexed_program(n: int) -> bytes:
    """Gathers table[index], atomically counts the indices, scatters the
    gathered values to perm and loads a strided, masked window."""
    b = ProgramBuilder("indexed")
    pt, pi = b.param_ptr("table", "f32"), b.param_ptr("index", "i32")
    pp = b.param_ptr("perm", "i32")
    pg, ps = b.param_ptr("gathered", "f32"), b.param_ptr("scattered", "f32")
    pc, pw = b.param_ptr("counts", "i32"), b.param_ptr("window", "f32")
    index, counted = (b.cb(name, page_bytes(n, "i32"), 1) for name in ("index", "counted"))
    perm = b.cb("perm", page_bytes(n, "i32"), 1)
    gathered, window = b.cb("gathered", page_bytes(n, "f32"), 1), b.cb("window", 64 * 16 * 4, 1)
    for cb, param in ((index, pi), (counted, pi), (perm, pp)):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.param(param), "i32", [n], [1])
        b.push(Unit.DMA_IN, cb)
    b.wait(Unit.DMA_IN, index)
    b.reserve(Unit.DMA_IN, gathered)
    b.dma_gather(gathered.back(), b.param(pt), "f32", n, index.front())
    b.push(Unit.DMA_IN, gathered)
    b.reserve(Unit.DMA_IN, window)
    # Every third column of 64 rows of the table seen as 64 x 48, rows 60+ masked off.
    b.dma_load(window.back(), b.param(pt), "f32", [64, 16], [48, 3], lo=[0, 0], hi=[60, 16],
               other=-1.0)
    b.push(Unit.DMA_IN, window)
    for cb in (counted, perm, gathered, window):
        b.wait(Unit.DMA_OUT, cb)
    b.dma_atomic("add", b.param(pc), "i32", n, 1, index=counted.front())
    b.dma_store(gathered.front(), b.param(pg), "f32", [n], [1])
    b.dma_scatter(gathered.front(), b.param(ps), "f32", n, perm.front())
    b.dma_store(window.front(), b.param(pw), "f32", [64 * 16], [1])
    for cb in (counted, perm, gathered, window):
        b.pop(Unit.DMA_OUT, cb)
    b.pop(Unit.DMA_IN, index)
    return b.build()


def test_results_are_identical_with_and_without_the_cache() -> None:
    n, size = 2048, 64 * 48
    rng = np.random.default_rng(3)
    table = rng.standard_normal(size).astype(np.float32)
    index = rng.integers(0, size, n).astype(np.int32)
    perm = rng.permutation(n).astype(np.int32)
    program = indexed_program(n)
    outputs, results = [], []
    for sim in (simulator(0), Simulator(), simulator(2 << 10, ways=4)):
        out = [np.zeros(n, np.float32), np.zeros(n, np.float32), np.zeros(size, np.int32),
               np.zeros(64 * 16, np.float32)]
        results.append(sim.run(program, [table, index, perm, *out]))
        outputs.append(out)
    gathered, scattered, counts, window = outputs[0]
    np.testing.assert_array_equal(gathered, table[index])
    expected_scatter = np.zeros(n, np.float32)
    expected_scatter[perm] = table[index]
    np.testing.assert_array_equal(scattered, expected_scatter)
    np.testing.assert_array_equal(counts, np.bincount(index, minlength=size))
    grid = table.reshape(64, 48)[:, ::3].copy()
    grid[60:] = -1.0
    np.testing.assert_array_equal(window, grid.reshape(-1))
    for other in outputs[1:]:
        for expected, actual in zip(outputs[0], other, strict=True):
            assert expected.tobytes() == actual.tobytes()
    # Gathered sectors repeat (2048 indices into 384 sectors), so the
    # cached runs read fewer DRAM bytes; writes are the same.
    uncached, cached, small = results
    assert cached.bytes["dram_read"] < uncached.bytes["dram_read"]
    assert small.bytes["dram_read"] > cached.bytes["dram_read"]
    assert cached.bytes["dram_write"] == small.bytes["dram_write"] == \
        uncached.bytes["dram_write"]
    for result in (cached, small):
        assert result.bytes["dram_read"] + result.bytes["cache_read"] == \
            uncached.bytes["dram_read"]


def test_cached_runs_are_deterministic() -> None:
    runs = []
    for _ in range(2):
        result, dst = run_copy(Simulator(), 65536, 1, 8)
        runs.append((result.cycles, result.units, result.pe_busy_cycles, result.cache,
                     result.bytes, dst.tobytes()))
    assert runs[0] == runs[1]


def test_buffers_in_sram_get_the_software_managed_part() -> None:
    """With 1 MiB of SRAM, half of it cache, a 768 KiB SRAM buffer no longer
    fits; without the cache it does."""
    b = ProgramBuilder("sram_buffer")
    b.param_ptr("scratch", "f32", memory="sram")
    program = b.build()
    scratch = np.zeros(768 << 8, np.float32)
    for cache_bytes, fits in ((512 << 10, False), (0, True)):
        data = target_data(bytes=1 << 20, cache_bytes=cache_bytes)
        sim = Simulator(Target.from_json(json.dumps(data)))
        if fits:
            sim.run(program, [scratch])
            continue
        with pytest.raises(SimulationError, match="software-managed") as info:
            sim.run(program, [scratch])
        assert info.value.kind == "invalid_launch"
        assert "has 524288" in str(info.value)


@pytest.mark.parametrize(("edit", "message"), [
    ({"cache_bytes": -1}, "field 'sram.cache_bytes' must be a non-negative integer"),
    ({"cache_bytes": None}, "field 'sram.cache_bytes' is missing"),
    ({"cache_line_bytes": 0}, "field 'sram.cache_line_bytes' must be a positive integer"),
    ({"cache_line_bytes": 48},
     "field 'sram.cache_line_bytes' must be a multiple of 'dma.transaction_bytes' (32)"),
    ({"cache_ways": None}, "field 'sram.cache_ways' is missing"),
    ({"cache_ways": 256}, "field 'sram.cache_ways' must be at most 255"),
    ({"cache_bytes": 512 << 20}, "field 'sram.cache_bytes' must be at most 'sram.bytes'"),
    ({"cache_bytes": 3000},
     "field 'sram.cache_bytes' must be a multiple of 'sram.cache_line_bytes' x "
     "'sram.cache_ways' (2048)"),
])
def test_invalid_cache_fields_name_the_field(edit: dict[str, int | None], message: str,
                                             tmp_path: Path) -> None:
    data = target_data()
    for key, value in edit.items():
        if value is None:
            del data["sram"][key]
        else:
            data["sram"][key] = value
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as info:
        load_target(path)
    assert message in str(info.value) and "broken.json" in str(info.value)
    with pytest.raises(ValueError) as direct:
        Target.from_json(json.dumps(data))
    assert message in str(direct.value)


def test_zero_cache_bytes_is_valid_and_means_no_cache() -> None:
    assert load_target().to_dict()["sram_cache_bytes"] > 0
    description = simulator(0).target.to_dict()
    assert description["sram_cache_bytes"] == 0
    loads = [(0, 4096), (0, 4096)]
    result = simulator(0).run(reader_program(loads), [np.zeros(4096, np.int8)])
    assert result.bytes["dram_read"] == 2 * 4096
    assert result.cache == {"hits": 0, "misses": 0, "evictions": 0}
