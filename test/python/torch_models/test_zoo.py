"""Every model of the zoo (zoo.py) through `mtia_compiler.torch.compile`:
the same numbers as eager PyTorch within the model's tolerances, every
kernel on MTIA, and a report that accounts for every launch."""

from __future__ import annotations

import pytest
import torch

import mtia_compiler.torch

from .zoo import ZOO, ZooModel


@pytest.mark.parametrize("model", ZOO.values(), ids=list(ZOO))
def test_zoo_model_matches_eager_on_mtia(model: ZooModel) -> None:
    eager_model, eager_inputs = model.make(1, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    mtia_model, mtia_inputs = model.make(1, "cpu")
    compiled = mtia_compiler.torch.compile(mtia_model, target="mtia-2i")
    got = model.step(compiled, mtia_model, mtia_inputs)

    assert len(got) == len(expected)
    for actual, wanted in zip(got, expected, strict=True):
        torch.testing.assert_close(actual, wanted, rtol=model.rtol, atol=model.atol)
    report = compiled.report()
    coverage = report.coverage
    assert coverage.generated > 0
    assert coverage.fallback == 0, report.fallbacks
    assert coverage.on_mtia == coverage.generated
    assert all(kernel.on_mtia and kernel.cycles > 0 for kernel in report.kernels)
    # No kernel beats its roofline (the bound is what the kernel must move).
    assert all(0 < (kernel.roofline_fraction or 0) <= 1 for kernel in report.kernels)
    assert report.total_cycles == sum(kernel.cycles for kernel in report.kernels)
    # Convolutions run as the device runtime's operators: Inductor leaves
    # nothing of the zoo to the host.
    assert report.host_ops == ()
    if model.name.endswith("training") or model.name == "cross_entropy":
        assert {kernel.graph for kernel in report.kernels} == {"forward", "backward"}

