"""The ATen operations of `mtia` tensors that run on the simulated chip
(matmuls, layer norm, convolutions, attention, histograms): the
runtime registers them for PyTorch's MTIA dispatch key when it loads. Each
runs one of the runtime's Triton kernels (`kernels`) when its operands are
floating point of a type the kernels take, and otherwise what every other
operation does: it runs on the host, counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from mtia.host_runtime.torch_mtia import _runtime

_library = torch.library.Library("aten", "IMPL")


def _on_chip(*tensors: torch.Tensor | None) -> bool:
    """Whether the kernels take these operands: all `mtia`, of one floating
    type the kernels support, with elements."""
    from mtia.host_runtime.torch_mtia.kernels import FLOAT_TYPES

    present = [t for t in tensors if t is not None]
    return all(t.device.type == "mtia" and t.dtype == present[0].dtype for t in present) \
        and present[0].dtype in FLOAT_TYPES and all(t.numel() > 0 for t in present)


def _on_host(name: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`function` of the operands moved to the host, counted as the host
    operation `name`; its result (a tensor, or a tuple of tensors and
    Nones) comes back to the first operand's device."""
    _runtime.count_host_operation(name)
    device = next(a.device for a in args if isinstance(a, torch.Tensor))
    moved = [a.cpu() if isinstance(a, torch.Tensor) else a for a in args]
    result = function(*moved, **kwargs)
    if isinstance(result, torch.Tensor):
        return result.to(device)
    return tuple(None if item is None else item.to(device) for item in result)


def _check_matmul(a: torch.Tensor, b: torch.Tensor, dims: int, name: str) -> None:
    if a.dim() != dims or b.dim() != dims:
        raise RuntimeError(f"{name}: expected {dims}-D tensors, got {a.dim()}-D and {b.dim()}-D")
    if a.shape[-1] != b.shape[-2] or (dims == 3 and a.shape[0] != b.shape[0]):
        raise RuntimeError(f"{name}: shapes {tuple(a.shape)} and {tuple(b.shape)} cannot be "
                           f"multiplied")


def _product(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None, alpha: float,
             beta: float, out: torch.Tensor | None, name: str) -> torch.Tensor:
    from mtia.host_runtime.torch_mtia import kernels

    shape = (*a.shape[:-1], b.shape[-1])
    if out is None:
        out = torch.empty(shape, dtype=a.dtype, device=a.device)
    elif tuple(out.shape) != shape:
        out.resize_(shape)
    if not _on_chip(a, b, bias, out):
        host = {"mm": torch.mm, "bmm": torch.bmm}.get(name)
        if host is not None:
            out.copy_(_on_host(f"aten::{name}", host, a, b))
        else:
            out.copy_(_on_host(f"aten::{name}", torch.addmm, bias, a, b, alpha=alpha, beta=beta))
        return out
    if a.shape[-1] == 0:
        out.copy_((beta * bias).expand(shape) if bias is not None else torch.zeros_like(out))
        return out
    kernels.matmul(a, b, out, bias, alpha, beta)
    return out


def mm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    _check_matmul(a, b, 2, "mm")
    return _product(a, b, None, 1.0, 0.0, None, "mm")


def mm_out(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    _check_matmul(a, b, 2, "mm")
    return _product(a, b, None, 1.0, 0.0, out, "mm")


def bmm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    _check_matmul(a, b, 3, "bmm")
    return _product(a, b, None, 1.0, 0.0, None, "bmm")


def bmm_out(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    _check_matmul(a, b, 3, "bmm")
    return _product(a, b, None, 1.0, 0.0, out, "bmm")


def addmm(bias: torch.Tensor, a: torch.Tensor, b: torch.Tensor, *, beta: float = 1,
          alpha: float = 1) -> torch.Tensor:
    _check_matmul(a, b, 2, "addmm")
    return _product(a, b, bias, float(alpha), float(beta), None, "addmm")


def addmm_out(bias: torch.Tensor, a: torch.Tensor, b: torch.Tensor, *, beta: float = 1,
              alpha: float = 1, out: torch.Tensor) -> torch.Tensor:
    _check_matmul(a, b, 2, "addmm")
    return _product(a, b, bias, float(alpha), float(beta), out, "addmm")


def native_layer_norm(x: torch.Tensor, normalized_shape: Sequence[int],
                      weight: torch.Tensor | None, bias: torch.Tensor | None,
                      eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    from mtia.host_runtime.torch_mtia import kernels

    axis = x.dim() - len(normalized_shape)
    if axis < 0 or tuple(x.shape[axis:]) != tuple(normalized_shape):
        raise RuntimeError(f"native_layer_norm: input of shape {tuple(x.shape)} does not end "
                           f"in the normalized shape {tuple(normalized_shape)}")
    if not _on_chip(x, weight, bias):
        return _on_host("aten::native_layer_norm", torch.native_layer_norm, x,
                        normalized_shape, weight, bias, eps)
    stats_shape = (*x.shape[:axis], *([1] * len(normalized_shape)))
    x = x.contiguous()
    out = torch.empty_like(x)
    mean = torch.empty(stats_shape, dtype=torch.float32, device=x.device)
    rstd = torch.empty(stats_shape, dtype=torch.float32, device=x.device)
    kernels.layer_norm(x, None if weight is None else weight.contiguous(),
                       None if bias is None else bias.contiguous(), eps, out, mean, rstd)
    return out, mean, rstd


def convolution_overrideable(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                             stride: Sequence[int], padding: Sequence[int],
                             dilation: Sequence[int], transposed: bool,
                             output_padding: Sequence[int], groups: int) -> torch.Tensor:
    """A device's convolutions (PyTorch routes them here, past the
    fallback), into an output laid out as PyTorch's meta function of the
    convolution says (channels last when an operand is), which is what a
    compiled graph expects. Convolutions run as the runtime's kernel on the
    chip; transposed ones, and types the kernels do not take, on the host."""
    from mtia.host_runtime.torch_mtia import kernels

    arguments = (stride, padding, dilation, transposed, output_padding, groups)
    meta = torch.ops.aten.convolution(
        x.to("meta"), weight.to("meta"), None if bias is None else bias.to("meta"), *arguments)
    out = torch.empty_strided(meta.shape, meta.stride(), dtype=meta.dtype, device=x.device)
    if not (kernels.convolution_runs_as_kernel(transposed, x, weight, bias)
            and _on_chip(x, weight, bias, out)):
        out.copy_(_on_host("aten::convolution", torch.ops.aten.convolution, x, weight, bias,
                           *arguments))
        return out
    kernels.convolution(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def convolution_backward_overrideable(
        grad: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, stride: Sequence[int],
        padding: Sequence[int], dilation: Sequence[int], transposed: bool,
        output_padding: Sequence[int], groups: int, output_mask: Sequence[bool],
) -> tuple[torch.Tensor | None, ...]:
    """The gradients of a device's convolution: of its input and weight as
    the runtime's kernels on the chip (of its bias, a sum, on the host);
    transposed convolutions, and types the kernels do not take, on the host."""
    from mtia.host_runtime.torch_mtia import kernels

    if not (kernels.convolution_runs_as_kernel(transposed, x, weight, grad)
            and _on_chip(grad, x, weight)):
        channels = weight.shape[1] * groups if transposed else weight.shape[0]
        return _on_host(
            "aten::convolution_backward", torch.ops.aten.convolution_backward, grad, x, weight,
            [channels] if output_mask[2] else None, stride, padding, dilation, transposed,
            output_padding, groups, output_mask)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        grad_input = torch.empty_like(x)
        kernels.convolution_input_grad(grad, weight, stride, padding, dilation, groups,
                                       grad_input)
    if output_mask[1]:
        grad_weight = torch.empty_like(weight)
        kernels.convolution_weight_grad(grad, x, stride, padding, dilation, groups,
                                        grad_weight)
    if output_mask[2]:
        grad_bias = grad.sum(dim=[0, *range(2, grad.dim())])
    return grad_input, grad_weight, grad_bias


def scaled_dot_product_fused_attention_overrideable(
        query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
        attn_bias: torch.Tensor | None = None, dropout_p: float = 0.0, is_causal: bool = False,
        return_debug_mask: bool = False, *, scale: float | None = None) -> tuple[Any, ...]:
    """The attention of `mtia` tensors (PyTorch's backend for devices
    outside its tree, which the runtime chooses when the kernels take the
    call: `runtime/Attention.cpp`) as the runtime's flash-attention kernel
    on the chip. The output is laid out as the query is, as PyTorch's meta
    function of the operation says (a compiled graph expects that layout);
    the log-sum-exp is contiguous f32 (batch, heads, L). The other results
    are the unused ones of the meta function."""
    from torch._meta_registrations import alloc_with_matching_layout

    from mtia.host_runtime.torch_mtia import attention

    if dropout_p != 0.0 or return_debug_mask or query.dim() != 4:
        raise RuntimeError("_scaled_dot_product_fused_attention_overrideable on mtia takes 4-D "
                           "inputs without dropout or a debug mask; scaled_dot_product_attention "
                           "sends other calls to the math backend")
    out = alloc_with_matching_layout(query, (*query.shape[:3], value.shape[3]))
    lse = torch.empty(query.shape[:3], dtype=torch.float32, device=query.device)
    attention.attention(query, key, value, attn_bias, is_causal, scale, out, lse)
    unused = torch.empty((), dtype=torch.int64, device=query.device)
    return (out, lse, None, None, query.shape[2], key.shape[2], unused, unused.clone(), None)


def scaled_dot_product_fused_attention_overrideable_backward(
        grad_out: torch.Tensor, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
        attn_bias: torch.Tensor | None, grad_input_mask: Sequence[bool], out: torch.Tensor,
        logsumexp: torch.Tensor, cum_seq_q: torch.Tensor | None, cum_seq_k: torch.Tensor | None,
        max_q: int, max_k: int, dropout_p: float, is_causal: bool, philox_seed: torch.Tensor,
        philox_offset: torch.Tensor, *, scale: float | None = None,
) -> tuple[torch.Tensor | None, ...]:
    """The gradients of `scaled_dot_product_fused_attention_overrideable`'s
    query, key, value and bias, as the runtime's flash-attention backward
    kernels on the chip (the bias's summed over what it broadcasts)."""
    from mtia.host_runtime.torch_mtia import attention

    bias_grad = attn_bias is not None and grad_input_mask[3]
    grad_query, grad_key, grad_value, grad_bias = attention.attention_backward_operator(
        grad_out, query, key, value, attn_bias, out, logsumexp, is_causal, scale, bias_grad)
    return grad_query, grad_key, grad_value, grad_bias if bias_grad else None


def histc(x: torch.Tensor, bins: int = 100, min: float = 0,  # noqa: A002 (ATen's names)
          max: float = 0) -> torch.Tensor:  # noqa: A002
    """A histogram of an `mtia` tensor (a router's tokens per expert) as the
    runtime's kernel on the chip, for floating and integer types alike (the
    CPU's histogram takes floating types only)."""
    from mtia.host_runtime.torch_mtia import routing

    return routing.histc_operator(x, bins, float(min), float(max))


for _name, _function in (("mm", mm), ("mm.out", mm_out), ("bmm", bmm), ("bmm.out", bmm_out),
                         ("addmm", addmm), ("addmm.out", addmm_out),
                         ("native_layer_norm", native_layer_norm),
                         ("convolution_overrideable", convolution_overrideable),
                         ("convolution_backward_overrideable",
                          convolution_backward_overrideable),
                         ("_scaled_dot_product_fused_attention_overrideable",
                          scaled_dot_product_fused_attention_overrideable),
                         ("_scaled_dot_product_fused_attention_overrideable_backward",
                          scaled_dot_product_fused_attention_overrideable_backward),
                         ("histc", histc)):
    _library.impl(_name, _function, "MTIA")
