"""The device runtime's routing operators (`routing.py`: histogram, grouped
matmul and its weight gradient) on their own, on CPU tensors (their kernels
run on the simulator), against PyTorch's histogram and a loop of matmuls in
fp64: counts exactly, products within f32 rounding."""

from __future__ import annotations

import pytest
import torch

import mtia.host_runtime.torch_mtia.routing  # noqa: F401 (registers the operators)
from mtia_compiler.backend import launches

operators = torch.ops.mtia_compiler


@pytest.mark.parametrize(("values", "bins", "low", "high"), [
    (torch.randint(0, 4, (64,), generator=torch.Generator().manual_seed(0),
                   dtype=torch.int32), 4, 0, 3),
    (torch.randint(-3, 9, (3000,), generator=torch.Generator().manual_seed(1)), 4, 0, 3),
    (torch.randn(5000, generator=torch.Generator().manual_seed(2)), 10, -1.0, 1.5),
    (torch.randn(100, generator=torch.Generator().manual_seed(3)), 7, 0, 0),
    (torch.randn(3000, generator=torch.Generator().manual_seed(4)).half(), 5, 0, 0),
    (torch.full((10,), 2.0), 3, 0, 0),
    (torch.tensor([2**40, 2**40 + 3, 2**40 + 1]), 4, 0, 0),
    (torch.zeros(0), 4, 0, 1),
], ids=["int32", "int64_outside", "f32", "f32_data_range", "f16_data_range", "one_value",
        "large_integers", "empty"])
def test_histogram_counts_as_pytorch(values: torch.Tensor, bins: int, low: float,
                                     high: float) -> None:
    with launches() as records:
        got = operators.histc(values, bins, low, high)
    assert [record.kernel for record in records] == ["_histogram_kernel"]
    assert got.dtype == values.dtype
    expected = torch.histc(values.double(), bins, low, high)
    assert torch.equal(got.double(), expected)


def _groups(offsets: list[int]) -> list[tuple[int, int]]:
    return list(zip([0, *offsets[:-1]], offsets, strict=True))


def test_grouped_matmul_and_its_gradients_match_a_loop_of_matmuls() -> None:
    generator = torch.Generator().manual_seed(5)
    rows, inputs, outputs = 70, 48, 40
    a = torch.randn(rows, inputs, generator=generator)
    weights = torch.randn(4, inputs, outputs, generator=generator)
    grad = torch.randn(rows, outputs, generator=generator)
    # An empty group, and 7 rows past the last one (which the product leaves 0).
    offsets = [20, 20, 53, 63]
    offs = torch.tensor(offsets, dtype=torch.int32)
    product = operators.grouped_mm(a, weights, offs)
    weight_grad = operators.grouped_mm_weight_grad(a, grad, offs)
    input_grad = operators.grouped_mm(grad, weights.transpose(1, 2), offs)

    expected_product = torch.zeros(rows, outputs, dtype=torch.float64)
    expected_weight_grad = torch.zeros(4, inputs, outputs, dtype=torch.float64)
    expected_input_grad = torch.zeros(rows, inputs, dtype=torch.float64)
    for expert, (start, end) in enumerate(_groups(offsets)):
        expected_product[start:end] = a[start:end].double() @ weights[expert].double()
        expected_weight_grad[expert] = a[start:end].double().T @ grad[start:end].double()
        expected_input_grad[start:end] = grad[start:end].double() @ weights[expert].double().T
    for got, expected in ((product, expected_product), (weight_grad, expected_weight_grad),
                          (input_grad, expected_input_grad)):
        torch.testing.assert_close(got.double(), expected, rtol=1e-5, atol=1e-5)
