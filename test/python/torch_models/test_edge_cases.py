"""Models at the edges of what the torch route compiles give eager PyTorch's
numbers or a named host path, never a silent wrong number: attention and
reductions over one element."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

import mtia_compiler.torch

#: float32 throughout: the simulated products and sums differ from the
#: host's in their order of summation only.
RTOL, ATOL = 1e-4, 1e-4


class Attention(nn.Module):
    """timm's `Attention` (a fused QKV projection, heads, softmax(q k^T *
    scale) v, an output projection), by matmuls or by SDPA."""

    def __init__(self, dim: int, heads: int, sdpa: bool) -> None:
        super().__init__()
        self.heads, self.sdpa = heads, sdpa
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, dim = x.shape
        qkv = self.qkv(x).reshape(batch, length, 3, self.heads, dim // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        if self.sdpa:
            out = F.scaled_dot_product_attention(q, k, v)
        else:
            out = ((q * self.scale) @ k.transpose(-2, -1)).softmax(-1) @ v
        return self.proj(out.transpose(1, 2).reshape(batch, length, dim))


@pytest.mark.parametrize("length", [1, 2])
@pytest.mark.parametrize("sdpa", [False, True], ids=["matmuls", "sdpa"])
def test_attention_over_one_token(sdpa: bool, length: int) -> None:
    # Over one token the softmax is 1, and Inductor fuses it, times v, into
    # the output projection's matmul as a prologue: where the template masks
    # K off, that prologue computes (0 / 0) * 0, which must not reach the
    # product (a MobileViT gave NaN everywhere).
    torch.manual_seed(0)
    model = Attention(80, 2, sdpa).eval()
    x = torch.randn(8, length, 80)
    compiled = mtia_compiler.torch.compile(model)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)
    assert compiled.report().coverage.fallback == 0


REDUCTIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "sum": lambda x: x.sum(1),
    "amax": lambda x: x.amax(1),
    "max": lambda x: x.max(1).values,
    "softmax": lambda x: x.softmax(1),
    "log_softmax": lambda x: x.log_softmax(1),
    "logsumexp": lambda x: x.logsumexp(1),
}


@pytest.mark.parametrize("reduction", REDUCTIONS.values(), ids=list(REDUCTIONS))
def test_reductions_over_one_element(reduction: Callable[[torch.Tensor], torch.Tensor]) -> None:
    # A reduced dimension of size 1 of a matmul's product, with a matmul after
    # it (which the reduction may fuse into as a prologue), forward and
    # backward.
    torch.manual_seed(0)
    x, u, w = (torch.randn(*shape, requires_grad=True) for shape in [(8, 1, 40), (40, 80),
                                                                       (80, 24)])

    def model(x: torch.Tensor, u: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        h = x @ u
        return (reduction(h).reshape(8, 80) * h.reshape(8, 80)) @ w

    expected = model(x, u, w)
    expected.sum().backward()
    wanted = [expected, x.grad, u.grad, w.grad]
    x.grad = u.grad = w.grad = None
    compiled = mtia_compiler.torch.compile(model)
    got = compiled(x, u, w)
    got.sum().backward()
    for actual, reference in zip([got, x.grad, u.grad, w.grad], wanted, strict=True):
        torch.testing.assert_close(actual, reference, rtol=RTOL, atol=ATOL)
    assert compiled.report().coverage.fallback == 0


def test_batched_matmul_after_a_recompile_to_dynamic_shapes() -> None:
    # The second shape makes Dynamo recompile with dynamic sizes: the
    # batched matmul template then takes its sizes as arguments, and must
    # still run on MTIA (it once fell back and failed in the interpreter:
    # "mask has unsupported dtype").
    def attention_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        return (q @ k.transpose(-2, -1)).softmax(-1) @ k

    compiled = mtia_compiler.torch.compile(attention_scores)
    torch.manual_seed(0)
    for batch, length in [(2, 16), (3, 24), (4, 20)]:
        q, k = torch.randn(batch, length, 32), torch.randn(batch, length, 32)
        torch.testing.assert_close(compiled(q, k), attention_scores(q, k), rtol=RTOL, atol=ATOL)
        coverage = compiled.report().coverage
        assert coverage.fallback == 0 and coverage.on_mtia == coverage.generated > 0


COMPLEX: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "add": lambda z: z + z,
    "mul_abs": lambda z: (z * (1 + 2j)).abs() + 1,
    "real_imag": lambda z: z.imag.abs() + z.real,
    "rotary": lambda z: torch.view_as_real(
        z * torch.polar(torch.ones(16), torch.arange(16.0))).flatten(-2),
}


@pytest.mark.parametrize("function", COMPLEX.values(), ids=list(COMPLEX))
def test_complex64_runs(function: Callable[[torch.Tensor], torch.Tensor]) -> None:
    # Inductor leaves arithmetic on complex64 to ATen (on the host) and
    # generates kernels for its real views; either way the numbers are eager's.
    z = torch.randn(8, 16, dtype=torch.complex64)
    compiled = mtia_compiler.torch.compile(function)
    torch.testing.assert_close(compiled(z), function(z), rtol=RTOL, atol=ATOL)
    assert compiled.report().coverage.fallback == 0
