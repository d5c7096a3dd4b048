"""The runtime's own kernels: ATen operations of `mtia` tensors that run on
the simulated chip as Triton kernels (compiled by mtia-compiler's backend),
as a device runtime ships kernels for the operations Inductor leaves to it
(matmuls, which Inductor calls as extern kernels, and layer norm, which its
MTIA path keeps whole).

Each function takes `mtia` tensors of a floating type the kernels support
and writes its result into `out`; `operations` decides when they apply.
"""

from __future__ import annotations

import functools

import torch
import triton
import triton.language as tl

from mtia.host_runtime.torch_mtia.acc_flags import target_name

#: The dtypes the kernels take; others run on the host.
FLOAT_TYPES = (torch.float32, torch.float16, torch.bfloat16)


@triton.jit
def _matmul_kernel(arg_A, arg_B, bias_ptr, out_ptr, M, N, K,
                   stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                   stride_cb, stride_cm, stride_cn, stride_ob, stride_om, stride_on,
                   alpha, beta,
                   HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    """out[b] = alpha * A[b] @ B[b] + beta * bias[b] (without the bias term
    when HAS_BIAS is false), accumulated in f32; any strides. The operands
    have the names of Inductor's matmul templates, by which reports count
    a launch's multiply-adds."""
    batch = tl.program_id(2)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    steps = tl.arange(0, BLOCK_K)
    a_base = arg_A + batch * stride_ab
    b_base = arg_B + batch * stride_bb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + steps
        a = tl.load(a_base + rows[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_base + ks[:, None] * stride_bk + cols[None, :] * stride_bn,
                    mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    result = acc * alpha
    if HAS_BIAS:
        bias = tl.load(bias_ptr + batch * stride_cb + rows[:, None] * stride_cm
                       + cols[None, :] * stride_cn, mask=inside, other=0.0)
        result += beta * bias.to(tl.float32)
    tl.store(out_ptr + batch * stride_ob + rows[:, None] * stride_om + cols[None, :] * stride_on,
             result.to(out_ptr.dtype.element_ty), mask=inside)


@triton.jit
def _layer_norm_kernel(x_ptr, weight_ptr, bias_ptr, out_ptr, mean_ptr, rstd_ptr, N, eps,
                       HAS_WEIGHT: tl.constexpr, HAS_BIAS: tl.constexpr,
                       BLOCK: tl.constexpr):
    """One row of a contiguous (rows x N) input per program: its mean and
    reciprocal standard deviation (f32, two passes), then the normalised,
    scaled and shifted row."""
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        total += tl.load(x_row + offs, mask=offs < N, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / N
    squares = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + offs, mask=offs < N, other=0.0).to(tl.float32)
        centred = tl.where(offs < N, x - mean, 0.0)
        squares += centred * centred
    rstd = 1.0 / tl.sqrt(tl.sum(squares, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        y = (tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32) - mean) * rstd
        if HAS_WEIGHT:
            y *= tl.load(weight_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        if HAS_BIAS:
            y += tl.load(bias_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + row * N + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@functools.cache
def _machine() -> object:
    from mtia_compiler.torch.heuristics import Machine

    return Machine.of(target_name())


def _strides3(tensor: torch.Tensor) -> tuple[int, int, int]:
    """The (batch, row, column) strides of a 2-D or 3-D tensor."""
    if tensor.dim() == 2:
        rows, columns = tensor.stride()
        return 0, rows, columns
    batch, rows, columns = tensor.stride()
    return batch, rows, columns


def matmul(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
           bias: torch.Tensor | None = None, alpha: float = 1.0, beta: float = 1.0) -> None:
    """out = alpha * a @ b + beta * bias for (M x K) @ (K x N) or batched
    (B x M x K) @ (B x K x N); `bias` is broadcast to `out`'s shape."""
    from mtia_compiler.torch.heuristics import gemm_configs

    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = a.shape[0] if a.dim() == 3 else 1
    config = gemm_configs(m, n, k, a.element_size(), _machine())[0]  # type: ignore[arg-type]
    expanded = bias.expand(out.shape) if bias is not None else out
    grid = (triton.cdiv(m, config.block_m), triton.cdiv(n, config.block_n), batch)
    _matmul_kernel[grid](a, b, expanded, out, m, n, k, *_strides3(a), *_strides3(b),
                         *_strides3(expanded), *_strides3(out), float(alpha), float(beta),
                         HAS_BIAS=bias is not None and beta != 0, BLOCK_M=config.block_m,
                         BLOCK_N=config.block_n, BLOCK_K=config.block_k)


def layer_norm(x: torch.Tensor, weight: torch.Tensor | None, bias: torch.Tensor | None,
               eps: float, out: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor) -> None:
    """Layer norm of the contiguous `x` over its last `N = out.numel() //
    mean.numel()` elements; `mean` and `rstd` are contiguous f32."""
    rows = mean.numel()
    n = x.numel() // rows
    block = min(triton.next_power_of_2(n), 1024)
    _layer_norm_kernel[(rows,)](x, weight, bias, out, mean, rstd, n, float(eps),
                                HAS_WEIGHT=weight is not None, HAS_BIAS=bias is not None,
                                BLOCK=block)
