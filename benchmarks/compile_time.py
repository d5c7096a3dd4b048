"""Compile time of every corpus kernel, side by side with Triton's own
TTIR -> LLVM IR stages where `triton` is installed (`pip install
triton==3.9.0`; set TRITON_DEFAULT_FP_FUSION=1 to silence its warning).

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
from typing import Any

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
    """Triton's own TTIR -> TTGIR -> LLVM IR stages of the CUDA sm_90
    backend, if Triton is installed (they need no GPU). Like our pipeline,
    they start from parsing the `.ttir` file and include the TTIR passes;
    Triton's on-disk cache is not involved."""
    try:
        from triton._C.libtriton import ir
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import IRSource, make_backend
    except ImportError:
        return None
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)

    def compile_ttir(path: Path) -> None:
        context = ir.context()
        source = IRSource(str(path), context, backend)
        options = backend.parse_options(source.parse_options())
        stages: dict[str, Callable[[Any, dict[str, Any]], Any]] = {}
        backend.add_stages(stages, options, source.language)
        metadata = {"hash": path.parent.name, "target": target, **options.__dict__}
        module = source.make_ir(target, options, backend.get_codegen_implementation(options),
                                backend.get_module_map(), context)
        for stage in ("ttir", "ttgir", "llir"):
            module = stages[stage](module, metadata)

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
