"""A launch stops at its budget of control steps, simulated cycles and host
time, and on Ctrl-C within a second, naming the instruction and source line
its control code is at; faults the simulator used to get wrong (address
arithmetic that overflows, writes into read-only buffers, deadlocks without
their source line) are reported."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import SimulationError, Simulator


def endless_loop() -> bytes:
    """A control loop that never exits, at `spin.py:3:5`."""
    b = ProgramBuilder("spin")
    counter = b.const(0)
    top = b.label()
    b.bind(top)
    with b.location("spin.py:3:5"):
        b.add(counter, 1, dst=counter)
        b.jump(top)
    return b.build()


def run_expecting(kind: str, data: bytes, args: list, grid: tuple = (1,),
                  **budget: float) -> SimulationError:
    with pytest.raises(SimulationError) as info:
        Simulator().run(data, args, grid, **budget)  # type: ignore[arg-type]
    assert info.value.kind == kind, str(info.value)
    return info.value


def test_step_budget_names_the_loop() -> None:
    error = run_expecting("timeout", endless_loop(), [], (4,), max_steps=100_000)
    assert "more than 100000 steps" in str(error)
    assert error.location == "spin.py:3:5"
    assert "spin.py:3:5" in str(error)


def test_cycle_budget() -> None:
    error = run_expecting("timeout", endless_loop(), [], max_cycles=50_000)
    assert "more than 50000 simulated cycles" in str(error)
    assert error.location == "spin.py:3:5"


def test_host_time_budget() -> None:
    start = time.monotonic()
    error = run_expecting("timeout", endless_loop(), [], max_seconds=0.3)
    assert time.monotonic() - start < 5
    assert "s of host time" in str(error) and error.location == "spin.py:3:5"


def test_a_budget_that_suffices_changes_nothing() -> None:
    b = ProgramBuilder("count")
    out = b.param_ptr("out", "i32")
    total = b.const(0)
    with b.for_range(0, 1000) as i:
        b.add(total, i, dst=total)
    b.store_scalar(b.param(out), total, "i32")
    host = np.zeros(1, np.int32)
    Simulator().run(b.build(), [host], max_steps=1_000_000, max_cycles=10**9, max_seconds=60)
    assert host[0] == sum(range(1000))


@pytest.mark.parametrize("budget", [{"max_steps": -1}, {"max_cycles": 1.5},
                                    {"max_seconds": -2.0}, {"max_steps": 1 << 64}])
def test_invalid_budgets_are_refused(budget: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(budget))):
        Simulator().run(endless_loop(), [], **budget)  # type: ignore[arg-type]


def test_ctrl_c_interrupts_within_a_second() -> None:
    """SIGINT during an endless launch raises KeyboardInterrupt in the
    launching process promptly (the simulator runs without the GIL)."""
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_budget import endless_loop
        from mtia_compiler.sim import Simulator
        data = endless_loop()
        print("ready", flush=True)
        try:
            Simulator().run(data, [], (8,))
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        output, _ = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, output
    word, when = output.split()
    assert word == "interrupted"
    assert float(when) - sent < 1.0


def test_stride_overflow_is_an_error_not_a_wrap() -> None:
    b = ProgramBuilder("huge_stride")
    src = b.param_ptr("src", "f32")
    cb = b.cb("t", 64, 1)
    b.reserve(Unit.DMA_IN, cb)
    with b.location("strides.py:9:1"):
        b.dma_load(cb.back(), b.param(src), "f32", [4, 4], [1 << 62, 1])
    b.push(Unit.DMA_IN, cb)
    error = run_expecting("out_of_bounds", b.build(), [np.zeros(64, np.float32)])
    assert "overflows 64 bits" in str(error)
    assert error.location == "strides.py:9:1"


def test_inner_stride_overflow_is_an_error() -> None:
    b = ProgramBuilder("huge_inner_stride")
    src = b.param_ptr("src", "f32")
    cb = b.cb("t", 64, 1)
    b.reserve(Unit.DMA_IN, cb)
    b.dma_load(cb.back(), b.param(src), "f32", [8], [1 << 62])
    b.push(Unit.DMA_IN, cb)
    error = run_expecting("out_of_bounds", b.build(), [np.zeros(64, np.float32)])
    assert "overflows 64 bits" in str(error)


def test_program_without_circular_buffers() -> None:
    b = ProgramBuilder("no_cbs")
    out = b.param_ptr("out", "i32")
    b.store_scalar(b.param(out), b.const(7), "i32")
    host = np.zeros(1, np.int32)
    Simulator().run(b.build(), [host])
    assert host[0] == 7


def test_read_only_buffers() -> None:
    b = ProgramBuilder("copy")
    src = b.param_ptr("src", "i32")
    dst = b.param_ptr("dst", "i32")
    value = b.load_scalar(b.param(src), "i32")
    with b.location("copy.py:4:2"):
        b.store_scalar(b.param(dst), value, "i32")
    data = b.build()
    source = np.array([5], np.int32)
    source.flags.writeable = False
    target = np.zeros(1, np.int32)
    Simulator().run(data, [source, target])
    assert target[0] == 5
    target[0] = 0
    target.flags.writeable = False
    error = run_expecting("read_only", data, [source, target])
    assert "scalar store" in str(error) and "'dst'" in str(error)
    assert error.location == "copy.py:4:2"
    assert target[0] == 0


def test_deadlock_names_the_source_line() -> None:
    b = ProgramBuilder("stuck")
    cb = b.cb("c", 64, 2)
    with b.location("stuck.py:7:3"):
        b.wait(Unit.SIMD, cb)
    error = run_expecting("deadlock", b.build(), [], (2,))
    assert error.location == "stuck.py:7:3"
    assert error.instruction >= 0
    assert str(error).count("at stuck.py:7:3") == 2
