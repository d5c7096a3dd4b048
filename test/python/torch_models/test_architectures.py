"""A handful of the real architectures (architectures.py: `transformers` models
built from small configurations) through `mtia_compiler.torch.compile`, in
inference and in a training step, on CPU tensors and on the `mtia` device:
the same numbers as eager PyTorch on the CPU, every operator instance and
every FLOP on the MTIA (the report's coverage figures), and attention and
convolutions among the kernels that take the simulated time."""

from __future__ import annotations

import pytest
import torch

import mtia_compiler.torch

from .architectures import ARCHITECTURE_ZOO

#: (model, device, the kernel class that must take simulated time).
CASES = [
    ("llama", "cpu", "attention"),
    ("bert_training", "cpu", "attention"),
    ("whisper", "cpu", "convolution"),
    ("resnet_training", "cpu", "convolution"),
    ("vit_training", "mtia", "attention"),
    ("mobilenet_v2", "mtia", "convolution"),
    ("t5", "mtia", "GEMM"),
    ("mixtral_training", "cpu", "GEMM"),
    ("qwen2_moe", "mtia", "GEMM"),
]


@pytest.fixture(autouse=True)
def fresh_dynamo() -> None:
    torch._dynamo.reset()


@pytest.mark.parametrize(("name", "device", "kernel_class"), CASES,
                         ids=[f"{name}-{device}" for name, device, _ in CASES])
def test_architecture_runs_on_mtia_and_matches_eager(name: str, device: str,
                                                     kernel_class: str) -> None:
    model = ARCHITECTURE_ZOO[name]
    eager_model, eager_inputs = model.make(1, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    mtia_model, mtia_inputs = model.make(1, device)
    compiled = mtia_compiler.torch.compile(mtia_model)
    got = model.step(compiled, mtia_model, mtia_inputs)

    assert len(got) == len(expected)
    for actual, wanted in zip(got, expected, strict=True):
        torch.testing.assert_close(actual.cpu(), wanted, rtol=model.rtol, atol=model.atol)
    report = compiled.report()
    assert report.coverage.fallback == 0, report.fallbacks
    assert report.host_ops == () and report.host_operation_counts == {}
    assert report.operators and report.operator_share == 1.0, report.host_operators
    assert report.flops > 0 and report.flop_share == 1.0
    assert report.time_shares()[kernel_class] > 0.05, report.time_shares()


@pytest.mark.parametrize("name", ["resnet", "bert"])
def test_freezing_folds_the_work_on_constants(name: str) -> None:
    """Batch norm's scale from its running statistics (ResNet) and the
    position embeddings of constant positions (BERT) are computed from
    parameters alone on every call; with Inductor's freezing they are folded
    once, at compilation, and the numbers stay eager's."""
    model = ARCHITECTURE_ZOO[name]
    eager_model, eager_inputs = model.make(1, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    constants = []
    for freezing in (False, True):
        torch._dynamo.reset()
        mtia_model, mtia_inputs = model.make(1, "cpu")
        compiled = mtia_compiler.torch.compile(mtia_model, options={"freezing": freezing})
        got = model.step(compiled, mtia_model, mtia_inputs)
        for actual, wanted in zip(got, expected, strict=True):
            torch.testing.assert_close(actual, wanted, rtol=model.rtol, atol=model.atol)
        constants.append(compiled.report().constant_operators)
    assert constants[0] > 0 and constants[1] == 0


@pytest.mark.parametrize("name", ["llama", "resnet_training"])
def test_dynamic_shapes_keep_attention_and_convolutions_on_mtia(name: str) -> None:
    """One compilation with symbolic shapes runs two batch sizes: the
    runtime's attention and convolution operators take symbolic shapes in the
    graph and choose their tiles from each call's."""
    model = ARCHITECTURE_ZOO[name]
    mtia_model, _ = model.make(1, "cpu")
    compiled = mtia_compiler.torch.compile(mtia_model, dynamic=True)
    for scale in (1, 2):
        eager_model, eager_inputs = model.make(scale, "cpu")
        expected = model.step(eager_model, eager_model, eager_inputs)
        _, inputs = model.make(scale, "cpu")
        got = model.step(compiled, mtia_model, inputs)
        for actual, wanted in zip(got, expected, strict=True):
            torch.testing.assert_close(actual, wanted, rtol=model.rtol, atol=model.atol)
        report = compiled.report()
        assert report.host_ops == () and report.operator_share == 1.0, report.host_operators
