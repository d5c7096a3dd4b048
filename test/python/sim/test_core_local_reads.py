"""The control core as a CB consumer: it waits for pages itself, reads
elements into registers (``ldl``) and pops, with the CB protocol's errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import page_bytes

from mtia_compiler.program import CB, FReg, ProgramBuilder, Reg, Unit, encode
from mtia_compiler.sim import TARGETS_DIR, SimulationError, Simulator

#: dtype -> (numpy type of the host data, the host data).
ELEMENTS = {
    "f32": (np.float32, [1.5, -0.0, np.inf, 3.4028235e38, 1e-45, -7.25]),
    "f16": (np.float16, [0.1, -65504.0, 6e-08, -np.inf, 2.0, -0.0]),
    "f64": (np.float64, [0.1, -1e300, 5e-324, 2.0**-1074 * 3, -np.inf, 1.0 / 3]),
    "i8": (np.int8, [-128, 127, -1, 0, 5, -77]),
    "i16": (np.int16, [-32768, 32767, -2, 1, 300, -300]),
    "i32": (np.int32, [-2**31, 2**31 - 1, -5, 0, 70000, 12]),
    "i64": (np.int64, [-2**63, 2**63 - 1, -3, 1 << 40, 9, -9]),
    "i1": (np.uint8, [1, 0, 0, 1, 1, 0]),
}
BF16_BITS = [0x3FC0, 0x8000, 0x7F80, 0x0001, 0xC2F7, 0x4049]  # 1.5, -0, inf, tiny, -123.5, 3.140625


def bf16_values(bits: list[int]) -> np.ndarray:
    return (np.array(bits, np.uint32) << 16).view(np.float32).astype(np.float64)


def read_back_program(dtype: str, count: int) -> bytes:
    """DMA loads ``count`` elements into a CB the control core consumes; the
    core reads every element, the even ones at an immediate index and the odd
    ones at a register index, and stores them as f64 or i64."""
    b = ProgramBuilder("read_back")
    src, out = b.param_ptr("src", dtype), b.param_ptr("out", "i64")
    cb = b.cb("t", page_bytes(count, dtype), pages=1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.param(src), dtype, [count], [1])
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.CTL, cb)
    base = b.param(out)
    for index in range(count):
        value = b.load_local(cb.front(), dtype, index if index % 2 == 0 else b.const(index))
        address = b.add(base, 8 * index)
        b.store_scalar(address, value, "f64" if isinstance(value, FReg) else "i64")
    b.pop(Unit.CTL, cb)
    return b.build()


@pytest.mark.parametrize("dtype", [*ELEMENTS, "bf16"])
def test_every_element_type_reads_exactly(dtype: str) -> None:
    if dtype == "bf16":
        host = np.array(BF16_BITS, np.uint16)
        expected = bf16_values(BF16_BITS)
    else:
        numpy_type, values = ELEMENTS[dtype]
        host = np.array(values, numpy_type)
        expected = host.astype(np.float64 if dtype.startswith("f") else np.int64)
    out = np.zeros(host.size, np.float64 if dtype.startswith(("f", "bf")) else np.int64)
    Simulator().run(read_back_program(dtype, host.size), [host, out.view(np.int64)])
    # Floats compare bit for bit (the sign of -0.0 included).
    np.testing.assert_array_equal(out.view(np.int64), expected.view(np.int64))


def test_reduction_result_bounds_a_control_loop() -> None:
    """The RE reduces an i32 tile to its maximum; the core reads it and runs
    that many iterations, storing the square of the index each time."""
    b = ProgramBuilder("bounded")
    src, out = b.param_ptr("src", "i32"), b.param_ptr("out", "i32")
    tile, peak = b.cb("src", 64, 1), b.cb("peak", 32, 1)
    b.reserve(Unit.DMA_IN, tile)
    b.dma_load(tile.back(), b.param(src), "i32", [16], [1])
    b.push(Unit.DMA_IN, tile)
    b.wait(Unit.RE, tile)
    b.reserve(Unit.RE, peak)
    b.reduce("max", "i32", tile.front(), [16], 0, d=peak.back())
    b.push(Unit.RE, peak)
    b.pop(Unit.RE, tile)
    b.wait(Unit.CTL, peak)
    bound = b.load_local(peak.front(), "i32")
    b.pop(Unit.CTL, peak)
    assert isinstance(bound, Reg)
    base = b.param(out)
    with b.for_range(0, bound) as i:
        b.store_scalar(b.add(base, b.mul(i, 4)), b.mul(i, i), "i32")
    data = np.random.default_rng(5).integers(-50, 11, 16).astype(np.int32)
    out_host = np.full(16, -1, np.int32)
    Simulator().run(b.build(), [data, out_host])
    peak_value = int(data.max())
    assert out_host[:peak_value].tolist() == [i * i for i in range(peak_value)]
    assert (out_host[peak_value:] == -1).all()


def test_the_core_blocks_until_the_push() -> None:
    """The core's wait ends when the SIMD result is pushed (the SIMD finish
    plus its latency) and handed over; the read and the pop follow."""
    target = json.loads((TARGETS_DIR / "mtia-2i.json").read_text())
    cycles_per_instruction = target["control"]["cycles_per_instruction"]

    def core_end(count: int) -> tuple[int, int]:
        b = ProgramBuilder("wait")
        cb = b.cb("t", page_bytes(count, "f32"), pages=1)
        b.reserve(Unit.SIMD, cb)
        b.simd_fill("f32", cb.back(), count, 2.5)
        b.push(Unit.SIMD, cb)
        b.wait(Unit.CTL, cb)
        b.load_local(cb.front(), "f32", count - 1)
        b.pop(Unit.CTL, cb)
        result = Simulator().run(b.build(), [], trace=True)
        assert result.trace is not None
        (fill,) = [event["args"] for event in json.loads(result.trace)["traceEvents"]
                   if event.get("name") == "simd.fill"]
        # The core sees the page when the command processor hands it over.
        pushed = fill["start_cycle"] + fill["cycles"] + target["simd"]["latency_cycles"] \
            + target["command_processor"]["handoff_cycles"]
        return result.pe_busy_cycles[0]["ctl"], pushed

    for count in (64, 65536):
        end, pushed = core_end(count)
        # wait, ldl (plus the local-memory latency) and pop after the push.
        assert end == pushed + 3 * cycles_per_instruction + \
            target["control"]["local_memory_latency_cycles"]


def consumer_program(emit_reads: bool = True) -> tuple[ProgramBuilder, CB]:
    """SIMD fills a 16-element i32 page for the core."""
    b = ProgramBuilder("consumer")
    cb = b.cb("c", 64, pages=1)
    b.reserve(Unit.SIMD, cb)
    b.simd_iota("i32", cb.back(), 16)
    b.push(Unit.SIMD, cb)
    if emit_reads:
        b.wait(Unit.CTL, cb)
    return b, cb


def run_expecting(kind: str, data: bytes) -> SimulationError:
    with pytest.raises(SimulationError) as info:
        Simulator().run(data, [])
    assert info.value.kind == kind, str(info.value)
    return info.value


def test_reading_a_page_not_waited_for_is_cb_misuse() -> None:
    b, cb = consumer_program(emit_reads=False)
    with b.location("kernel.py:3:7"):
        b.load_local(cb.front(), "i32", 2)
    error = run_expecting("cb_misuse", b.build())
    assert "ctl accesses waited-for page 0 of CB 'c' but holds 0 such pages" in str(error)
    assert error.location == "kernel.py:3:7" and error.instruction == 3


def test_reading_after_the_pop_is_cb_misuse() -> None:
    b, cb = consumer_program()
    b.pop(Unit.CTL, cb)
    b.load_local(cb.front(), "i32")
    assert "holds 0 such pages" in str(run_expecting("cb_misuse", b.build()))


def test_a_register_index_outside_the_page_is_out_of_bounds() -> None:
    b, cb = consumer_program()
    with b.location("kernel.py:9:1"):
        b.load_local(cb.front(offset=8), "i32", b.const(14))
    error = run_expecting("out_of_bounds", b.build())
    assert "ldl reads element 14 of i32 at offset 8 of a page of CB 'c', which holds 14" in \
        str(error)
    assert error.location == "kernel.py:9:1"


def test_popping_without_waiting_is_cb_misuse() -> None:
    b, cb = consumer_program(emit_reads=False)
    b.pop(Unit.CTL, cb)
    assert "without waiting" in str(run_expecting("cb_misuse", b.build()))


def test_the_core_and_a_unit_cannot_both_consume_a_cb() -> None:
    b, cb = consumer_program()
    b.wait(Unit.RE, cb)
    message = str(run_expecting("cb_misuse", b.build()))
    assert "re moves the read pointer of CB 'c' that ctl already moves" in message


def test_a_core_waiting_for_nothing_deadlocks() -> None:
    b = ProgramBuilder("starved")
    cb = b.cb("c", 64, pages=1)
    b.wait(Unit.CTL, cb)
    message = str(run_expecting("deadlock", b.build()))
    assert "ctl: wait(1) on CB 'c': 0 pages available (at instruction 0)" in message


@pytest.mark.parametrize(("mutate", "needle"), [
    (lambda inst: inst.update(i=16), "the element needs 68 bytes at offset 0"),
    (lambda inst: inst.update(i=1 << 40), f"field 'i' = {1 << 40} is not an element index"),
    (lambda inst: inst.update(i=15, src={"cb": 0, "side": "front", "offset": 8}),
     "the element needs 64 bytes at offset 8"),
    (lambda inst: inst.update(i=-1), "field 'i' = -1"),
    (lambda inst: inst["src"].update(side="back"), "must be a front slot"),
])
def test_malformed_reads_are_invalid_programs(mutate: Callable[[dict[str, Any]], None],
                                              needle: str) -> None:
    b, cb = consumer_program()
    b.load_local(cb.front(), "i32")
    body = b.to_json()
    mutate(body["code"][-1])
    assert needle in str(run_expecting("invalid_program", encode(body)))


@pytest.mark.parametrize("op", ["reserve", "push"])
def test_the_core_cannot_produce_into_a_cb(op: str) -> None:
    b = ProgramBuilder("producer")
    cb = b.cb("c", 64, pages=1)
    getattr(b, op)(Unit.CTL, cb)
    message = str(run_expecting("invalid_program", b.build()))
    assert "never a CB's producer" in message
