#!/usr/bin/env python3
"""Capture the Triton kernels TorchInductor generates for the graphs in GRAPHS.

    (in a venv with torch 2.13 (CPU), triton 3.9.0)
    python capture_inductor.py            # rewrites inductor_kernels.py next to this file
    python capture_inductor.py --list     # prints every kernel and autotune config, writes nothing

There is no GPU here, so Triton gets a fake driver that reports a cuda:90 target and Inductor is
asked for Triton code on the CPU device (`cpu_backend = "triton"`). Two methods of Inductor's
`CachingAutotuner` are replaced while a graph is compiled and run once:

* `precompile` records, for every autotune config, exactly what `_precompile_config` would hand to
  `triton.compile`: the signature, the constexprs (config kwargs included), the specialisation
  attributes (`tt.divisibility`) and the compile options (`debug=True, sanitize_overflow=False`);
* `run` records the launch arguments (tensor shape/stride/dtype/offset, integers) and launches
  nothing.

The kernel sources (with the `@triton.jit` helpers they call) are copied verbatim from the
modules Inductor wrote; the `@triton_heuristics...` decorator is replaced by a META entry holding
the recorded specialisation, the chosen config and the grid Inductor's launcher would compute.
gen.py compiles the kernels from that META, not with Triton's binder.

Inductor's Triton matmul templates could not be captured this way: with max_autotune and
the TRITON gemm backend, torch 2.13 writes a benchmark module for the CPU device that fails to
import (IndentationError), so matmuls stay aten.mm / aten.addmm calls and only their epilogues
are Triton kernels.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass
class Graph:
    """A torch function compiled with Inductor and the kernels of it that become cases."""

    desc: str  # the graph in words, copied into inductor_kernels.py
    fn: Callable[..., Any]
    args: list[tuple[str, tuple[int, ...], str]]  # (name, shape, torch dtype name)
    keep: dict[str, dict[str, int] | None] = field(default_factory=dict)
    # kernel name -> config kwargs to pick (None: Inductor's first config)
    dynamic: bool = False  # torch.compile(dynamic=True): sizes become runtime arguments (ks0, ...)


def _graphs() -> dict[str, Graph]:
    import torch
    import torch.nn.functional as F  # noqa: N812

    def rms_norm(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)

    def where_clamp(x: torch.Tensor, m: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = torch.where(x > 0, x, 0.1 * x).clamp(-1.0, 1.0).masked_fill(m, float("-inf"))
        return y, x > 0.5

    def casts(x: torch.Tensor, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return (x * h.float()).to(torch.bfloat16), (x * 8.0).to(torch.int32)

    def activations(x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return F.gelu(x, approximate="tanh"), F.silu(x), F.leaky_relu(x, 0.02), F.softplus(x)

    return {
        "bias_gelu": Graph(
            "torch.nn.functional.gelu(x + b)  (bias add + exact gelu, b broadcast over rows)",
            lambda x, b: F.gelu(x + b),
            [("x", (37, 130), "float32"), ("b", (130,), "float32")],
            {"triton_poi_fused_add_gelu_0": None},
        ),
        "swiglu_bf16": Graph(
            "torch.nn.functional.silu(a) * g  on bf16 tensors",
            lambda a, g: F.silu(a) * g,
            [("a", (37, 96), "bfloat16"), ("g", (37, 96), "bfloat16")],
            {"triton_poi_fused_mul_silu_0": None},
        ),
        "softmax": Graph(
            "torch.softmax(x, -1)  (781-long rows: one persistent reduction per row)",
            lambda x: torch.softmax(x, -1),
            [("x", (13, 781), "float32")],
            {"triton_per_fused__softmax_0": None},
        ),
        "log_softmax_long": Graph(
            "torch.log_softmax(x, -1)  (4500-long rows: looped reduction, R0_BLOCK=2048)",
            lambda x: torch.log_softmax(x, -1),
            [("x", (3, 4500), "float32")],
            {"triton_red_fused__log_softmax_0": {"R0_BLOCK": 2048}},
        ),
        "layer_norm": Graph(
            "torch.nn.functional.layer_norm(x, (3000,), w, b)  (welford, looped with "
            "R0_BLOCK=2048)",
            lambda x, w, b: F.layer_norm(x, (3000,), w, b),
            [("x", (4, 3000), "float32"), ("w", (3000,), "float32"), ("b", (3000,), "float32")],
            {"triton_red_fused_native_layer_norm_0": {"R0_BLOCK": 2048}},
        ),
        "rms_norm_bf16": Graph(
            "(x.float() * rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6) * "
            "w.float()).to(bf16)",
            rms_norm,
            [("x", (6, 5000), "bfloat16"), ("w", (5000,), "bfloat16")],
            {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0": {"R0_BLOCK": 2048}},
        ),
        "var_mean": Graph(
            "torch.var_mean(x, -1, correction=0)  (persistent two-pass variance, 300-long rows)",
            lambda x: torch.var_mean(x, -1, correction=0),
            [("x", (40, 300), "float32")],
            {"triton_per_fused_var_mean_0": None},
        ),
        "col_sum": Graph(
            "x.sum(0)  (column sum, split into two kernels; the first sums 100-row chunks, "
            "index math x % 37, x // 37)",
            lambda x: x.sum(0),
            [("x", (300, 37), "float32")],
            {"triton_red_fused_sum_0": None},
        ),
        "max_dim": Graph(
            "torch.max(x, 1)  (values and int64 indices)",
            lambda x: torch.max(x, 1),
            [("x", (37, 50), "float32")],
            {"triton_per_fused_max_0": {"XBLOCK": 8}},
        ),
        "argmax_long": Graph(
            "x.argmax(-1)  (3000-long rows: looped index-carrying reduction)",
            lambda x: x.argmax(-1),
            [("x", (5, 3000), "float32")],
            {"triton_red_fused_argmax_0": None},
        ),
        "cumsum": Graph(
            "x.cumsum(-1)  (tl.associative_scan with an Inductor combine helper)",
            lambda x: x.cumsum(-1),
            [("x", (37, 100), "float32")],
            {"triton_per_fused_cumsum_0": {"XBLOCK": 8}},
        ),
        "transpose_cat": Graph(
            "torch.cat([x.t(), y], 0) * 2  (the transposing copy into the cat buffer: 2-D tiles)",
            lambda x, y: torch.cat([x.t(), y], 0) * 2,
            [("x", (45, 37), "float32"), ("y", (10, 45), "float32")],
            {"triton_poi_fused_cat_t_0": None},
        ),
        "permute_add": Graph(
            "x.permute(0, 2, 1) + y  (3-D permute, 2-D tiled pointwise kernel)",
            lambda x, y: x.permute(0, 2, 1) + y,
            [("x", (4, 37, 45), "float32"), ("y", (4, 45, 37), "float32")],
            {"triton_poi_fused_add_permute_0": None},
        ),
        "embedding": Graph(
            "torch.nn.functional.embedding(idx, w) * 2 + 1  (indirect load, tl.device_assert)",
            lambda i, w: F.embedding(i, w) * 2 + 1,
            [("idx", (7, 13), "int64"), ("w", (100, 72), "float32")],
            {"triton_poi_fused_add_embedding_mul_0": None},
        ),
        "index_add": Graph(
            "a.index_add(0, idx, src)  (scatter with tl.atomic_add, negative-index wrap)",
            lambda a, i, s: a.index_add(0, i, s),
            [("a", (50, 24), "float32"), ("idx", (70,), "int64"), ("src", (70, 24), "float32")],
            {"triton_poi_fused_index_add_1": None},
        ),
        "sort": Graph(
            "torch.sort(x, -1)  (values and int64 indices: triton_helpers.sort_with_index)",
            lambda x: torch.sort(x, -1),
            [("x", (5, 16), "float32")],
            {"triton_per_fused_sort_0": None},
        ),
        "sum_all": Graph(
            "x.sum()  (full reduction split in two kernels; the second one sums the 3 partial sums "
            "into a 0-d tensor: xnumel=1 is a constexpr)",
            lambda x: x.sum(),
            [("x", (3000, 7), "float32")],
            {"triton_per_fused_sum_1": None},
        ),
        "where_clamp": Graph(
            "torch.where(x > 0, x, 0.1 * x).clamp(-1, 1).masked_fill(m, -inf), x > 0.5  "
            "(bool input and output)",
            where_clamp,
            [("x", (1000,), "float32"), ("m", (1000,), "bool")],
            {"triton_poi_fused_clamp_gt_masked_fill_mul_where_0": None},
        ),
        "casts": Graph(
            "(x * h.float()).to(bf16), (x * 8).to(int32)  (f16 input, bf16 and int32 outputs)",
            casts,
            [("x", (1000,), "float32"), ("h", (1000,), "float16")],
            {"triton_poi_fused__to_copy_mul_0": None},
        ),
        "mean_dims": Graph(
            "x.mean(dim=(1, 2))  (reduction over two inner dims of 1665)",
            lambda x: x.mean(dim=(1, 2)),
            [("x", (4, 37, 45), "float32")],
            {"triton_red_fused_mean_0": None},
        ),
        "cross_entropy": Graph(
            "torch.nn.functional.cross_entropy(logits, target)  (gather through target index)",
            lambda x, t: F.cross_entropy(x, t),
            [("logits", (37, 100), "float32"), ("target", (37,), "int64")],
            {"triton_per_fused__log_softmax_nll_loss_forward_1": None},
        ),
        "softmax_long": Graph(
            "torch.softmax(x, -1)  (rows of 4500, looped; exp stored to the output, read back)",
            lambda x: torch.softmax(x, -1),
            [("x", (3, 4500), "float32")],
            {"triton_red_fused__softmax_0": {"R0_BLOCK": 2048}},
        ),
        "dropout": Graph(
            "torch.nn.functional.dropout(x, 0.25, training=True)  (seed loaded from a buffer)",
            lambda x: F.dropout(x, 0.25, training=True),
            [("x", (1000,), "float32")],
            {"triton_poi_fused_native_dropout_0": None},
        ),
        # ---- third batch (cases 74-113)
        "bn_hardswish_4d": Graph(
            "hardswish(batch_norm(x, running_mean, running_var, w, b, training=False))  "
            "(inference batch norm on NCHW: per-channel vectors indexed by (i // 63) % 5)",
            lambda x, rm, rv, w, b: F.hardswish(F.batch_norm(x, rm, rv, w, b, training=False)),
            [
                ("x", (2, 5, 7, 9), "float32"),
                ("rm", (5,), "float32"),
                ("rv", (5,), "float32"),
                ("w", (5,), "float32"),
                ("b", (5,), "float32"),
            ],
            {"triton_poi_fused__native_batch_norm_legit_no_training_hardswish_0": None},
        ),
        "activations": Graph(
            "gelu(x, approximate='tanh'), silu(x), leaky_relu(x, 0.02), softplus(x)  "
            "(four outputs)",
            activations,
            [("x", (7, 143), "float32")],
            {"triton_poi_fused_gelu_leaky_relu_silu_softplus_0": None},
        ),
        "where_pow_rsqrt": Graph(
            "torch.where(x > 0, x ** 3, 0.5).clamp_min(0.1).rsqrt() + x.abs() ** 0.7",
            lambda x: torch.where(x > 0, x.pow(3), 0.5).clamp_min(0.1).rsqrt() + x.abs().pow(0.7),
            [("x", (1000,), "float32")],
            {
                "triton_poi_fused_abs_add_clamp_min_gt_pow_rsqrt_scalar_tensor_where_0": {
                    "XBLOCK": 128
                },
            },
        ),
        "sigmoid_half": Graph(
            "sigmoid(x) * y.half(), sigmoid(y)  (x fp16, y bf16: fp16 and bf16 outputs)",
            lambda x, y: (torch.sigmoid(x) * y.half(), torch.sigmoid(y)),
            [("x", (33, 65), "float16"), ("y", (33, 65), "bfloat16")],
            {"triton_poi_fused__to_copy_mul_sigmoid_0": None},
        ),
        "logsumexp": Graph(
            "torch.logsumexp(x, 1)  (45-long rows, 8 rows per program)",
            lambda x: torch.logsumexp(x, 1),
            [("x", (100, 45), "float32")],
            {"triton_per_fused_logsumexp_0": {"XBLOCK": 8}},
        ),
        "amax_amin": Graph(
            "x.amax(dim=(0, 2)), x.amin(dim=(0, 2))  (reduction over an outer and an inner dim)",
            lambda x: (x.amax(dim=(0, 2)), x.amin(dim=(0, 2))),
            [("x", (4, 33, 45), "float32")],
            {"triton_per_fused_amax_amin_0": None},
        ),
        "instance_std": Graph(
            "(x - x.mean((2, 3), keepdim=True)) / x.std((2, 3), keepdim=True)  (NCHW)",
            lambda x: (x - x.mean((2, 3), keepdim=True)) / x.std((2, 3), keepdim=True),
            [("x", (2, 3, 7, 9), "float32")],
            {"triton_per_fused_div_mean_std_sub_0": {"XBLOCK": 8}},
        ),
        "group_norm": Graph(
            "torch.nn.functional.group_norm(x, 3, w, b)  (the statistics kernel: 6 groups of 70)",
            lambda x, w, b: F.group_norm(x, 3, w, b),
            [("x", (2, 6, 5, 7), "float32"), ("w", (6,), "float32"), ("b", (6,), "float32")],
            {"triton_per_fused_native_group_norm_0": {"XBLOCK": 8}},
        ),
        "embedding_bag": Graph(
            "embedding(idx, w).sum(1)  (an embedding bag of 5 indices per row: 5 gathers unrolled)",
            lambda i, w: F.embedding(i, w).sum(1),
            [("idx", (9, 5), "int64"), ("w", (50, 33), "float32")],
            {"triton_poi_fused_embedding_sum_0": {"XBLOCK": 128}},
        ),
        "index_select": Graph(
            "torch.index_select(x, 1, idx) * 3  (gather along the inner dim)",
            lambda x, i: torch.index_select(x, 1, i) * 3.0,
            [("x", (7, 100), "float32"), ("idx", (33,), "int64")],
            {"triton_poi_fused_index_select_mul_0": None},
        ),
        "index_put_2d": Graph(
            "x.index_put((i, j), v, accumulate=True)  (x[i, j] += v with repeated (i, j): atomics)",
            lambda x, i, j, v: x.index_put((i, j), v, accumulate=True),
            [
                ("x", (50, 7), "float32"),
                ("i", (33,), "int64"),
                ("j", (33,), "int64"),
                ("v", (33,), "float32"),
            ],
            {"triton_poi_fused_index_put_1": None},
        ),
        "cumsum_dim0": Graph(
            "(x * 0.5).cumsum(0)  (scan along the outer dim: strided tiles, 32 columns per "
            "program)",
            lambda x: (x * 0.5).cumsum(0),
            [("x", (33, 45), "float32")],
            {"triton_per_fused_cumsum_mul_0": None},
        ),
        "argmin_short": Graph(
            "x.argmin(1)  (rows of 7: Inductor unrolls the comparisons, NaN-aware, into a "
            "pointwise kernel)",
            lambda x: x.argmin(1),
            [("x", (100, 7), "float32")],
            {"triton_poi_fused_argmin_0": None},
        ),
        "transpose12": Graph(
            "x.transpose(1, 2).contiguous() + 1  (3-D, 2-D tiles with YBLOCK)",
            lambda x: x.transpose(1, 2).contiguous() + 1.0,
            [("x", (3, 33, 45), "float32")],
            {"triton_poi_fused_add_clone_transpose_0": None},
        ),
        "cat3": Graph(
            "torch.cat([a, b * 2, c], 1)  (one kernel per input, each writing a column range of "
            "the [7, 18] result through an offset pointer)",
            lambda a, b, c: torch.cat([a, b * 2, c], 1),
            [("a", (7, 5), "float32"), ("b", (7, 12), "float32"), ("c", (7, 1), "float32")],
            {"triton_poi_fused_mul_1": None},
        ),
        "slice_flip_pad": Graph(
            "F.pad(x[:, ::2].flip(1), (1, 2, 0, 1), value=-1)  (step slice, flip, constant pad)",
            lambda x: F.pad(x[:, ::2].flip(1), (1, 2, 0, 1), value=-1.0),
            [("x", (7, 33), "float32")],
            {"triton_poi_fused_constant_pad_nd_flip_slice_0": None},
        ),
        "repeat_expand": Graph(
            "x.repeat(2, 3) + y.expand(14, 33)",
            lambda x, y: x.repeat(2, 3) + y.expand(14, 33),
            [("x", (7, 11), "float32"), ("y", (1, 33), "float32")],
            {"triton_poi_fused_add_expand_repeat_0": None},
        ),
        "int8_dequant": Graph(
            "(q.float() - zero[:, None].float()) * scale[:, None]  "
            "(int8 values, int32 zero points)",
            lambda q, z, s: (q.float() - z[:, None].float()) * s[:, None],
            [("q", (33, 65), "int8"), ("zero", (33,), "int32"), ("scale", (33,), "float32")],
            {"triton_poi_fused__to_copy_mul_sub_unsqueeze_0": None},
        ),
        "sort_dim0": Graph(
            "torch.sort(x.abs(), dim=0, descending=True, stable=True)  (sort along the outer "
            "dim, ties broken by index)",
            lambda x: torch.sort(x.abs(), dim=0, descending=True, stable=True),
            [("x", (12, 9), "float32")],
            {"triton_per_fused_abs_sort_0": {"XBLOCK": 8}},
        ),
        "col_norm": Graph(
            "(x - x.mean(0)) / (x.std(0) + 1e-5)  (column normalisation: four kernels, all kept)",
            lambda x: (x - x.mean(0)) / (x.std(0) + 1e-5),
            [("x", (350, 33), "float32")],
            {
                "triton_red_fused_mean_std_0": None,
                "triton_per_fused_mean_1": None,
                "triton_red_fused_std_2": None,
                "triton_poi_fused_add_div_mean_std_sub_3": None,
            },
        ),
        "int64_rowsum": Graph(
            "x.sum(1), (x > 0).sum(1), x.amax(1)  on int64 values beyond the int32 range",
            lambda x: (x.sum(1), (x > 0).sum(1), x.amax(1)),
            [("x", (7, 45), "int64")],
            {"triton_per_fused_amax_gt_sum_0": {"XBLOCK": 8}},
        ),
        "int_divmod": Graph(
            "floor division, remainder, trunc division, fmod, >> 3 and ^ of int32 tensors "
            "(Python vs C semantics on negative values)",
            lambda a, b: (
                torch.div(a, b, rounding_mode="floor"),
                torch.remainder(a, b),
                torch.div(a, b, rounding_mode="trunc"),
                torch.fmod(a, b),
                a >> 3,
                a ^ b,
            ),
            [("a", (1000,), "int32"), ("b", (1000,), "int32")],
            {"triton_poi_fused___rshift___bitwise_xor_div_fmod_remainder_0": None},
        ),
        "float_rounding": Graph(
            "round, trunc, sign * floor, frac, remainder, fmod of float32 tensors",
            lambda x, y: (
                torch.round(x),
                torch.trunc(x),
                torch.sign(x) * x.floor(),
                torch.frac(x),
                torch.remainder(x, y),
                torch.fmod(x, y),
            ),
            [("x", (1000,), "float32"), ("y", (1000,), "float32")],
            {"triton_poi_fused_floor_fmod_frac_mul_remainder_round_sign_trunc_0": None},
        ),
        "f64_dot": Graph(
            "(x.double() * w).sum(-1)  (float32 input, float64 weights and result)",
            lambda x, w: (x.double() * w).sum(-1),
            [("x", (33, 45), "float32"), ("w", (45,), "float64")],
            {"triton_per_fused__to_copy_mul_sum_0": {"XBLOCK": 8}},
        ),
        "upsample_bilinear": Graph(
            "F.interpolate(x, scale_factor=2, mode='bilinear')  (source indices computed in "
            "float and converted to int)",
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
            [("x", (1, 3, 7, 9), "float32")],
            {"triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_view_0": None},
        ),
        "max_pool": Graph(
            "F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)",
            lambda x: F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True),
            [("x", (2, 3, 9, 11), "float32")],
            {"triton_poi_fused_max_pool2d_with_indices_0": None},
        ),
        "avg_pool": Graph(
            "F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)",
            lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
            [("x", (2, 3, 9, 11), "float32")],
            {"triton_poi_fused_avg_pool2d_0": None},
        ),
        "bucketize": Graph(
            "torch.bucketize(x, boundaries)  (triton_helpers.bucketize_binary_search)",
            lambda x, b: torch.bucketize(x, b),
            [("x", (1000,), "float32"), ("boundaries", (17,), "float32")],
            {"triton_poi_fused_bucketize_0": None},
        ),
        "u8_normalize": Graph(
            "((img.float() / 255) - mean[:, None, None]) / std[:, None, None], img.int() * 3 + "
            "(img >> 4)  (uint8 image input)",
            lambda img, m, s: (
                ((img.float() / 255) - m[:, None, None]) / s[:, None, None],
                img.to(torch.int32) * 3 + (img >> 4).to(torch.int32),
            ),
            [("img", (3, 17, 19), "uint8"), ("mean", (3,), "float32"), ("std", (3,), "float32")],
            {"triton_poi_fused___rshift____to_copy_add_div_mul_sub_unsqueeze_0": None},
        ),
        "cumsum_long": Graph(
            "x.cumsum(-1) on rows of 5000  (looped scan: the carry between blocks is kept in "
            "registers)",
            lambda x: x.cumsum(-1),
            [("x", (3, 5000), "float32")],
            {"triton_red_fused_cumsum_0": None},
        ),
        "roll": Graph(
            "torch.roll(x, 5, 1) * 2  (wrap-around index (28 + x0) % 33)",
            lambda x: torch.roll(x, 5, 1) * 2,
            [("x", (7, 33), "float32")],
            {"triton_poi_fused_mul_roll_0": None},
        ),
        "repeat_interleave": Graph(
            "torch.repeat_interleave(x, 3, dim=1) + 1  (every element read 3 times: x2 // 3)",
            lambda x: torch.repeat_interleave(x, 3, dim=1) + 1,
            [("x", (7, 11), "float32")],
            {"triton_poi_fused_add_clone_expand_unsqueeze_view_0": None},
        ),
        "pixel_shuffle": Graph(
            "F.pixel_shuffle(x, 2) + 1  (nested // 2 and % 2 in the source address)",
            lambda x: F.pixel_shuffle(x, 2) + 1,
            [("x", (1, 8, 5, 7), "float32")],
            {"triton_poi_fused_add_pixel_shuffle_0": None},
        ),
        "unfold_sum": Graph(
            "x.unfold(1, 4, 3).sum(-1)  (overlapping windows of 4 with step 3)",
            lambda x: x.unfold(1, 4, 3).sum(-1),
            [("x", (5, 40), "float32")],
            {"triton_poi_fused_sum_unfold_0": None},
        ),
        "dyn_bias_silu": Graph(
            "silu(x * 2 + b) compiled with dynamic=True  (x0 = xindex % ks0, ks0 a runtime "
            "argument)",
            lambda x, b: F.silu(x * 2 + b),
            [("x", (37, 45), "float32"), ("b", (45,), "float32")],
            {"triton_poi_fused_add_mul_silu_0": None},
            dynamic=True,
        ),
        "dyn_softmax": Graph(
            "torch.softmax(x * 0.5, -1) compiled with dynamic=True  (looped, runtime row length "
            "and stride)",
            lambda x: torch.softmax(x * 0.5, -1),
            [("x", (13, 100), "float32")],
            {"triton_red_fused__softmax_abs_all_amax_eq_mul_ne_sub_0": None},
            dynamic=True,
        ),
        "dyn_permute": Graph(
            "x.permute(0, 2, 1).contiguous() * 2 compiled with dynamic=True  (2-D tiles, runtime "
            "sizes in the index math)",
            lambda x: x.permute(0, 2, 1).contiguous() * 2,
            [("x", (3, 33, 45), "float32")],
            {"triton_poi_fused_clone_mul_permute_0": None},
            dynamic=True,
        ),
    }


# ------------------------------------------------------------------------------------- capture
def install_fake_driver() -> None:
    """Let Inductor and Triton believe a cuda:90 device is active (nothing is ever launched)."""
    import torch
    import torch._inductor.config as cfg
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.backends.driver import DriverBase

    class FakeDriver(DriverBase):
        @classmethod
        def is_active(cls) -> bool:
            return True

        def get_current_target(self) -> GPUTarget:
            return GPUTarget("cuda", 90, 32)

        def get_active_torch_device(self) -> torch.device:
            return torch.device("cpu")

        def get_current_device(self) -> int:
            return 0

        def set_current_device(self, device: int) -> None:
            pass

        def get_current_stream(self, device: int | None = None) -> int:
            return 0

        def get_benchmarker(self) -> Callable[..., Any]:
            from triton.testing import do_bench

            return do_bench

        def get_device_interface(self) -> Any:
            return torch.cpu

        def map_python_to_cpp_type(self, ty: str) -> str:
            return ty

    triton.runtime.driver.set_active(FakeDriver())
    warnings.filterwarnings("ignore", message="Could not find an active CPU backend")
    cfg.cpu_backend = "triton"
    cfg.compile_threads = 1
    cfg.fx_graph_cache = False


def describe(arg: Any) -> Any:
    import torch

    if isinstance(arg, torch.Tensor):
        return [
            "tensor",
            list(arg.shape),
            list(arg.stride()),
            str(arg.dtype).replace("torch.", ""),
            arg.storage_offset(),
        ]
    return arg


def capture(graph: Graph) -> dict[str, dict[str, Any]]:
    """Compile and run one graph; -> {kernel name: record} in launch order."""
    import torch
    from torch._inductor.runtime import triton_heuristics as th

    records: dict[str, dict[str, Any]] = {}

    def precompile(self: Any, *args: Any, **kwargs: Any) -> None:
        name = self.inductor_meta["kernel_name"]
        configs = []
        for c in self.configs:
            meta = self._create_compile_meta(c)
            configs.append(
                dict(
                    kwargs=dict(c.kwargs),
                    constants=meta["constants"],
                    attrs=meta["configs"][0],
                    options=self._create_compile_options(c, meta),
                )
            )
        module_file = self.fn.fn.__code__.co_filename
        records[name] = dict(
            fn=self.fn,
            module_file=module_file,
            signature=self.triton_meta["signature"],
            configs=configs,
            inductor_meta=self.inductor_meta,
            launches=[],
        )

    def run(self: Any, *args: Any, stream: Any = None, **kwargs: Any) -> None:
        records[self.inductor_meta["kernel_name"]]["launches"].append([describe(a) for a in args])

    saved = th.CachingAutotuner.precompile, th.CachingAutotuner.run
    th.CachingAutotuner.precompile, th.CachingAutotuner.run = precompile, run
    try:
        torch._dynamo.reset()
        gen = torch.Generator().manual_seed(0)
        inputs = []
        for _, shape, dtype in graph.args:
            t = torch.randn(shape, generator=gen)
            if dtype == "int64":
                t = torch.zeros(shape, dtype=torch.int64)
            inputs.append(t.to(getattr(torch, dtype)))
        torch.compile(graph.fn, dynamic=True if graph.dynamic else None)(*inputs)
    finally:
        th.CachingAutotuner.precompile, th.CachingAutotuner.run = saved
    return records


def grid_of(record: dict[str, Any], config: dict[str, Any]) -> list[int]:
    """The grid Inductor's launcher computes for this config and the recorded launch."""
    from torch._inductor.runtime.triton_heuristics import GridExpr

    names = list(record["signature"])
    launch = record["launches"][0]
    numels = {n: launch[i] for i, n in enumerate(names) if n.endswith("numel") and i < len(launch)}
    grid = GridExpr.from_meta(record["inductor_meta"], config["kwargs"]).eval_slow(
        {**config["kwargs"], **numels}
    )
    return [int(g) for g in grid]


def jit_functions(path: str) -> dict[str, str]:
    """name -> source (decorators included, the Inductor heuristics decorator dropped) of every
    function in the module Inductor wrote."""
    text = Path(path).read_text()
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            body = ast.get_source_segment(text, node)
            assert body is not None
            out[node.name] = "@triton.jit\n" + body
    return out


HEADER = '''"""TorchInductor-generated Triton kernels of test/kernels (from capture_inductor.py).

Each kernel is copied verbatim from the module TorchInductor (torch 2.13, Triton CPU-device codegen
with a fake cuda:90 driver) wrote for the torch graph named in the comment above it. Its
`@triton_heuristics.*` decorator is replaced by a META entry: the signature, constexprs and
`tt.divisibility` attributes Inductor passed to `triton.compile` for the chosen autotune config, the
compile options, the launch arguments it recorded and the grid its launcher computes. The
`loc(...)` line numbers in the cases' kernel.ttir point into this file. Do not edit by hand:
rerun capture_inductor.py.
"""
# ruff: noqa
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math

META = {}
'''


def render(
    graph_name: str, graph: Graph, name: str, record: dict[str, Any], helpers: dict[str, str]
) -> str:
    funcs = jit_functions(record["module_file"])
    kernel_src = funcs.pop(name)
    want = graph.keep[name]
    configs = record["configs"]
    chosen = 0
    if want is not None:
        chosen = next(
            i
            for i, c in enumerate(configs)
            if all(c["kwargs"].get(k) == v for k, v in want.items())
        )
    config = configs[chosen]
    lines = [
        f"# ---- graph {graph_name!r}: {graph.desc}",
        "#      inputs: " + ", ".join(f"{n}: {d}{list(s)}" for n, s, d in graph.args),
        f"#      Inductor autotune configs: {[c['kwargs'] for c in configs]}; chosen: "
        f"{config['kwargs']}",
    ]
    parts = ["\n".join(lines)]
    for helper, src in funcs.items():
        if not re.search(rf"\b{re.escape(helper)}\b", kernel_src):
            continue
        if helper in helpers:
            # already written for an earlier kernel (e.g. the scan combine of 61 and 85): the
            # module keeps the first definition, which must be the same function
            assert helpers[helper] == src, f"helper {helper} defined twice, differently"
            continue
        helpers[helper] = src
        parts.append(src)
    parts.append(kernel_src)
    meta = dict(
        graph=graph_name,
        signature=record["signature"],
        constants=config["constants"],
        attrs=config["attrs"],
        options=config["options"],
        grid_type=record["inductor_meta"]["grid_type"],
        grid=grid_of(record, config),
        launch=record["launches"][0],
    )
    parts.append(f"META[{name!r}] = {meta!r}")
    return "\n\n".join(parts) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--list", action="store_true", help="print the kernels, write nothing")
    ap.add_argument("--only", nargs="*", help="graph names (with --list)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="inductor_capture_") as tmp:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tmp
        os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton")
        install_fake_driver()
        out = [HEADER]
        helpers: dict[str, str] = {}
        names: set[str] = set()
        for graph_name, graph in _graphs().items():
            if a.only and graph_name not in a.only:
                continue
            records = capture(graph)
            if a.list:
                for name, r in records.items():
                    print(
                        f"{graph_name}: {name} configs={[c['kwargs'] for c in r['configs']]} "
                        f"launch={r['launches']}"
                    )
                    print(r["fn"].src)
                continue
            missing = set(graph.keep) - set(records)
            assert not missing, f"{graph_name}: no kernels {missing}; got {list(records)}"
            for name in graph.keep:
                assert name not in names, f"kernel name {name} appears in two graphs"
                names.add(name)
                out.append(render(graph_name, graph, name, records[name], helpers))
    if not a.list:
        (HERE / "inductor_kernels.py").write_text("\n\n".join(out))
        print(f"wrote {HERE / 'inductor_kernels.py'} ({len(names)} kernels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
