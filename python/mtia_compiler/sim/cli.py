"""``mtia-sim``: run a program file on the simulator.

    mtia-sim kernel.mtia --inputs case.npz --scalar n=1000 --grid 4 1 1 \\
        --out result.npz --trace trace.json

Pointer parameters take arrays by parameter name from ``--inputs`` (.npz) or
``--buffer NAME=FILE.npy``; scalar parameters take ``--scalar NAME=VALUE`` or a
0-d array of that name in the .npz. All buffers are written to ``--out`` after
the launch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import numpy as np

from . import SimulationError, Simulator, parse_program


def _split(item: str, option: str) -> tuple[str, str]:
    name, sep, value = item.partition("=")
    if not sep or not name:
        raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint=option)
    return name, value


def _scalar(text: str) -> int | float:
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


@click.command()
@click.argument("program", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--inputs", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help=".npz with one array (or 0-d scalar) per parameter name.")
@click.option("--buffer", "buffers", multiple=True, metavar="NAME=FILE.npy",
              help="A pointer parameter's initial contents.")
@click.option("--scalar", "scalars", multiple=True, metavar="NAME=VALUE",
              help="A scalar parameter (int, or float if it has a point/exponent).")
@click.option("--grid", nargs=3, type=int, default=(1, 1, 1), show_default=True,
              help="Triton grid (gx gy gz).")
@click.option("--target", default="mtia-2i", show_default=True,
              help="Target name or path to a target JSON file.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every buffer after the launch to this .npz.")
@click.option("--trace", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a Chrome trace-event JSON (open in Perfetto).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def main(program: Path, inputs: Path | None, buffers: tuple[str, ...],
         scalars: tuple[str, ...], grid: tuple[int, int, int], target: str,
         out: Path | None, trace: Path | None, as_json: bool) -> None:
    """Run PROGRAM (a program file written by mtia_compiler.program)."""
    data = program.read_bytes()
    try:
        simulator = Simulator(target)
        parsed = parse_program(data)
    except (SimulationError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    values: dict[str, Any] = {}
    try:
        if inputs is not None:
            with np.load(inputs) as archive:
                for key in archive.files:
                    values[key] = archive[key]
        for item in buffers:
            name, path = _split(item, "--buffer")
            values[name] = np.load(path)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"cannot read an input: {error}") from None
    for item in scalars:
        name, text = _split(item, "--scalar")
        values[name] = _scalar(text)
    args: list[Any] = []
    for name, kind in zip(parsed.param_names, parsed.param_kinds, strict=True):
        if name not in values:
            raise click.ClickException(f"no value for parameter '{name}' ({kind})")
        value = values[name]
        if kind == "ptr":
            value = np.ascontiguousarray(value).copy()
        elif isinstance(value, np.ndarray):
            value = value.item()
        args.append(value)
    try:
        result = simulator.run(data, args, grid, trace=trace is not None)
    except SimulationError as error:
        click.echo(f"mtia-sim: {error.kind}: {error}", err=True)
        sys.exit(1)
    sys.stdout.write(result.output)
    if out is not None:
        np.savez(out, **{name: arg for name, arg, kind in
                         zip(parsed.param_names, args, parsed.param_kinds, strict=True)
                         if kind == "ptr"})
    if trace is not None and result.trace is not None:
        trace.write_text(result.trace)
    stats = {"cycles": result.cycles, "seconds": result.seconds, "units": result.units,
             "bytes": result.bytes, "cache": result.cache}
    if as_json:
        click.echo(json.dumps(stats, indent=1))
        return
    click.echo(f"cycles: {result.cycles} ({result.seconds * 1e6:.2f} us)")
    for unit, unit_stats in result.units.items():
        click.echo(f"  {unit:8s} busy {unit_stats['busy_cycles']:>12d} cycles, "
                   f"{unit_stats['instructions']} instructions")
    click.echo("bytes: " + ", ".join(f"{k} {v}" for k, v in result.bytes.items()))
    click.echo("cache: " + ", ".join(f"{k} {v}" for k, v in result.cache.items()))


if __name__ == "__main__":
    main()
