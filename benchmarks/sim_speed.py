"""Simulator speed against numpy on two kernels, run through DMA, CBs and units,
each as a hand-built program and as a `@triton.jit` kernel this project
compiles (launched through the Triton backend, so the figure includes the
launch's binding of torch tensors).

* vector_add: 16M-element f32 ``z = x + y`` in 16384-element blocks, a grid of
  1024 programs over the 64 PEs (hand-built: CBs x, y, z of two 64 KiB pages
  fill the 384 KiB local memory).
* matmul: 512x512x512, one 64x64 output block per program, K loop of 64-wide
  steps (hand-built: bf16 -> f32 with double-buffered A/B tiles and the
  accumulator held in a DPE-reserved CB page; compiled: the tutorial's fp16
  kernel, `examples/matmul.py`, with fp32 accumulation and fp16 output).

Prints details per case, then last one line per case:
``<case>: sim <s> s, numpy <s> s, ratio <r>``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import triton

from mtia_compiler.backend import launches
from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import Result, Simulator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from matmul import matmul_kernel  # noqa: E402 (the tutorial kernels of examples/)
from vector_add import add_kernel  # noqa: E402

VECTOR_N = 16 * 1024 * 1024
VECTOR_BLOCK = 16384
MM = 512
MM_BLOCK = 64


def vector_add_program(block: int) -> bytes:
    b = ProgramBuilder("vector_add")
    x, y, z, n = (b.param_ptr("x", "f32"), b.param_ptr("y", "f32"),
                  b.param_ptr("z", "f32"), b.param_int("n"))
    cx, cy, cz = (b.cb(name, block * 4, pages=2) for name in ("x", "y", "z"))
    start = b.mul(b.program_id(0), block)
    offset = b.mul(start, 4)
    limit = b.sub(b.param(n), start)
    for cb, ptr in ((cx, x), (cy, y)):
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(ptr), offset), "f32", [block], [1],
                   lo=[0], hi=[limit])
        b.push(Unit.DMA_IN, cb)
    b.wait(Unit.SIMD, cx)
    b.wait(Unit.SIMD, cy)
    b.reserve(Unit.SIMD, cz)
    b.simd_binary("add", "f32", cz.back(), cx.front(), cy.front(), block)
    b.push(Unit.SIMD, cz)
    b.pop(Unit.SIMD, cx)
    b.pop(Unit.SIMD, cy)
    b.wait(Unit.DMA_OUT, cz)
    b.dma_store(cz.front(), b.add(b.param(z), offset), "f32", [block], [1],
                lo=[0], hi=[limit])
    b.pop(Unit.DMA_OUT, cz)
    return b.build()


def matmul_program(size: int, block: int, memory: str = "dram") -> bytes:
    """C[size, size] (f32) = A @ B (bf16), one block x block tile per program."""
    b = ProgramBuilder("matmul")
    pa, pb = b.param_ptr("a", "bf16", memory), b.param_ptr("b", "bf16", memory)
    pc = b.param_ptr("c", "f32", memory)
    ca = b.cb("a", block * block * 2, pages=2)
    cb_ = b.cb("b", block * block * 2, pages=2)
    cc = b.cb("c", block * block * 4, pages=1)
    row0 = b.mul(b.program_id(0), block)
    col0 = b.mul(b.program_id(1), block)
    a_row = b.add(b.param(pa), b.mul(row0, size * 2))
    b_col = b.add(b.param(pb), b.mul(col0, 2))
    b.reserve(Unit.DPE, cc)
    with b.for_range(0, size, block) as k0:
        b.reserve(Unit.DMA_IN, ca)
        b.dma_load(ca.back(), b.add(a_row, b.mul(k0, 2)), "bf16", [block, block], [size, 1])
        b.push(Unit.DMA_IN, ca)
        b.reserve(Unit.DMA_IN, cb_)
        b.dma_load(cb_.back(), b.add(b_col, b.mul(k0, size * 2)), "bf16",
                   [block, block], [size, 1])
        b.push(Unit.DMA_IN, cb_)
        b.wait(Unit.DPE, ca)
        b.wait(Unit.DPE, cb_)
        first = b.icmp("eq", k0, 0)
        accumulate, done = b.label(), b.label()
        b.branch_if_zero(first, accumulate)
        b.mma(ca.front(), cb_.front(), cc.back(), block, block, block, "bf16")
        b.jump(done)
        b.bind(accumulate)
        b.mma(ca.front(), cb_.front(), cc.back(), block, block, block, "bf16",
              acc=cc.back())
        b.bind(done)
        b.pop(Unit.DPE, ca)
        b.pop(Unit.DPE, cb_)
    b.push(Unit.DPE, cc)
    b.wait(Unit.DMA_OUT, cc)
    c_tile = b.add(b.param(pc), b.add(b.mul(row0, size * 4), b.mul(col0, 4)))
    b.dma_store(cc.front(), c_tile, "f32", [block, block], [size, 1])
    b.pop(Unit.DMA_OUT, cc)
    return b.build()


def compiled_vector_add(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> Result:
    """The compiled vector add on the numpy arrays (shared with torch, no
    copies); returns the launch's result."""
    tx, ty, tz = (torch.from_numpy(array) for array in (x, y, z))
    with launches() as records:
        add_kernel[(VECTOR_N // VECTOR_BLOCK,)](tx, ty, tz, VECTOR_N, BLOCK_SIZE=VECTOR_BLOCK)
    return records[0].result


def compiled_matmul(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> Result:
    """The tutorial's matmul kernel at 64x64x64 blocks; returns the launch's result."""
    grid = (triton.cdiv(MM, MM_BLOCK) ** 2,)
    with launches() as records:
        matmul_kernel.fn[grid](a, b, c, MM, MM, MM, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), c.stride(0), c.stride(1), BLOCK_M=MM_BLOCK,
                               BLOCK_N=MM_BLOCK, BLOCK_K=MM_BLOCK, GROUP_M=8, ACTIVATION="")
    return records[0].result


def best_time(fn: Callable[[], object], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def describe(case: str, result: Result, roofline_cycles: float, note: str) -> None:
    busy = ", ".join(f"{unit} {stats['busy_cycles']}" for unit, stats in result.units.items()
                     if stats["busy_cycles"])
    print(f"{case}: {result.cycles} simulated cycles ({result.seconds * 1e6:.1f} us); "
          f"roofline {roofline_cycles:.0f} cycles ({note}); "
          f"cycles / roofline {result.cycles / roofline_cycles:.2f}")
    print(f"  busy cycles summed over PEs: {busy}")
    print(f"  bytes: {result.bytes}")


def main() -> None:
    sim = Simulator("mtia-2i")
    target = sim.target.to_dict()
    rng = np.random.default_rng(0)
    lines = {}

    x = rng.random(VECTOR_N, dtype=np.float32)
    y = rng.random(VECTOR_N, dtype=np.float32)
    z = np.zeros_like(x)
    expected = np.empty_like(x)
    program = vector_add_program(VECTOR_BLOCK)
    grid = (VECTOR_N // VECTOR_BLOCK,)
    result = sim.run(program, [x, y, z, VECTOR_N], grid)
    if not np.array_equal(z, x + y):
        raise SystemExit("vector_add: simulated result differs from numpy")
    sim_s = best_time(lambda: sim.run(program, [x, y, z, VECTOR_N], grid))
    numpy_s = best_time(lambda: np.add(x, y, out=expected))
    roofline = VECTOR_N * 12 / target["dram_bytes_per_cycle"]
    describe("vector_add", result, roofline, "12 B/element at the shared DRAM bandwidth")
    lines["vector_add"] = (sim_s, numpy_s)

    z.fill(0)
    result = compiled_vector_add(x, y, z)
    if not np.array_equal(z, x + y):
        raise SystemExit("compiled vector_add: simulated result differs from numpy")
    sim_s = best_time(lambda: compiled_vector_add(x, y, z))
    describe("compiled vector_add", result, VECTOR_N * 12 / target["dram_bytes_per_cycle"],
             "12 B/element at the shared DRAM bandwidth")
    lines["compiled vector_add"] = (sim_s, numpy_s)

    # The matmuls are simulated and timed before numpy multiplies anything:
    # numpy's and torch's BLAS threads keep spinning for a few tenths of a
    # second after a product, on the core the simulator's second thread
    # (the DPE's kernels, the zeroing of local memory) would use.
    a32 = rng.standard_normal((MM, MM), dtype=np.float32)
    b32 = rng.standard_normal((MM, MM), dtype=np.float32)
    # bf16 bits by truncation; numpy then multiplies the same values in f32.
    a16 = (a32.view(np.uint32) >> 16).astype(np.uint16)
    b16 = (b32.view(np.uint32) >> 16).astype(np.uint16)
    a_exact = (a16.astype(np.uint32) << 16).view(np.float32)
    b_exact = (b16.astype(np.uint32) << 16).view(np.float32)
    macs = MM ** 3
    peak = target["dpe_macs_per_cycle_per_pe"]["bf16"] * target["num_pes"]
    min_bytes = 2 * MM * MM * 2 + MM * MM * 4
    grid_mm = (MM // MM_BLOCK, MM // MM_BLOCK)
    hand_built: dict[str, tuple[Result, np.ndarray]] = {}
    for memory in ("sram", "dram"):
        c = np.zeros((MM, MM), np.float32)
        program = matmul_program(MM, MM_BLOCK, memory)
        hand_built[memory] = (sim.run(program, [a16, b16, c], grid_mm), c)
    lines["matmul"] = (best_time(lambda: sim.run(program, [a16, b16, c], grid_mm)), 0.0)

    a_half = torch.from_numpy(a32).half()
    b_half = torch.from_numpy(b32).half()
    c_half = torch.empty((MM, MM), dtype=torch.float16)
    compiled_result = compiled_matmul(a_half, b_half, c_half)
    lines["compiled matmul"] = (best_time(lambda: compiled_matmul(a_half, b_half, c_half)),
                                0.0)

    reference = a_exact @ b_exact
    for memory, (result, c) in hand_built.items():
        if not np.allclose(c, reference, rtol=1e-4, atol=1e-3):
            raise SystemExit("matmul: simulated result differs from numpy")
        bandwidth = target[f"{memory}_bytes_per_cycle"]
        roofline = max(macs / peak, min_bytes / bandwidth)
        describe(f"matmul ({memory})", result, roofline,
                 f"max of {macs / peak:.0f} DPE cycles and {min_bytes / bandwidth:.0f} "
                 f"{memory.upper()} cycles for the compulsory 2 MiB")
    torch.testing.assert_close(c_half.float(), a_half.float() @ b_half.float(), rtol=1e-2,
                               atol=5e-2)
    describe("compiled matmul", compiled_result, max(macs / peak, 3 * 2 * MM * MM /
                                                     target["dram_bytes_per_cycle"]),
             "max of the DPE cycles and the DRAM cycles of the compulsory bytes")
    numpy_mm_s = best_time(lambda: a_exact @ b_exact)
    for case in ("matmul", "compiled matmul"):
        lines[case] = (lines[case][0], numpy_mm_s)

    for case in ("vector_add", "matmul", "compiled vector_add", "compiled matmul"):
        sim_s, numpy_s = lines[case]
        print(f"{case}: sim {sim_s:.4f} s, numpy {numpy_s:.4f} s, ratio {sim_s / numpy_s:.2f}")


if __name__ == "__main__":
    main()
