"""Launch mapping, determinism and the timing model's scaling laws."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
from conftest import copy_program, run_copy

from mtia_compiler.program import CB, ProgramBuilder, Unit, decode
from mtia_compiler.sim import Simulator, load_target

TARGETS = Path(__file__).resolve().parents[3] / "targets"


def test_copy_is_exact_and_bandwidth_bound() -> None:
    """A copy on every PE sustains what LPDDR5 streaming reaches, 75-92% of
    the DRAM peak: refresh, read/write turnarounds and row misses cost the
    rest."""
    result, src, dst = run_copy(1 << 20, 4096)
    np.testing.assert_array_equal(src, dst)
    target = load_target().to_dict()
    roofline = 2 * src.nbytes / target["dram_bytes_per_cycle"]
    assert 0.75 <= roofline / result.cycles <= 0.92
    assert result.bytes["dram_read"] == src.nbytes == result.bytes["dram_write"]


def test_twice_the_bytes_twice_the_cycles() -> None:
    small, _, _ = run_copy(1 << 19, 4096)
    large, _, _ = run_copy(1 << 20, 4096)
    assert 1.9 <= large.cycles / small.cycles <= 2.1


def test_determinism() -> None:
    outputs, cycles = [], []
    for _ in range(2):
        result, _, dst = run_copy(300_001, 2048)
        outputs.append(dst.tobytes())
        cycles.append((result.cycles, result.units, result.pe_busy_cycles))
    assert outputs[0] == outputs[1] and cycles[0] == cycles[1]


def test_double_buffering_overlaps_dma_with_compute() -> None:
    """A DMA-in -> SIMD exp -> DMA-out pipeline: two pages per CB overlap
    the stages, one page serialises them."""

    def pipeline(pages: int) -> int:
        block = 2048
        b = ProgramBuilder("exp")
        src, dst = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32")
        cx, cy = b.cb("x", block * 4, pages), b.cb("y", block * 4, pages)
        with b.for_range(0, 32) as i:
            offset = b.mul(i, block * 4)
            b.reserve(Unit.DMA_IN, cx)
            b.dma_load(cx.back(), b.add(b.param(src), offset), "f32", [block], [1])
            b.push(Unit.DMA_IN, cx)
            b.wait(Unit.SIMD, cx)
            b.reserve(Unit.SIMD, cy)
            b.simd_unary("exp", "f32", cy.back(), cx.front(), block)
            b.push(Unit.SIMD, cy)
            b.pop(Unit.SIMD, cx)
            b.wait(Unit.DMA_OUT, cy)
            b.dma_store(cy.front(), b.add(b.param(dst), offset), "f32", [block], [1])
            b.pop(Unit.DMA_OUT, cy)
        x = np.linspace(-3, 3, 32 * block, dtype=np.float32)
        y = np.zeros_like(x)
        result = Simulator().run(b.build(), [x, y])
        np.testing.assert_allclose(y, np.exp(x), rtol=1e-6)
        return result.cycles

    single, double = pipeline(1), pipeline(2)
    assert double < 0.8 * single


def test_dpe_cycles_follow_macs_per_cycle() -> None:
    target = load_target().to_dict()

    def mma_cycles(k: int) -> int:
        b = ProgramBuilder("mma")
        ca, cb_ = b.cb("a", 128 * k * 2, 1), b.cb("b", k * 128 * 2, 1)
        cc = b.cb("c", 128 * 128 * 4, 1)
        for cb in (ca, cb_):
            b.reserve(Unit.MLU, cb)
            b.push(Unit.MLU, cb)
            b.wait(Unit.DPE, cb)
        b.reserve(Unit.DPE, cc)
        b.mma(ca.front(), cb_.front(), cc.back(), 128, 128, k, "bf16")
        return Simulator().run(b.build(), []).units["dpe"]["busy_cycles"]

    rate = target["dpe_macs_per_cycle_per_pe"]["bf16"]
    for k in (128, 256):
        assert abs(mma_cycles(k) - 128 * 128 * k / rate) <= 1


def test_grid_larger_than_the_pe_grid() -> None:
    """A 10x9x2 grid on 64 PEs: every program stores its linear id."""
    b = ProgramBuilder("ids")
    out = b.param_ptr("out", "i32")
    x, y, z = (b.program_id(a) for a in range(3))
    gx, gy = b.num_programs(0), b.num_programs(1)
    linear = b.add(b.mul(b.add(b.mul(z, gy), y), gx), x)
    b.store_scalar(b.add(b.param(out), b.mul(linear, 4)), linear, "i32")
    ids = np.full(180, -1, np.int32)
    result = Simulator().run(b.build(), [ids], (10, 9, 2))
    np.testing.assert_array_equal(ids, np.arange(180))
    assert result.cycles > 0


def test_trace_has_a_track_per_unit() -> None:
    src = np.zeros(8192, np.float32)
    result = Simulator().run(copy_program(1024), [src, src.copy(), 8192], (8,), trace=True)
    assert result.trace is not None
    events = json.loads(result.trace)["traceEvents"]
    names = {(e["pid"], e["args"]["name"]) for e in events if e["name"] == "thread_name"}
    assert (0, "dma.in") in names and (63, "mlu") in names
    spans = [e for e in events if e["ph"] == "X"]
    assert {e["name"] for e in spans} == {"dma.load", "dma.store"}
    assert len(spans) == 16


def test_trace_spans_name_their_instruction_and_location() -> None:
    """Each span's `args` give the index of its instruction in the code
    and, for an instruction with a source location, the location."""
    b = ProgramBuilder("located")
    cb = b.cb("x", 4096, 1)
    b.reserve(Unit.SIMD, cb)
    with b.location("kernel.py:7:12"):
        b.simd_fill("f32", cb.back(), 1024, 1.0)
    b.simd_fill("f32", cb.back(), 1024, 2.0)
    b.push(Unit.SIMD, cb)
    b.wait(Unit.DMA_OUT, cb)
    b.pop(Unit.DMA_OUT, cb)
    program = b.build()
    code = decode(program)["code"]
    result = Simulator().run(program, [], (1,), trace=True)
    assert result.trace is not None
    fills = [e["args"] for e in json.loads(result.trace)["traceEvents"]
             if e["ph"] == "X" and e["name"] == "simd.fill"]
    assert [code[f["instruction"]]["op"] for f in fills] == ["simd.fill", "simd.fill"]
    assert [f.get("location") for f in fills] == ["kernel.py:7:12", None]


def test_control_code_loops_and_print() -> None:
    b = ProgramBuilder("sum")
    total = b.const(0)
    with b.for_range(0, b.const(10)) as i:
        b.add(total, i, dst=total)
    half = b.fop("mul", b.itof(total), b.fconst(0.5))
    b.print(" total:", total, half)
    result = Simulator().run(b.build(), [], (2,))
    line = "idx () total: 45 22.5\n"
    assert result.output == f"pid (0, 0, 0) {line}pid (1, 0, 0) {line}"


def test_one_pe_streams_at_its_network_interface_rate_each_way() -> None:
    """One PE streams 1 MiB in from SRAM and, optionally, 1 MiB out at the
    same time. SRAM outpaces one PE's interface to the network on chip, so
    the interface bounds each queue, in each direction on its own: the two
    directions together take as long as one."""
    target = load_target().to_dict()
    # PE 0 is one hop from the grid's edge; its outstanding transactions
    # cover the SRAM round trip, so the interface's rate is the bound.
    round_trip = target["sram_latency_cycles"] + target["dma_latency_cycles"] \
        + 2 * target["noc_hop_cycles"]
    assert target["dma_max_outstanding"] * target["dma_transaction_bytes"] / round_trip \
        >= target["noc_pe_bytes_per_cycle"]
    interface_rate = target["noc_pe_bytes_per_cycle"]
    # Enough pages in flight to cover the SRAM and DMA latencies.
    block, steps, pages = 4096, 64, 12

    def dma_span(store: bool) -> int:
        b = ProgramBuilder("port")
        src, dst = b.param_ptr("src", "f32", "sram"), b.param_ptr("dst", "f32", "sram")
        cin, cout = b.cb("in", block * 4, pages), b.cb("out", block * 4, pages)
        with b.for_range(0, steps) as i:
            offset = b.mul(i, block * 4)
            b.reserve(Unit.DMA_IN, cin)
            b.dma_load(cin.back(), b.add(b.param(src), offset), "f32", [block], [1])
            b.push(Unit.DMA_IN, cin)
            b.wait(Unit.MLU, cin)
            b.pop(Unit.MLU, cin)
            if store:
                b.reserve(Unit.MLU, cout)
                b.push(Unit.MLU, cout)
                b.wait(Unit.DMA_OUT, cout)
                b.dma_store(cout.front(), b.add(b.param(dst), offset), "f32", [block], [1])
                b.pop(Unit.DMA_OUT, cout)
        x = np.zeros(block * steps, np.float32)
        result = Simulator().run(b.build(), [x, x.copy()], trace=True)
        assert result.trace is not None
        spans = [e["args"] for e in json.loads(result.trace)["traceEvents"]
                 if e["ph"] == "X" and e["name"].startswith("dma.")]
        return max(s["start_cycle"] + s["cycles"] for s in spans) - min(
            s["start_cycle"] for s in spans)

    one_way = block * steps * 4 / interface_rate
    assert 0.97 * one_way <= dma_span(False) <= 1.05 * one_way
    assert 0.97 * one_way <= dma_span(True) <= 1.1 * one_way


def simd_cycles(emit: Callable[[ProgramBuilder, CB], None], page_bytes: int) -> int:
    """The SIMD engine's busy cycles for the instructions ``emit`` writes
    into a page of ``page_bytes`` that the SIMD engine holds."""
    b = ProgramBuilder("simd")
    cb = b.cb("tiles", page_bytes, 1)
    b.reserve(Unit.SIMD, cb)
    emit(b, cb)
    b.push(Unit.SIMD, cb)
    b.wait(Unit.MLU, cb)
    b.pop(Unit.MLU, cb)
    return int(Simulator().run(b.build(), []).units["simd"]["busy_cycles"])


def test_fma_counts_two_operations_per_element() -> None:
    """An f32 FMA over n elements is 2n operations at the f32 rate; its 16n
    bytes take less at the local bandwidth."""
    n = 4096
    rate = load_target().to_dict()["simd_ops_per_cycle_per_pe"]["f32"]
    cycles = simd_cycles(lambda b, cb: b.simd_fma("f32", cb.back(), cb.back(), cb.back(),
                                                  cb.back(), n), n * 4)
    assert cycles == math.ceil(2 * n / rate)


def test_simd_rate_follows_the_operand_type() -> None:
    """f64 and i64 run at the f64 rate, f32 and i32 at the f32 rate, and a
    cast at the rate of its wider type."""
    n = 1024
    rates = load_target().to_dict()["simd_ops_per_cycle_per_pe"]
    assert rates["f64"] < rates["f32"]
    for dtype, rate in (("f64", rates["f64"]), ("i64", rates["f64"]), ("f32", rates["f32"]),
                        ("i32", rates["f32"]), ("bf16", rates["bf16"]), ("i8", rates["i8"])):
        def fill(b: ProgramBuilder, cb: CB, t: str = dtype) -> None:
            b.simd_fill(t, cb.back(), n, 1)

        assert simd_cycles(fill, n * 8) == math.ceil(n / rate), dtype
    cast = simd_cycles(lambda b, cb: b.simd_cast(cb.back(offset=n * 4), cb.back(), n, "f32",
                                                 "f64"), n * 12)
    assert cast == math.ceil(n / rates["f64"])


def test_transpose_is_slower_than_a_contiguous_copy() -> None:
    """A 64x64 f32 transpose moves its 32 KiB (read and written) at
    mlu.transpose_bytes_per_cycle, a copy of the same tile at
    mlu.bytes_per_cycle."""
    target = load_target().to_dict()
    rows = cols = 64

    def mlu_cycles(transpose: bool) -> int:
        b = ProgramBuilder("mlu")
        cb = b.cb("tiles", rows * cols * 8, 1)
        b.reserve(Unit.MLU, cb)
        destination = cb.back(offset=rows * cols * 4)
        if transpose:
            b.transpose(destination, cb.back(), 4, rows, cols)
        else:
            b.mlu_copy(destination, cb.back(), 4, [rows, cols], [cols, 1], [cols, 1])
        b.push(Unit.MLU, cb)
        b.wait(Unit.SIMD, cb)
        b.pop(Unit.SIMD, cb)
        return int(Simulator().run(b.build(), []).units["mlu"]["busy_cycles"])

    moved = 2 * rows * cols * 4
    assert mlu_cycles(False) == math.ceil(moved / target["mlu_bytes_per_cycle"])
    assert mlu_cycles(True) == math.ceil(moved / target["mlu_transpose_bytes_per_cycle"])


def test_launch_and_program_switch_cycles() -> None:
    """Programs that do nothing: every PE starts its first at the launch
    time, and each further program on a PE costs a program switch."""
    target = load_target().to_dict()
    launch = round(1000 * target["clock_ghz"])
    assert target["launch_cycles"] == launch
    program = ProgramBuilder("empty").build()
    pes = target["num_pes"]
    for rounds in (1, 2, 5):
        cycles = Simulator().run(program, [], (rounds * pes,)).cycles
        assert cycles == launch + (rounds - 1) * target["program_switch_cycles"]


def test_cb_hand_off_delays_both_sides() -> None:
    """The SIMD engine fills a page and pushes it; the MLU waits for it and
    pops it; the SIMD engine reserves it again. The MLU sees the push, and
    the SIMD engine the pop, command_processor.handoff_cycles late."""
    target = load_target().to_dict()
    b = ProgramBuilder("handoff")
    cb = b.cb("x", 4096, 1)
    for _ in range(2):
        b.reserve(Unit.SIMD, cb)
        b.simd_fill("f32", cb.back(), 1024, 1.0)
        b.push(Unit.SIMD, cb)
        b.wait(Unit.MLU, cb)
        b.pop(Unit.MLU, cb)
    result = Simulator().run(b.build(), [], trace=True)
    assert result.trace is not None
    fills = [e["args"] for e in json.loads(result.trace)["traceEvents"]
             if e["ph"] == "X" and e["name"] == "simd.fill"]
    first_end = fills[0]["start_cycle"] + fills[0]["cycles"]
    simd_latency = json.loads((TARGETS / "mtia-2i.json").read_text())["simd"]["latency_cycles"]
    handoff = target["cb_handoff_cycles"]
    assert handoff > 0
    assert fills[1]["start_cycle"] == first_end + simd_latency + 2 * handoff
