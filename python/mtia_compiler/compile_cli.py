"""`mtia-compile`: compile a `.ttir` file for the simulated MTIA chip.

    mtia-compile kernel.ttir -o kernel.mtia            # the program for mtia-sim
    mtia-compile kernel.ttir --dump-dir out/            # also every stage's IR
    mtia-compile kernel.ttir --target mtia-v1

Exit status: 0 on success, 1 with `file:line:col: error: ...` when the kernel
cannot be compiled.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

import mtia_compiler


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Program file to write (default: SOURCE with suffix .mtia).")
@click.option("--target", default="mtia-2i", show_default=True,
              help="Target description: a name from targets/ or a path to a JSON file.")
@click.option("--dump-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write the IR after every stage to DIR/<stage>.mlir.")
def main(source: Path, output: Path | None, target: str, dump_dir: Path | None) -> None:
    """Compile SOURCE (Triton IR) to a program for the MTIA simulator."""
    try:
        kernel = mtia_compiler.compile(source, target=target)
    except mtia_compiler.CompilationError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    destination = output or source.with_suffix(".mtia")
    destination.write_bytes(kernel.asm["bin"])
    if dump_dir is not None:
        dump_dir.mkdir(parents=True, exist_ok=True)
        for stage, text in kernel.asm.items():
            if stage != "bin":
                (dump_dir / f"{stage}.mlir").write_text(text)
    parameters = ", ".join(f"{p.name}: {p.kind}" for p in kernel.parameters)
    click.echo(f"{kernel.name}({parameters}) -> {destination} "
               f"({len(kernel.asm['bin'])} bytes, {target})")
