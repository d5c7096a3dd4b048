"""A zoo of small PyTorch models for `mtia_compiler.torch.compile`, shared by
the tests (test_zoo.py) and the benchmark (benchmarks/models.py).

Each `ZooModel` builds its module or function and inputs from a fixed seed
and runs one step of it, compiled or eager: `step` returns the tensors to
compare (outputs, and for training steps the gradients or the updated
parameters), and `rtol`/`atol` say how close the compiled ones must be
(`torch.testing.assert_close`'s tolerances). The shapes are small: every
Inductor compile and every simulated launch costs seconds on a CPU.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn


class MLP(nn.Module):
    """Two linear layers with a GELU between them."""

    def __init__(self, width: int = 64, hidden: int = 128) -> None:
        super().__init__()
        self.up = nn.Linear(width, hidden)
        self.down = nn.Linear(hidden, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.gelu(self.up(x)))


class GPT2Block(nn.Module):
    """A GPT-2 transformer block: pre-LayerNorm causal self-attention (matmuls
    and a softmax) and a GELU MLP, each with a residual connection."""

    def __init__(self, width: int = 64, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = MLP(width, 4 * width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, width = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(width, dim=-1)
        q, k, v = (t.view(batch, seq, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        causal = torch.ones(seq, seq, dtype=torch.bool, device=x.device).triu(1)
        attention = scores.masked_fill(causal, float("-inf")).softmax(-1) @ v
        x = x + self.proj(attention.transpose(1, 2).reshape(batch, seq, width))
        return x + self.mlp(self.ln2(x))


class RMSNorm(nn.Module):
    def __init__(self, width: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of the (..., seq, head_dim) tensor `x`."""
    first, second = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-second, first), dim=-1) * sin


class LlamaBlock(nn.Module):
    """A Llama-style block: RMSNorm, attention with rotary embeddings (SDPA),
    RMSNorm and a SwiGLU MLP, with residual connections."""

    def __init__(self, width: int = 64, heads: int = 4, hidden: int = 128) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = RMSNorm(width)
        self.qkv = nn.Linear(width, 3 * width, bias=False)
        self.out = nn.Linear(width, width, bias=False)
        self.norm2 = RMSNorm(width)
        self.gate = nn.Linear(width, hidden, bias=False)
        self.up = nn.Linear(width, hidden, bias=False)
        self.down = nn.Linear(hidden, width, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, width = x.shape
        head_dim = width // self.heads
        q, k, v = self.qkv(self.norm1(x)).split(width, dim=-1)
        q, k, v = (t.view(batch, seq, self.heads, head_dim).transpose(1, 2) for t in (q, k, v))
        steps = torch.arange(0, head_dim, 2, device=x.device).float()
        frequencies = 1.0 / 10000 ** (steps / head_dim)
        angles = torch.outer(torch.arange(seq, device=x.device).float(), frequencies)
        cos, sin = (torch.cat((f, f), dim=-1) for f in (angles.cos(), angles.sin()))
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        attention = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(attention.transpose(1, 2).reshape(batch, seq, width))
        h = self.norm2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class DLRM(nn.Module):
    """A DLRM-style recommender: sum-pooled embedding bags of the sparse
    features, a bottom MLP of the dense ones, the pairwise dot products of
    all feature vectors, and a top MLP to a click probability."""

    def __init__(self, tables: int = 3, rows: int = 100, width: int = 16, dense: int = 13) -> None:
        super().__init__()
        self.embeddings = nn.ModuleList(nn.EmbeddingBag(rows, width, mode="sum")
                                        for _ in range(tables))
        self.bottom = nn.Sequential(nn.Linear(dense, 32), nn.ReLU(), nn.Linear(32, width),
                                    nn.ReLU())
        features = tables + 1
        pairs = features * (features - 1) // 2
        self.top = nn.Sequential(nn.Linear(width + pairs, 32), nn.ReLU(), nn.Linear(32, 1))
        # The pairs (i, j) of feature vectors with i > j.
        self.pairs: torch.Tensor
        self.register_buffer("pairs", torch.tril_indices(features, features, offset=-1))

    def forward(self, dense: torch.Tensor, indices: torch.Tensor,
                offsets: torch.Tensor) -> torch.Tensor:
        bottom = self.bottom(dense)
        pooled = [bag(indices[i], offsets[i]) for i, bag in enumerate(self.embeddings)]
        features = torch.stack([bottom, *pooled], dim=1)
        dots = torch.bmm(features, features.transpose(1, 2))
        interactions = dots[:, self.pairs[0], self.pairs[1]]
        return torch.sigmoid(self.top(torch.cat([bottom, interactions], dim=1)))


class CNNHead(nn.Module):
    """A small CNN classifier head: a convolution, batch norm (eval), ReLU,
    max pooling, a second convolution, global average pooling and a linear
    classifier."""

    def __init__(self, channels: int = 8, classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, 2 * channels, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(2 * channels)
        self.fc = nn.Linear(2 * channels, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.hardswish(self.bn2(self.conv2(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


#: What a zoo model's step gets: the callable to run (the model, or its
#: compiled version), the model itself and the inputs; it returns the tensors
#: to compare.
Step = Callable[[Callable[..., Any], Any, tuple[Any, ...]], list[torch.Tensor]]


@dataclass
class ZooModel:
    """A model of the zoo: `make(scale, device)` builds the model (a module
    or function) and its inputs from a fixed seed, with `scale` times the
    batch of the tests, on `device` ("cpu" or "mtia"); `step(call, model,
    inputs)` runs one step with `call` standing for the model and returns the
    tensors to compare."""

    name: str
    make: Callable[[int, str], tuple[Any, tuple[Any, ...]]]
    step: Step
    rtol: float = 1e-4
    atol: float = 1e-5


def _inference(call: Callable[..., Any], model: Any, inputs: tuple[Any, ...]
               ) -> list[torch.Tensor]:
    with torch.no_grad():
        return [call(*inputs)]


def _training(call: Callable[..., Any], model: Any, inputs: tuple[Any, ...]
              ) -> list[torch.Tensor]:
    """A training step of the module `model`: the forward through `call`, a
    loss, the backward (outside `call`); the loss and the gradients of the
    input and of the parameters."""
    x = inputs[0].detach().clone().requires_grad_(True)
    loss = call(x).square().mean()
    loss.backward()
    assert x.grad is not None
    return [loss.detach(), x.grad, *(p.grad for p in model.parameters() if p.grad is not None)]


def _outputs(call: Callable[..., Any], model: Any, inputs: tuple[Any, ...]
             ) -> list[torch.Tensor]:
    return list(call(*inputs))


def _seeded(seed: int) -> torch.Generator:
    torch.manual_seed(seed)
    return torch.Generator().manual_seed(seed)


#: What a model's `make` returns: the model (a module or function) and its inputs.
Made = tuple[Callable[..., Any], tuple[Any, ...]]


def _on(device: str, model: Any, inputs: tuple[Any, ...]) -> Made:
    """The model (a module, or a function as it is) and its tensor inputs,
    made on the host from a seed, moved to `device`."""
    if isinstance(model, nn.Module):
        model = model.to(device)
    return model, tuple(value.to(device) if isinstance(value, torch.Tensor) else value
                        for value in inputs)


def mlp_gelu(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(1)
    return _on(device, MLP().eval(), (torch.randn(32 * scale, 64, generator=generator),))


def gpt2_block(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(2)
    return _on(device, GPT2Block().eval(),
               (torch.randn(2 * scale, 16, 64, generator=generator),))


def llama_block(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(3)
    return _on(device, LlamaBlock().eval(),
               (torch.randn(2 * scale, 16, 64, generator=generator),))


def dlrm(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(4)
    batch, tables, per_bag = 8 * scale, 3, 4
    dense = torch.randn(batch, 13, generator=generator)
    indices = torch.randint(0, 100, (tables, batch * per_bag), generator=generator)
    offsets = torch.arange(0, batch * per_bag, per_bag).repeat(tables, 1)
    return _on(device, DLRM(tables).eval(), (dense, indices, offsets))


def cnn_head(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(5)
    model = CNNHead().eval()
    with torch.no_grad():
        for bn in (model.bn1, model.bn2):
            assert bn.running_mean is not None and bn.running_var is not None
            bn.running_mean.uniform_(-0.5, 0.5, generator=generator)
            bn.running_var.uniform_(0.5, 1.5, generator=generator)
    return _on(device, model, (torch.randn(2 * scale, 3, 16, 16, generator=generator),))


def cross_entropy(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(6)
    logits = torch.randn(32 * scale, 100, generator=generator)
    target = torch.randint(0, 100, (32 * scale,), generator=generator)

    def loss_and_gradient(logits: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, ...]:
        logits = logits.detach().requires_grad_(True)
        loss = F.cross_entropy(logits, target)
        loss.backward()
        assert logits.grad is not None
        return loss.detach(), logits.grad

    return _on(device, loss_and_gradient, (logits, target))


def adamw_step(scale: int = 1, device: str = "cpu") -> Made:
    """One AdamW step of an MLP's parameters whose gradients are set; the
    compiled function is the step itself. `scale` widens the MLP."""
    generator = _seeded(7)
    model = MLP(32 * scale, 64 * scale)
    for parameter in model.parameters():
        parameter.grad = torch.randn(parameter.shape, generator=generator)
    # Moving the module moves its parameters and their gradients in place,
    # so the optimizer made next steps them where they are.
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)

    def step() -> list[torch.Tensor]:
        optimizer.step()
        return [p.detach().clone() for p in model.parameters()]

    return step, ()


def mlp_training(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(8)
    return _on(device, MLP(), (torch.randn(32 * scale, 64, generator=generator),))


def gpt2_training(scale: int = 1, device: str = "cpu") -> Made:
    generator = _seeded(9)
    return _on(device, GPT2Block(), (torch.randn(2 * scale, 16, 64, generator=generator),))


ZOO: dict[str, ZooModel] = {model.name: model for model in (
    ZooModel("mlp_gelu", mlp_gelu, _inference),
    ZooModel("gpt2_block", gpt2_block, _inference),
    ZooModel("llama_block", llama_block, _inference),
    ZooModel("dlrm", dlrm, _inference),
    ZooModel("cnn_head", cnn_head, _inference),
    ZooModel("cross_entropy", cross_entropy, _outputs),
    ZooModel("adamw_step", adamw_step, _outputs),
    ZooModel("mlp_training", mlp_training, _training),
    ZooModel("gpt2_training", gpt2_training, _training),
)}
