"""PyTorch models on the simulated MTIA: the zoo of the tests
(`test/python/torch_models/zoo.py`), or with `--architectures` the real
architectures of `transformers` built from small configurations
(`architectures.py` there, inference and a training step each), at a larger
batch, through `mtia_compiler.torch.compile`.

    python benchmarks/models.py [--scale 8] [--baseline] [--target mtia-2i] [--device cpu|mtia]
                                [--architectures] [MODEL ...]

Each model runs one step, is checked against eager PyTorch, and prints its
total simulated time; what ran on MTIA (kernels, operator instances, FLOPs);
the share of the time spent in kernels below 50% of their roofline (the
larger of their compulsory DRAM traffic at the DRAM bandwidth and their MACs
at the DPE rate) and in each class of kernels; the operator instances that
compute from parameters alone (work Inductor's freezing folds); and each
operator left on the host, with why. With `--baseline` it is also compiled
with Inductor's own block sizes and matmul configs (`heuristics=False`,
autotuned in simulated time where Inductor autotunes) and the cycles the MTIA
heuristics save are printed.
With `--device mtia` the models' tensors live on PyTorch's `mtia` device
(docs/device.md) and each line also counts the ATen operations the device
runtime ran on the host. The last line is the total over the models.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click
import torch

import mtia_compiler.torch

#: The zoos are the tests' (`test/python/torch_models`), imported as the
#: tests import them.
TESTS_PATH = Path(__file__).resolve().parents[1] / "test" / "python"

#: The roofline share below which a kernel's time counts as poorly used.
LOW_ROOFLINE = 0.5


def load_zoos() -> tuple[dict[str, Any], dict[str, Any]]:
    """The hand-written zoo's models and the real architectures', by name."""
    sys.path.insert(0, str(TESTS_PATH))
    from torch_models.architectures import ARCHITECTURE_ZOO
    from torch_models.zoo import ZOO

    return ZOO, ARCHITECTURE_ZOO


def run(model: Any, scale: int, target: str, heuristics: bool,
        device: str) -> mtia_compiler.torch.Report:
    """One step of `model` on `device` compiled for `target`, checked against
    eager on the CPU."""
    eager_model, eager_inputs = model.make(scale, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    mtia_model, mtia_inputs = model.make(scale, device)
    compiled = mtia_compiler.torch.compile(mtia_model, target=target, heuristics=heuristics)
    got = model.step(compiled, mtia_model, mtia_inputs)
    for actual, wanted in zip(got, expected, strict=True):
        torch.testing.assert_close(actual.cpu(), wanted, rtol=model.rtol, atol=model.atol)
    return compiled.report()


@click.command()
@click.argument("models", nargs=-1)
@click.option("--scale", default=8, show_default=True, help="times the tests' batch")
@click.option("--baseline/--no-baseline", default=False, show_default=True,
              help="also compile with Inductor's own heuristics and print the cycles saved")
@click.option("--target", default="mtia-2i", show_default=True)
@click.option("--device", type=click.Choice(["cpu", "mtia"]), default="cpu", show_default=True,
              help="where the models' tensors live (mtia: PyTorch's mtia device, docs/device.md)")
@click.option("--architectures/--no-architectures", default=False, show_default=True,
              help="run the real architectures (transformers, from configurations) "
                   "instead of the hand-written zoo")
def main(models: tuple[str, ...], scale: int, baseline: bool, target: str, device: str,
         architectures: bool) -> None:
    hand_written, real = load_zoos()
    zoo = {**hand_written, **real}
    names = list(models) or list(real if architectures else hand_written)
    total_cycles = total_baseline = total_low = 0
    generated = on_mtia = 0
    for name in names:
        torch._dynamo.reset()
        start = time.perf_counter()
        report = run(zoo[name], scale, target, heuristics=True, device=device)
        seconds = time.perf_counter() - start
        coverage = report.coverage
        low = report.cycles_below(LOW_ROOFLINE)
        total_cycles += report.total_cycles
        total_low += low
        generated += coverage.generated
        on_mtia += coverage.on_mtia
        classes = ", ".join(f"{kind} {share:.0%}"
                            for kind, share in report.time_shares().items() if share >= 0.005)
        line = (f"{name}: {report.total_cycles} cycles "
                f"({report.total_seconds * 1e6:.1f} us simulated); on MTIA: "
                f"{coverage.on_mtia}/{coverage.generated} kernels, "
                f"{report.operator_share:.1%} of {len(report.operators)} operator instances, "
                f"{report.flop_share:.1%} of {report.flops / 1e6:.1f} MFLOP; "
                f"{low / max(report.total_cycles, 1):.0%} of the time in kernels below "
                f"{LOW_ROOFLINE:.0%} of roofline; time by kernel class: {classes}; "
                f"{report.constant_operators} operator instances on constants alone")
        if report.host_operators:
            line += "; operators on the host: " + ", ".join(
                f"{op} ({reason})" for op, reason in report.host_operators.items())
        if report.host_operation_counts:
            line += "; on the host: " + ", ".join(
                f"{op} x{count}" for op, count in sorted(report.host_operation_counts.items()))
        if baseline:
            torch._dynamo.reset()
            reference = run(zoo[name], scale, target, heuristics=False, device=device)
            total_baseline += reference.total_cycles
            saved = reference.total_cycles - report.total_cycles
            line += (f"; Inductor's heuristics: {reference.total_cycles} cycles, "
                     f"saved {saved} ({saved / max(reference.total_cycles, 1):.1%})")
        click.echo(f"{line} [compiled and run in {seconds:.0f} s]")
    summary = (f"total: {on_mtia}/{generated} kernels on MTIA; {total_cycles} cycles; "
               f"{total_low / max(total_cycles, 1):.0%} in kernels below "
               f"{LOW_ROOFLINE:.0%} of roofline")
    if baseline:
        saved = total_baseline - total_cycles
        summary += (f"; Inductor's heuristics: {total_baseline} cycles, saved {saved} "
                    f"({saved / max(total_baseline, 1):.1%})")
    click.echo(summary)


if __name__ == "__main__":
    main()
