"""Compile time of every corpus kernel, side by side with Triton's own
TTIR -> LLVM IR stages where `triton` is installed (`pip install
triton==3.9.0`; set TRITON_DEFAULT_FP_FUSION=1 to silence its warning).

    python benchmarks/compile_time.py [--repeat N] [--scaling]

Prints one line per kernel and, last,
`compile_time: median <ms> ms, median ratio vs triton <r>` (the ratio is
`n/a` without Triton). Kernels mtia_compiler cannot compile yet are timed up
to the located error they raise and marked as such.

With `--scaling`, it times generated kernels instead, whose loop body is a
chain of 200 to 3200 elementwise operations, one line per length, and
prints last `scaling: <us> us per operation from <n> to <m> operations,
<r>x the rate of the shorter half` (a compile time linear in the size of
the TTIR keeps that factor near 1).
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
#: The lengths of the generated chains of `--scaling`.
CHAIN_LENGTHS = (200, 400, 800, 1600, 3200)
#: The elementwise operations the chains cycle through, on the previous
#: value and either the loaded block or a constant.
CHAIN_OPS = ("arith.mulf {}, %k", "arith.addf {}, %v0", "arith.maximumf {}, %v0",
             "arith.subf {}, %k")


def best_of(repeat: int, compile_once: Callable[[Any], object], path: Path | str) -> float:
    """The fastest of `repeat` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        compile_once(path)
        times.append((time.perf_counter() - start) * 1e3)
    return min(times)


def chain_ttir(length: int, block: int = 1024) -> str:
    """TTIR of a kernel whose loop loads a block of f32, applies a chain of
    `length` elementwise operations to it and stores the result."""
    tile = f"tensor<{block}xf32>"
    pointers = f"tensor<{block}x!tt.ptr<f32>>"
    offsets = f"tensor<{block}xi32>"
    lines = [
        "module {",
        "  tt.func public @chain(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {",
        "    %c0 = arith.constant 0 : i32",
        f"    %step = arith.constant {block} : i32",
        f"    %k = arith.constant dense<1.500000e+00> : {tile}",
        f"    %range = tt.make_range {{end = {block} : i32, start = 0 : i32}} : {offsets}",
        f"    %xs = tt.splat %x : !tt.ptr<f32> -> {pointers}",
        f"    %ys = tt.splat %y : !tt.ptr<f32> -> {pointers}",
        "    scf.for %i = %c0 to %n step %step : i32 {",
        f"      %start = tt.splat %i : i32 -> {offsets}",
        f"      %offsets = arith.addi %start, %range : {offsets}",
        f"      %in = tt.addptr %xs, %offsets : {pointers}, {offsets}",
        f"      %v0 = tt.load %in : {pointers}",
    ]
    for index in range(1, length + 1):
        operation = CHAIN_OPS[index % len(CHAIN_OPS)].format(f"%v{index - 1}")
        lines.append(f"      %v{index} = {operation} : {tile}")
    lines += [
        f"      %out = tt.addptr %ys, %offsets : {pointers}, {offsets}",
        f"      tt.store %out, %v{length} : {pointers}",
        "    }",
        "    tt.return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def time_scaling(repeat: int) -> None:
    """Times the generated chains (see the module docstring)."""
    times: list[float] = []
    for length in CHAIN_LENGTHS:
        text = chain_ttir(length)
        mtia_compiler.compile(text)
        times.append(best_of(repeat, mtia_compiler.compile, text))
        click.echo(f"chain of {length}: {times[-1]:.1f} ms, "
                   f"{times[-1] * 1e3 / length:.1f} us per operation")
    # The rate of the added operations, which a fixed cost does not skew.
    half = len(CHAIN_LENGTHS) // 2
    def rate(first: int, last: int) -> float:
        return (times[last] - times[first]) * 1e3 / (CHAIN_LENGTHS[last] - CHAIN_LENGTHS[first])
    lower, upper = rate(0, half), rate(half, len(CHAIN_LENGTHS) - 1)
    click.echo(f"scaling: {upper:.1f} us per operation from {CHAIN_LENGTHS[half]} to "
               f"{CHAIN_LENGTHS[-1]} operations, {upper / lower:.2f}x the rate of the "
               "shorter half")


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
@click.option("--scaling", is_flag=True,
              help="Time generated kernels of growing size instead of the corpus.")
def main(repeat: int, scaling: bool) -> None:
    if scaling:
        time_scaling(repeat)
        return
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
