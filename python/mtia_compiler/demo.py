"""The main job: compile a bundled Triton kernel, run it on the simulated
chip, check it against numpy and report the simulated time.

    python -m mtia_compiler.demo [--kernel PATH] [--rows N] [--cols N]

The bundled kernel is Triton's fused softmax (tutorial 02) as TTIR from
Triton 3.9: one program per row, rows spread over the PE grid.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import click
import numpy as np

import mtia_compiler

SOFTMAX = "fused_softmax.ttir"


def softmax_reference(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=1, keepdims=True)
    exponentials = np.exp(shifted)
    return exponentials / exponentials.sum(axis=1, keepdims=True)


@click.command()
@click.option("--kernel", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="A fused-softmax TTIR file (default: the bundled one).")
@click.option("--rows", default=37, show_default=True, help="Rows of the input.")
@click.option("--cols", default=781, show_default=True,
              help="Columns of the input (at most the kernel's block size, 1024).")
@click.option("--target", default="mtia-2i", show_default=True)
def main(kernel: Path | None, rows: int, cols: int, target: str) -> None:
    """Compile and simulate fused softmax, and compare it with numpy."""
    source = kernel or resources.files("mtia_compiler") / "kernels" / SOFTMAX
    compiled = mtia_compiler.compile(str(source), target=target)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    out = np.zeros_like(x)
    grid = min(rows, 64)
    result = compiled.run(out, x, cols, cols, rows, cols, grid=grid)
    expected = softmax_reference(x)
    error = float(np.max(np.abs(out - expected)))
    click.echo(f"kernel: {compiled.name} on {target}, {rows}x{cols} f32, grid {grid}")
    click.echo("stages: " + ", ".join(compiled.asm))
    click.echo(f"max |mtia - numpy| = {error:.3e}")
    click.echo(f"simulated: {result.cycles} cycles ({result.seconds * 1e6:.2f} us), "
               f"{result.bytes['dram_read'] + result.bytes['dram_write']} DRAM bytes")
    if not np.allclose(out, expected, rtol=1e-4, atol=1e-6):
        raise click.ClickException("the simulated result does not match numpy")
    click.echo("PASS")


if __name__ == "__main__":
    main()
