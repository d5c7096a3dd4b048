"""The runtime's own kernels: ATen operations of `mtia` tensors that run on
the simulated chip as Triton kernels (compiled by mtia-compiler's backend),
as a device runtime ships kernels for the operations Inductor leaves to it
(matmuls and convolutions, which Inductor calls as extern kernels, and layer
norm, which its MTIA path keeps whole).

Each function takes tensors of a floating type the kernels support and
writes its result into `out`; `operations` decides when they apply to `mtia`
tensors. The convolutions are also PyTorch operators (`torch.library.triton_op`,
`torch.ops.mtia_compiler.convolution...`), which `mtia_compiler.torch.compile`
decomposes ATen's convolutions into on either device: Inductor then compiles
their Triton kernels into its graphs, whose launches run on the simulator.
Launches go through `wrap_triton`, as the operators need.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import torch
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton
from torch.utils.flop_counter import conv_flop_count, register_flop_formula

from mtia.host_runtime.torch_mtia import depthwise
from mtia.host_runtime.torch_mtia.acc_flags import target_name

if TYPE_CHECKING:
    from torch._inductor.template_heuristics.triton import GemmConfig

    from mtia_compiler.torch.heuristics import Machine

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


@triton.jit
def _convolution_kernel(
        x_ptr, w_ptr, bias_ptr, out_ptr, M, COUT_G, C_G, OD, OH, OW, KD, KH, KW, D, H, W,
        sxn, sxc, sxd, sxh, sxw, swo, swc, swd, swh, sww, son, soc, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
        BLOCK_K: tl.constexpr):
    """A convolution over three spatial dimensions as an implicit GEMM per
    group (program axis 2): rows are the output positions (n, od, oh, ow),
    columns the group's output channels, and the reduction runs over the
    kernel's taps and, for each, the group's input channels in blocks. For a
    tap, a row reads its input position at one offset (zero outside the
    padded input) and the channels at theirs, so a block of the input patch
    is a row offset plus a channel offset."""
    group = tl.program_id(2)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    steps = tl.arange(0, BLOCK_K)
    ow = rows % OW
    oh = (rows // OW) % OH
    od = (rows // (OW * OH)) % OD
    n = rows // (OW * OH * OD)
    channels = group * COUT_G + cols
    x_group = x_ptr + group * C_G * sxc
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for tap in range(0, KD * KH * KW):
        kd, kh, kw = depthwise.tap_offsets(tap, KH, KW)
        d = od * stride_d - pad_d + kd * dil_d
        h = oh * stride_h - pad_h + kh * dil_h
        w = ow * stride_w - pad_w + kw * dil_w
        inside = (rows < M) & (d >= 0) & (d < D) & (h >= 0) & (h < H) & (w >= 0) & (w < W)
        row_offsets = n * sxn + d * sxd + h * sxh + w * sxw
        w_tap = w_ptr + kd * swd + kh * swh + kw * sww
        for start in range(0, C_G, BLOCK_K):
            c = start + steps
            a = tl.load(x_group + row_offsets[:, None] + c[None, :] * sxc,
                        mask=inside[:, None] & (c[None, :] < C_G), other=0.0)
            b = tl.load(w_tap + c[:, None] * swc + channels[None, :] * swo,
                        mask=(c[:, None] < C_G) & (cols[None, :] < COUT_G), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
    if HAS_BIAS:
        acc += tl.load(bias_ptr + channels, mask=cols < COUT_G, other=0.0).to(tl.float32)[None, :]
    tl.store(out_ptr + n[:, None] * son + channels[None, :] * soc + od[:, None] * sod
             + oh[:, None] * soh + ow[:, None] * sow, acc.to(out_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < COUT_G))


@triton.jit
def _convolution_input_grad_kernel(
        grad_ptr, w_ptr, out_ptr, M, C_G, COUT_G, D, H, W, KD, KH, KW, OD, OH, OW,
        sgn, sgc, sgd, sgh, sgw, swo, swc, swd, swh, sww, son, soc, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """The gradient of a convolution's input as an implicit GEMM per group:
    rows are the input positions (n, d, h, w), columns the group's input
    channels, and the reduction runs over the taps and, for each, the
    group's output channels in blocks: a row takes the output position whose
    strided, dilated window reaches it through the tap, if one does."""
    group = tl.program_id(2)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    steps = tl.arange(0, BLOCK_K)
    w_ = rows % W
    h_ = (rows // W) % H
    d_ = (rows // (W * H)) % D
    n = rows // (W * H * D)
    grad_group = grad_ptr + group * COUT_G * sgc
    w_group = w_ptr + group * COUT_G * swo
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for tap in range(0, KD * KH * KW):
        kd, kh, kw = depthwise.tap_offsets(tap, KH, KW)
        d = d_ + pad_d - kd * dil_d
        h = h_ + pad_h - kh * dil_h
        w = w_ + pad_w - kw * dil_w
        od = d // stride_d
        oh = h // stride_h
        ow = w // stride_w
        reached = (rows < M) & (d >= 0) & (h >= 0) & (w >= 0) & (d % stride_d == 0) \
            & (h % stride_h == 0) & (w % stride_w == 0) & (od < OD) & (oh < OH) & (ow < OW)
        row_offsets = n * sgn + od * sgd + oh * sgh + ow * sgw
        w_tap = w_group + kd * swd + kh * swh + kw * sww
        for start in range(0, COUT_G, BLOCK_K):
            co = start + steps
            a = tl.load(grad_group + row_offsets[:, None] + co[None, :] * sgc,
                        mask=reached[:, None] & (co[None, :] < COUT_G), other=0.0)
            b = tl.load(w_tap + co[:, None] * swo + cols[None, :] * swc,
                        mask=(co[:, None] < COUT_G) & (cols[None, :] < C_G), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
    channels = group * C_G + cols
    tl.store(out_ptr + n[:, None] * son + channels[None, :] * soc + d_[:, None] * sod
             + h_[:, None] * soh + w_[:, None] * sow, acc.to(out_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < C_G))


@triton.jit
def _convolution_weight_grad_kernel(
        grad_ptr, x_ptr, out_ptr, COUT_G, C_G, K, KD, KH, KW, OD, OH, OW, D, H, W,
        sgn, sgc, sgd, sgh, sgw, sxn, sxc, sxd, sxh, sxw, soo, soc, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """The gradient of a convolution's weight as an implicit GEMM per group
    and tap (program axis 2): rows are the group's output channels, columns
    its input channels, and the reduction runs over the output positions
    (n, od, oh, ow), the input read where the tap read it for each."""
    group = tl.program_id(2) // (KD * KH * KW)
    tap = tl.program_id(2) % (KD * KH * KW)
    kd, kh, kw = depthwise.tap_offsets(tap, KH, KW)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    co = group * COUT_G + rows
    c = group * C_G + cols
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, K, BLOCK_K):
        ks = start + tl.arange(0, BLOCK_K)
        ow = ks % OW
        oh = (ks // OW) % OH
        od = (ks // (OW * OH)) % OD
        n = ks // (OW * OH * OD)
        a = tl.load(grad_ptr + co[:, None] * sgc + (n * sgn + od * sgd + oh * sgh
                                                   + ow * sgw)[None, :],
                    mask=(rows[:, None] < COUT_G) & (ks[None, :] < K), other=0.0)
        d = od * stride_d - pad_d + kd * dil_d
        h = oh * stride_h - pad_h + kh * dil_h
        w = ow * stride_w - pad_w + kw * dil_w
        inside = (ks < K) & (d >= 0) & (d < D) & (h >= 0) & (h < H) & (w >= 0) & (w < W)
        b = tl.load(x_ptr + (n * sxn + d * sxd + h * sxh + w * sxw)[:, None]
                    + c[None, :] * sxc, mask=inside[:, None] & (cols[None, :] < C_G),
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(out_ptr + co[:, None] * soo + cols[None, :] * soc + kd * sod + kh * soh
             + kw * sow, acc.to(out_ptr.dtype.element_ty),
             mask=(rows[:, None] < COUT_G) & (cols[None, :] < C_G))


@functools.cache
def _machine() -> Machine:
    from mtia_compiler.torch.heuristics import Machine

    return Machine.of(target_name())


def tiles(m: int, n: int, k: int, element_size: int) -> list[GemmConfig]:
    """The candidate tiles of an (m x k) @ (k x n) product on the device's
    chip: the MTIA matmul heuristics', best first."""
    from mtia_compiler.torch.heuristics import gemm_configs

    return gemm_configs(m, n, k, element_size, _machine())


def tile(m: int, n: int, k: int, element_size: int) -> GemmConfig:
    """The first of `tiles`."""
    return tiles(m, n, k, element_size)[0]


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
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = a.shape[0] if a.dim() == 3 else 1
    config = tile(m, n, k, a.element_size())
    expanded = bias.expand(out.shape) if bias is not None else out
    grid = (triton.cdiv(m, config.block_m), triton.cdiv(n, config.block_n), batch)
    wrap_triton(_matmul_kernel)[grid](
        a, b, expanded, out, m, n, k, *_strides3(a), *_strides3(b), *_strides3(expanded),
        *_strides3(out), float(alpha), float(beta), HAS_BIAS=bias is not None and beta != 0,
        BLOCK_M=config.block_m, BLOCK_N=config.block_n, BLOCK_K=config.block_k)


def layer_norm(x: torch.Tensor, weight: torch.Tensor | None, bias: torch.Tensor | None,
               eps: float, out: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor) -> None:
    """Layer norm of the contiguous `x` over its last `N = out.numel() //
    mean.numel()` elements; `mean` and `rstd` are contiguous f32."""
    rows = mean.numel()
    n = x.numel() // rows
    block = min(triton.next_power_of_2(n), 1024)
    wrap_triton(_layer_norm_kernel)[(rows,)](
        x, weight, bias, out, mean, rstd, n, float(eps), HAS_WEIGHT=weight is not None,
        HAS_BIAS=bias is not None, BLOCK=block)


def _as_3d(tensor: torch.Tensor) -> torch.Tensor:
    """A (batch, channels, *spatial) tensor of 1 to 3 spatial dimensions as a
    view with three, the missing leading ones of size 1."""
    while tensor.dim() < 5:
        tensor = tensor.unsqueeze(2)
    return tensor


def _geometry(stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
              spatial: int) -> tuple[int, ...]:
    """A convolution's strides, paddings and dilations over three spatial
    dimensions (the missing leading ones: stride 1, no padding, dilation 1),
    in the order the kernels take them. One value stands for every spatial
    dimension, as in ATen (`padding="valid"` arrives as [0])."""
    def padded(values: Sequence[int], fill: int) -> tuple[int, ...]:
        given = tuple(values) * spatial if len(values) == 1 else tuple(values)
        return (fill,) * (3 - spatial) + given

    return (*padded(stride, 1), *padded(padding, 0), *padded(dilation, 1))


def convolution_runs_as_kernel(transposed: bool, *tensors: torch.Tensor | None) -> bool:
    """Whether the convolution kernels take a convolution of these operands
    (input first): not transposed, of one floating type they support, with
    1 to 3 spatial dimensions."""
    present = [tensor for tensor in tensors if tensor is not None]
    return (not transposed and 3 <= present[0].dim() <= 5
            and present[0].dtype in FLOAT_TYPES
            and all(tensor.dtype == present[0].dtype for tensor in present))


#: The candidate kernels (tiles, and kernels of other kinds) the runtime
#: found fastest, in simulated cycles, for each convolution it ran, by
#: operation, operands' shapes, strides and type, and geometry.
_fastest: dict[tuple[object, ...], int] = {}


def _run_fastest(key: tuple[object, ...], candidates: Sequence[Callable[[], None]]) -> None:
    """Runs the fastest of `candidates` (kernels that compute the same
    result) for `key`: the first time, each once in a benchmark block
    (hidden from launch records, as Inductor's autotuning is), then the
    fastest for the result. Like Triton's autotuner, the search costs the
    first call of each shape its simulated time."""
    from mtia_compiler.backend.driver import kernel_launches

    if len(candidates) == 1:
        candidates[0]()
        return
    if key not in _fastest:
        cycles = []
        for run in candidates:
            with kernel_launches(exclusive=True) as measured:
                run()
            cycles.append(sum(launch.record.cycles for launch in measured if launch.record))
        _fastest[key] = cycles.index(min(cycles))
    candidates[_fastest[key]]()


def _key(name: str, *tensors: torch.Tensor, geometry: Sequence[int], groups: int
         ) -> tuple[object, ...]:
    return (name, *((tuple(t.shape), t.stride(), t.dtype) for t in tensors), tuple(geometry),
            groups)


def convolution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                groups: int, out: torch.Tensor) -> None:
    """out = the convolution of `x` (batch, channels, *spatial; 1 to 3
    spatial dimensions) with `weight`, plus `bias`; `out` has the output's
    shape, in any layout. It runs as the fastest of the implicit GEMM in
    each of the MTIA matmul heuristics' tiles and, for a depthwise
    convolution, `depthwise`'s kernel (`_run_fastest`)."""
    spatial = x.dim() - 2
    x5, w5, out5 = _as_3d(x), _as_3d(weight), _as_3d(out)
    geometry = _geometry(stride, padding, dilation, spatial)
    batch, channels, depth, height, width = x5.shape
    out_channels, channels_per_group, taps_d, taps_h, taps_w = w5.shape
    _, _, out_d, out_h, out_w = out5.shape
    rows = batch * out_d * out_h * out_w
    columns = out_channels // groups

    def implicit_gemm(config: GemmConfig) -> Callable[[], None]:
        grid = (triton.cdiv(rows, config.block_m), triton.cdiv(columns, config.block_n), groups)
        return lambda: wrap_triton(_convolution_kernel)[grid](
            x5, w5, bias, out5, rows, columns, channels_per_group, out_d, out_h, out_w,
            taps_d, taps_h, taps_w, depth, height, width, *x5.stride(), *w5.stride(),
            *out5.stride(), *geometry, HAS_BIAS=bias is not None, BLOCK_M=config.block_m,
            BLOCK_N=config.block_n, BLOCK_K=config.block_k)

    # The tiles of a GEMM whose reduction is one tap's channels, which the
    # kernel runs once per tap.
    candidates = [implicit_gemm(config) for config in
                  tiles(rows, columns, channels_per_group, x.element_size())]
    if depthwise.is_depthwise(weight, groups):
        candidates.append(lambda: depthwise.convolution(x5, w5, bias, out5, groups, geometry,
                                                        _machine().num_pes))
    _run_fastest(_key("convolution", x, weight, out, geometry=geometry, groups=groups),
                 candidates)


def convolution_input_grad(grad: torch.Tensor, weight: torch.Tensor, stride: Sequence[int],
                           padding: Sequence[int], dilation: Sequence[int], groups: int,
                           out: torch.Tensor) -> None:
    """out = the gradient of a convolution's input (of `out`'s shape) from
    the gradient of its output `grad` and its `weight` (the fastest kernel,
    as in `convolution`)."""
    spatial = grad.dim() - 2
    g5, w5, out5 = _as_3d(grad), _as_3d(weight), _as_3d(out)
    geometry = _geometry(stride, padding, dilation, spatial)
    batch, channels, depth, height, width = out5.shape
    out_channels, channels_per_group, taps_d, taps_h, taps_w = w5.shape
    _, _, grad_d, grad_h, grad_w = g5.shape
    rows = batch * depth * height * width
    per_group = out_channels // groups

    def implicit_gemm(config: GemmConfig) -> Callable[[], None]:
        grid = (triton.cdiv(rows, config.block_m),
                triton.cdiv(channels_per_group, config.block_n), groups)
        return lambda: wrap_triton(_convolution_input_grad_kernel)[grid](
            g5, w5, out5, rows, channels_per_group, per_group, depth, height, width,
            taps_d, taps_h, taps_w, grad_d, grad_h, grad_w, *g5.stride(), *w5.stride(),
            *out5.stride(), *geometry, BLOCK_M=config.block_m, BLOCK_N=config.block_n,
            BLOCK_K=config.block_k)

    # The tiles of a GEMM whose reduction is one tap's output channels.
    candidates = [implicit_gemm(config) for config in
                  tiles(rows, channels_per_group, per_group, grad.element_size())]
    if depthwise.is_depthwise(weight, groups):
        candidates.append(lambda: depthwise.input_grad(g5, w5, out5, groups, geometry,
                                                       _machine().num_pes))
    _run_fastest(_key("input_grad", grad, weight, out, geometry=geometry, groups=groups),
                 candidates)


def convolution_weight_grad(grad: torch.Tensor, x: torch.Tensor, stride: Sequence[int],
                            padding: Sequence[int], dilation: Sequence[int], groups: int,
                            out: torch.Tensor) -> None:
    """out = the gradient of a convolution's weight (of `out`'s shape) from
    the gradient of its output `grad` and its input `x` (the fastest kernel,
    as in `convolution`)."""
    spatial = grad.dim() - 2
    g5, x5, out5 = _as_3d(grad), _as_3d(x), _as_3d(out)
    geometry = _geometry(stride, padding, dilation, spatial)
    batch, _, depth, height, width = x5.shape
    out_channels, channels_per_group, taps_d, taps_h, taps_w = out5.shape
    _, _, grad_d, grad_h, grad_w = g5.shape
    per_group = out_channels // groups
    reduction = batch * grad_d * grad_h * grad_w

    def implicit_gemm(config: GemmConfig) -> Callable[[], None]:
        grid = (triton.cdiv(per_group, config.block_m),
                triton.cdiv(channels_per_group, config.block_n),
                groups * taps_d * taps_h * taps_w)
        return lambda: wrap_triton(_convolution_weight_grad_kernel)[grid](
            g5, x5, out5, per_group, channels_per_group, reduction, taps_d, taps_h, taps_w,
            grad_d, grad_h, grad_w, depth, height, width, *g5.stride(), *x5.stride(),
            *out5.stride(), *geometry, BLOCK_M=config.block_m, BLOCK_N=config.block_n,
            BLOCK_K=config.block_k)

    # One GEMM per group and tap, reducing over the output positions.
    candidates = [implicit_gemm(config) for config in
                  tiles(per_group, channels_per_group, reduction, grad.element_size())]
    if depthwise.is_depthwise(out, groups):
        candidates.append(lambda: depthwise.weight_grad(g5, x5, out5, groups, geometry,
                                                        _machine().num_pes))
    _run_fastest(_key("weight_grad", grad, x, out, geometry=geometry, groups=groups),
                 candidates)


def _output_shape(x: torch.Tensor, weight: torch.Tensor, stride: Sequence[int],
                  padding: Sequence[int], dilation: Sequence[int], groups: int) -> torch.Size:
    """The shape of the convolution of `x` with `weight`, by PyTorch's meta function."""
    return torch.ops.aten.convolution(
        torch.empty(x.shape, device="meta"), torch.empty(weight.shape, device="meta"), None,
        stride, padding, dilation, False, [0] * len(stride), groups).shape


def _convolution_output(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                        stride: Sequence[int], padding: Sequence[int],
                        dilation: Sequence[int], groups: int) -> torch.Tensor:
    """The output `convolution_operator` allocates (also its fake
    implementation: the operators' shapes may be symbolic in a graph)."""
    return torch.empty(_output_shape(x, weight, stride, padding, dilation, groups),
                       dtype=x.dtype, device=x.device)


@triton_op("mtia_compiler::convolution", mutates_args={})
def convolution_operator(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                         stride: Sequence[int], padding: Sequence[int],
                         dilation: Sequence[int], groups: int) -> torch.Tensor:
    """The convolution of `x` with `weight` plus `bias`, contiguous."""
    out = _convolution_output(x, weight, bias, stride, padding, dilation, groups)
    convolution(x, weight, bias, stride, padding, dilation, groups, out)
    return out


def _input_grad_output(grad: torch.Tensor, weight: torch.Tensor, input_shape: Sequence[int],
                       *geometry: object) -> torch.Tensor:
    return torch.empty(input_shape, dtype=grad.dtype, device=grad.device)


@triton_op("mtia_compiler::convolution_input_grad", mutates_args={})
def convolution_input_grad_operator(grad: torch.Tensor, weight: torch.Tensor,
                                    input_shape: Sequence[int], stride: Sequence[int],
                                    padding: Sequence[int], dilation: Sequence[int],
                                    groups: int) -> torch.Tensor:
    """The gradient of a convolution's input (of `input_shape`), contiguous."""
    out = _input_grad_output(grad, weight, input_shape)
    convolution_input_grad(grad, weight, stride, padding, dilation, groups, out)
    return out


def _weight_grad_output(grad: torch.Tensor, x: torch.Tensor, weight_shape: Sequence[int],
                        *geometry: object) -> torch.Tensor:
    return torch.empty(weight_shape, dtype=grad.dtype, device=grad.device)


@triton_op("mtia_compiler::convolution_weight_grad", mutates_args={})
def convolution_weight_grad_operator(grad: torch.Tensor, x: torch.Tensor,
                                     weight_shape: Sequence[int], stride: Sequence[int],
                                     padding: Sequence[int], dilation: Sequence[int],
                                     groups: int) -> torch.Tensor:
    """The gradient of a convolution's weight (of `weight_shape`), contiguous."""
    out = _weight_grad_output(grad, x, weight_shape)
    convolution_weight_grad(grad, x, stride, padding, dilation, groups, out)
    return out


# The operators' fake implementations allocate their outputs and launch
# nothing, so that a graph with symbolic shapes can hold them (the kernels'
# tiles are chosen from the shapes of a call).
convolution_operator.register_fake(_convolution_output)
convolution_input_grad_operator.register_fake(_input_grad_output)
convolution_weight_grad_operator.register_fake(_weight_grad_output)


@register_flop_formula(torch.ops.mtia_compiler.convolution)
def _convolution_flops(x_shape: torch.Size, weight_shape: torch.Size, *args: object,
                       out_shape: torch.Size, **kwargs: object) -> int:
    """The FLOPs of a convolution, as PyTorch's flop counter counts them."""
    return conv_flop_count(list(x_shape), list(weight_shape), list(out_shape))


@register_flop_formula(torch.ops.mtia_compiler.convolution_input_grad)
def _convolution_input_grad_flops(grad_shape: torch.Size, weight_shape: torch.Size,
                                  input_shape: Sequence[int], *args: object,
                                  **kwargs: object) -> int:
    """The FLOPs of a convolution's input gradient: those of the convolution."""
    return conv_flop_count(list(input_shape), list(weight_shape), list(grad_shape))


@register_flop_formula(torch.ops.mtia_compiler.convolution_weight_grad)
def _convolution_weight_grad_flops(grad_shape: torch.Size, x_shape: torch.Size,
                                   weight_shape: Sequence[int], *args: object,
                                   **kwargs: object) -> int:
    """The FLOPs of a convolution's weight gradient: those of the convolution."""
    return conv_flop_count(list(x_shape), list(weight_shape), list(grad_shape))
