"""Decompositions that keep common operations on MTIA.

For the CPU device Inductor leaves some operations to ATen, which runs them on
the host: a compilation for MTIA decomposes them into operations Inductor
generates Triton kernels for, or into the device runtime's operators
(`torch.library.triton_op`s), which the graph calls and which launch their
Triton kernels on the simulator, whatever the shapes (static or symbolic).

* `scaled_dot_product_attention` reaches Inductor as
  `_scaled_dot_product_flash_attention_for_cpu` for the CPU device and as
  `_scaled_dot_product_fused_attention_overrideable` for `mtia` (the runtime's
  choice), which Inductor calls as they are, and their gradients likewise:
  they become the device runtime's flash-attention operators
  (`torch.ops.mtia_compiler.attention`, `attention_backward`), whose Triton
  kernels run when the graph calls them; with dropout or types the kernels
  do not take they stay ATen's.
* `embedding_bag` (`_embedding_bag`, `_embedding_bag_forward_only`), an ATen
  fallback in Inductor, becomes a gather of the rows and an `index_add` of
  them into their bags (an atomic add in the kernel), for the modes sum and
  mean; `max` stays on the host.
* `histc` (a router's tokens per expert), an ATen call in Inductor, and the
  grouped matmuls of a mixture of experts (`_grouped_mm`, and the fallback
  `transformers` uses under `torch.compile`, with its backward) become the
  device runtime's routing operators (`torch.ops.mtia_compiler.histc`,
  `grouped_mm`, `grouped_mm_weight_grad`); a sort and top-k are kernels of
  Inductor's (`triton.decompose_sort_ops`).
* `convolution` and its backward (an ATen call in Inductor on every device)
  become the device runtime's implicit-GEMM operators
  (`torch.ops.mtia_compiler.convolution`, `..._input_grad`, `..._weight_grad`:
  `torch.library.triton_op`s); transposed convolutions stay ATen's.
"""

from __future__ import annotations

from typing import Any

import torch
from torch._prims_common import compute_elementwise_output_logical_to_physical_perm

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


def flash_attention_for_cpu(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                            dropout_p: float = 0.0, is_causal: bool = False, *,
                            attn_mask: torch.Tensor | None = None,
                            scale: float | None = None) -> Any:
    """`aten._scaled_dot_product_flash_attention_for_cpu`: (output,
    logsumexp) by the device runtime's flash-attention operator. The output
    has the query's memory layout (a graph may view it as the CPU kernel
    lays it out); the log-sum-exp of each row of scores, which the backward
    reads, is f32 (batch, heads, length) laid out as (batch, length, heads).
    Dropout, and what the kernels do not take, stay ATen's."""
    if not _attention_runs_as_kernel(query, key, value, attn_mask, dropout_p):
        return NotImplemented
    out, logsumexp = torch.ops.mtia_compiler.attention(query, key, value, attn_mask, is_causal,
                                                       scale)
    return (_in_layout_of(out, query), logsumexp.transpose(1, 2).contiguous().transpose(1, 2))


def flash_attention_for_cpu_backward(grad_out: torch.Tensor, query: torch.Tensor,
                                     key: torch.Tensor, value: torch.Tensor, out: torch.Tensor,
                                     logsumexp: torch.Tensor, dropout_p: float, is_causal: bool,
                                     *, attn_mask: torch.Tensor | None = None,
                                     scale: float | None = None) -> Any:
    """`aten._scaled_dot_product_flash_attention_for_cpu_backward`: the
    gradients of the query, key and value by the device runtime's
    flash-attention backward operator, from the forward's output and
    log-sum-exp (the CPU kernel gives the mask no gradient)."""
    if not _attention_runs_as_kernel(query, key, value, attn_mask, dropout_p):
        return NotImplemented
    grad_query, grad_key, grad_value, _ = torch.ops.mtia_compiler.attention_backward(
        grad_out, query, key, value, attn_mask, out, logsumexp, is_causal, scale, False)
    return grad_query, grad_key, grad_value


def fused_attention_overrideable(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                                 attn_bias: torch.Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, return_debug_mask: bool = False, *,
                                 scale: float | None = None) -> Any:
    """`aten._scaled_dot_product_fused_attention_overrideable` (the
    attention of `mtia` tensors) by the device runtime's operator, which
    the graph then calls, as the compilation's other decompositions do."""
    if dropout_p != 0.0 or return_debug_mask or query.dim() != 4:
        return NotImplemented
    out, logsumexp = torch.ops.mtia_compiler.attention(query, key, value, attn_bias, is_causal,
                                                       scale)
    unused = query.new_empty((), dtype=torch.int64)
    return (_in_layout_of(out, query), logsumexp, None, None, query.shape[2], key.shape[2],
            unused, unused, None)


def fused_attention_overrideable_backward(
        grad_out: torch.Tensor, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
        attn_bias: torch.Tensor | None, grad_input_mask: list[bool], out: torch.Tensor,
        logsumexp: torch.Tensor, cum_seq_q: torch.Tensor | None, cum_seq_k: torch.Tensor | None,
        max_q: int, max_k: int, dropout_p: float, is_causal: bool, philox_seed: torch.Tensor,
        philox_offset: torch.Tensor, *, scale: float | None = None) -> Any:
    """The backward of `fused_attention_overrideable` by the device
    runtime's operator."""
    bias_grad = attn_bias is not None and grad_input_mask[3]
    grad_query, grad_key, grad_value, grad_bias = torch.ops.mtia_compiler.attention_backward(
        grad_out, query, key, value, attn_bias, out, logsumexp, is_causal, scale, bias_grad)
    return grad_query, grad_key, grad_value, grad_bias if bias_grad else None


def _attention_runs_as_kernel(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                              mask: torch.Tensor | None, dropout_p: float) -> bool:
    from mtia.host_runtime.torch_mtia.attention import attention_runs_as_kernel

    return attention_runs_as_kernel([query.dtype, key.dtype, value.dtype],
                                    None if mask is None else mask.dtype, dropout_p)


def _in_layout_of(tensor: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """`tensor` laid out in memory in the order of `reference`'s dimensions."""
    order, _ = compute_elementwise_output_logical_to_physical_perm(reference)
    inverse = [order.index(dim) for dim in range(len(order))]
    return tensor.permute(order).contiguous().permute(inverse)


def convolution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                stride: list[int], padding: list[int], dilation: list[int], transposed: bool,
                output_padding: list[int], groups: int) -> Any:
    """`aten.convolution`, which Inductor calls on the host for the CPU
    device and as an extern kernel for devices: the device runtime's
    implicit-GEMM operator. Transposed convolutions stay ATen's."""
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


def histc(x: torch.Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Any:  # noqa: A002
    """`aten.histc` (a router's tokens per expert), an ATen call on the host
    in Inductor: the device runtime's histogram operator."""
    return torch.ops.mtia_compiler.histc(x, bins, float(min), float(max))


def grouped_mm(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor | None = None,
               bias: torch.Tensor | None = None, out_dtype: torch.dtype | None = None) -> Any:
    """`aten._grouped_mm` with offsets, in its two forms of a mixture of
    experts' matmuls: rows (S, K) by groups' weights (E, K, N), and the
    weights' gradient, (K, S) by (S, N) into (E, K, N); by the device
    runtime's grouped matmul operators."""
    if offs is None or bias is not None or out_dtype not in (None, a.dtype) \
            or b.dtype != a.dtype or a.dim() != 2:
        return NotImplemented
    operators = torch.ops.mtia_compiler
    if b.dim() == 3:
        return operators.grouped_mm(a, b, offs)
    if b.dim() == 2:
        return operators.grouped_mm_weight_grad(a.t(), b, offs)
    return NotImplemented


def grouped_mm_fallback(a: torch.Tensor, weight: torch.Tensor, offs: torch.Tensor) -> Any:
    """`transformers.grouped_mm_fallback` (the experts of `transformers`'
    mixtures of experts under `torch.compile`), which Inductor calls as it
    is, a Python loop of matmuls on the host: the grouped matmul operator."""
    return torch.ops.mtia_compiler.grouped_mm(a, weight, offs)


def grouped_mm_fallback_backward(a: torch.Tensor, weight: torch.Tensor, offs: torch.Tensor,
                                 grad: torch.Tensor) -> Any:
    """`transformers.grouped_mm_fallback_backward`: the input's gradient as a
    grouped matmul by the transposed weights, the weights' by the grouped
    weight gradient."""
    operators = torch.ops.mtia_compiler
    return (operators.grouped_mm(grad, weight.transpose(1, 2), offs),
            operators.grouped_mm_weight_grad(a, grad, offs))


def _library_decompositions() -> dict[Any, Any]:
    """The decompositions of other libraries' operators, when those are
    registered."""
    transformers = torch.ops.transformers
    table: dict[Any, Any] = {}
    if hasattr(transformers, "grouped_mm_fallback"):
        table[transformers.grouped_mm_fallback.default] = grouped_mm_fallback
    if hasattr(transformers, "grouped_mm_fallback_backward"):
        table[transformers.grouped_mm_fallback_backward.default] = grouped_mm_fallback_backward
    return table


#: The operations a compilation for MTIA decomposes, beyond Inductor's own
#: table, with their decompositions.
DECOMPOSITIONS: dict[Any, Any] = {
    aten._scaled_dot_product_flash_attention_for_cpu.default: flash_attention_for_cpu,
    aten._scaled_dot_product_flash_attention_for_cpu_backward.default:
        flash_attention_for_cpu_backward,
    aten._scaled_dot_product_fused_attention_overrideable.default: fused_attention_overrideable,
    aten._scaled_dot_product_fused_attention_overrideable_backward.default:
        fused_attention_overrideable_backward,
    aten._embedding_bag.default: embedding_bag,
    aten._embedding_bag_forward_only.default: embedding_bag,
    aten.convolution.default: convolution,
    aten.convolution_backward.default: convolution_backward,
    aten.histc.default: histc,
    aten._grouped_mm.default: grouped_mm,
}


def decompositions() -> dict[Any, Any]:
    """Inductor's decomposition table with the decompositions above (the
    device runtime's operators are registered when its kernels are imported)."""
    from torch._inductor.decomposition import select_decomp_table

    import mtia.host_runtime.torch_mtia.attention
    import mtia.host_runtime.torch_mtia.kernels
    import mtia.host_runtime.torch_mtia.routing  # noqa: F401 (they register the operators)

    return {**select_decomp_table(), **DECOMPOSITIONS, **_library_decompositions()}
