"""Every decomposition the torch route registers (`DECOMPOSITIONS`) checked in
training against eager PyTorch on the CPU: the outputs and the gradients of
every input within stated tolerances, with every kernel on MTIA and the
decomposed operations nowhere on the host. Cases run on CPU tensors or on the
`mtia` device (whose attention PyTorch sends to an operation of its own). A
registration that no case below runs in eager on its device (forward or
backward) fails `test_every_registered_decomposition_is_trained`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import torch
import torch.nn.functional as F  # noqa: N812
from torch.utils._python_dispatch import TorchDispatchMode

import mtia_compiler.torch
from mtia_compiler.torch.decompositions import DECOMPOSITIONS

#: float32 throughout: the simulated products and sums differ from the
#: host's in their order of summation only.
RTOL, ATOL = 1e-4, 1e-4


@dataclass(frozen=True)
class Case:
    """A function of tensors; `make()` gives its inputs (those that require a
    gradient are trained) from a fixed seed."""

    name: str
    function: Callable[..., torch.Tensor]
    make: Callable[[], tuple[torch.Tensor, ...]]
    device: str = "cpu"
    #: The tolerance of a case in a 16-bit type: its results are rounded
    #: to it (in eager and compiled alike, from sums in other orders).
    tolerance: float | None = None


def _randn(*shape: int, grad: bool = True) -> torch.Tensor:
    return torch.randn(*shape).requires_grad_(grad)


def _sdpa_inputs(batch: int, heads: int, kv_heads: int, length: int, source: int,
                 dim: int) -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    return (_randn(batch, heads, length, dim), _randn(batch, kv_heads, source, dim),
            _randn(batch, kv_heads, source, dim))


def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def causal_attention_with_bias(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                               bias: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=True, scale=0.3)


def attention_with_a_trained_bias(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                                  bias: torch.Tensor) -> torch.Tensor:
    # A bias per head, broadcast over the batch and the queries (as a
    # relative-position bias per key), which is trained.
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)


def padded_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    # Keys 12 and after are padding; query row 3 sees nothing at all (its
    # output is 0 in eager, and so is its gradient).
    keep = torch.arange(k.shape[2], device=k.device) < 12
    mask = keep.expand(q.shape[2], -1).clone()
    mask[3] = False
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def grouped_query_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def attention_block(x: torch.Tensor, w_qkv: torch.Tensor, w_out: torch.Tensor,
                    norm_weight: torch.Tensor) -> torch.Tensor:
    """A pre-norm causal self-attention block with 2 heads; the heads are a
    view of the projection (batch, length, heads, dim) transposed, and their
    output is viewed back, which holds only if the decomposed attention lays
    out its output as the ATen kernel does."""
    batch, length, width = x.shape
    h = F.layer_norm(x, (width,), norm_weight)
    q, k, v = (h @ w_qkv).view(batch, length, 3, 2, width // 2).unbind(2)
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                         v.transpose(1, 2), is_causal=True)
    return x + out.transpose(1, 2).view(batch, length, width) @ w_out


def _block_inputs() -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    return (_randn(2, 16, 32), (_randn(32, 96) * 0.2).detach().requires_grad_(),
            (_randn(32, 32) * 0.2).detach().requires_grad_(), _randn(32))


def embedding_bags(table: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    indices = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 0, 7])
    offsets = torch.tensor([0, 2, 2, 7])
    summed = F.embedding_bag(indices, table, offsets, mode="sum", per_sample_weights=weights)
    mean = F.embedding_bag(indices, table, torch.tensor([0, 5, 12]), mode="mean",
                           include_last_offset=True, padding_idx=1)
    return torch.cat([summed, mean])


def frozen_embedding_bag(table: torch.Tensor, projection: torch.Tensor) -> torch.Tensor:
    indices = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])
    bags = F.embedding_bag(indices, table, torch.tensor([0, 3, 3]), mode="mean")
    return bags @ projection


def _bag_inputs(frozen: bool) -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    return (_randn(10, 16, grad=not frozen), _randn(16, 8) if frozen else _randn(12))


def convolutions(x: torch.Tensor, first: torch.Tensor, bias: torch.Tensor,
                 second: torch.Tensor) -> torch.Tensor:
    hidden = F.conv2d(x, first, bias, stride=(2, 1), padding=(1, 2), dilation=(1, 2))
    return F.conv2d(torch.relu(hidden), second, groups=2).flatten(1)


def _convolution_inputs() -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    return _randn(2, 3, 9, 8), _randn(6, 3, 3, 3), _randn(6), _randn(4, 3, 2, 2)


def convolutions_1d_and_3d(x: torch.Tensor, taps: torch.Tensor, volume: torch.Tensor,
                           cube: torch.Tensor) -> torch.Tensor:
    line = F.conv1d(x, taps, stride=2, padding=1, groups=4)
    return torch.cat([line.flatten(1), F.conv3d(volume, cube, padding=1).flatten(1)], dim=1)


def _convolution_1d_3d_inputs() -> tuple[torch.Tensor, ...]:
    torch.manual_seed(0)
    return _randn(2, 4, 15), _randn(8, 1, 3), _randn(2, 2, 4, 5, 6), _randn(3, 2, 3, 3, 3)


def routed_by_histogram(x: torch.Tensor) -> torch.Tensor:
    # Each row scaled by how many of the values fall in its column's bin,
    # over an explicit range and over the data's own.
    counts = torch.histc(x.detach(), bins=x.shape[-1], min=-1.5, max=1.5)
    spread = torch.histc(x.detach().abs(), bins=x.shape[-1])
    return x.softmax(-1) * (counts + spread)


def grouped_experts(tokens: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    # Tokens sorted by expert: 5, none, 9 and 4 rows for the four experts;
    # in bf16, the one type of PyTorch's grouped matmul under torch.compile.
    offsets = torch.tensor([5, 5, 14, 18], dtype=torch.int32)
    return torch._grouped_mm(tokens.bfloat16(), weights.bfloat16(), offs=offsets).float()


CASES = [
    Case("causal_1x2x16x32", causal_attention, lambda: _sdpa_inputs(1, 2, 2, 16, 16, 32)),
    Case("causal_with_bias", causal_attention_with_bias,
         lambda: (*_sdpa_inputs(2, 2, 2, 8, 16, 16), _randn(8, 16, grad=False))),
    Case("boolean_mask_with_a_row_masked", padded_attention,
         lambda: _sdpa_inputs(1, 2, 2, 8, 16, 16)),
    Case("grouped_query", grouped_query_attention, lambda: _sdpa_inputs(1, 4, 2, 8, 8, 16)),
    Case("attention_block", attention_block, _block_inputs),
    Case("embedding_bag_sum_and_mean", embedding_bags, lambda: _bag_inputs(frozen=False)),
    Case("embedding_bag_frozen_table", frozen_embedding_bag, lambda: _bag_inputs(frozen=True)),
    Case("convolutions_strided_dilated_grouped", convolutions, _convolution_inputs),
    Case("convolutions_1d_depthwise_and_3d", convolutions_1d_and_3d, _convolution_1d_3d_inputs),
    Case("histograms", routed_by_histogram, lambda: (_randn(40, 8),)),
    Case("grouped_experts", grouped_experts, lambda: (_randn(18, 16), _randn(4, 16, 24)),
         tolerance=2e-2),
    Case("mtia_grouped_query", grouped_query_attention,
         lambda: _sdpa_inputs(2, 4, 2, 24, 40, 80), "mtia"),
    Case("mtia_causal_with_bias", causal_attention_with_bias,
         lambda: (*_sdpa_inputs(2, 2, 2, 8, 16, 16), _randn(8, 16, grad=False)), "mtia"),
    Case("mtia_trained_bias", attention_with_a_trained_bias,
         lambda: (*_sdpa_inputs(2, 2, 2, 20, 12, 16), _randn(2, 1, 12)), "mtia"),
    Case("mtia_boolean_mask_with_a_row_masked", padded_attention,
         lambda: _sdpa_inputs(1, 2, 2, 8, 16, 16), "mtia"),
]


class _Dispatched(TorchDispatchMode):
    """Records the ATen operations dispatched while it is entered."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: set[Any] = set()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        self.ops.add(func)
        return func(*args, **(kwargs or {}))


def _train(call: Callable[..., torch.Tensor], inputs: tuple[torch.Tensor, ...],
           device: str = "cpu") -> list[torch.Tensor]:
    """The output of `call` of the inputs on `device` and the gradients of a
    loss of it with respect to the inputs that require one, on the CPU."""
    leaves = [t.detach().to(device).requires_grad_(t.requires_grad) for t in inputs]
    out = call(*leaves)
    # Weighted, so that the output's gradient is not uniform.
    out.mul(torch.linspace(-1, 1, out.shape[-1], device=device)).square().sum().backward()
    return [t.cpu() for t in (out.detach(), *(t.grad for t in leaves if t.grad is not None))]


@functools.cache
def _eager_ops(case: Case) -> frozenset[Any]:
    with _Dispatched() as dispatched:
        _train(case.function, case.make(), case.device)
    return frozenset(dispatched.ops)


@pytest.mark.parametrize("op", list(DECOMPOSITIONS), ids=str)
def test_every_registered_decomposition_is_trained(op: Any) -> None:
    trained = [case.name for case in CASES if op in _eager_ops(case)]
    assert trained, f"no training case of test_decompositions.py runs {op}"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_decomposition_matches_eager_in_training(case: Case) -> None:
    inputs = case.make()
    expected = _train(case.function, inputs)
    compiled = mtia_compiler.torch.compile(case.function)
    got = _train(compiled, inputs, case.device)

    assert len(got) == len(expected) == 1 + sum(t.requires_grad for t in inputs)
    rtol, atol = (RTOL, ATOL) if case.tolerance is None else (case.tolerance, case.tolerance)
    for actual, wanted in zip(got, expected, strict=True):
        torch.testing.assert_close(actual, wanted, rtol=rtol, atol=atol)
    report = compiled.report()
    assert report.coverage.fallback == 0, report.fallbacks
    assert {kernel.graph for kernel in report.kernels} == {"forward", "backward"}
    decomposed = {f"{op.namespace}.{op._opname}" for op in DECOMPOSITIONS
                  if op in _eager_ops(case)}
    assert decomposed and not decomposed & set(report.host_ops), report.host_ops


def attention_by_matmuls(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    # Attention written out (MobileViT's), which Inductor's pattern matcher
    # turns back into the CPU's flash attention after the decompositions.
    return torch.matmul(q, k.transpose(-2, -1)).div(4.0).softmax(dim=-1).matmul(v)


def test_attention_the_pattern_matcher_rebuilds_runs_the_runtime_kernels() -> None:
    inputs = _sdpa_inputs(2, 2, 2, 24, 24, 16)
    expected = _train(attention_by_matmuls, inputs)
    compiled = mtia_compiler.torch.compile(attention_by_matmuls)
    got = _train(compiled, inputs)
    for actual, wanted in zip(got, expected, strict=True):
        torch.testing.assert_close(actual, wanted, rtol=RTOL, atol=ATOL)
    report = compiled.report()
    assert report.host_ops == () and report.operator_share == 1.0, report.host_operators
    names = {kernel.name for kernel in report.kernels}
    assert {"_attention_kernel", "_attention_query_grad_kernel"} <= names
