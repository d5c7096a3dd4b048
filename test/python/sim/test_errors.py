"""Every error class aborts the launch with SimulationError, never a crash,
and host memory outside the bound buffers is never written."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import copy_program

from mtia_compiler.program import ProgramBuilder, Unit, decode, encode, seal
from mtia_compiler.sim import SimulationError, Simulator


def run_expecting(kind: str, data: bytes, args: list, grid: tuple = (1,)) -> SimulationError:
    with pytest.raises(SimulationError) as info:
        Simulator().run(data, args, grid)
    assert info.value.kind == kind, str(info.value)
    return info.value


def test_out_of_bounds_load_names_everything() -> None:
    b = ProgramBuilder("oob")
    src = b.param_ptr("src", "f32")
    cb = b.cb("t", 1024 * 4, 1)
    pid = b.program_id(0)
    with b.location("kernels.py:12:7"):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(src), b.mul(pid, 4096)), "f32", [1024], [1])
    b.push(Unit.DMA_IN, cb)
    error = run_expecting("out_of_bounds", b.build(), [np.zeros(1500, np.float32)], (2,))
    assert error.program_id == (1, 0, 0) and error.pe == 1
    assert error.location == "kernels.py:12:7"
    message = str(error)
    for part in ("0x10001000", "'src'", "[0x10000000, 0x10001770)", "6000 bytes",
                 "dma.load", "PE 1", "program (1, 0, 0)", "kernels.py:12:7"):
        assert part in message, message


def test_out_of_bounds_store_writes_nothing_outside() -> None:
    host = np.zeros(3000, np.float32)
    inner = host[1000:2000]  # The bound buffer is a view into a larger array.
    src = np.ones(2048, np.float32)
    with pytest.raises(SimulationError) as info:
        Simulator().run(copy_program(2048), [src, inner, 2048], (1,))
    assert info.value.kind == "out_of_bounds"
    assert not host[:1000].any() and not host[2000:].any()


def test_misaligned_dma() -> None:
    b = ProgramBuilder("misaligned")
    src = b.param_ptr("src", "f32")
    cb = b.cb("t", 64, 1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.add(b.param(src), 4), "f32", [8], [1])
    b.push(Unit.DMA_IN, cb)
    error = run_expecting("misaligned_dma", b.build(), [np.zeros(64, np.float32)])
    assert "32 bytes" in str(error)


def cb_program(steps: list[tuple[str, Unit, int]], pages: int = 2) -> bytes:
    b = ProgramBuilder("cb")
    cb = b.cb("c", 64, pages)
    for op, unit, n in steps:
        getattr(b, op)(unit, cb, n)
    return b.build()


@pytest.mark.parametrize(("steps", "needle"), [
    ([("push", Unit.SIMD, 1)], "without reserving"),
    ([("reserve", Unit.SIMD, 1), ("push", Unit.SIMD, 1), ("pop", Unit.RE, 1)],
     "without waiting"),
    ([("reserve", Unit.SIMD, 3)], "exceeds the capacity"),
    ([("reserve", Unit.SIMD, 1), ("reserve", Unit.MLU, 1)], "one producer"),
])
def test_cb_misuse(steps: list[tuple[str, Unit, int]], needle: str) -> None:
    error = run_expecting("cb_misuse", cb_program(steps), [])
    assert needle in str(error)


def test_unheld_page_access_is_cb_misuse() -> None:
    b = ProgramBuilder("unheld")
    cb = b.cb("c", 64, 1)
    b.simd_fill("f32", cb.back(), 16, 1.0)
    error = run_expecting("cb_misuse", b.build(), [])
    assert "reserve before accessing" in str(error)


def test_deadlock_reports_who_waits() -> None:
    steps = [("wait", Unit.SIMD, 1)]
    error = run_expecting("deadlock", cb_program(steps), [], (3,))
    message = str(error)
    assert "simd: wait(1) on CB 'c': 0 pages available" in message
    assert message.count("PE ") == 3


def test_local_memory_overflow() -> None:
    b = ProgramBuilder("big")
    b.cb("a", 200 * 1024, 1)
    b.cb("b", 200 * 1024, 1)
    error = run_expecting("local_memory_overflow", b.build(), [])
    assert "393216" in str(error)


def test_failed_asserts() -> None:
    b = ProgramBuilder("asserts")
    flags = b.param_ptr("flags", "i1")
    cb = b.cb("c", 64, 1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.param(flags), "i1", [40], [1])
    b.push(Unit.DMA_IN, cb)
    b.wait(Unit.SIMD, cb)
    with b.location("kernels.py:40:4"):
        b.simd_assert(cb.front(), 40, "x must be non-negative")
    b.pop(Unit.SIMD, cb)
    data = b.build()
    ok = np.ones(40, np.uint8)
    Simulator().run(data, [ok])
    bad = ok.copy()
    bad[17] = 0
    error = run_expecting("assert", data, [bad])
    assert "x must be non-negative" in str(error) and "element 17" in str(error)
    assert error.location == "kernels.py:40:4"

    scalar = ProgramBuilder("scalar_assert")
    scalar.assert_(scalar.icmp("slt", scalar.program_id(0), 2), "pid < 2")
    run_expecting("assert", scalar.build(), [], (3,))


def test_corrupt_programs_are_rejected() -> None:
    good = copy_program(64)
    body = good[28:]
    for data in (good[:10], good[:-1], b"XXXXPROG" + good[8:], seal(b"{]" + body[2:])):
        run_expecting("invalid_program", data, [])
    # Bodies changed at random but sealed with their digest, as a faulty
    # writer would: the parser refuses them or they run, never crash.
    rng = np.random.default_rng(7)
    for _ in range(300):
        corrupt = bytearray(body)
        for position in rng.integers(0, len(body), 3):
            corrupt[position] = int(rng.integers(0, 256))
        try:
            Simulator().run(seal(bytes(corrupt)), [np.zeros(64, np.float32)] * 2 + [64])
        except SimulationError:
            pass


@pytest.mark.parametrize(("where", "message"), [
    (lambda body: body["code"][-1], "cb.pop has unknown field 'bogus'"),
    (lambda body: next(i for i in body["code"] if i["op"] == "dma.load"),
     "dma.load has unknown field 'bogus'"),
    (lambda body: next(i for i in body["code"] if i["op"] == "dma.load")["dst"],
     "dma.load.dst has unknown field 'bogus'"),
    (lambda body: body["cbs"][0], "circular buffer 't' has unknown field 'bogus'"),
    (lambda body: body["params"][0], "parameter 'src' has unknown field 'bogus'"),
    (lambda body: body, "the program has unknown field 'bogus'"),
])
def test_fields_the_format_does_not_have_are_rejected(where: Any, message: str) -> None:
    # A writer that misspells a field, or writes one the simulator does not
    # read, is told so instead of having the field ignored.
    body = decode(copy_program(64))
    where(body)["bogus"] = 1
    error = run_expecting("invalid_program", encode(body), [])
    assert message in str(error)


def test_an_unknown_program_order_is_rejected() -> None:
    body = decode(copy_program(64))
    body["program_order"] = "zigzag"
    error = run_expecting("invalid_program", encode(body), [])
    assert "unknown program_order 'zigzag'" in str(error)


def test_invalid_launch() -> None:
    run_expecting("invalid_launch", copy_program(64), [np.zeros(4, np.float32)])
    with pytest.raises(SimulationError):
        Simulator().run(copy_program(64), [np.zeros(64)[::2], np.zeros(64), 64])
