"""Simulated efficiency against the modelled chip's roofline.

    python benchmarks/roofline.py [--target mtia-2i]

Compiles Triton kernels from the corpus (TTIR from Triton 3.9) at larger
sizes, simulates them and compares the simulated cycles with the roofline of
the target: the DRAM traffic the kernel cannot avoid at the chip's DRAM
bandwidth, or for the matmul the larger of that and its multiply-adds at the
DPE peak of all PEs. Prints, last, one line per kernel:
`<kernel>: <percent>% of roofline`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import numpy as np

import mtia_compiler
from mtia_compiler.sim import load_target

CORPUS = Path(__file__).resolve().parents[1] / "test" / "corpus" / "cases"


@dataclass
class Measurement:
    kernel: str
    cycles: int
    roofline_cycles: float
    detail: str

    @property
    def efficiency(self) -> float:
        return self.roofline_cycles / self.cycles


def compile_case(case: str, replace: Callable[[str], str] = lambda text: text) -> Any:
    text = (CORPUS / case / "kernel.noloc.ttir").read_text()
    return mtia_compiler.compile(replace(text))


def vector_add(target: dict[str, Any]) -> Measurement:
    n = 1 << 22
    rng = np.random.default_rng(0)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.empty_like(x)
    kernel = compile_case("01_vector_add")
    result = kernel.run(x, y, out, n, grid=n // 1024)
    assert np.allclose(out, x + y)
    traffic = 3 * 4 * n
    return Measurement("vector_add", result.cycles, traffic / target["dram_bytes_per_cycle"],
                       f"{n} f32, {traffic} bytes")


def softmax(target: dict[str, Any]) -> Measurement:
    rows, cols = 4096, 1024
    x = np.random.default_rng(1).standard_normal((rows, cols), dtype=np.float32)
    out = np.empty_like(x)
    kernel = compile_case("02_fused_softmax")
    result = kernel.run(out, x, cols, cols, rows, cols, grid=64)
    expected = np.exp(x - x.max(axis=1, keepdims=True))
    assert np.allclose(out, expected / expected.sum(axis=1, keepdims=True), atol=1e-6)
    traffic = 2 * 4 * rows * cols
    return Measurement("softmax", result.cycles, traffic / target["dram_bytes_per_cycle"],
                       f"{rows}x{cols} f32, {traffic} bytes")


def layernorm(target: dict[str, Any]) -> Measurement:
    rows, cols = 1024, 1024
    rng = np.random.default_rng(2)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    w, b = rng.random(cols, dtype=np.float32), rng.random(cols, dtype=np.float32)
    y = np.empty_like(x)
    mean, rstd = np.empty(rows, np.float32), np.empty(rows, np.float32)
    kernel = compile_case("04_layernorm_fwd")
    result = kernel.run(x, y, w, b, mean, rstd, cols, cols, 1e-5, grid=rows)
    normalized = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
    assert np.allclose(y, normalized * w + b, atol=1e-4)
    traffic = 2 * 4 * rows * cols
    return Measurement("layernorm", result.cycles, traffic / target["dram_bytes_per_cycle"],
                       f"{rows}x{cols} f32, {traffic} bytes")


def matmul(target: dict[str, Any]) -> Measurement:
    size = 1024
    rng = np.random.default_rng(3)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    a_bits = (a.view(np.uint32) >> 16).astype(np.uint16)
    b_bits = (b.view(np.uint32) >> 16).astype(np.uint16)
    c = np.empty((size, size), np.uint16)
    # The corpus' f16 tensor-descriptor matmul, on bf16 data.
    kernel = compile_case("07b_desc_host_matmul", lambda text: text.replace("f16", "bf16"))
    shape = (size, size, size, 1)
    result = kernel.run(a_bits, *shape, b_bits, *shape, c, *shape, size,
                        grid=(size // 64, size // 64))
    as_float = (c.astype(np.uint32) << 16).view(np.float32)
    a_bf16 = (a_bits.astype(np.uint32) << 16).view(np.float32)
    b_bf16 = (b_bits.astype(np.uint32) << 16).view(np.float32)
    assert np.allclose(as_float, a_bf16 @ b_bf16, rtol=2e-2, atol=1e-1)
    macs = size ** 3
    compute = macs / (target["dpe_macs_per_cycle_per_pe"]["bf16"] * target["num_pes"])
    memory = 3 * 2 * size * size / target["dram_bytes_per_cycle"]
    return Measurement("matmul_bf16_1024", result.cycles, max(compute, memory),
                       f"{size}^3 bf16, DPE bound {compute:.0f}, DRAM bound {memory:.0f} cycles")


@click.command()
@click.option("--target", default="mtia-2i", show_default=True)
def main(target: str) -> None:
    description = load_target(target).to_dict()
    measurements = [run(description) for run in (vector_add, softmax, layernorm, matmul)]
    for m in measurements:
        click.echo(f"{m.kernel}: {m.cycles} cycles, roofline {m.roofline_cycles:.0f} cycles "
                   f"({m.detail})")
    for m in measurements:
        click.echo(f"{m.kernel}: {100 * m.efficiency:.1f}% of roofline")


if __name__ == "__main__":
    main()
