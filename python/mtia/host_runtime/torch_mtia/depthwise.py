"""Depthwise convolutions on the simulated chip: convolutions whose groups each
have one input channel (MobileNets, ConvNeXt's 7x7 blocks, Mamba's conv1d),
with any channel multiplier (a group's output channels). As an implicit GEMM
(`kernels.py`) a group's product would be 1 x 1 in tiles of at least 16 x 16,
so these kernels compute on the SIMD engine instead: per tap, a tile of channels
by positions of one row times the tap's weight of each channel (a row's
positions, not a flattened block of positions, so that every address is
affine in the tile's indices and each tap's input is one strided block).

The forward kernel, and the gradients of the input and of the weight, take
one to three spatial dimensions (as 3-D views, missing dimensions of size 1),
any stride, padding and dilation, and any memory layout.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import triton
import triton.language as tl
from torch.library import wrap_triton

#: The largest blocks of a row's positions and of channels a program takes,
#: and the smallest they are split into to give every PE a program.
BLOCK_POSITIONS = 64
BLOCK_CHANNELS = 32
MIN_BLOCK = 16


@triton.jit
def tap_offsets(tap, KH, KW):
    """The (depth, height, width) offsets in a convolution's window of its
    tap `tap`, the taps numbered width fastest."""
    return tap // (KW * KH), (tap // KW) % KH, tap % KW


@triton.jit
def _depthwise_convolution_kernel(
        x_ptr, w_ptr, bias_ptr, out_ptr, COUT, MULTIPLIER, OD, OH, OW, KD, KH, KW, D, H, W,
        sxn, sxc, sxd, sxh, sxw, swo, swd, swh, sww, son, soc, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        HAS_BIAS: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_W: tl.constexpr):
    """A block of output channels by a block of one output row's positions
    (grid: row blocks, output rows (n, od, oh), channel blocks): the sum
    over the taps of the input at each tap's positions, in the channel's
    group's one input channel, times the tap's weight. Every address is
    affine in the channels and the row's positions, so each tap's input is
    one strided block."""
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    oh = tl.program_id(1) % OH
    od = (tl.program_id(1) // OH) % OD
    n = tl.program_id(1) // (OH * OD)
    channels = tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)
    live = channels < COUT
    x_base = x_ptr + n * sxn + (channels // MULTIPLIER)[:, None] * sxc
    acc = tl.zeros((BLOCK_C, BLOCK_W), dtype=tl.float32)
    for tap in range(0, KD * KH * KW):
        kd, kh, kw = tap_offsets(tap, KH, KW)
        d = od * stride_d - pad_d + kd * dil_d
        h = oh * stride_h - pad_h + kh * dil_h
        w = ow * stride_w - pad_w + kw * dil_w
        inside = (d >= 0) & (d < D) & (h >= 0) & (h < H) & (w >= 0) & (w < W) & (ow < OW)
        x = tl.load(x_base + d * sxd + h * sxh + w[None, :] * sxw,
                    mask=live[:, None] & inside[None, :], other=0.0)
        weight = tl.load(w_ptr + channels * swo + kd * swd + kh * swh + kw * sww, mask=live,
                         other=0.0)
        acc += x.to(tl.float32) * weight.to(tl.float32)[:, None]
    if HAS_BIAS:
        acc += tl.load(bias_ptr + channels, mask=live, other=0.0).to(tl.float32)[:, None]
    tl.store(out_ptr + n * son + od * sod + oh * soh + channels[:, None] * soc
             + ow[None, :] * sow, acc.to(out_ptr.dtype.element_ty),
             mask=live[:, None] & (ow < OW)[None, :])


@triton.jit
def _depthwise_convolution_input_grad_kernel(
        grad_ptr, w_ptr, out_ptr, C, MULTIPLIER, D, H, W, KD, KH, KW, OD, OH, OW,
        sgn, sgc, sgd, sgh, sgw, swo, swd, swh, sww, son, soc, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        BLOCK_C: tl.constexpr, BLOCK_W: tl.constexpr):
    """A block of input channels by a block of one input row's positions
    (grid: row blocks, input rows (n, d, h), channel blocks): the sum over
    the taps, and over the channel's output channels, of the output gradient
    at the output position whose window reaches the input position through
    the tap (if one does) times the tap's weight."""
    w_ = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    h_ = tl.program_id(1) % H
    d_ = (tl.program_id(1) // H) % D
    n = tl.program_id(1) // (H * D)
    channels = tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)
    live = channels < C
    acc = tl.zeros((BLOCK_C, BLOCK_W), dtype=tl.float32)
    for step in range(0, KD * KH * KW * MULTIPLIER):
        tap = step // MULTIPLIER
        outputs = channels * MULTIPLIER + step % MULTIPLIER
        kd, kh, kw = tap_offsets(tap, KH, KW)
        d = d_ + pad_d - kd * dil_d
        h = h_ + pad_h - kh * dil_h
        w = w_ + pad_w - kw * dil_w
        od = d // stride_d
        oh = h // stride_h
        ow = w // stride_w
        row_reached = (d >= 0) & (h >= 0) & (d % stride_d == 0) & (h % stride_h == 0) \
            & (od < OD) & (oh < OH)
        reached = row_reached & (w >= 0) & (w % stride_w == 0) & (ow < OW) & (w_ < W)
        grad = tl.load(grad_ptr + n * sgn + od * sgd + oh * sgh + outputs[:, None] * sgc
                       + ow[None, :] * sgw, mask=live[:, None] & reached[None, :], other=0.0)
        weight = tl.load(w_ptr + outputs * swo + kd * swd + kh * swh + kw * sww, mask=live,
                         other=0.0)
        acc += grad.to(tl.float32) * weight.to(tl.float32)[:, None]
    tl.store(out_ptr + n * son + d_ * sod + h_ * soh + channels[:, None] * soc
             + w_[None, :] * sow, acc.to(out_ptr.dtype.element_ty),
             mask=live[:, None] & (w_ < W)[None, :])


@triton.jit
def _depthwise_convolution_weight_grad_kernel(
        grad_ptr, x_ptr, out_ptr, ROWS, COUT, MULTIPLIER, KD, KH, KW, OD, OH, OW, D, H, W,
        sgn, sgc, sgd, sgh, sgw, sxn, sxc, sxd, sxh, sxw, soo, sod, soh, sow,
        stride_d, stride_h, stride_w, pad_d, pad_h, pad_w, dil_d, dil_h, dil_w,
        BLOCK_C: tl.constexpr, BLOCK_W: tl.constexpr):
    """One tap (program axis 1) of a block of output channels (axis 0) per
    program: the sum over the output positions of the output gradient times
    the input the tap read for it, a block of one output row (n, od, oh) at
    a time."""
    tap = tl.program_id(1)
    kd, kh, kw = tap_offsets(tap, KH, KW)
    channels = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    live = channels < COUT
    x_channels = (channels // MULTIPLIER)[:, None] * sxc
    blocks = tl.cdiv(OW, BLOCK_W)
    acc = tl.zeros((BLOCK_C, BLOCK_W), dtype=tl.float32)
    for step in range(0, ROWS * blocks):
        row = step // blocks
        ow = (step % blocks) * BLOCK_W + tl.arange(0, BLOCK_W)
        oh = row % OH
        od = (row // OH) % OD
        n = row // (OH * OD)
        grad = tl.load(grad_ptr + n * sgn + od * sgd + oh * sgh + channels[:, None] * sgc
                       + ow[None, :] * sgw, mask=live[:, None] & (ow < OW)[None, :], other=0.0)
        d = od * stride_d - pad_d + kd * dil_d
        h = oh * stride_h - pad_h + kh * dil_h
        w = ow * stride_w - pad_w + kw * dil_w
        inside = (d >= 0) & (d < D) & (h >= 0) & (h < H) & (w >= 0) & (w < W) & (ow < OW)
        x = tl.load(x_ptr + n * sxn + d * sxd + h * sxh + x_channels + w[None, :] * sxw,
                    mask=live[:, None] & inside[None, :], other=0.0)
        acc += grad.to(tl.float32) * x.to(tl.float32)
    tl.store(out_ptr + channels * soo + kd * sod + kh * soh + kw * sow,
             tl.sum(acc, 1).to(out_ptr.dtype.element_ty), mask=live)


def is_depthwise(weight: torch.Tensor, groups: int) -> bool:
    """Whether a convolution of `weight` in `groups` groups is depthwise:
    one input channel per group, several groups."""
    return groups > 1 and weight.shape[1] == 1


def _blocks(positions: int, channels: int, other_programs: int,
            pes: int) -> tuple[int, int]:
    """Blocks of positions and channels for a grid of `other_programs` times
    their blocks: as large as the sizes and `BLOCK_*` allow, halved (the
    larger first, down to `MIN_BLOCK`) until every one of the `pes` PEs has
    a program."""
    block_m = max(MIN_BLOCK, min(BLOCK_POSITIONS, triton.next_power_of_2(positions)))
    block_n = max(MIN_BLOCK, min(BLOCK_CHANNELS, triton.next_power_of_2(channels)))

    def programs() -> int:
        return other_programs * triton.cdiv(positions, block_m) * triton.cdiv(channels, block_n)

    while programs() < pes and max(block_m, block_n) > MIN_BLOCK:
        if block_m >= block_n and block_m > MIN_BLOCK:
            block_m //= 2
        else:
            block_n //= 2
    return block_m, block_n


def convolution(x5: torch.Tensor, w5: torch.Tensor, bias: torch.Tensor | None,
                out5: torch.Tensor, groups: int, geometry: Sequence[int], pes: int) -> None:
    """out5 = the depthwise convolution of x5 with w5 plus `bias` (3-D views;
    `geometry`: strides, paddings and dilations) on a chip of `pes` PEs."""
    batch, _, depth, height, width = x5.shape
    out_channels, _, taps_d, taps_h, taps_w = w5.shape
    _, _, out_d, out_h, out_w = out5.shape
    rows = batch * out_d * out_h
    block_w, block_c = _blocks(out_w, out_channels, rows, pes)
    grid = (triton.cdiv(out_w, block_w), rows, triton.cdiv(out_channels, block_c))
    wrap_triton(_depthwise_convolution_kernel)[grid](
        x5, w5, bias, out5, out_channels, out_channels // groups, out_d, out_h, out_w,
        taps_d, taps_h, taps_w, depth, height, width, *x5.stride(), w5.stride(0),
        *w5.stride()[2:], *out5.stride(), *geometry, HAS_BIAS=bias is not None,
        BLOCK_C=block_c, BLOCK_W=block_w)


def input_grad(g5: torch.Tensor, w5: torch.Tensor, out5: torch.Tensor, groups: int,
               geometry: Sequence[int], pes: int) -> None:
    """out5 = the gradient of a depthwise convolution's input from its
    output's, g5, and its weight w5 (3-D views) on a chip of `pes` PEs."""
    batch, channels, depth, height, width = out5.shape
    out_channels, _, taps_d, taps_h, taps_w = w5.shape
    _, _, grad_d, grad_h, grad_w = g5.shape
    rows = batch * depth * height
    block_w, block_c = _blocks(width, channels, rows, pes)
    grid = (triton.cdiv(width, block_w), rows, triton.cdiv(channels, block_c))
    wrap_triton(_depthwise_convolution_input_grad_kernel)[grid](
        g5, w5, out5, channels, out_channels // groups, depth, height, width,
        taps_d, taps_h, taps_w, grad_d, grad_h, grad_w, *g5.stride(), w5.stride(0),
        *w5.stride()[2:], *out5.stride(), *geometry, BLOCK_C=block_c, BLOCK_W=block_w)


def weight_grad(g5: torch.Tensor, x5: torch.Tensor, out5: torch.Tensor, groups: int,
                geometry: Sequence[int], pes: int) -> None:
    """out5 = the gradient of a depthwise convolution's weight from its
    output's, g5, and its input x5 (3-D views) on a chip of `pes` PEs."""
    batch, _, depth, height, width = x5.shape
    out_channels, _, taps_d, taps_h, taps_w = out5.shape
    _, _, grad_d, grad_h, grad_w = g5.shape
    rows = batch * grad_d * grad_h
    taps = taps_d * taps_h * taps_w
    # Programs split the channels and the taps; each reduces over every
    # output position, a block of a row at a time.
    _, block_c = _blocks(1, out_channels, taps, pes)
    block_w = max(MIN_BLOCK, min(BLOCK_POSITIONS, triton.next_power_of_2(grad_w)))
    grid = (triton.cdiv(out_channels, block_c), taps)
    wrap_triton(_depthwise_convolution_weight_grad_kernel)[grid](
        g5, x5, out5, rows, out_channels, out_channels // groups, taps_d, taps_h, taps_w,
        grad_d, grad_h, grad_w, depth, height, width, *g5.stride(), *x5.stride(),
        out5.stride(0), *out5.stride()[2:], *geometry, BLOCK_C=block_c, BLOCK_W=block_w)
