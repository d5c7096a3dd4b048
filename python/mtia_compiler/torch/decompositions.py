"""Decompositions that keep common operations on MTIA.

For the CPU device Inductor leaves some operations to ATen, which runs them on
the host: a compilation for MTIA decomposes them into operations Inductor
generates Triton kernels for.

* `scaled_dot_product_attention` reaches Inductor as
  `_scaled_dot_product_flash_attention_for_cpu`, which it calls on the host,
  and its gradient as `_scaled_dot_product_flash_attention_for_cpu_backward`.
  Both become the math of attention (matmuls, the masks, a softmax from the
  log-sum-exp of the scores), the backward's from the forward's output and
  log-sum-exp, as the ATen kernels compute them; with dropout (which the CPU
  route does not send to this operation) both stay on the host.
* `embedding_bag` (`_embedding_bag`, `_embedding_bag_forward_only`), an ATen
  fallback in Inductor, becomes a gather of the rows and an `index_add` of
  them into their bags (an atomic add in the kernel), for the modes sum and
  mean; `max` stays on the host.
* `convolution` and its backward (an ATen call in Inductor on every device)
  become the device runtime's implicit-GEMM operators
  (`torch.ops.mtia_compiler.convolution`, `..._input_grad`, `..._weight_grad`:
  `torch.library.triton_op`s), whose Triton kernels Inductor compiles into
  the graph; transposed convolutions and dynamic shapes stay ATen's.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch._prims_common import (
    compute_elementwise_output_logical_to_physical_perm,
    get_computation_dtype,
)

aten = torch.ops.aten

#: `embedding_bag`'s modes.
MODE_SUM, MODE_MEAN = 0, 1


def embedding_bag(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor,
                  scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False,
                  per_sample_weights: torch.Tensor | None = None,
                  include_last_offset: bool = False, padding_idx: int = -1) -> Any:
    """`aten._embedding_bag` for 1-D indices with offsets in the modes sum
    and mean: (output, offset2bag, bag_size, max_indices). The last three
    only feed `_embedding_bag`'s own backward, which a decomposed graph does
    not use (autograd differentiates the decomposition)."""
    if mode not in (MODE_SUM, MODE_MEAN) or indices.dim() != 1:
        return NotImplemented
    bags = offsets.shape[0] - (1 if include_last_offset else 0)
    positions = torch.arange(indices.shape[0], device=indices.device, dtype=offsets.dtype)
    # The bag of each index: how many of the later bags' offsets are at or
    # before its position.
    offset2bag = torch.bucketize(positions, offsets[1:bags], right=True)
    rows = weight[indices]
    counted = torch.ones_like(indices, dtype=weight.dtype)
    if padding_idx >= 0:
        counted = (indices != padding_idx).to(weight.dtype)
        rows = rows * counted.unsqueeze(1)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1).to(weight.dtype)
    output = weight.new_zeros(bags, weight.shape[1]).index_add(0, offset2bag, rows)
    bag_size = weight.new_zeros(bags).index_add(0, offset2bag, counted)
    if mode == MODE_MEAN:
        output = output / bag_size.clamp(min=1).unsqueeze(1)
    bag_size = bag_size.to(offsets.dtype)
    return output, offset2bag, bag_size, torch.zeros_like(bag_size)


def _attention_scores(query: torch.Tensor, key: torch.Tensor, is_causal: bool,
                      attn_mask: torch.Tensor | None, scale: float | None) -> torch.Tensor:
    """The scaled and masked scores of attention, q k^T * scale (+ mask), of
    the computation type (float32 for 16-bit inputs), with `key`'s heads
    repeated for the query's heads that share them (grouped-query attention)."""
    compute = get_computation_dtype(query.dtype)
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    scores = (query.to(compute) @ _query_heads(key, query).to(compute).transpose(-2, -1)) * scale
    length, source = scores.shape[-2:]
    if is_causal:
        # The CPU kernel's causal mask is aligned to the top left: row i sees
        # the columns up to i.
        rows = torch.arange(length, device=query.device).unsqueeze(-1)
        columns = torch.arange(source, device=query.device)
        scores = scores.masked_fill(columns > rows, -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), -math.inf)
        else:
            scores = scores + attn_mask.to(compute)
    return scores


def _query_heads(tensor: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
    """`tensor` (keys or values) with each head repeated for the query heads
    that share it."""
    groups = query.shape[1] // tensor.shape[1]
    return tensor if groups == 1 else tensor.repeat_interleave(groups, dim=1)


def _key_heads(grad: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """The gradient of `key` (or of the values) from the gradient of its
    repetition over the query heads (`_query_heads`): the sum over each
    group."""
    batch, heads = key.shape[:2]
    if grad.shape[1] == heads:
        return grad
    return grad.reshape(batch, heads, grad.shape[1] // heads, *grad.shape[2:]).sum(2)


def _in_layout_of(tensor: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """`tensor` laid out in memory in the order of `reference`'s dimensions."""
    order, _ = compute_elementwise_output_logical_to_physical_perm(reference)
    inverse = [order.index(dim) for dim in range(len(order))]
    return tensor.permute(order).contiguous().permute(inverse)


def flash_attention_for_cpu(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                            dropout_p: float = 0.0, is_causal: bool = False, *,
                            attn_mask: torch.Tensor | None = None,
                            scale: float | None = None) -> Any:
    """`aten._scaled_dot_product_flash_attention_for_cpu`: (output, logsumexp),
    as the ATen kernel computes them. The output has the query's type and
    memory layout (a graph may view it as the kernel lays it out); the
    log-sum-exp of each row of scores, which the backward reads, is of the
    computation type, (batch, heads, length) laid out as (batch, length,
    heads); a row whose scores are all masked has the log-sum-exp 0 and the
    output 0. Dropout is not decomposed."""
    if dropout_p != 0.0:
        return NotImplemented
    scores = _attention_scores(query, key, is_causal, attn_mask, scale)
    logsumexp = torch.logsumexp(scores, dim=-1)
    logsumexp = torch.where(logsumexp == -math.inf, 0.0, logsumexp)
    probabilities = torch.exp(scores - logsumexp.unsqueeze(-1))
    output = probabilities @ _query_heads(value, query).to(scores.dtype)
    return (_in_layout_of(output.to(query.dtype), query),
            logsumexp.transpose(1, 2).contiguous().transpose(1, 2))


def flash_attention_for_cpu_backward(grad_out: torch.Tensor, query: torch.Tensor,
                                     key: torch.Tensor, value: torch.Tensor, out: torch.Tensor,
                                     logsumexp: torch.Tensor, dropout_p: float, is_causal: bool,
                                     *, attn_mask: torch.Tensor | None = None,
                                     scale: float | None = None) -> Any:
    """`aten._scaled_dot_product_flash_attention_for_cpu_backward`: the
    gradients of the query, key and value from the output's, recomputing the
    probabilities from the forward's log-sum-exp (P = exp(S - lse)):
    dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(dO O)), dQ = dS K scale,
    dK = dS^T Q scale."""
    if dropout_p != 0.0:
        return NotImplemented
    compute = get_computation_dtype(query.dtype)
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    scores = _attention_scores(query, key, is_causal, attn_mask, scale)
    probabilities = torch.exp(scores - logsumexp.to(compute).unsqueeze(-1))
    grad_out = grad_out.to(compute)
    grad_value = probabilities.transpose(-2, -1) @ grad_out
    grad_probabilities = grad_out @ _query_heads(value, query).to(compute).transpose(-2, -1)
    delta = (grad_out * out.to(compute)).sum(-1, keepdim=True)
    grad_scores = probabilities * (grad_probabilities - delta) * scale
    grad_query = grad_scores @ _query_heads(key, query).to(compute)
    grad_key = grad_scores.transpose(-2, -1) @ query.to(compute)
    return (grad_query.to(query.dtype), _key_heads(grad_key, key).to(key.dtype),
            _key_heads(grad_value, value).to(value.dtype))


def convolution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                stride: list[int], padding: list[int], dilation: list[int], transposed: bool,
                output_padding: list[int], groups: int) -> Any:
    """`aten.convolution`, which Inductor calls on the host for the CPU
    device and as an extern kernel for devices: the device runtime's
    implicit-GEMM operator, whose Triton kernel Inductor compiles into the
    graph. Transposed convolutions stay ATen's."""
    from mtia.host_runtime.torch_mtia.kernels import convolution_runs_as_kernel

    if not convolution_runs_as_kernel(transposed, x, weight, bias):
        return NotImplemented
    return torch.ops.mtia_compiler.convolution(x, weight, bias, stride, padding, dilation,
                                               groups)


def convolution_backward(grad: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
                         bias_sizes: list[int] | None, stride: list[int], padding: list[int],
                         dilation: list[int], transposed: bool, output_padding: list[int],
                         groups: int, output_mask: list[bool]) -> Any:
    """`aten.convolution_backward`: the gradients of the input and of the
    weight as the device runtime's operators, of the bias as a sum."""
    from mtia.host_runtime.torch_mtia.kernels import convolution_runs_as_kernel

    if not convolution_runs_as_kernel(transposed, x, weight, grad):
        return NotImplemented
    operators = torch.ops.mtia_compiler
    grad_input = operators.convolution_input_grad(
        grad, weight, list(x.shape), stride, padding, dilation, groups) \
        if output_mask[0] else None
    grad_weight = operators.convolution_weight_grad(
        grad, x, list(weight.shape), stride, padding, dilation, groups) \
        if output_mask[1] else None
    grad_bias = grad.sum(dim=[0, *range(2, grad.dim())]) if output_mask[2] else None
    return grad_input, grad_weight, grad_bias


#: The operations a compilation for MTIA decomposes, beyond Inductor's own
#: table, with their decompositions.
DECOMPOSITIONS: dict[Any, Any] = {
    aten._scaled_dot_product_flash_attention_for_cpu.default: flash_attention_for_cpu,
    aten._scaled_dot_product_flash_attention_for_cpu_backward.default:
        flash_attention_for_cpu_backward,
    aten._embedding_bag.default: embedding_bag,
    aten._embedding_bag_forward_only.default: embedding_bag,
    aten.convolution.default: convolution,
    aten.convolution_backward.default: convolution_backward,
}


def decompositions() -> dict[Any, Any]:
    """Inductor's decomposition table with the decompositions above (the
    device runtime's operators are registered when its kernels are imported)."""
    from torch._inductor.decomposition import select_decomp_table

    import mtia.host_runtime.torch_mtia.kernels  # noqa: F401 (registers the operators)

    return {**select_decomp_table(), **DECOMPOSITIONS}
