"""The numeric kernels of the DPE and of the SIMD engine's element-wise
operations, and the copies of contiguous DMA stores, run on a second host
thread while the machine steps on (`kernel_thread`, the default): every
reader of a page or host buffer they write, and every writer of one they
read, sees the same bytes as without the thread. A missed wait shows as
wrong numbers here: many programs, each with several kernels in flight,
whose pages the SIMD engine, the DMA queues and the control core read, whose
operand pages the DMA queue loads again while the kernels that read them are
still queued, and whose host bytes the control core and the DMA queues read
and write while the kernels that read or write them in place are queued."""

from __future__ import annotations

import numpy as np
import pytest

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Result, Simulator

M, N, K, STEPS = 32, 64, 32, 4
PROGRAMS = 256
LEAD = 128


def hazard_program() -> bytes:
    """Program i computes C_i = A_i @ B over STEPS chunks of K with double-
    buffered operands and the accumulator in a DPE-held page; the SIMD
    engine doubles C_i into a page the DMA stores (`doubled`). Each step's
    product alone also goes, through the DMA, to `last` (the last step's
    survives), and the control core reads its first element into `probe`."""
    b = ProgramBuilder("kernel_thread_hazards")
    pa, pb = b.param_ptr("a", "f32"), b.param_ptr("b", "f32")
    p_doubled, p_last = b.param_ptr("doubled", "f32"), b.param_ptr("last", "f32")
    p_probe = b.param_ptr("probe", "f32")
    ca, cb_ = b.cb("a", M * K * 4, 2), b.cb("b", K * N * 4, 2)
    acc, doubled = b.cb("acc", M * N * 4, 1), b.cb("doubled", M * N * 4, 1)
    single, probe = b.cb("single", M * N * 4, 2), b.cb("probe", M * N * 4, 2)
    lead = b.cb("lead", LEAD * LEAD * 4, 1)
    pid = b.program_id(0)
    # A long product on a zeroed page first puts the worker far behind the
    # stepping, so that the hazards below happen while the products they
    # race with are still queued.
    b.reserve(Unit.DPE, lead)
    b.mma(lead.back(), lead.back(), lead.back(), LEAD, LEAD, LEAD, "f32")
    b.push(Unit.DPE, lead)
    b.wait(Unit.SIMD, lead)
    b.pop(Unit.SIMD, lead)
    a_rows = b.add(b.param(pa), b.mul(pid, M * K * STEPS * 4))
    out_tile = b.mul(pid, M * N * 4)
    b.reserve(Unit.DPE, acc)
    for step in range(STEPS):
        b.reserve(Unit.DMA_IN, ca)
        b.dma_load(ca.back(), b.add(a_rows, step * K * 4), "f32", [M, K], [K * STEPS, 1])
        b.push(Unit.DMA_IN, ca)
        b.reserve(Unit.DMA_IN, cb_)
        b.dma_load(cb_.back(), b.add(b.param(pb), step * K * N * 4), "f32", [K, N], [N, 1])
        b.push(Unit.DMA_IN, cb_)
        b.wait(Unit.DPE, ca)
        b.wait(Unit.DPE, cb_)
        b.mma(ca.front(), cb_.front(), acc.back(), M, N, K, "f32",
              acc=acc.back() if step else None)
        # The control core waits for what it reads, so it reads only the
        # last step's product: earlier reads would let the worker catch up.
        last_step = step == STEPS - 1
        for cb in (single, probe) if last_step else (single,):
            b.reserve(Unit.DPE, cb)
            b.mma(ca.front(), cb_.front(), cb.back(), M, N, K, "f32")
            b.push(Unit.DPE, cb)
        b.pop(Unit.DPE, ca)
        b.pop(Unit.DPE, cb_)
        b.wait(Unit.DMA_OUT, single)
        b.dma_store(single.front(), b.add(b.param(p_last), out_tile), "f32", [M, N], [N, 1])
        b.pop(Unit.DMA_OUT, single)
    b.wait(Unit.CTL, probe)
    value = b.load_local(probe.front(), "f32")
    b.store_scalar(b.add(b.param(p_probe), b.mul(pid, 4)), value, "f32")
    b.pop(Unit.CTL, probe)
    b.push(Unit.DPE, acc)
    b.wait(Unit.SIMD, acc)
    b.reserve(Unit.SIMD, doubled)
    b.simd_binary("add", "f32", doubled.back(), acc.front(), acc.front(), M * N)
    b.push(Unit.SIMD, doubled)
    b.pop(Unit.SIMD, acc)
    b.wait(Unit.DMA_OUT, doubled)
    b.dma_store(doubled.front(), b.add(b.param(p_doubled), out_tile), "f32", [M, N], [N, 1])
    b.pop(Unit.DMA_OUT, doubled)
    return b.build()


@pytest.mark.parametrize("kernel_thread", [True, False])
def test_every_reader_and_writer_of_dpe_pages_waits(kernel_thread: bool) -> None:
    rng = np.random.default_rng(5)
    # Small integers keep every sum exact, whatever the order.
    a = rng.integers(-8, 9, (PROGRAMS * M, K * STEPS)).astype(np.float32)
    b = rng.integers(-8, 9, (K * STEPS, N)).astype(np.float32)
    doubled = np.zeros((PROGRAMS * M, N), np.float32)
    last = np.zeros((PROGRAMS * M, N), np.float32)
    probe = np.zeros(PROGRAMS, np.float32)
    Simulator().run(hazard_program(), [a, b, doubled, last, probe], (PROGRAMS,),
                    kernel_thread=kernel_thread)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_array_equal(doubled, 2 * expected)
    last_step = a[:, -K:].astype(np.float64) @ b[-K:, :].astype(np.float64)
    np.testing.assert_array_equal(last, last_step)
    np.testing.assert_array_equal(probe, last_step[::M, 0])


def test_results_and_timing_do_not_depend_on_the_kernel_thread() -> None:
    """The same outputs, cycles, unit statistics and bytes with and without
    the thread: which instructions wait for a kernel depends on the
    stepping alone."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal((PROGRAMS * M, K * STEPS)).astype(np.float32)
    b = rng.standard_normal((K * STEPS, N)).astype(np.float32)
    runs = []
    for kernel_thread in (True, False):
        outputs = [np.zeros((PROGRAMS * M, N), np.float32) for _ in range(2)]
        probe = np.zeros(PROGRAMS, np.float32)
        result = Simulator().run(hazard_program(), [a, b, *outputs, probe], (PROGRAMS,),
                                 kernel_thread=kernel_thread)
        runs.append((result, [*outputs, probe]))
    (threaded, threaded_out), (inline, inline_out) = runs
    assert threaded == inline
    for x, y in zip(threaded_out, inline_out, strict=True):
        np.testing.assert_array_equal(x.view(np.uint32), y.view(np.uint32))


VECTOR = 4096


def host_hazard_program() -> bytes:
    """Program i doubles its row x_i, which the SIMD engine reads in place in
    the host buffer, into `doubled` through a store the worker copies; the
    control core then overwrites x_i[0] with -1 (after the SIMD engine has
    read x_i, before its kernel may have run) and, after a fence, reads
    doubled_i[0] into `probe` (before the store's copy may have run); the DMA
    queue loads doubled_i again, and the SIMD engine doubles it into
    `quadrupled`."""
    b = ProgramBuilder("kernel_thread_host_hazards")
    px, p_doubled = b.param_ptr("x", "f32"), b.param_ptr("doubled", "f32")
    p_quadrupled, p_probe = b.param_ptr("quadrupled", "f32"), b.param_ptr("probe", "f32")
    lead = b.cb("lead", LEAD * LEAD * 4, 1)
    loaded, twice = b.cb("loaded", VECTOR * 4, 2), b.cb("twice", VECTOR * 4, 2)
    # The SIMD engine pushes a page of `added` after each add, for the
    # control core to wait for.
    added = b.cb("added", 64, 2)
    pid = b.program_id(0)
    row = b.mul(pid, VECTOR * 4)
    b.reserve(Unit.DPE, lead)
    b.mma(lead.back(), lead.back(), lead.back(), LEAD, LEAD, LEAD, "f32")
    b.push(Unit.DPE, lead)
    b.wait(Unit.SIMD, lead)
    b.pop(Unit.SIMD, lead)
    for source, target in ((px, p_doubled), (p_doubled, p_quadrupled)):
        b.reserve(Unit.DMA_IN, loaded)
        b.dma_load(loaded.back(), b.add(b.param(source), row), "f32", [VECTOR], [1])
        b.push(Unit.DMA_IN, loaded)
        b.wait(Unit.SIMD, loaded)
        b.reserve(Unit.SIMD, twice)
        b.simd_binary("add", "f32", twice.back(), loaded.front(), loaded.front(), VECTOR)
        b.push(Unit.SIMD, twice)
        b.pop(Unit.SIMD, loaded)
        b.reserve(Unit.SIMD, added)
        b.simd_fill("f32", added.back(), 1, 0.0)
        b.push(Unit.SIMD, added)
        b.wait(Unit.DMA_OUT, twice)
        b.dma_store(twice.front(), b.add(b.param(target), row), "f32", [VECTOR], [1])
        b.pop(Unit.DMA_OUT, twice)
        b.wait(Unit.CTL, added)
        if source == px:
            b.store_scalar(b.add(b.param(px), row), b.fconst(-1.0), "f32")
            b.fence()
            first = b.load_scalar(b.add(b.param(p_doubled), row), "f32")
            b.store_scalar(b.add(b.param(p_probe), b.mul(pid, 4)), first, "f32")
            b.fence()
        b.pop(Unit.CTL, added)
    return b.build()


def run_host_hazards(kernel_thread: bool) -> tuple[Result, list[np.ndarray]]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((PROGRAMS, VECTOR)).astype(np.float32)
    outputs = [x, np.zeros_like(x), np.zeros_like(x), np.zeros(PROGRAMS, np.float32)]
    result = Simulator().run(host_hazard_program(), outputs, (PROGRAMS,),
                             kernel_thread=kernel_thread)
    return result, outputs


@pytest.mark.parametrize("kernel_thread", [True, False])
def test_host_buffers_read_and_written_by_kernels_are_waited_for(kernel_thread: bool) -> None:
    original = np.random.default_rng(7).standard_normal((PROGRAMS, VECTOR)).astype(np.float32)
    _, (x, doubled, quadrupled, probe) = run_host_hazards(kernel_thread)
    np.testing.assert_array_equal(doubled, 2 * original)
    np.testing.assert_array_equal(quadrupled, 4 * original)
    np.testing.assert_array_equal(probe, 2 * original[:, 0])
    np.testing.assert_array_equal(x[:, 0], -1)
    np.testing.assert_array_equal(x[:, 1:], original[:, 1:])


def test_host_hazards_give_the_same_results_and_timing_with_and_without_the_thread() -> None:
    (threaded, threaded_out), (inline, inline_out) = (run_host_hazards(True),
                                                      run_host_hazards(False))
    assert threaded == inline
    for x, y in zip(threaded_out, inline_out, strict=True):
        np.testing.assert_array_equal(x.view(np.uint32), y.view(np.uint32))
