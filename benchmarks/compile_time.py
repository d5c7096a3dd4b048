"""Compile time of every corpus kernel, side by side with Triton's own
TTIR -> LLVM IR stages where `triton` is installed.

    python benchmarks/compile_time.py [--repeat N]

Prints one line per kernel and, last,
`compile_time: median <ms> ms, median ratio vs triton <r>` (the ratio is
`n/a` without Triton). Kernels mtia_compiler cannot compile yet are timed up
to the located error they raise and marked as such.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import click

import mtia_compiler

CORPUS = Path(__file__).resolve().parents[1] / "test" / "corpus" / "cases"


def best_of(repeat: int, compile_once: Callable[[Path], object], path: Path) -> float:
    """The fastest of `repeat` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        compile_once(path)
        times.append((time.perf_counter() - start) * 1e3)
    return min(times)


def mtia_compile(path: Path) -> bool:
    """Compiles one kernel; returns whether it compiled."""
    try:
        mtia_compiler.compile(path)
    except mtia_compiler.CompilationError:
        return False
    return True


def triton_compiler() -> Callable[[Path], None] | None:
    """Triton's TTIR -> TTGIR -> LLVM IR stages for CUDA sm_90, if Triton is
    installed (it needs no GPU for these stages)."""
    try:
        import triton
        from triton.backends.compiler import GPUTarget
    except ImportError:
        return None
    target = GPUTarget("cuda", 90, 32)

    def compile_ttir(path: Path) -> None:
        triton.compile(str(path), target=target)

    return compile_ttir


@click.command()
@click.option("--repeat", default=3, show_default=True, help="Runs per kernel (best is kept).")
def main(repeat: int) -> None:
    triton = triton_compiler()
    ours: list[float] = []
    ratios: list[float] = []
    for case in sorted(CORPUS.iterdir()):
        path = case / "kernel.ttir"
        compiled = mtia_compile(path)
        milliseconds = best_of(repeat, mtia_compile, path)
        ours.append(milliseconds)
        line = f"{case.name}: {milliseconds:.1f} ms" + ("" if compiled else " (located error)")
        if triton is not None:
            reference = best_of(repeat, triton, path)
            ratios.append(milliseconds / reference)
            line += f", triton {reference:.1f} ms, ratio {ratios[-1]:.2f}"
        click.echo(line)
    ratio = f"{statistics.median(ratios):.2f}" if ratios else "n/a (triton not installed)"
    click.echo(f"compile_time: median {statistics.median(ours):.1f} ms, "
               f"median ratio vs triton {ratio}")


if __name__ == "__main__":
    main()
