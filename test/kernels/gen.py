#!/usr/bin/env python3
"""Regenerate the cases of test/kernels from kernels.py and inductor_kernels.py.

    (in a venv with torch 2.13 (CPU), triton 3.9.0, numpy)
    python gen.py                       # (re)writes ./cases/<NN_name>/... next to this file
    python gen.py --only 01_matmul_grouped 51_ind_bias_gelu
    python gen.py --check-full-compile  # also compare with the whole triton.compile pipeline

This is test/corpus/gen.py (imported, not copied) run over the case list below; see
test/corpus/README.md for what it does. These of its globals are replaced (install()):

* `jit_specialise`: hand-written kernels are specialised by Triton's binder exactly as the corpus
  does; the Inductor kernels get the signature, constexprs, `tt.divisibility` attributes and
  compile options Inductor itself passed to `triton.compile` (recorded in inductor_kernels.META);
* `build_params`: for the Inductor kernels, pointers need not carry tt.divisibility (Inductor
  does not assume graph inputs are aligned), integers equal to 1 may stay in the signature and
  scalar types are Inductor's (the sizes of dynamic-shape kernels are i64);
* `portable_locs`: also makes inductor_kernels.py and torch/_inductor paths relative;
* `K` (the kernel namespace) holds the kernels of both modules; `CASES` is the list below;
* `__file__`: the interpreter phase re-runs this script (not the corpus one) with --interp-worker;
  there, the Inductor kernels' `libdevice` is replaced by `triton.language.math` plus short tl
  stand-ins for what it lacks (`_shim_*`; the interpreter cannot run libdevice calls), so that
  their logic is cross-checked too; their expected outputs come from torch.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORKER = __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--interp-worker"
if __name__ == "__main__":
    if WORKER:
        os.environ["TRITON_INTERPRET"] = "1"   # before triton is imported (see the corpus gen.py)
    else:
        os.environ.pop("TRITON_INTERPRET", None)
sys.dont_write_bytecode = True
sys.path.insert(0, str(HERE))
# torch._inductor.runtime.triton_helpers warns that there is no Triton CPU backend (none is needed).
warnings.filterwarnings("ignore", message="Could not find an active CPU backend")

# `kernels` must be imported before the corpus generator: its `import kernels as K` then binds
# this directory's module (the name "kernels" is part of mangled tt.call names, so it is kept).
import inductor_kernels as IK  # noqa: E402
import kernels  # noqa: E402

_spec = importlib.util.spec_from_file_location("corpus_gen", HERE.parent / "corpus" / "gen.py")
assert _spec and _spec.loader
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)
assert G.K is kernels

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

Arr, out, cdiv, T, N = G.Arr, G.out, G.cdiv, G.T, G.N
EXACT, F32_EW, F16_EW, F16_MM = G.EXACT, G.F32_EW, G.F16_EW, G.F16_MM
BF16_EW = (1e-2, 1e-5)      # bf16 result of fp32 math: 1 bf16 ulp is 2^-8..2^-7 relative
Case = dict[str, Any]
CASES: list[Callable[[np.random.Generator], Case]] = []


def case(fn: Callable[[np.random.Generator], Case]) -> Callable[[np.random.Generator], Case]:
    CASES.append(fn)
    return fn


def bf16(x: np.ndarray) -> np.ndarray:
    """float32 values -> bf16 bit patterns (uint16), round to nearest even."""
    return G.bf16_bits(x)


def tbf(bits: np.ndarray) -> torch.Tensor:
    """bf16 bit patterns -> torch bfloat16 tensor."""
    return torch.from_numpy(np.array(bits, dtype=np.uint16).view(np.int16)).view(torch.bfloat16)


def bf_bits(t: torch.Tensor) -> np.ndarray:
    return N(t.to(torch.bfloat16).view(torch.int16)).view(np.uint16)


def f64(t: torch.Tensor) -> np.ndarray:
    return N(t.double())


# ============================================================================ hand-written cases
@case
def c01_matmul_grouped(rng: np.random.Generator) -> Case:
    M, Nn, K = 150, 90, 100
    a = rng.standard_normal((M, K), dtype=np.float32).astype(np.float16)
    w = rng.standard_normal((Nn, K), dtype=np.float32).astype(np.float16)
    return dict(
        name="01_matmul_grouped", kernel="matmul_grouped", grid=(cdiv(M, 32) * cdiv(Nn, 32), 1, 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("w", w, "in"),
                  c_ptr=out("c", (M, Nn), "float16"),
                  M=M, N=Nn, K=K, stride_am=K, stride_ak=1, stride_bk=1, stride_bn=K, stride_cm=Nn,
                  stride_cn=1, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4),
        ref=lambda: {"c": N((T(a).float() @ T(w).float().T).half())}, tol={"c": F16_MM},
        notes="Tutorial-03 matmul, fp16 in, fp32 accumulate, fp16 out. Grouped ordering with "
              "GROUP_M=4 over 5x3 tiles (the last group is partial); `% M` / `% N` wrapped load "
              "offsets; K=100 loop of 4 steps masked with `offs_k < K - k * BLOCK_K`; B is an "
              "nn.Linear weight w[N, K] (stride_bk=1 is specialised away, stride_bn=K), so the B "
              "tile is a transposed load; loop-carried `a_ptrs += BLOCK_K * stride_ak` pointer "
              "tensors.")


@case
def c02_linear_bias_silu_bf16(rng: np.random.Generator) -> Case:
    M, Nn, K = 37, 72, 100
    x = bf16(rng.standard_normal((M, K), dtype=np.float32) * 0.5)
    w = bf16(rng.standard_normal((Nn, K), dtype=np.float32) * 0.2)
    b = bf16(rng.standard_normal(Nn, dtype=np.float32))

    def ref() -> dict[str, np.ndarray]:
        z = tbf(x).float() @ tbf(w).float().T + tbf(b).float()
        return {"y": bf_bits(z * torch.sigmoid(z))}
    return dict(
        name="02_linear_bias_silu_bf16", kernel="linear_bias_silu_bf16",
        grid=(cdiv(M, 32), cdiv(Nn, 32), 1),
        args=dict(x_ptr=Arr("x", x, "in", "bfloat16"), w_ptr=Arr("w", w, "in", "bfloat16"),
                  bias_ptr=Arr("bias", b, "in", "bfloat16"), y_ptr=out("y", (M, Nn), "bfloat16"),
                  M=M, N=Nn, K=K, stride_xm=K, stride_wn=K, stride_ym=Nn, BLOCK_M=32, BLOCK_N=32,
                  BLOCK_K=32),
        ref=ref, expected="torch", tol={"y": BF16_EW},
        notes="bf16 x bf16 -> fp32 tl.dot (y = silu(x @ w^T + bias)), 2-D grid, K loop with a "
              "masked tail (100 = 3*32 + 4), bias broadcast over rows, sigmoid, bf16 store (round "
              "to nearest even, so the expected values come from torch: the interpreter truncates "
              "f32 -> bf16).")


@case
def c03_bmm_ieee(rng: np.random.Generator) -> Case:
    B, M, Nn, K = 3, 37, 45, 50
    a = rng.standard_normal((B, M, K), dtype=np.float32)
    b = rng.standard_normal((B, K, Nn), dtype=np.float32)
    return dict(
        name="03_bmm_ieee", kernel="bmm_ieee", grid=(cdiv(M, 16), cdiv(Nn, 32), B),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"), c_ptr=out("c", (B, M, Nn)),
                  M=M, N=Nn, K=K, stride_ab=M * K, stride_am=K, stride_bb=K * Nn, stride_bk=Nn,
                  stride_cb=M * Nn, stride_cm=Nn, BLOCK_M=16, BLOCK_N=32, BLOCK_K=16),
        ref=lambda: {"c": (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)},
        tol={"c": (1e-4, 1e-4)},
        notes="Batched fp32 matmul with input_precision='ieee'; the batch is program_id(2) of a "
              "3x2x3 grid, batch and row strides are runtime i32 arguments; M, N, K all masked "
              "(37, 45, 50 with 16/32/16 blocks).")


@case
def c04_int8_matmul_dequant(rng: np.random.Generator) -> Case:
    M, Nn, K = 40, 24, 100
    a = rng.integers(-20, 21, (M, K)).astype(np.int8)
    b = rng.integers(-20, 21, (K, Nn)).astype(np.int8)
    s = (rng.random(M, dtype=np.float32) * 0.01).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        c = a.astype(np.int32) @ b.astype(np.int32)
        return {"c": c, "d": (c.astype(np.float32) * s[:, None]).astype(np.float32)}
    return dict(
        name="04_int8_matmul_dequant", kernel="int8_matmul_dequant",
        grid=(cdiv(M, 32), cdiv(Nn, 16), 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"), scale_ptr=Arr("scale", s, "in"),
                  c_ptr=out("c", (M, Nn), "int32"), d_ptr=out("d", (M, Nn)), M=M, N=Nn, K=K,
                  BLOCK_M=32, BLOCK_N=16, BLOCK_K=32),
        ref=ref, tol={"c": EXACT, "d": F32_EW},
        notes="int8 x int8 -> int32 tl.dot(out_dtype=int32) accumulated over a K loop with a "
              "masked tail (100 = 3*32 + 4, other=0), masked M (40 in 2x32); int32 result and a "
              "per-row fp32 dequantised copy.")


@case
def c05_desc_linear_f16(rng: np.random.Generator) -> Case:
    M, Nn, K = 100, 72, 88
    a = rng.standard_normal((M, K), dtype=np.float32).astype(np.float16)
    w = rng.standard_normal((Nn, K), dtype=np.float32).astype(np.float16)
    bias = rng.standard_normal(Nn, dtype=np.float32)
    return dict(
        name="05_desc_linear_f16", kernel="desc_linear_f16", grid=(cdiv(M, 64), cdiv(Nn, 32), 1),
        args=dict(a_ptr=Arr("a", a, "in"), w_ptr=Arr("w", w, "in"),
                  bias_ptr=Arr("bias", bias, "in"),
                  c_ptr=out("c", (M, Nn),
                            "float16"), M=M, N=Nn, K=K, BLOCK_M=64, BLOCK_N=32, BLOCK_K=32),
        ref=lambda: {"c": N((T(a).float() @ T(w).float().T + T(bias)).half())}, tol={"c": F16_MM},
        notes="Device-side tensor descriptors (tl.make_tensor_descriptor; block pointers were "
              "removed in Triton 3.9) loaded at k * BLOCK_K offsets inside a K loop of 3 steps "
              "(K=88: the last block is zero-padded), the weight tile [32, 32] of w[N, K] "
              "transposed with tl.trans before tl.dot, an fp32 bias broadcast, fp16 descriptor "
              "store with partial edge blocks dropped (M=100 in 64-row blocks, N=72 in 32-column "
              "blocks). K=88 is a multiple of 8 (16-byte row strides) but not of 16.")


@case
def c06_dot3d_trans(rng: np.random.Generator) -> Case:
    NB, D = 5, 16
    a = rng.standard_normal((NB, D, D), dtype=np.float32)
    b = rng.standard_normal((NB, D, D), dtype=np.float32)
    return dict(
        name="06_dot3d_trans", kernel="dot3d_trans", grid=(cdiv(NB, 2), 1, 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"), c_ptr=out("c", (NB, D, D)),
                  NB=NB,
                  BB=2, M=D, N=D, K=D),
        ref=lambda: {"c": (a.astype(np.float64).transpose(0, 2, 1) @ b.astype(np.float64))
                     .astype(np.float32)},
        tol={"c": (1e-4, 1e-4)},
        notes="3-D tl.dot ([2, 16, 16] x [2, 16, 16] per program, input_precision='ieee') on an "
              "operand transposed with tl.permute(a, (0, 2, 1)); 3-D pointer tensors; 5 matrices "
              "in 3 programs, the last one masked on the batch dimension.")


@case
def c07_online_softmax(rng: np.random.Generator) -> Case:
    R, C = 13, 1000
    x = (rng.standard_normal((R, C), dtype=np.float32) * 3).astype(np.float32)
    return dict(
        name="07_online_softmax", kernel="online_softmax", grid=(R, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), y_ptr=out("y", (R, C)), n_cols=C, stride=C, BLOCK=256),
        ref=lambda: {"y": N(torch.softmax(T(x).double(), 1).float())}, tol={"y": (1e-4, 1e-6)},
        notes="Softmax over 1000-long rows with a 256 block: an online-softmax scf.for carrying "
              "the running max and the rescaled running sum (two [256] tensors), a final tl.max / "
              "tl.sum, then a second loop that writes exp(x - m) / l. Masked lanes load -inf. "
              "n_cols=stride=1000 is a multiple of 8 but not of 16 (no tt.divisibility).")


@case
def c08_rms_norm_f16(rng: np.random.Generator) -> Case:
    R, C = 37, 781
    x = rng.standard_normal((R, C), dtype=np.float32).astype(np.float16)
    w = (rng.random(C, dtype=np.float32) + 0.5).astype(np.float16)
    eps = 1e-6

    def ref() -> dict[str, np.ndarray]:
        xf = T(x).double()
        y = xf * torch.rsqrt((xf * xf).mean(1, keepdim=True) + eps) * T(w).double()
        return {"y": N(y.half())}
    return dict(
        name="08_rms_norm_f16", kernel="rms_norm_f16", grid=(8, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), w_ptr=Arr("w", w, "in"),
                  y_ptr=out("y", (R, C), "float16"),
                  n_rows=R, n_cols=C, stride=C, eps=eps, BLOCK=256),
        ref=ref, tol={"y": F16_EW},
        notes="RMS norm of fp16 rows (781 = 3*256 + 13 columns) in two looped passes, fp32 math, "
              "fp16 store; 8 programs step through 37 rows (for row in range(pid, n_rows, "
              "num_programs)); eps is an f32 scalar argument.")


@case
def c09_row_gather(rng: np.random.Generator) -> Case:
    n, V, D = 50, 100, 72
    idx = rng.integers(0, V, n).astype(np.int64)
    table = rng.standard_normal((V, D), dtype=np.float32)
    wt = rng.standard_normal(n, dtype=np.float32)
    return dict(
        name="09_row_gather", kernel="row_gather", grid=(n + 2, 1, 1),
        args=dict(idx_ptr=Arr("idx", idx, "in"), table_ptr=Arr("table", table, "in"),
                  wt_ptr=Arr("wt", wt, "in"), out_ptr=out("out", (n, D)), n_idx=n, D=D, BLOCK_D=32),
        ref=lambda: {"out": (table[idx] * wt[:, None]).astype(np.float32)}, tol={"out": F32_EW},
        notes="Embedding-style row gather: an int64 index loaded as a scalar selects a row of the "
              "table (row * D in i64), the row (D=72) is copied in 3 column blocks of 32 (the "
              "last masked) and scaled by a scalar weight. The grid has 2 programs more than "
              "indices: they return early (`if i >= n_idx: return`).")


@case
def c10_strided_2d(rng: np.random.Generator) -> Case:
    M, Nn, P = 37, 100, 112
    xt = rng.standard_normal((Nn, M), dtype=np.float32)   # x = xt.T, read through strides
    y = rng.standard_normal((M, Nn), dtype=np.float32)
    alpha = 0.75

    def ref() -> dict[str, np.ndarray]:
        o = G.sentinel("float32", (M, P))
        o[:, :Nn] = xt.T * np.float32(alpha) + y
        return {"out": o}
    return dict(
        name="10_strided_2d", kernel="strided_2d", grid=(cdiv(M, 16), cdiv(Nn, 32), 1),
        args=dict(x_ptr=Arr("xt", xt, "in"), y_ptr=Arr("y", y, "in"), out_ptr=out("out", (M, P)),
                  M=M,
                  N=Nn, stride_xm=1, stride_xn=M, stride_ym=Nn, stride_om=P, alpha=alpha,
                  BLOCK_M=16, BLOCK_N=32),
        ref=ref, tol={"out": F32_EW},
        notes="2-D blocked elementwise out = x * alpha + y with row and column masks (37x100 in "
              "16x32 tiles). x is the transpose of the stored xt[100, 37]: stride_xm=1 "
              "(specialised to a constexpr) and stride_xn=37, so the x tile is a strided, "
              "transposed load. The output has a padded row stride of 112: columns 100..111 keep "
              "the sentinel.")


@case
def c11_grid3d_hints(rng: np.random.Generator) -> Case:
    B, M, Nn = 3, 37, 45
    x = rng.standard_normal((B, M, Nn), dtype=np.float32)
    v = rng.standard_normal(Nn, dtype=np.float32)
    return dict(
        name="11_grid3d_hints", kernel="grid3d_hints", grid=(cdiv(Nn, 16), cdiv(M, 8), B),
        args=dict(x_ptr=Arr("x", x, "in"), v_ptr=Arr("v", v, "in"), out_ptr=out("out", (B, M, Nn)),
                  M=M,
                  N=Nn, BLOCK_M=8, BLOCK_N=16),
        ref=lambda: {"out": (x * v + (np.arange(B, dtype=np.float32) + B)[:, None, None])
                     .astype(np.float32)},
        tol={"out": F32_EW},
        notes="3-D grid (3, 5, 3): program_id and num_programs on axes 0, 1, 2; small blocks "
              "(8x16) over a 37x45 slice (both masked); tl.multiple_of / tl.max_contiguous on the "
              "column offsets; a row vector broadcast over rows; the batch index converted to f32.")


@case
def c12_where_scalar_tensor(rng: np.random.Generator) -> Case:
    n, BLOCK = 1000, 256
    x = rng.standard_normal(n, dtype=np.float32)
    flag = np.array([-2], dtype=np.int32)
    thr = 0.25

    def ref() -> dict[str, np.ndarray]:
        offs = np.arange(n)
        c = np.where(flag[0] > 0, x, -x)
        d = np.where(x > np.float32(thr), c, np.float32(0.5))
        e = np.where(offs % 3 == 0, d, np.float32(7.0)).astype(np.float32)
        pid = offs // BLOCK
        return {"out": np.where(pid == 1, e * np.float32(2.0),
                                e - np.float32(1.0)).astype(np.float32)}
    return dict(
        name="12_where_scalar_tensor", kernel="where_scalar_tensor", grid=(cdiv(n, BLOCK), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), flag_ptr=Arr("flag", flag, "in"), out_ptr=out("out", n),
                  n=n,
                  thr=thr, BLOCK=BLOCK),
        ref=ref, tol={"out": F32_EW},
        notes="tl.where with a scalar condition (a flag loaded from memory, -2 here, so the "
              "negated branch is taken), with a tensor condition and a scalar `other`, with a "
              "condition from `offs % 3`, and an `if pid == 1` whose branches yield a tensor "
              "(scf.if with a result).")


@case
def c13_int_arith(rng: np.random.Generator) -> Case:
    n, d = 1000, 7
    a = rng.integers(-100000, 100001, n).astype(np.int32)
    a[:4] = [2 ** 30, -(2 ** 30), 2 ** 31 - 1, -(2 ** 31) + 1]
    b = rng.integers(-50, 51, n).astype(np.int32)
    b[b == 0] = 3

    def ref() -> dict[str, np.ndarray]:
        a64, b64 = a.astype(np.int64), b.astype(np.int64)
        q = np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))
        r = a64 - b64 * q
        o = np.zeros((n, 8), np.int64)
        o[:, 0], o[:, 1] = q, r
        o[:, 2] = ((a << np.int32(3)) ^ (a >> np.int32(2))).astype(np.int64)
        o[:, 3] = (a.view(np.uint32) >> np.uint32(5)).view(np.int32)
        o[:, 4] = (a & 0xFF) | (~b & 0x7F00)
        o[:, 5] = np.maximum(a64, b64) - np.minimum(a64, b64) + np.abs(a64) // d
        o[:, 6] = ((a64 * b64 * 65537) >> 20).astype(np.int32)
        hi = (a.view(np.uint32).astype(np.uint64) * 2654435761) >> 32
        o[:, 7] = hi.astype(np.uint32).view(np.int32)
        return {"out": o.astype(np.int32)}
    return dict(
        name="13_int_arith", kernel="int_arith", grid=(cdiv(n, 256), 1, 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"),
                  out_ptr=out("out", (n, 8), "int32"),
                  n=n, d=d, BLOCK=256),
        ref=ref, tol={"out": EXACT},
        notes="i32 arithmetic on signed data (|a| up to 2^31-1, b in [-50, 50] without 0): a // b "
              "and a % b (arith.divsi / remsi: truncation toward zero, like C), << (wrapping), "
              "arithmetic >> on signed values, logical >> on the uint32 bitcast, &, |, ^, ~, "
              "tl.maximum / tl.minimum / tl.abs, division by a runtime scalar, an i64 product "
              "shifted right and truncated to i32, tl.umulhi on uint32. Eight results per "
              "element, stored with stride 8.")


@case
def c14_casts(rng: np.random.Generator) -> Case:
    n = 1000
    x = (rng.standard_normal(n, dtype=np.float32) * 3).astype(np.float32)
    u = rng.integers(0, 256, n).astype(np.uint8)

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        bf = (xt * 3.0).bfloat16()
        i = (xt * 100.0).to(torch.int32)
        return {"bf": N(bf.view(torch.int16)).view(np.uint16), "h": N((bf.float() - xt).half()),
                "i": N(i), "f": N(i.float() * 0.5 + T(u).float()), "bits": N(bf.view(torch.int16)),
                "pos": x > 0}
    return dict(
        name="14_casts", kernel="casts", grid=(cdiv(n, 256), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), u8_ptr=Arr("u8", u, "in"),
                  bf_ptr=out("bf", n, "bfloat16"),
                  h_ptr=out("h", n, "float16"), i_ptr=out("i", n, "int32"), f_ptr=out("f", n),
                  bits_ptr=out("bits", n, "int16"), pos_ptr=out("pos", n, "bool"), n=n, BLOCK=256),
        ref=ref, expected="torch",
        tol={"bf": EXACT, "h": EXACT, "i": EXACT, "f": EXACT, "bits": EXACT, "pos": EXACT},
        notes="Conversions: f32 -> bf16 (round to nearest even; expected from torch because the "
              "interpreter truncates), bf16 -> f32, f32 -> f16, f32 -> i32 (fptosi, truncation "
              "toward zero, negative values), i32 -> f32, u8 -> f32 (uitofp), bf16 bitcast to "
              "i16, and a bool (i1) store of x > 0 into a torch.bool buffer (!tt.ptr<i1>, one "
              "byte per element). All results are exact.")


@case
def c15_arg_reductions(rng: np.random.Generator) -> Case:
    M, Nn = 37, 50
    x = (rng.integers(-3, 4, (M, Nn)) * 0.5).astype(np.float32)   # many ties

    def ref() -> dict[str, np.ndarray]:
        i32 = np.int32
        return {"amax": x.argmax(1).astype(i32), "amin": x.argmin(0).astype(i32), "vmax": x.max(1),
                "imax": x.argmax(1).astype(i32), "imin": x.argmin(0).astype(i32)}
    return dict(
        name="15_arg_reductions", kernel="arg_reductions", grid=(1, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), amax_ptr=out("amax", M, "int32"),
                  amin_ptr=out("amin", Nn, "int32"), vmax_ptr=out("vmax", M),
                  imax_ptr=out("imax", M, "int32"), imin_ptr=out("imin", Nn, "int32"),
                  M=M, N=Nn, BLOCK_M=64, BLOCK_N=64),
        ref=ref, tol={k: EXACT for k in ("amax", "amin", "vmax", "imax", "imin")},
        notes="tl.argmax along axis 1 and tl.argmin along axis 0 of a 64x64 tile holding a 37x50 "
              "matrix of half-integers in [-1.5, 1.5] (many ties: the first index wins), and "
              "tl.max / tl.min with return_indices=True, return_indices_tie_break_left=True "
              "(two-operand tt.reduce regions). Masked lanes hold -inf / +inf.")


@case
def c16_user_reduce(rng: np.random.Generator) -> Case:
    M, Nn = 37, 50
    x = (rng.standard_normal((M, Nn), dtype=np.float32) * 2).astype(np.float32)
    bits = (np.int32(1) << rng.integers(0, 31, (M, Nn)).astype(np.int32)).astype(np.int32)
    bits[rng.random((M, Nn)) < 0.7] = 0

    def ref() -> dict[str, np.ndarray]:
        return {"lse": N(torch.logsumexp(T(x).double(), 1).float()),
                "or": np.bitwise_or.reduce(bits, 0).astype(np.int32)}
    return dict(
        name="16_user_reduce", kernel="user_reduce", grid=(1, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), bits_ptr=Arr("bits", bits, "in"), lse_ptr=out("lse", M),
                  or_ptr=out("or", Nn, "int32"), M=M, N=Nn, BLOCK_M=64, BLOCK_N=64),
        ref=ref, tol={"lse": (1e-5, 1e-5), "or": EXACT},
        notes="tl.reduce with user combine functions: a two-operand (max, rescaled sum) logsumexp "
              "combine along rows (tl.where, tl.exp and tl.maximum inside the tt.reduce region) "
              "and a one-operand bitwise-or along columns of an i32 tile; 37x50 in a 64x64 tile.")


@case
def c17_scans(rng: np.random.Generator) -> Case:
    M, Nn = 7, 50
    x = rng.standard_normal((M, Nn), dtype=np.float32)
    a = rng.uniform(0.8, 1.2, (M, Nn)).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        xd, ad = x.astype(np.float64), a.astype(np.float64)
        h = np.zeros_like(xd)
        acc = np.zeros(M)
        for t in range(Nn):
            acc = ad[:, t] * acc + xd[:, t]
            h[:, t] = acc
        f = np.float32
        return {"csum_row": np.cumsum(xd, 1).astype(f), "csum_col": np.cumsum(xd, 0).astype(f),
                "cprod": np.cumprod(ad[:, ::-1], 1)[:, ::-1].astype(f), "h": h.astype(f)}
    return dict(
        name="17_scans", kernel="scans", grid=(1, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), a_ptr=Arr("a", a, "in"),
                  csum_row_ptr=out("csum_row", (M, Nn)),
                  csum_col_ptr=out("csum_col", (M, Nn)), cprod_ptr=out("cprod", (M, Nn)),
                  h_ptr=out("h", (M, Nn)), M=M, N=Nn, BLOCK_M=8, BLOCK_N=64),
        ref=ref, tol={"csum_row": (1e-4, 1e-4), "csum_col": (1e-4, 1e-4), "cprod": (1e-4, 1e-6),
                      "h": (1e-4, 1e-4)},
        notes="tl.cumsum along axis 1 and along axis 0, reverse tl.cumprod along axis 1, and a "
              "two-operand tl.associative_scan (combine (a1, b1), (a2, b2) -> (a1*a2, b1*a2 + "
              "b2)) computing the linear recurrence h_t = a_t * h_{t-1} + x_t; 7x50 in an 8x64 "
              "tile (masked lanes: x=0, a=1).")


@case
def c18_sort_rows(rng: np.random.Generator) -> Case:
    R, C, TOPK = 6, 32, 4
    x = (rng.permutation(R * C).reshape(R, C).astype(np.float32) - 200.0) * 0.25
    k = rng.integers(-50, 50, (R, C)).astype(np.int32)

    def ref() -> dict[str, np.ndarray]:
        s = np.sort(x, 1)
        return {"asc": s, "desc": (-s).astype(np.float32), "ks": np.sort(k, 1)[:, ::-1].copy(),
                "top": s[:, ::-1][:, :TOPK].copy()}
    return dict(
        name="18_sort_rows", kernel="sort_rows", grid=(R, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), k_ptr=Arr("k", k, "in"), asc_ptr=out("asc", (R, C)),
                  desc_ptr=out("desc", (R, C)), ks_ptr=out("ks", (R, C), "int32"),
                  top_ptr=out("top", (R, TOPK)),
                  N=C, TOPK=TOPK),
        ref=ref, tol={k_: EXACT for k_ in ("asc", "desc", "ks", "top")},
        notes="tl.sort of 32-element fp32 rows ascending and descending (then tl.flip and "
              "negated), tl.sort of i32 rows with duplicates (descending), tl.topk(x, 4). One row "
              "per program, N and TOPK are constexprs (unmasked).")


@case
def c19_atomic_scatter(rng: np.random.Generator) -> Case:
    n, nb = 1000, 16
    bins = rng.integers(0, nb, n).astype(np.int32)
    vals = (rng.integers(-32, 33, n) / 8.0).astype(np.float32)
    ivals = rng.integers(-50, 1000, n).astype(np.int32)
    sum0 = (rng.integers(-8, 9, nb) / 8.0).astype(np.float32)
    max0 = rng.integers(0, 500, nb).astype(np.int32)

    def ref() -> dict[str, np.ndarray]:
        s, mx = sum0.astype(np.float64), max0.copy()
        np.add.at(s, bins, vals.astype(np.float64))
        pos = ivals > 0
        np.maximum.at(mx, bins[pos], ivals[pos])
        return {"sum": s.astype(np.float32), "max": mx}
    return dict(
        name="19_atomic_scatter", kernel="atomic_scatter", grid=(cdiv(n, 256), 1, 1),
        args=dict(bin_ptr=Arr("bins", bins, "in"), val_ptr=Arr("vals", vals, "in"),
                  ival_ptr=Arr("ivals", ivals, "in"), sum_ptr=Arr("sum", sum0, "inout"),
                  max_ptr=Arr("max", max0, "inout"), n=n, BLOCK=256),
        ref=ref, tol={"sum": EXACT, "max": EXACT},
        notes="Scatter to 16 bins from 1000 elements (many lanes of one block hit the same "
              "address): masked tensor tl.atomic_add of f32 (multiples of 1/8, so the sums are "
              "exact in any order) and tl.atomic_max of i32 with a data-dependent mask and "
              "sem='relaxed'. Both buffers accumulate onto their initial contents.")


@case
def c20_csr_row_sum(rng: np.random.Generator) -> Case:
    R = 20
    lens = rng.integers(0, 150, R)
    lens[3] = 0
    rowptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    vals = rng.standard_normal(int(rowptr[-1]), dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        v = vals.astype(np.float64)
        return {"out": np.array([v[rowptr[r]:rowptr[r + 1]].sum() for r in range(R)], np.float32)}
    return dict(
        name="20_csr_row_sum", kernel="csr_row_sum", grid=(R, 1, 1),
        args=dict(rowptr_ptr=Arr("rowptr", rowptr, "in"), val_ptr=Arr("vals", vals, "in"),
                  out_ptr=out("out", R), BLOCK=32),
        ref=ref, tol={"out": (1e-4, 1e-4)},
        notes="CSR segment sums: each program loads its row's start and end from rowptr and runs "
              "an scf.for with those runtime bounds (step 32, unaligned start, masked against the "
              "end); row 3 is empty (zero trips). Scalar f32 accumulator (acc = 0.0; acc += "
              "tl.sum(...)), scalar store.")


@case
def c21_while_loops(rng: np.random.Generator) -> Case:
    P, BLOCK = 8, 64
    nvals = np.array([27, 1, 7, 97, 2, 3, 6, 871], np.int32)
    x = (rng.standard_normal((P, BLOCK)) * (10.0 ** rng.integers(-1, 4, (P, 1)))).astype(np.float32)
    limit = 1.0

    def collatz(v: int) -> int:
        s = 0
        while v != 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            s += 1
        return s

    def ref() -> dict[str, np.ndarray]:
        y = x.copy()
        for p in range(P):
            while np.abs(y[p]).max() > limit:
                y[p] = y[p] * np.float32(0.5)
        return {"steps": np.array([collatz(int(v)) for v in nvals], np.int32), "y": y}
    return dict(
        name="21_while_loops", kernel="while_loops", grid=(P, 1, 1),
        args=dict(n_ptr=Arr("n", nvals, "in"), x_ptr=Arr("x", x, "in"),
                  steps_ptr=out("steps", P, "int32"),
                  y_ptr=out("y", (P, BLOCK)), limit=limit, BLOCK=BLOCK),
        ref=ref, tol={"steps": EXACT, "y": EXACT},
        notes="scf.while loops on runtime conditions: a scalar Collatz loop (trip counts 0..178 "
              "depending on the loaded value; an scf.if on v % 2 inside the loop body) and a "
              "tensor loop `while tl.max(tl.abs(x), 0) > limit: x = x * 0.5` with a reduction in "
              "the condition region (halving is exact).")


@case
def c22_static_unroll_scalar(rng: np.random.Generator) -> Case:
    R, S, BLOCK, TAPS, STEPS = 10, 34, 32, 4, 9
    x = rng.standard_normal((R, S), dtype=np.float32)
    h = rng.standard_normal((R, STEPS), dtype=np.float32).astype(np.float16)

    def ref() -> dict[str, np.ndarray]:
        o = np.zeros((R, BLOCK), np.float32)
        for t in range(TAPS):
            cols = np.arange(BLOCK) + t
            xv = np.where(cols < S, x[:, np.minimum(cols, S - 1)], np.float32(0))
            o = o + np.float32((t + 1) * 0.25) * xv
        hv = h[:, 0].copy()
        for s in range(1, STEPS):
            hv = (hv * np.float16(0.5)).astype(np.float16) + h[:, s]
        return {"out": o.astype(np.float32), "hout": hv.astype(np.float16)}
    return dict(
        name="22_static_unroll_scalar", kernel="static_unroll_scalar", grid=(R + 2, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), h_ptr=Arr("h", h, "in"), out_ptr=out("out", (R, BLOCK)),
                  hout_ptr=out("hout", R, "float16"), n_rows=R, stride=S, n_steps=STEPS, TAPS=TAPS,
                  BLOCK=BLOCK),
        ref=ref, tol={"out": F32_EW, "hout": F16_EW},
        notes="tl.static_range(4) unrolled taps (shifted masked loads: cols + t < 34), an early "
              "`return` for the 2 programs past n_rows=10, and a scalar recurrence in fp16 (h = h "
              "* 0.5 + load(p), scalar f16 arith.mulf/addf) with a scalar pointer advanced by `p "
              "+= 1` in an scf.for from 1 to a runtime n_steps.")


@case
def c23_matmul_ptr_advance(rng: np.random.Generator) -> Case:
    M, Nn, K = 100, 72, 80
    a = rng.standard_normal((M, K), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((K, Nn), dtype=np.float32).astype(np.float16)
    return dict(
        name="23_matmul_ptr_advance", kernel="matmul_ptr_advance",
        grid=(cdiv(M, 32), cdiv(Nn, 32), 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"),
                  c_ptr=out("c", (M, Nn), "float16"), M=M, N=Nn, K=K, stride_am=K, stride_ak=1,
                  stride_bk=Nn, stride_cm=Nn, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32),
        ref=lambda: {"c": N((T(a).float() @ T(b).float()).half())}, tol={"c": F16_MM},
        notes="fp16 matmul in the most common hand-written form: masked M/N edges instead of `% "
              "M`, a K loop of 3 steps (80 = 2*32 + 16, masked with K - k * BLOCK_K), `acc += "
              "tl.dot(a, b)`, and pointer tensors carried through the scf.for: a_ptrs advanced by "
              "a constant tensor (stride_ak=1 is specialised, so BLOCK_K * stride_ak folds to "
              "dense<32>), b_ptrs by the runtime BLOCK_K * stride_bk.")


@case
def c24_atomic_float_minmax(rng: np.random.Generator) -> Case:
    n, nb = 1000, 16
    bins = rng.integers(0, nb, n).astype(np.int32)
    vals = (rng.standard_normal(n) * 10).astype(np.float32)
    min0 = np.zeros(nb, np.float32)
    max0 = np.full(nb, -1.0, np.float32)

    def ref() -> dict[str, np.ndarray]:
        mn, mx = min0.copy(), max0.copy()
        np.minimum.at(mn, bins, vals)
        np.maximum.at(mx, bins, vals)
        return {"min": mn, "max": mx}
    return dict(
        name="24_atomic_float_minmax", kernel="atomic_float_minmax", grid=(cdiv(n, 256), 1, 1),
        args=dict(bin_ptr=Arr("bins", bins, "in"), val_ptr=Arr("vals", vals, "in"),
                  min_ptr=Arr("min", min0, "inout"), max_ptr=Arr("max", max0, "inout"), n=n,
                  BLOCK=256),
        ref=ref, tol={"min": EXACT, "max": EXACT},
        notes="f32 tl.atomic_min / tl.atomic_max of tensors (both signs) into 16 bins with "
              "conflicting lanes. The frontend bitcasts the f32 pointers to i32 and emits, per "
              "lane, a signed i32 max/min (values >= 0) or an unsigned umin/umax (values < 0) "
              "selected by masks. min starts at 0.0, max at -1.0.")


@case
def c25_softmax_store_reload(rng: np.random.Generator) -> Case:
    R, C = 5, 1500
    x = (rng.standard_normal((R, C), dtype=np.float32) * 3).astype(np.float32)
    return dict(
        name="25_softmax_store_reload", kernel="softmax_store_reload", grid=(R, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), y_ptr=out("y", (R, C)), n_cols=C, BLOCK=512),
        ref=lambda: {"y": N(torch.softmax(T(x).double(), 1).float())}, tol={"y": (1e-4, 1e-6)},
        notes="Softmax of 1500-long rows in three loops over 512-blocks (the last masked): max; "
              "exp(x - max) stored to y while summed; y loaded back, scaled by 1/sum and stored "
              "again. The third loop reads what the second wrote to global memory in the same "
              "program, so stores must be complete (and not reordered after the loads) before the "
              "reload. The pattern of Inductor's looped softmax (72), written with tl.max.")


@case
def c26_matmul_a_colmajor(rng: np.random.Generator) -> Case:
    M, Nn, K = 100, 72, 80
    at = rng.standard_normal((K, M), dtype=np.float32).astype(np.float16)   # A = at.T
    b = rng.standard_normal((K, Nn), dtype=np.float32).astype(np.float16)
    return dict(
        name="26_matmul_a_colmajor", kernel="matmul_a_colmajor",
        grid=(cdiv(M, 32), cdiv(Nn, 32), 1),
        args=dict(a_ptr=Arr("at", at, "in"), b_ptr=Arr("b", b, "in"),
                  c_ptr=out("c", (M, Nn), "float16"), M=M, N=Nn, K=K, stride_am=1, stride_ak=M,
                  stride_bk=Nn, stride_cm=Nn, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32),
        ref=lambda: {"c": N((T(at).float().T @ T(b).float()).half())}, tol={"c": F16_MM},
        notes="23 with A passed as a transposed view (A = at.T, at[80, 100] row-major): "
              "stride_am=1 is specialised away and stride_ak=100 is a runtime argument, so the A "
              "tile is a strided (column-major) gather whose pointer tensor is carried through "
              "the scf.for and advanced by BLOCK_K * stride_ak.")


@case
def c27_attn_fwd_prefix_f16(rng: np.random.Generator) -> Case:
    B, H, NQ, NKV, D = 2, 2, 37, 50, 32
    q = rng.standard_normal((B * H, NQ, D), dtype=np.float32).astype(np.float16)
    k = rng.standard_normal((B * H, NKV, D), dtype=np.float32).astype(np.float16)
    v = rng.standard_normal((B * H, NKV, D), dtype=np.float32).astype(np.float16)
    kvlen = np.array([NKV, 41], np.int32)
    scale = 1.0 / np.sqrt(D)

    def ref() -> dict[str, np.ndarray]:
        s = T(q).double() @ T(k).double().transpose(1, 2) * scale        # [BH, NQ, NKV]
        i = torch.arange(NQ)[:, None] + (NKV - NQ)
        j = torch.arange(NKV)[None, :]
        lens = T(kvlen).long().repeat_interleave(H)[:, None, None]
        s = s.masked_fill(~((j <= i)[None] & (j[None] < lens)), float("-inf"))
        return {"o": N((torch.softmax(s, -1) @ T(v).double()).half()),
                "lse": N(torch.logsumexp(s, -1).float())}
    return dict(
        name="27_attn_fwd_prefix_f16", kernel="attn_fwd_prefix_f16",
        grid=(cdiv(NQ, 16), B * H, 1),
        args=dict(q_ptr=Arr("q", q, "in"), k_ptr=Arr("k", k, "in"), v_ptr=Arr("v", v, "in"),
                  kvlen_ptr=Arr("kvlen", kvlen, "in"), o_ptr=out("o", (B * H, NQ, D), "float16"),
                  lse_ptr=out("lse", (B * H, NQ)), sm_scale=float(scale), H=H, N_Q=NQ, N_KV=NKV,
                  stride_qh=NQ * D, stride_kh=NKV * D, HEAD_DIM=D, BLOCK_M=16, BLOCK_N=32),
        ref=ref, tol={"o": F16_MM, "lse": (1e-5, 1e-5)},
        notes="Attention forward for 2 batches x 2 heads, 37 queries against 50 keys, head dim 32, "
              "fp16: Q tile [16, 32], K loaded as [32, 32] rows and tl.trans'posed for "
              "tl.dot(q, k^T), online softmax in base e over a KV loop of 2 steps (the second "
              "masked: 50 = 32 + 18), p cast to fp16 for tl.dot(p, v, acc). Masks by tl.where: "
              "bottom-right causal (key j visible to query i iff j <= i + 13) and a per-batch key "
              "length loaded from memory (50 and 41), so some rows see -inf in a whole block; "
              "K / V rows masked with offs_n[:, None] < N_KV; "
              "m - -inf guarded with tl.where. Stores O (fp16) and the row log-sum-exp (f32). "
              "Grid (3, 4): the last query block has 5 valid rows.")


@case
def c28_layer_norm_bwd(rng: np.random.Generator) -> Case:
    R, C = 37, 100
    x = (rng.standard_normal((R, C), dtype=np.float32) * 2 + 0.5).astype(np.float32)
    dy = rng.standard_normal((R, C), dtype=np.float32)
    w = (rng.random(C, dtype=np.float32) + 0.5).astype(np.float32)
    mean = x.astype(np.float64).mean(1).astype(np.float32)
    rstd = (1 / np.sqrt(x.astype(np.float64).var(1) + 1e-5)).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        xd, dyd, wd = x.astype(np.float64), dy.astype(np.float64), w.astype(np.float64)
        xhat = (xd - mean[:, None]) * rstd[:, None]
        wdy = wd * dyd
        c1 = (xhat * wdy).mean(1, keepdims=True)
        c2 = wdy.mean(1, keepdims=True)
        f = np.float32
        return {"dx": ((wdy - (xhat * c1 + c2)) * rstd[:, None]).astype(f),
                "dw": (dyd * xhat).sum(0).astype(f), "db": dyd.sum(0).astype(f)}
    return dict(
        name="28_layer_norm_bwd", kernel="layer_norm_bwd", grid=(5, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), dy_ptr=Arr("dy", dy, "in"), w_ptr=Arr("w", w, "in"),
                  mean_ptr=Arr("mean", mean, "in"), rstd_ptr=Arr("rstd", rstd, "in"),
                  dx_ptr=out("dx", (R, C)), dw_ptr=Arr("dw", np.zeros(C, np.float32), "inout"),
                  db_ptr=Arr("db", np.zeros(C, np.float32), "inout"), n_rows=R, N=C,
                  BLOCK_N=128),
        ref=ref, tol={"dx": (1e-5, 1e-5), "dw": (1e-4, 1e-5), "db": (1e-4, 1e-5)},
        notes="Layer-norm backward over 37 rows of 100 (block 128): 5 programs each take rows pid, "
              "pid + 5, ... (scf.for with a tl.num_programs step), reload the saved mean / rstd "
              "as scalars, compute dx with two row reductions (tl.sum) and accumulate dy * x_hat "
              "and dy in [128] registers across their rows; at the end every program "
              "tl.atomic_add's its partial dw / db into the same 100 floats (5 adders per "
              "address; dw and db start at 0). f32 atomics in any order: tolerance 1e-4.")


@case
def c29_segmented_scan(rng: np.random.Generator) -> Case:
    R, C = 5, 200
    flags = (rng.random((R, C)) < 0.08).astype(np.int32)
    flags[:, 0] = 1
    flags[2, :] = 0
    flags[2, 0] = 1                     # one row is a single segment
    x = rng.standard_normal((R, C), dtype=np.float32)
    a = rng.uniform(0.9, 0.99, (R, C)).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        seg = np.zeros((R, C))
        ret = np.zeros((R, C))
        for r in range(R):
            acc = 0.0
            for t in range(C):
                acc = float(x[r, t]) if flags[r, t] else acc + float(x[r, t])
                seg[r, t] = acc
            h = 0.0
            for t in range(C - 1, -1, -1):
                h = float(a[r, t]) * h + float(x[r, t])
                ret[r, t] = h
        return {"seg": seg.astype(np.float32), "ret": ret.astype(np.float32)}
    return dict(
        name="29_segmented_scan", kernel="segmented_scan", grid=(R, 1, 1),
        args=dict(flag_ptr=Arr("flags", flags, "in"), x_ptr=Arr("x", x, "in"),
                  a_ptr=Arr("a", a, "in"), seg_ptr=out("seg", (R, C)), ret_ptr=out("ret", (R, C)),
                  n=C, BLOCK=256),
        ref=ref, tol={"seg": (1e-4, 1e-5), "ret": (1e-4, 1e-5)},
        notes="Two tl.associative_scan's with user combine functions over rows of 200 in a 256 "
              "block (masked lanes: flag 1, x 0, a 1): a segmented sum, combine (f1, v1), (f2, v2) "
              "-> (f1 | f2, where(f2 != 0, v2, v1 + v2)) on (i32 flag, f32 value) pairs, ~8% "
              "segment starts (row 2 is one segment); and a reverse=True affine scan (a1*a2, "
              "b1*a2 + b2), i.e. the discounted return h_t = a_t * h_{t+1} + x_t, a in [0.9, "
              "0.99].")


@case
def c30_matmul_splitk_atomic(rng: np.random.Generator) -> Case:
    M, Nn, K, SPLIT = 45, 40, 200, 3
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, Nn)).astype(np.float16)
    return dict(
        name="30_matmul_splitk_atomic", kernel="matmul_splitk_atomic",
        grid=(cdiv(M, 32) * cdiv(Nn, 32), SPLIT, 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"),
                  c_ptr=Arr("c", np.zeros((M, Nn), np.float32), "inout"), M=M, N=Nn, K=K,
                  BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, SPLIT_K=SPLIT),
        ref=lambda: {"c": (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)},
        tol={"c": EXACT},
        notes="Split-K fp16 matmul [45, 200] x [200, 40]: grid (4 output tiles, 3 K splits); "
              "split s runs the K blocks s, s + 3, ... (scf.for from pid_k * 32 to 200 step 96: "
              "3, 2 and 2 iterations; the block at 192 is masked, 200 = 6*32 + 8), and every "
              "split tl.atomic_add's its fp32 [32, 32] partial tile (masked M/N edges) into C, "
              "which starts at 0. Integer-valued inputs in [-3, 3]: all sums are exact.")


@case
def c31_desc_bmm_swizzle(rng: np.random.Generator) -> Case:
    B, M, Nn, K = 2, 40, 48, 56
    a = rng.standard_normal((B, M, K), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((B, K, Nn), dtype=np.float32).astype(np.float16)
    return dict(
        name="31_desc_bmm_swizzle", kernel="desc_bmm_swizzle",
        grid=(cdiv(M, 16), cdiv(Nn, 16), B),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"), c_ptr=out("c", (B, M, Nn)),
                  M=M, N=Nn, K=K, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16, GROUP=2),
        ref=lambda: {"c": (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)},
        tol={"c": (1e-4, 1e-4)},
        notes="Batched fp16 matmul through 3-D device-side tensor descriptors (shape [B, M, K], "
              "strides [M*K, K, 1], block [1, 16, 16]) whose loads are reshaped to [16, 16] for "
              "tl.dot and whose fp32 result is reshaped to [1, 16, 16] for the descriptor "
              "store; batch = program_id(2), the (m, n) tile of the 3x3 program grid remapped by "
              "tl.swizzle2d(..., GROUP=2); the descriptor's batch extent is tl.num_programs(2). "
              "M=40 leaves a partial last row block (zero-padded on load, clipped on store), "
              "K=56 a partial last K block.")


@case
def c32_alibi_causal_softmax(rng: np.random.Generator) -> Case:
    B, H, Tn = 2, 3, 45
    s = (rng.standard_normal((B, H, Tn, Tn), dtype=np.float32) * 4).astype(np.float16)
    slope = np.array([2.0 ** (-8.0 * (h + 1) / H) for h in range(H)], np.float32)
    scale = 0.125

    def ref() -> dict[str, np.ndarray]:
        i = torch.arange(Tn)[:, None]
        j = torch.arange(Tn)[None, :]
        z = T(s).double() * scale - T(slope).double()[None, :, None, None] * (i - j)
        z = z.masked_fill(j > i, float("-inf"))
        return {"p": N(torch.softmax(z, -1).half())}
    return dict(
        name="32_alibi_causal_softmax", kernel="alibi_causal_softmax",
        grid=(cdiv(Tn, 8), B * H, 1),
        args=dict(s_ptr=Arr("s", s, "in"), slope_ptr=Arr("slope", slope, "in"),
                  p_ptr=out("p", (B, H, Tn, Tn), "float16"), H=H, T=Tn, scale=scale,
                  BLOCK_R=8, BLOCK_T=64),
        ref=ref, tol={"p": F16_EW},
        notes="Softmax of fp16 attention scores [2, 3, 45, 45] with an ALiBi bias -slope[h] * (i "
              "- j) (slope loaded per head, h = program_id(1) % H) and a causal mask built with "
              "tl.where(cols <= rows, ..., -inf) from row / column index tensors; 8 rows per "
              "program in a [8, 64] tile (both dims masked, 6x6 grid), fp16 output (exact zeros "
              "above the diagonal).")


@case
def c33_masked_bag_gather(rng: np.random.Generator) -> Case:
    NB, L, V, D = 9, 13, 60, 72
    idx = rng.integers(0, V, (NB, L)).astype(np.int32)
    idx[rng.random((NB, L)) < 0.25] = -1
    idx[4] = -1                         # an empty bag
    wt = rng.standard_normal((NB, L), dtype=np.float32)
    table = rng.standard_normal((V, D), dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        valid = (idx >= 0)[:, :, None]
        g = np.where(valid, table[np.maximum(idx, 0)], 0.0).astype(np.float64)
        return {"out": (g * wt[:, :, None].astype(np.float64)).sum(1).astype(np.float32)}
    return dict(
        name="33_masked_bag_gather", kernel="masked_bag_gather", grid=(NB, cdiv(D, 32), 1),
        args=dict(idx_ptr=Arr("idx", idx, "in"), wt_ptr=Arr("wt", wt, "in"),
                  table_ptr=Arr("table", table, "in"), out_ptr=out("out", (NB, D)), L=L, D=D,
                  BLOCK_L=16, BLOCK_D=32),
        ref=ref, tol={"out": (1e-5, 1e-5)},
        notes="Weighted embedding bag: 9 bags of 13 int32 indices (-1 = padding, ~25%; bag 4 "
              "all padding), loaded with a mask (other=-1); the [16, 32] tile of table rows is "
              "gathered with tl.load(table + idx[:, None] * 72 + cols) masked by idx >= 0 and the "
              "column bound (72 in 3 blocks of 32), weighted and reduced over the bag (tl.sum "
              "axis 0). The empty bag stores zeros.")


@case
def c34_moe_scale_early_return(rng: np.random.Generator) -> Case:
    E, NT, D = 5, 32, 40
    counts = np.array([7, 0, 19, 3, 0], np.int32)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    tok = rng.permutation(NT)[:counts.sum()].astype(np.int32)        # 3 tokens dropped
    gate = rng.random(counts.sum(), dtype=np.float32)
    escale = (rng.random(E, dtype=np.float32) + 0.5).astype(np.float32)
    x = rng.standard_normal((NT, D), dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        o = G.sentinel("float32", (NT, D))
        for e in range(E):
            for s in range(offsets[e], offsets[e] + counts[e]):
                o[tok[s]] = x[tok[s]] * (gate[s] * escale[e])
        return {"out": o}
    return dict(
        name="34_moe_scale_early_return", kernel="moe_scale_early_return",
        grid=(E, cdiv(int(counts.max()), 8), 1),
        args=dict(count_ptr=Arr("counts", counts, "in"), offset_ptr=Arr("offsets", offsets, "in"),
                  tok_ptr=Arr("tok", tok, "in"), gate_ptr=Arr("gate", gate, "in"),
                  escale_ptr=Arr("escale", escale, "in"), x_ptr=Arr("x", x, "in"),
                  out_ptr=out("out", (NT, D)), D=D, BLOCK_T=8, BLOCK_D=64),
        ref=ref, tol={"out": F32_EW},
        notes="Mixture-of-experts style kernel on a (5 experts, 3 token blocks of 8) grid: the "
              "token count of expert e is a scalar load; `if count == 0: return` (experts 1 and "
              "4) and `if t0 >= count: return` (blocks past the count) are early returns on "
              "loaded values; the rest load the expert's slice of the sorted token ids (start "
              "offset loaded too), gather x rows [8, 64] (40 valid columns) through them, scale "
              "by gate * expert scale and scatter the rows back to their token positions. 29 "
              "of 32 tokens are routed; the other 3 rows must keep the sentinel.")


def _philox4(seed: int, offs: np.ndarray) -> tuple[np.ndarray, ...]:
    """numpy Philox 4x32-10 of tl.randint4x(seed, offs) for i32 offsets: (c0, c1, c2, c3)."""
    M = np.uint64(0xFFFFFFFF)
    c0 = offs.astype(np.int64).astype(np.uint64) & M
    c1, c2, c3 = np.zeros_like(c0), np.zeros_like(c0), np.zeros_like(c0)
    s = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    k0 = np.full_like(c0, s & M)
    k1 = np.full_like(c0, (s >> np.uint64(32)) & M)
    A, B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    for _ in range(10):
        p_b, p_a = B * c2, A * c0
        c0, c2, c1, c3 = (((p_b >> np.uint64(32)) ^ c1 ^ k0) & M,
                          ((p_a >> np.uint64(32)) ^ c3 ^ k1) & M, p_b & M, p_a & M)
        k0 = (k0 + np.uint64(0x9E3779B9)) & M
        k1 = (k1 + np.uint64(0xBB67AE85)) & M
    return tuple(c.astype(np.uint32) for c in (c0, c1, c2, c3))


def _uniform(u: np.ndarray) -> np.ndarray:
    r = u.view(np.int32)
    return np.where(r < 0, ~r, r).astype(np.float32) * np.float32(4.6566127342e-10)


@case
def c35_hash_and_philox(rng: np.random.Generator) -> Case:
    n, seed = 1000, 20240607
    x = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    x[:4] = [0, -1, 2 ** 31 - 1, -(2 ** 31)]

    def ref() -> dict[str, np.ndarray]:
        u32 = np.uint32
        with np.errstate(over="ignore"):
            h = (x.astype(np.int64) * 1103515245 + 12345).astype(np.uint64).astype(u32)
            h = h.view(np.int32)
            h = h ^ (h >> np.int32(16))
            u = h.view(u32)
            u = (u ^ (u >> u32(13))) * u32(0x5BD1E995)
            u = u ^ (u >> u32(15))
            hout = u.view(np.int32) ^ (x << np.int32(7))
        ux = x.view(u32)
        uq = (ux // u32(1000003)).view(np.int32)
        ur = (ux % u32(7919) + (ux > u32(3000000000)).astype(u32) * u32(10000)).view(np.int32)
        offs = np.arange(n, dtype=np.int32)
        c0 = _philox4(seed, offs)[0]
        n0, n1, _, _ = _philox4(seed + 1, offs)
        u1 = np.maximum(np.float32(1e-7), _uniform(n0)).astype(np.float64)
        u2 = _uniform(n1).astype(np.float64)
        rn = np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)
        return {"h": hout, "uq": uq, "ur": ur, "ri": c0.view(np.int32), "ru": _uniform(c0),
                "rn": rn.astype(np.float32)}
    return dict(
        name="35_hash_and_philox", kernel="hash_and_philox", grid=(cdiv(n, 256), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), h_ptr=out("h", n, "int32"), uq_ptr=out("uq", n, "int32"),
                  ur_ptr=out("ur", n, "int32"), ri_ptr=out("ri", n, "int32"),
                  ru_ptr=out("ru", n), rn_ptr=out("rn", n), n=n, seed=seed, BLOCK=256),
        ref=ref, tol={"h": EXACT, "uq": EXACT, "ur": EXACT, "ri": EXACT, "ru": EXACT,
                      "rn": (1e-5, 1e-5)},
        notes="Integer hashing on the full int32 range (including 0, -1, INT_MAX, INT_MIN) with "
              "wrapping arithmetic: x * 1103515245 + 12345 (an LCG step that overflows), h ^ (h >> "
              "16) (arithmetic shift), on the uint32 view u ^ (u >> 13) (logical shift), a "
              "wrapping uint32 multiply by 0x5BD1E995, u ^ (u >> 15), xor with x << 7; on the "
              "uint32 view of x: // 1000003 and % 7919 (arith.divui / remui) and an unsigned "
              "comparison with 3000000000 (> INT_MAX). Then "
              "Philox 4x32-10 from a runtime i32 seed: tl.randint (raw uint32 word, stored "
              "bitcast to i32), tl.rand (uniform f32) and tl.randn(seed + 1) (Box-Muller: log, "
              "sqrt, cos). Cross-checked against numpy re-implementations.")


@case
def c36_reshape_permute_trans(rng: np.random.Generator) -> Case:
    x = rng.standard_normal(512, dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        a = x.reshape(8, 4, 16) + np.arange(16, dtype=np.float32) * np.float32(0.5)
        p = a.transpose(2, 0, 1) * (np.arange(4, dtype=np.float32) + 1)
        m = p.reshape(16, 32).T - np.arange(32, dtype=np.float32)[:, None]
        return {"y": np.ascontiguousarray(m), "r": p.astype(np.float64).sum(2).astype(np.float32),
                "z": np.ascontiguousarray(a.transpose(1, 0, 2))}
    return dict(
        name="36_reshape_permute_trans", kernel="reshape_permute_trans", grid=(1, 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), y_ptr=out("y", (32, 16)), r_ptr=out("r", (16, 8)),
                  z_ptr=out("z", (4, 8, 16))),
        ref=ref, tol={"y": F32_EW, "r": (1e-5, 1e-5), "z": F32_EW},
        notes="Register shape manipulation on one [512] block: tl.reshape to [8, 4, 16], + "
              "0.5 * (last index), tl.permute (2, 0, 1) to [16, 8, 4], * (last index + 1), "
              "tl.sum over the last (permuted) axis -> r[16, 8]; tl.reshape to [16, 32] and "
              "tl.trans to [32, 16], - (row index) -> y; and the 3-D tl.trans(a, 1, 0, 2) -> "
              "z[4, 8, 16]. No masks; the position-dependent terms make every layout error "
              "visible.")


@case
def c37_rope_split_join(rng: np.random.Generator) -> Case:
    Tn, HALF, P = 37, 32, 100
    x = rng.standard_normal((Tn, 2 * HALF), dtype=np.float32).astype(np.float16)
    pos = rng.integers(0, P, Tn).astype(np.int32)
    inv = 1.0 / (10000.0 ** (np.arange(HALF) / HALF))
    ang = np.arange(P)[:, None] * inv[None, :]
    cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        xd = x.astype(np.float64)
        xe, xo = xd[:, 0::2], xd[:, 1::2]
        c, s = cos[pos].astype(np.float64), sin[pos].astype(np.float64)
        ye, yo = xe * c - xo * s, xe * s + xo * c
        y = np.stack([ye, yo], -1).reshape(Tn, 2 * HALF)
        ys = np.stack([yo, ye], -1).reshape(Tn, 2 * HALF)
        return {"y": y.astype(np.float16), "ys": ys.astype(np.float16)}
    return dict(
        name="37_rope_split_join", kernel="rope_split_join", grid=(cdiv(Tn, 16), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), pos_ptr=Arr("pos", pos, "in"),
                  cos_ptr=Arr("cos", cos, "in"), sin_ptr=Arr("sin", sin, "in"),
                  y_ptr=out("y", (Tn, 2 * HALF), "float16"),
                  ys_ptr=out("ys", (Tn, 2 * HALF), "float16"), T=Tn, HALF=HALF, BLOCK_T=16),
        ref=ref, tol={"y": F16_EW, "ys": F16_EW},
        notes="Rotary embedding on interleaved pairs: a [16, 64] fp16 tile (37 tokens, the last "
              "block masked) upcast, tl.reshape'd to [16, 32, 2] and tl.split into the even / "
              "odd halves [16, 32]; cos / sin rows [100, 32] gathered through a loaded int32 "
              "position id per token; the rotated halves put back with tl.join + tl.reshape "
              "(y) and with tl.interleave(y_odd, y_even) (ys, the pairs swapped); fp16 stores.")


@case
def c38_atomic_old_values(rng: np.random.Generator) -> Case:
    n, BLOCK = 1000, 256
    npad = cdiv(n, BLOCK) * BLOCK
    acc = (rng.integers(-64, 65, n) / 8.0).astype(np.float32)
    x = (rng.integers(-64, 65, n) / 8.0).astype(np.float32)
    m = rng.integers(-300, 301, n).astype(np.int32)
    flag = rng.integers(0, 3, npad).astype(np.int32)
    xchg = rng.integers(-1000, 1000, n).astype(np.int32)
    bits = rng.integers(-2 ** 31, 2 ** 31, 3 * n, dtype=np.int64).astype(np.int32)

    def ref() -> dict[str, np.ndarray]:
        offs = np.arange(npad, dtype=np.int32)
        xm = (x * np.float32(100)).astype(np.int32)
        old_f = np.stack([acc * np.float32(2), m.astype(np.float32)], 1)
        new_flag = np.where(flag == offs % 3, offs + 100, flag).astype(np.int32)
        b = (bits[:n] + bits[n:2 * n] + bits[2 * n:]).astype(np.int32)   # the three old values
        new_bits = np.concatenate([bits[:n] & 0x0FF0, bits[n:2 * n] | 0x1001,
                                   bits[2 * n:] ^ offs[:n]]).astype(np.int32)
        return {"acc": (acc + x).astype(np.float32), "m": np.maximum(m, xm),
                "flag": new_flag, "xchg": flag[:n].copy(), "bits": new_bits,
                "old_f": old_f.astype(np.float32),
                "old_i": np.stack([flag[:n], xchg, b], 1).astype(np.int32)}
    return dict(
        name="38_atomic_old_values", kernel="atomic_old_values", grid=(cdiv(n, BLOCK), 1, 1),
        args=dict(acc_ptr=Arr("acc", acc, "inout"), x_ptr=Arr("x", x, "in"),
                  m_ptr=Arr("m", m, "inout"), flag_ptr=Arr("flag", flag, "inout"),
                  xchg_ptr=Arr("xchg", xchg, "inout"), bits_ptr=Arr("bits", bits, "inout"),
                  old_f_ptr=out("old_f", (n, 2)), old_i_ptr=out("old_i", (n, 3), "int32"), n=n,
                  BLOCK=BLOCK),
        ref=ref, tol={k: EXACT for k in ("acc", "m", "flag", "xchg", "bits", "old_f", "old_i")},
        notes="Atomics whose returned old values are used: per element (distinct addresses, so "
              "the results are deterministic) tl.atomic_add of f32 (multiples of 1/8, exact), "
              "tl.atomic_max of i32, tl.atomic_cas(flag, offs % 3, offs + 100) without a mask "
              "(about a third of the compares succeed; the flag buffer has room for the 24 "
              "lanes past n), tl.atomic_xchg storing the cas result, tl.atomic_and / or / xor on "
              "three i32 regions whose old values are summed (wrapping). The old values are "
              "stored (old_f: 2 * old acc and old max as f32, old_i: old flag, old xchg, sum of "
              "the three old bit words) and every atomically updated buffer is checked too.")


@case
def c39_matmul_block128(rng: np.random.Generator) -> Case:
    M, Nn, K = 200, 136, 96
    a = rng.standard_normal((M, K), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((K, Nn), dtype=np.float32).astype(np.float16)
    return dict(
        name="39_matmul_block128", kernel="matmul_block128",
        grid=(cdiv(M, 128) * cdiv(Nn, 128), 1, 1),
        args=dict(a_ptr=Arr("a", a, "in"), b_ptr=Arr("b", b, "in"),
                  c_ptr=out("c", (M, Nn), "float16"), M=M, N=Nn, K=K, BLOCK_M=128,
                  BLOCK_N=128, BLOCK_K=64, GROUP_M=8),
        ref=lambda: {"c": N((T(a).float() @ T(b).float()).half())}, tol={"c": F16_MM},
        notes="The tutorial fp16 matmul with the block sizes of its autotune configs and of most "
              "real matmul kernels: 128x128 output tiles (an fp32 accumulator of 64 KiB), "
              "BLOCK_K=64 (two 16 KiB fp16 operand tiles per step), GROUP_M=8 grouped ordering "
              "(2x2 tiles, all partial: M=200, N=136), K=96 in 2 steps (the second half "
              "masked), pointer tensors advanced in the loop.")


@case
def c40_interleave_sources(rng: np.random.Generator) -> Case:
    n = 1000
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    return dict(
        name="40_interleave_sources", kernel="interleave_sources", grid=(cdiv(n, 256), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), y_ptr=Arr("y", y, "in"), z_ptr=out("z", (n,)),
                  n=n, BLOCK=256),
        ref=lambda: {"z": np.where(np.arange(n) % 2 == 0, x, y) * np.float32(2.0)},
        tol={"z": EXACT},
        notes="Pointers chosen lane by lane between two buffers (`tl.where` on pointer "
              "tensors): an indexed gather whose offsets from x reach into y; masked tail.")


@case
def c41_dot_residual(rng: np.random.Generator) -> Case:
    M, D = 100, 32
    x = rng.standard_normal((M, D), dtype=np.float32).astype(np.float16)
    w = (rng.standard_normal((D, D), dtype=np.float32) * 0.2).astype(np.float16)
    return dict(
        name="41_dot_residual", kernel="dot_residual", grid=(cdiv(M, 32), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), w_ptr=Arr("w", w, "in"),
                  y_ptr=out("y", (M, D), "float16"), M=M, D=D, BLOCK_M=32),
        ref=lambda: {"y": N((T(x).float() @ T(w).float() + T(x).float()).half())},
        tol={"y": F16_MM},
        notes="`x @ w + x` in fp16 with an fp32 dot: the loaded x feeds the DPE and the SIMD "
              "engine; masked rows.")


@case
def c42_unaligned_rows_window(rng: np.random.Generator) -> Case:
    rows, cols, col0 = 37, 781, 5
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    window = x[:, col0:col0 + 64]
    return dict(
        name="42_unaligned_rows_window", kernel="unaligned_rows_window",
        grid=(cdiv(rows, 16), 1, 1),
        args=dict(x_ptr=Arr("x", x, "in"), y_ptr=out("y", (64, rows)), rows=rows, cols=cols,
                  col0=col0, BLOCK_R=16, BLOCK_C=64),
        ref=lambda: {"y": (window / np.abs(window).max(axis=1, keepdims=True)).T.copy()},
        tol={"y": F32_EW},
        notes="Rows of 781 floats read from column 5: no row start is 32-byte aligned, so the "
              "window moves element by element; the store is transposed (rows of stride 37).")


# ============================================================================ Inductor cases
def launch_extent(spec: list[Any]) -> int:
    """Number of elements a recorded tensor argument spans from its pointer."""
    _, shape, stride, _, _ = spec
    return 1 + sum((s - 1) * st for s, st in zip(shape, stride, strict=True)) if all(shape) else 0


def inductor_case(name: str, kernel: str, arrays: list[Any],
                  ref: Callable[[], dict[str, np.ndarray]],
                  tol: dict[str, tuple[float, float]], notes: str,
                  expected: str = "interpreter") -> Case:
    """A case for an Inductor kernel: the pointer arguments are `arrays` in signature order, the
    integers and constexprs are the ones Inductor launched it with (inductor_kernels.META)."""
    meta = IK.META[kernel]
    fn = getattr(IK, kernel)
    launch = meta["launch"]
    args: dict[str, Any] = {}
    todo = iter(arrays)
    for i, pname in enumerate(fn.arg_names):
        if i < len(launch) and isinstance(launch[i], list):
            arr = next(todo)
            dtype = launch[i][3]
            assert arr.dtype == dtype, (name, pname, arr.dtype, dtype)
            extent = launch_extent(launch[i])
            assert arr.data.size == extent, (name, pname, arr.data.shape, launch[i])
            args[pname] = arr
        elif i < len(launch):
            args[pname] = launch[i]
            assert meta["constants"].get(pname, launch[i]) == launch[i], (name, pname)
        else:
            args[pname] = meta["constants"][pname]
    assert next(todo, None) is None, f"{name}: too many arrays"
    divisible = [fn.arg_names[k[0]] for k in meta["attrs"]]
    unaligned = [p for p, v in args.items() if isinstance(v, Arr) and p not in divisible]
    notes = (f"TorchInductor kernel {kernel} for the graph {meta['graph']!r} (see "
             f"inductor_kernels.py), config {meta['constants']}, grid {meta['grid_type']} "
             f"{tuple(meta['grid'])}, compiled with Inductor's options {meta['options']}. " + notes
             + (" Pointers without tt.divisibility (Inductor does not assume graph inputs are "
                f"aligned): {', '.join(unaligned)}." if unaligned else ""))
    return dict(name=name, kernel=kernel, grid=tuple(meta["grid"]), args=args, ref=ref, tol=tol,
                notes=notes, expected=expected)


LIBDEVICE = ("Expected from torch eager: the Triton interpreter cannot run libdevice calls "
             "(tt.extern_elementwise); the cross-check ran the interpreter with tl.erf / tl.exp / "
             "tl.rsqrt in place of libdevice.")
LIBDEVICE_MORE = ("Expected from torch eager: the Triton interpreter cannot run libdevice calls "
                  "(tt.extern_elementwise); the cross-check ran the interpreter with tl.math "
                  "functions and short tl expressions (gen.py's _shim_*: tanh, log1p, pow, trunc, "
                  "nearbyint, fmod, signbit) in place of libdevice.")


@case
def c51_ind_bias_gelu(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((37, 130), dtype=np.float32)
    b = rng.standard_normal(130, dtype=np.float32)
    return inductor_case(
        "51_ind_bias_gelu", "triton_poi_fused_add_gelu_0",
        [Arr("x", x, "in"), Arr("b", b, "in"), out("out", (37, 130))],
        lambda: {"out": N(F.gelu(T(x) + T(b)))}, {"out": (1e-5, 1e-5)},
        "Pointwise over 4810 elements with the bias indexed by `xindex % 130` (broadcast through "
        "index math), libdevice.erf (__nv_erff). " + LIBDEVICE, "torch")


@case
def c52_ind_swiglu_bf16(rng: np.random.Generator) -> Case:
    a = bf16(rng.standard_normal((37, 96), dtype=np.float32) * 2)
    g = bf16(rng.standard_normal((37, 96), dtype=np.float32))
    return inductor_case(
        "52_ind_swiglu_bf16", "triton_poi_fused_mul_silu_0",
        [Arr("a", a, "in", "bfloat16"), Arr("g", g, "in", "bfloat16"),
         out("out", (37, 96), "bfloat16")],
        lambda: {"out": bf_bits(F.silu(tbf(a).float()) * tbf(g).float())}, {"out": BF16_EW},
        "bf16 loads upcast to f32 (.to(tl.float32) on the load), silu as x / (1 + exp(-x)) with "
        "libdevice.exp, bf16 store (round to nearest even). Inductor keeps the product in fp32 "
        "(one rounding), so the reference is silu(a.float()) * g.float() rounded once. "
        + LIBDEVICE, "torch")


@case
def c53_ind_softmax(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((13, 781), dtype=np.float32) * 3).astype(np.float32)
    return inductor_case(
        "53_ind_softmax", "triton_per_fused__softmax_0",
        [out("out", (13, 781)), Arr("x", x, "in")],
        lambda: {"out": N(torch.softmax(T(x), -1))}, {"out": (1e-4, 1e-6)},
        "Persistent reduction: one 1x1024 tile per row (781 valid), triton_helpers.max2 and "
        "tl.sum (tt.reduce), libdevice.exp; the output is in_out_ptr0, only written. "
        + LIBDEVICE, "torch")


@case
def c54_ind_log_softmax_long(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((3, 4500), dtype=np.float32) * 2).astype(np.float32)
    return inductor_case(
        "54_ind_log_softmax_long", "triton_red_fused__log_softmax_0",
        [Arr("x", x, "in"), out("out", (3, 4500))],
        lambda: {"out": N(torch.log_softmax(T(x), -1))}, {"out": (1e-5, 1e-5)},
        "Looped reduction over 4500-long rows with R0_BLOCK=2048 (3 iterations, the last masked): "
        "a max loop, a sum-of-exp loop and an output loop, each carrying an [1, 2048] accumulator "
        "updated with tl.where(r0_mask & xmask, ...); tl_math.log. " + LIBDEVICE, "torch")


@case
def c55_ind_layer_norm(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((4, 3000), dtype=np.float32)
    w = rng.standard_normal(3000, dtype=np.float32)
    b = rng.standard_normal(3000, dtype=np.float32)
    return inductor_case(
        "55_ind_layer_norm", "triton_red_fused_native_layer_norm_0",
        [Arr("x", x, "in"), Arr("w", w, "in"), Arr("b", b, "in"), out("out", (4, 3000))],
        lambda: {"out": N(F.layer_norm(T(x), (3000,), T(w), T(b)))}, {"out": (1e-4, 1e-4)},
        "Welford reduction: triton_helpers.welford_reduce in a loop over 3000-long rows "
        "(R0_BLOCK=2048, 2 iterations) carrying mean/m2/weight tiles, then "
        "triton_helpers.welford, a three-operand tt.reduce whose combine region divides by the "
        "combined weight; libdevice.rsqrt. " + LIBDEVICE, "torch")


@case
def c56_ind_rms_norm_bf16(rng: np.random.Generator) -> Case:
    x = bf16(rng.standard_normal((6, 5000), dtype=np.float32))
    w = bf16(rng.random(5000, dtype=np.float32) + 0.5)

    def ref() -> dict[str, np.ndarray]:
        xf = tbf(x).float()
        rstd = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
        return {"out": bf_bits(xf * rstd * tbf(w).float())}
    return inductor_case(
        "56_ind_rms_norm_bf16", "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0",
        [Arr("x", x, "in", "bfloat16"), Arr("w", w, "in", "bfloat16"),
         out("out", (6, 5000), "bfloat16")],
        ref, {"out": BF16_EW},
        "RMS norm of bf16 rows of 5000 in two loops with R0_BLOCK=2048 (sum of squares, then "
        "scale); bf16 loads .to(tl.float32), libdevice.rsqrt, bf16 store. " + LIBDEVICE, "torch")


@case
def c57_ind_var_mean(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((40, 300), dtype=np.float32) + 1.0).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        var, mean = torch.var_mean(T(x).double(), -1, correction=0)
        return {"mean": N(mean.float()), "var": N(var.float())}
    return inductor_case(
        "57_ind_var_mean", "triton_per_fused_var_mean_0",
        [out("mean", 40), out("var", 40), Arr("x", x, "in")], ref,
        {"mean": (1e-4, 1e-5), "var": (1e-4, 1e-5)},
        "Persistent two-pass variance over 300-long rows in a 512 tile: tl.sum of x, division by "
        "300.0, tl.sum of the squared deviations; mean and variance stored through in_out_ptr0/1 "
        "(only written).")


@case
def c58_ind_col_sum(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((300, 37), dtype=np.float32)
    return inductor_case(
        "58_ind_col_sum", "triton_red_fused_sum_0",
        [Arr("x", x, "in"), out("partial", (3, 37))],
        lambda: {"partial": x.astype(np.float64).reshape(3, 100, 37).sum(1).astype(np.float32)},
        {"partial": (1e-4, 1e-4)},
        "First kernel of a split column sum: 111 outputs (x0 = xindex % 37, x1 = xindex // 37), "
        "each the sum of 100 rows read with stride 37 (x0 + 37*r0 + 3700*x1); XBLOCK=2, "
        "R0_BLOCK=64 (2 loop iterations, the second masked); the partial sums land in a [37, 3] "
        "buffer with strides (1, 37), i.e. the [3, 37] row-major layout stored here.")


@case
def c59_ind_max_dim(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((37, 50), dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        v, i = torch.max(T(x), 1)
        return {"vals": N(v), "idx": N(i)}
    return inductor_case(
        "59_ind_max_dim", "triton_per_fused_max_0",
        [Arr("x", x, "in"), out("vals", 37), out("idx", 37, "int64")], ref,
        {"vals": EXACT, "idx": EXACT},
        "torch.max(x, 1): triton_helpers.max_with_index, a two-operand (value, int64 index) "
        "tt.reduce, on 8 rows per program (XBLOCK=8, 37 rows: the last program is masked) of a "
        "64-wide tile (50 valid).")


@case
def c60_ind_argmax_long(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((5, 3000), dtype=np.float32)
    return inductor_case(
        "60_ind_argmax_long", "triton_red_fused_argmax_0",
        [Arr("x", x, "in"), out("idx", 5, "int64")],
        lambda: {"idx": N(T(x).argmax(-1))}, {"idx": EXACT},
        "Looped argmax over 3000-long rows (R0_BLOCK=2048, 2 iterations): value and i32 index "
        "tiles carried through scf.for and updated with triton_helpers.maximum_with_index, then "
        "max_with_index (two-operand tt.reduce); the index is stored as int64.")


@case
def c61_ind_cumsum(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((37, 100), dtype=np.float32)
    return inductor_case(
        "61_ind_cumsum", "triton_per_fused_cumsum_0",
        [Arr("x", x, "in"), out("out", (37, 100))],
        lambda: {"out": N(T(x).double().cumsum(-1).float())}, {"out": (1e-4, 1e-4)},
        "tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0) (tt.scan with an "
        "Inductor-generated combine function) on [8, 128] tiles: 8 rows per program, 100 valid "
        "columns.")


@case
def c62_ind_transpose_cat(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((45, 37), dtype=np.float32)
    return inductor_case(
        "62_ind_transpose_cat", "triton_poi_fused_cat_t_0",
        [Arr("x", x, "in"), out("out", (37, 45))],
        lambda: {"out": np.ascontiguousarray(x.T)}, {"out": EXACT},
        "2-D tiled pointwise kernel (Grid2D: program_id(1) for y, program_id(0) for x, 32x32 "
        "tiles): the transposing copy of x.t() into the first 37 rows of the cat buffer; reads "
        "with stride 37 along x, writes with stride 45 along y, both dims masked.")


@case
def c63_ind_permute_add(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((4, 37, 45), dtype=np.float32)
    y = rng.standard_normal((4, 45, 37), dtype=np.float32)
    return inductor_case(
        "63_ind_permute_add", "triton_poi_fused_add_permute_0",
        [Arr("x", x, "in"), Arr("y", y, "in"), out("out", (4, 37, 45))],
        lambda: {"out": x + y.transpose(0, 2, 1)}, {"out": F32_EW},
        "x.permute(0, 2, 1) + y as a 2-D tiled kernel over ynumel=148 (= 4*37) x xnumel=45 with "
        "32x32 tiles and index math y0 = yindex % 37, y1 = yindex // 37; the output keeps x's [4, "
        "37, 45] layout (Inductor's strides (1665, 1, 45) for the [4, 45, 37] result).")


@case
def c64_ind_embedding(rng: np.random.Generator) -> Case:
    idx = rng.integers(0, 100, (7, 13)).astype(np.int64)
    w = rng.standard_normal((100, 72), dtype=np.float32)
    return inductor_case(
        "64_ind_embedding", "triton_poi_fused_add_embedding_mul_0",
        [Arr("idx", idx, "in"), Arr("w", w, "in"), out("out", (7, 13, 72))],
        lambda: {"out": N(F.embedding(T(idx), T(w)) * 2 + 1)}, {"out": F32_EW},
        "Embedding gather: the int64 index of each element (xindex // 72) is loaded, checked with "
        "tl.device_assert(0 <= i < 100) (kept as tt.assert: Inductor compiles with debug=True; "
        "the inputs satisfy it, so nothing may abort), and used in the address of a second load "
        "(x0 + 72*idx, i64).")


@case
def c65_ind_index_add(rng: np.random.Generator) -> Case:
    a = (rng.integers(-16, 17, (50, 24)) / 8.0).astype(np.float32)
    idx = rng.integers(0, 50, 70).astype(np.int64)
    src = (rng.integers(-16, 17, (70, 24)) / 8.0).astype(np.float32)
    return inductor_case(
        "65_ind_index_add", "triton_poi_fused_index_add_1",
        [Arr("idx", idx, "in"), Arr("src", src, "in"), Arr("out", a, "inout")],
        lambda: {"out": N(T(a).index_add(0, T(idx), T(src)))}, {"out": EXACT},
        "Scatter-add: tl.atomic_add(out_ptr0 + (x0 + 24*idx), src, xmask, sem='relaxed') with "
        "indices that repeat (70 rows into 50: conflicting atomics inside a block), Inductor's "
        "negative-index wrap (tl.where(idx < 0, idx + 50, idx)) and tl.device_assert bounds "
        "check. out starts as a copy of `a` (what the preceding copy kernel leaves); all values "
        "are multiples of 1/8, so sums are exact in any order.")


@case
def c66_ind_sort(rng: np.random.Generator) -> Case:
    x = (rng.permutation(5 * 16).reshape(5, 16).astype(np.float32) - 40.0) * np.float32(0.125)

    def ref() -> dict[str, np.ndarray]:
        v, i = torch.sort(T(x), -1)
        return {"vals": N(v), "idx": N(i)}
    return inductor_case(
        "66_ind_sort", "triton_per_fused_sort_0",
        [Arr("x", x, "in"), out("vals", (5, 16)), out("idx", (5, 16), "int64")], ref,
        {"vals": EXACT, "idx": EXACT},
        "torch.sort(x, -1): triton_helpers.sort_with_index (a bitonic sort of (value, int16 "
        "index) pairs written with tl.reshape / tl.sum / tl.where / xor swaps), 16-long rows, one "
        "row per program; all values distinct, so the indices are unique.")


@case
def c67_ind_sum_all(rng: np.random.Generator) -> Case:
    p = rng.standard_normal(3, dtype=np.float32) * 50
    return inductor_case(
        "67_ind_sum_all", "triton_per_fused_sum_1",
        [Arr("partial", p.astype(np.float32), "in"), out("out", 1)],
        lambda: {"out": np.array([p.astype(np.float64).sum()], np.float32)}, {"out": F32_EW},
        "Second kernel of x.sum() for x[3000, 7]: sums the 3 partial sums into a 0-d tensor. "
        "xnumel=1 is a constexpr (not in the signature), the mask is tl.full([XBLOCK], True, "
        "tl.int1), and the store address is tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1) "
        "with mask None.")


@case
def c68_ind_where_clamp(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal(1000, dtype=np.float32) * 5).astype(np.float32)
    m = rng.random(1000) < 0.2

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        y = torch.where(xt > 0, xt, 0.1 * xt).clamp(-1.0, 1.0).masked_fill(T(m), float("-inf"))
        return {"out": N(y), "gt": x > 0.5}
    return inductor_case(
        "68_ind_where_clamp", "triton_poi_fused_clamp_gt_masked_fill_mul_where_0",
        [Arr("m", m, "in"), Arr("x", x, "in"), out("out", 1000), out("gt", 1000, "bool")], ref,
        {"out": F32_EW, "gt": EXACT},
        "tl.where chains, triton_helpers.maximum/minimum clamp, masked_fill with -inf from a bool "
        "input (!tt.ptr<i1>, loaded as i1) and a bool output x > 0.5 (i1 store).")


@case
def c69_ind_casts(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal(1000, dtype=np.float32) * 4).astype(np.float32)
    h = rng.standard_normal(1000, dtype=np.float32).astype(np.float16)

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        return {"bf": bf_bits(xt * T(h).float()), "i": N((xt * 8.0).to(torch.int32))}
    return inductor_case(
        "69_ind_casts", "triton_poi_fused__to_copy_mul_0",
        [Arr("x", x, "in"), Arr("h", h, "in"), out("bf", 1000, "bfloat16"),
         out("i", 1000, "int32")], ref,
        {"bf": EXACT, "i": EXACT},
        "fp16 load upcast to f32, f32 product rounded to bf16 (round to nearest even) and f32 -> "
        "i32 truncation of x * 8 (negative values). Expected from torch (the interpreter "
        "truncates f32 -> bf16).", "torch")


@case
def c70_ind_mean_dims(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((4, 37, 45), dtype=np.float32) + 0.5).astype(np.float32)
    return inductor_case(
        "70_ind_mean_dims", "triton_red_fused_mean_0",
        [out("out", 4), Arr("x", x, "in")],
        lambda: {"out": N(T(x).double().mean((1, 2)).float())}, {"out": (1e-4, 1e-5)},
        "x.mean(dim=(1, 2)): reduction over 1665 elements per output with XBLOCK=2, R0_BLOCK=2048 "
        "([2, 2048] tiles, one loop iteration, both dims masked), division by 1665.0, stored "
        "through in_out_ptr0.")


@case
def c71_ind_cross_entropy(rng: np.random.Generator) -> Case:
    logits = (rng.standard_normal((37, 100), dtype=np.float32) * 2).astype(np.float32)
    target = rng.integers(0, 100, 37).astype(np.int64)
    target[[4, 11, 30]] = -100          # ignore_index
    xt = T(logits)
    amax = N(xt.amax(1, keepdim=True))
    lse = N(torch.log(torch.exp(xt - T(amax)).sum(1, keepdim=True)))
    return inductor_case(
        "71_ind_cross_entropy", "triton_per_fused__log_softmax_nll_loss_forward_1",
        [out("loss", 1), Arr("target", target, "in"), Arr("logits", logits, "in"),
         Arr("amax", amax, "in"),
         Arr("lse", lse, "in")],
        lambda: {"loss": N(F.cross_entropy(xt, T(target)).reshape(1))}, {"loss": (1e-5, 1e-5)},
        "Second kernel of cross_entropy(logits[37, 100], target): gathers logits[r, target[r]] "
        "through the int64 target (tmp4 + 100*r0), ignore_index -100 handled with tl.where (3 "
        "ignored rows), tl.device_assert bounds check, an f32 tl.sum and an int64 tl.sum of the "
        "valid-row count, their quotient stored to a 0-d tensor (xnumel=1 constexpr). amax and "
        "lse (the first kernel's outputs) are computed with torch.")


@case
def c72_ind_softmax_long(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((3, 4500), dtype=np.float32) * 2).astype(np.float32)
    return inductor_case(
        "72_ind_softmax_long", "triton_red_fused__softmax_0",
        [out("out", (3, 4500)), Arr("x", x, "in")],
        lambda: {"out": N(torch.softmax(T(x), -1))}, {"out": (1e-4, 1e-6)},
        "Looped softmax over 4500-long rows with R0_BLOCK=2048 (3 iterations per loop): a max loop "
        "(triton_helpers.maximum / max2), a loop that stores exp(x - max) into the output while "
        "summing it, and a loop that loads those values back from the output and divides: a "
        "store -> load dependence through global memory inside one program. " + LIBDEVICE, "torch")


@case
def c73_ind_dropout(rng: np.random.Generator) -> Case:
    x = rng.standard_normal(1000, dtype=np.float32)
    seed = np.array([-5238155146476016121], np.int64)

    def ref() -> dict[str, np.ndarray]:
        keep = G._philox_rand(int(seed[0]), np.arange(1000, dtype=np.int32)) > np.float32(0.25)
        return {"out": np.where(keep, x * np.float32(4.0 / 3.0), np.float32(0)).astype(np.float32)}
    return inductor_case(
        "73_ind_dropout", "triton_poi_fused_native_dropout_0",
        [out("out", 1000), Arr("seed", seed, "in"), Arr("x", x, "in")], ref, {"out": F32_EW},
        "Inductor's dropout: the int64 seed is a scalar load from a seed buffer at a runtime "
        "offset (load_seed_offset=0), tl.rand(seed, offset as uint32) is Philox 4x32-10 with a "
        "64-bit key, keep = rand > 0.25, scaled by 1/(1-p). Cross-checked against the numpy "
        "Philox of test/corpus/gen.py.")


@case
def c74_ind_bn_hardswish_4d(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((2, 5, 7, 9), dtype=np.float32) * 2).astype(np.float32)
    x[0, 1, 2, 3] = np.nan
    x[1, 4, 6, 8] = -np.inf
    rm = rng.standard_normal(5, dtype=np.float32)
    rv = (rng.random(5, dtype=np.float32) + 0.25).astype(np.float32)
    w = rng.standard_normal(5, dtype=np.float32)
    b = rng.standard_normal(5, dtype=np.float32)
    return inductor_case(
        "74_ind_bn_hardswish_4d",
        "triton_poi_fused__native_batch_norm_legit_no_training_hardswish_0",
        [out("out", (2, 5, 7, 9)), Arr("x", x, "in"), Arr("rm", rm, "in"), Arr("rv", rv, "in"),
         Arr("w", w, "in"), Arr("b", b, "in")],
        lambda: {"out": N(F.hardswish(F.batch_norm(T(x), T(rm), T(rv), T(w), T(b))))},
        {"out": (1e-5, 1e-5)},
        "Inference batch norm + hardswish on an NCHW [2, 5, 7, 9] tensor flattened to 630 "
        "elements: the four per-channel vectors are loaded at (xindex // 63) % 5 (broadcast "
        "through index math over a 4-D shape), 1 / tl.sqrt_rn(var + eps), hardswish as x * "
        "min(max(x + 3, 0), 6) / 6 with triton_helpers.maximum / minimum, which keep NaN "
        "through tl.where(a > b | a != a, a, b) (one input is NaN, one -inf); the output is "
        "in_out_ptr0 (only written).")


@case
def c75_ind_activations(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((7, 143), dtype=np.float32) * 3).astype(np.float32)
    x.flat[:6] = [25.0, -30.0, 20.5, 19.5, 0.0, -0.0]

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        return {"gelu": N(F.gelu(xt, approximate="tanh")), "silu": N(F.silu(xt)),
                "leaky": N(F.leaky_relu(xt, 0.02)), "softplus": N(F.softplus(xt))}
    return inductor_case(
        "75_ind_activations", "triton_poi_fused_gelu_leaky_relu_silu_softplus_0",
        [Arr("x", x, "in"), out("gelu", (7, 143)), out("silu", (7, 143)), out("leaky", (7, 143)),
         out("softplus", (7, 143))],
        ref, {k: (1e-5, 1e-5) for k in ("gelu", "silu", "leaky", "softplus")},
        "Four activations of one input (1001 elements, 4 programs of 256) stored to four "
        "outputs: gelu(approximate='tanh') with libdevice.tanh, silu with libdevice.exp, "
        "leaky_relu(0.02) with tl.where, softplus as where(x > 20, x, libdevice.log1p("
        "libdevice.exp(x))) (inputs include 25, 20.5, 19.5, -30, +-0). " + LIBDEVICE_MORE,
        "torch")


@case
def c76_ind_where_pow_rsqrt(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal(1000, dtype=np.float32) * 2).astype(np.float32)
    x[:3] = [0.0, -0.0, 1.0]
    return inductor_case(
        "76_ind_where_pow_rsqrt",
        "triton_poi_fused_abs_add_clamp_min_gt_pow_rsqrt_scalar_tensor_where_0",
        [Arr("x", x, "in"), out("out", 1000)],
        lambda: {"out": N(torch.where(T(x) > 0, T(x).pow(3), 0.5).clamp_min(0.1).rsqrt()
                          + T(x).abs().pow(0.7))},
        {"out": (1e-5, 1e-5)},
        "torch.where with a scalar other (x > 0 ? x*x*x : 0.5), clamp_min(0.1) as "
        "triton_helpers.maximum, libdevice.rsqrt, |x| ** 0.7 as libdevice.pow (also at x = +-0); "
        "XBLOCK=128, 8 programs. " + LIBDEVICE_MORE, "torch")


@case
def c77_ind_sigmoid_half(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((33, 65), dtype=np.float32) * 3).astype(np.float16)
    y = bf16(rng.standard_normal((33, 65), dtype=np.float32) * 3)

    def ref() -> dict[str, np.ndarray]:
        xf, yf = T(x).float(), tbf(y).float()
        return {"o16": N((torch.sigmoid(xf) * yf).half()), "obf": bf_bits(torch.sigmoid(yf))}
    return inductor_case(
        "77_ind_sigmoid_half", "triton_poi_fused__to_copy_mul_sigmoid_0",
        [Arr("x", x, "in"), Arr("y", y, "in", "bfloat16"), out("o16", (33, 65), "float16"),
         out("obf", (33, 65), "bfloat16")],
        ref, {"o16": F16_EW, "obf": BF16_EW},
        "Mixed half precisions in one kernel: an fp16 and a bf16 input upcast on load, "
        "tl.sigmoid in f32, sigmoid(x) * y stored as fp16 and sigmoid(y) stored as bf16 (round "
        "to nearest even), 2145 elements. Expected from torch on the f32 values rounded once "
        "(the interpreter truncates f32 -> bf16).", "torch")


@case
def c78_ind_logsumexp(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((100, 45), dtype=np.float32) * 3).astype(np.float32)
    x[3] = -np.inf                       # a fully masked row: logsumexp = -inf
    x[7, :40] = -np.inf
    x[50, 17] = np.nan                   # NaN row: max2 keeps it, the result is NaN
    return inductor_case(
        "78_ind_logsumexp", "triton_per_fused_logsumexp_0",
        [out("out", 100), Arr("x", x, "in")],
        lambda: {"out": N(torch.logsumexp(T(x), 1))}, {"out": (1e-5, 1e-5)},
        "logsumexp over rows of 45 with 8 rows per program ([8, 64] tiles, XBLOCK=8, 13 programs, "
        "the last one masked): max2, the |max| == inf guard (tl.where to 0), libdevice.exp, "
        "tl.sum, tl_math.log; row 3 is all -inf (result -inf), row 7 mostly -inf, row 50 "
        "holds a NaN (result NaN). "
        + LIBDEVICE, "torch")


@case
def c79_ind_amax_amin(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((4, 33, 45), dtype=np.float32)
    x[2, 5, 40] = np.nan                 # amax[5] = amin[5] = NaN (torch propagates NaN)
    x[0, 9, :] = np.inf
    return inductor_case(
        "79_ind_amax_amin", "triton_per_fused_amax_amin_0",
        [Arr("x", x, "in"), out("amax", 33), out("amin", 33)],
        lambda: {"amax": N(T(x).amax((0, 2))), "amin": N(T(x).amin((0, 2)))},
        {"amax": EXACT, "amin": EXACT},
        "amax and amin over dims (0, 2) of [4, 33, 45]: one program per middle index, the 180 "
        "reduced elements decomposed as r0 % 45 and r0 // 45 (address r0_1 + 45*x0 + 1485*r0_2: a "
        "gather of 4 strided rows into one [1, 256] tile), max2 and min2 on the same tile "
        "(NaN-propagating combine regions: index 5 has a NaN, index 9 has a row of +inf).")


@case
def c80_ind_instance_std(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((2, 3, 7, 9), dtype=np.float32) * 2 + 1).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        xd = T(x).double()
        return {"out": N(((xd - xd.mean((2, 3), keepdim=True))
                          / xd.std((2, 3), keepdim=True)).float())}
    return inductor_case(
        "80_ind_instance_std", "triton_per_fused_div_mean_std_sub_0",
        [Arr("x", x, "in"), out("out", (2, 3, 7, 9))], ref, {"out": (1e-5, 1e-5)},
        "(x - mean) / std over the two inner dims of NCHW with keepdim: 6 rows of 63 all in one "
        "program ([8, 64] tile: XBLOCK=8 with 2 masked rows, 1 masked column), two tl.sum "
        "reductions (mean, then squared deviations / 62), tl.sqrt_rn, division broadcast back "
        "over the row.")


@case
def c81_ind_group_norm_stats(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((2, 6, 5, 7), dtype=np.float32) + 0.5).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        g = x.astype(np.float64).reshape(6, 70)
        m = g.mean(1)
        return {"mean": m.astype(np.float32),
                "m2": ((g - m[:, None]) ** 2).sum(1).astype(np.float32)}
    return inductor_case(
        "81_ind_group_norm_stats", "triton_per_fused_native_group_norm_0",
        [out("mean", 6), Arr("x", x, "in"), out("m2", 6)], ref,
        {"mean": (1e-5, 1e-5), "m2": (1e-4, 1e-5)},
        "Statistics kernel of group_norm(x[2, 6, 5, 7], 3 groups): 6 groups of 70 contiguous "
        "elements in one [8, 128] tile (XBLOCK=8), mean = sum / 70 stored through in_out_ptr0, "
        "and the sum of squared deviations (the M2 the next kernel turns into rstd) to "
        "out_ptr0; both outputs are [2, 3, 1, 1] buffers with strides (3, 1, 6, 6).")


@case
def c82_ind_embedding_bag(rng: np.random.Generator) -> Case:
    idx = rng.integers(0, 50, (9, 5)).astype(np.int64)
    w = rng.standard_normal((50, 33), dtype=np.float32)
    return inductor_case(
        "82_ind_embedding_bag", "triton_poi_fused_embedding_sum_0",
        [Arr("idx", idx, "in"), Arr("w", w, "in"), out("out", (9, 33))],
        lambda: {"out": N(F.embedding(T(idx), T(w)).sum(1))}, {"out": F32_EW},
        "embedding(idx[9, 5], w[50, 33]).sum(1): the bag of 5 is unrolled into 5 int64 index "
        "loads (5*x1 + k), 5 tl.device_assert bounds checks (tt.assert) and 5 gathers "
        "x0 + 33*idx, summed; 297 outputs with XBLOCK=128.")


@case
def c83_ind_index_select(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((7, 100), dtype=np.float32)
    idx = rng.integers(-100, 100, 33).astype(np.int64)
    return inductor_case(
        "83_ind_index_select", "triton_poi_fused_index_select_mul_0",
        [Arr("idx", idx, "in"), Arr("x", x, "in"), out("out", (7, 33))],
        lambda: {"out": (x[:, idx] * np.float32(3)).astype(np.float32)}, {"out": F32_EW},
        "index_select(x, 1, idx) * 3: a gather along the inner dimension, idx loaded at xindex "
        "% 33 (int64), Inductor's negative-index wrap tl.where(i < 0, i + 100, i) (about half "
        "the indices are negative here: the kernel accepts them, the wrap makes them valid), "
        "tl.device_assert, load at tmp4 + 100*x1.")


@case
def c84_ind_index_put_2d(rng: np.random.Generator) -> Case:
    x = (rng.integers(-16, 17, (50, 7)) / 8.0).astype(np.float32)
    i = rng.integers(0, 10, 33).astype(np.int64)          # few rows: many repeated (i, j)
    j = rng.integers(-7, 7, 33).astype(np.int64)
    v = (rng.integers(-16, 17, 33) / 8.0).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        o = x.astype(np.float64).copy()
        np.add.at(o, (i, j % 7), v.astype(np.float64))
        return {"out": o.astype(np.float32)}
    return inductor_case(
        "84_ind_index_put_2d", "triton_poi_fused_index_put_1",
        [Arr("i", i, "in"), Arr("j", j, "in"), Arr("v", v, "in"), Arr("out", x, "inout")], ref,
        {"out": EXACT},
        "x.index_put((i, j), v, accumulate=True): two gathered int64 indices, each wrapped "
        "(negative j) and bounds-checked, combined into the address tmp10 + 7*tmp4 of a "
        "tl.atomic_add (relaxed) of 33 values into x[50, 7] with repeated (i, j) pairs; out "
        "starts as a copy of x (what the preceding copy kernel leaves); multiples of 1/8, so "
        "the sums are exact in any order.")


@case
def c85_ind_cumsum_dim0(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((33, 45), dtype=np.float32)
    return inductor_case(
        "85_ind_cumsum_dim0", "triton_per_fused_cumsum_mul_0",
        [Arr("x", x, "in"), out("out", (33, 45))],
        lambda: {"out": N((T(x).double() * 0.5).cumsum(0).float())}, {"out": (1e-4, 1e-5)},
        "(x * 0.5).cumsum(0): a scan along the outer dimension. Each program takes 32 columns "
        "(XBLOCK=32, 2 programs, 13 masked in the second) and scans a [32, 64] tile along axis 1 "
        "whose elements are 45 apart in memory (x0 + 45*r0_1: transposed loads and stores), "
        "tl.associative_scan with the Inductor combine helper shared with 61.")


@case
def c86_ind_argmin_short(rng: np.random.Generator) -> Case:
    x = (rng.integers(-4, 5, (100, 7)) * 0.5).astype(np.float32)     # many ties
    x[5, 3] = np.nan
    x[9, 0] = np.nan
    x[9, 4] = np.nan
    x[12] = np.inf
    return inductor_case(
        "86_ind_argmin_short", "triton_poi_fused_argmin_0",
        [Arr("x", x, "in"), out("idx", 100, "int64")],
        lambda: {"idx": N(T(x).argmin(1))}, {"idx": EXACT},
        "argmin over rows of 7: Inductor unrolls it into a pointwise kernel (one program, "
        "XBLOCK=128, 100 rows) of 7 strided loads (7*x0 + k) and a chain of NaN-aware compares "
        "on i1 values (x != x, i1 > i1, |, &), tie-breaks on int64 indices, tl.where on f32 and "
        "int64; ties (half-integers in [-2, 2]), NaNs (the first NaN wins) and a row of +inf.")


@case
def c87_ind_transpose12(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((3, 33, 45), dtype=np.float32)
    return inductor_case(
        "87_ind_transpose12", "triton_poi_fused_add_clone_transpose_0",
        [Arr("x", x, "in"), out("out", (3, 45, 33))],
        lambda: {"out": (x.transpose(0, 2, 1) + np.float32(1)).astype(np.float32)},
        {"out": F32_EW},
        "x.transpose(1, 2).contiguous() + 1 for x[3, 33, 45]: a Grid2D kernel with YBLOCK=32 "
        "(program_id(1)) over ynumel=135 (= 3*45, decomposed y0 = y % 45, y1 = y // 45) and "
        "XBLOCK=32 over xnumel=33, [32, 32] tiles read with address y0 + 45*x2 + 1485*y1 "
        "(stride 45 along x) and written contiguously along x.")


@case
def c88_ind_cat_offset(rng: np.random.Generator) -> Case:
    b = rng.standard_normal((7, 12), dtype=np.float32)
    ext = 1 + 6 * 18 + 11                 # the out view [7, 12] with strides (18, 1)

    def ref() -> dict[str, np.ndarray]:
        o = G.sentinel("float32", ext)
        for r in range(7):
            o[r * 18:r * 18 + 12] = b[r] * np.float32(2)
        return {"out": o}
    return inductor_case(
        "88_ind_cat_offset", "triton_poi_fused_mul_1",
        [Arr("b", b, "in"), out("out", ext)], ref, {"out": EXACT},
        "Second kernel of torch.cat([a, b * 2, c], 1) -> [7, 18]: writes b * 2 into columns 5..16 "
        "through a view pointer at storage offset 5 of the cat buffer (so out_ptr0 has no "
        "tt.divisibility: it is 20 bytes past an aligned allocation); store address x0 + 18*x1 "
        "with x0 = xindex % 12, x1 = xindex // 12. The buffer here is the 120 floats the view "
        "spans from its pointer; the gaps (the other inputs' columns) keep the sentinel.")


@case
def c89_ind_slice_flip_pad(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((7, 33), dtype=np.float32)
    return inductor_case(
        "89_ind_slice_flip_pad", "triton_poi_fused_constant_pad_nd_flip_slice_0",
        [Arr("x", x, "in"), out("out", (8, 20))],
        lambda: {"out": N(F.pad(T(x)[:, ::2].flip(1), (1, 2, 0, 1), value=-1.0))},
        {"out": EXACT},
        "F.pad(x[:, ::2].flip(1), (1, 2, 0, 1), value=-1): the source address 34 - 2*x0 + 33*x1 "
        "runs backwards with stride -2; the padding is a load mask built from i64 comparisons "
        "of the i32-converted indices (x1 < 7, 0 <= x0 - 1 < 17) with other=-1.0.")


@case
def c90_ind_repeat_expand(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((7, 11), dtype=np.float32)
    y = rng.standard_normal((1, 33), dtype=np.float32)
    return inductor_case(
        "90_ind_repeat_expand", "triton_poi_fused_add_expand_repeat_0",
        [Arr("x", x, "in"), Arr("y", y, "in"), out("out", (14, 33))],
        lambda: {"out": (np.tile(x, (2, 3)) + y).astype(np.float32)}, {"out": F32_EW},
        "x.repeat(2, 3) + y.expand(14, 33): the repeat is nested modulo index math "
        "11*(x1 % 7) + (x0 % 11) with x0 = xindex % 33, x1 = xindex // 33; the expanded row "
        "is loaded at x0.")


@case
def c91_ind_int8_dequant(rng: np.random.Generator) -> Case:
    q = rng.integers(-128, 128, (33, 65)).astype(np.int8)
    z = rng.integers(-20, 21, 33).astype(np.int32)
    s = (rng.random(33, dtype=np.float32) * 0.05).astype(np.float32)
    return inductor_case(
        "91_ind_int8_dequant", "triton_poi_fused__to_copy_mul_sub_unsqueeze_0",
        [Arr("q", q, "in"), Arr("zero", z, "in"), Arr("scale", s, "in"), out("out", (33, 65))],
        lambda: {"out": ((q.astype(np.float32) - z[:, None].astype(np.float32))
                         * s[:, None]).astype(np.float32)},
        {"out": F32_EW},
        "Per-row dequantisation (q.float() - zero.float()) * scale of int8 values (full range "
        "-128..127) with int32 zero points and f32 scales indexed by xindex // 65: sitofp of i8 "
        "and i32, an i8 load from an unaligned pointer.")


@case
def c92_ind_sort_dim0(rng: np.random.Generator) -> Case:
    x = (rng.integers(-6, 7, (12, 9)) * 0.5).astype(np.float32)      # |x| has many ties

    def ref() -> dict[str, np.ndarray]:
        v, i = torch.sort(T(x).abs(), dim=0, descending=True, stable=True)
        return {"vals": N(v), "idx": N(i.to(torch.int16))}
    return inductor_case(
        "92_ind_sort_dim0", "triton_per_fused_abs_sort_0",
        [Arr("x", x, "in"), out("vals", (12, 9)), out("idx", (12, 9), "int16")], ref,
        {"vals": EXACT, "idx": EXACT},
        "torch.sort(x.abs(), dim=0, descending=True, stable=True) on [12, 9]: sort_with_index "
        "along the outer dimension of [8, 16] tiles (XBLOCK=8 columns, 2 programs, 12 of 16 "
        "rows valid) read and written with stride 9, stable on heavy ties (|x| in {0, 0.5, ..., "
        "3}), descending; int16 indices (the next kernel widens them to int64).")


def _col_norm_data(rng: np.random.Generator) -> np.ndarray:
    return (rng.standard_normal((350, 33), dtype=np.float32) * 2 + 1).astype(np.float32)


def _col_chunks(v: np.ndarray) -> np.ndarray:
    """[350, 33] -> the [3, 33] sums over the row chunks 0..116, 117..233, 234..349 (float64)."""
    return np.stack([v[k * 117:(k + 1) * 117].astype(np.float64).sum(0) for k in range(3)])


COL_NORM = ("Kernel {k} of 4 of (x - x.mean(0)) / (x.std(0) + 1e-5) for x[350, 33] (all four "
            "kernels of the graph are cases 93-96). ")


@case
def c93_ind_col_norm_sum(rng: np.random.Generator) -> Case:
    x = _col_norm_data(rng)

    def ref() -> dict[str, np.ndarray]:
        p = _col_chunks(x).astype(np.float32).reshape(99)
        return {"sum_a": p, "sum_b": p}
    return inductor_case(
        "93_ind_col_norm_sum", "triton_red_fused_mean_std_0",
        [Arr("x", x, "in"), out("sum_a", 99), out("sum_b", 99)], ref,
        {"sum_a": (1e-5, 1e-5), "sum_b": (1e-5, 1e-5)},
        COL_NORM.format(k=1) + "Split column sums: 99 outputs (33 columns x 3 row chunks of 117, "
        "x0 = xindex % 33, x1 = xindex // 33) with XBLOCK=2, R0_BLOCK=64 ([2, 64] tiles, 2 loop "
        "iterations, 50 programs); loads at x0 + 33*r0 + 3861*x1 masked by the loop mask and by "
        "the row bound r0 + 117*x1 < 350 (the last chunk has 116 rows); the same partial sums are "
        "stored to two buffers (the mean's and the std's, both [33, 3] with strides (1, 33)).")


@case
def c94_ind_col_norm_mean(rng: np.random.Generator) -> Case:
    x = _col_norm_data(rng)
    part = _col_chunks(x).astype(np.float32)
    return inductor_case(
        "94_ind_col_norm_mean", "triton_per_fused_mean_1",
        [Arr("part", part.reshape(99), "in"), out("colsum", 33)],
        lambda: {"colsum": part.astype(np.float64).sum(0).astype(np.float32)},
        {"colsum": (1e-5, 1e-5)},
        COL_NORM.format(k=2) + "Sums the 3 partial sums of each column (per reduction, XBLOCK=64 "
        "columns in one program, 33 valid, R0_BLOCK=8 with 3 valid; loads x0 + 33*r0_1). Inductor "
        "launches it three times; this is the first launch.")


@case
def c95_ind_col_norm_sqdev(rng: np.random.Generator) -> Case:
    x = _col_norm_data(rng)
    colsum = x.astype(np.float64).sum(0).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        d = (x - (colsum / np.float32(350))).astype(np.float64) ** 2
        return {"part": _col_chunks(d).astype(np.float32).reshape(99)}
    return inductor_case(
        "95_ind_col_norm_sqdev", "triton_red_fused_std_2",
        [Arr("x", x, "in"), Arr("colsum", colsum.reshape(1, 33), "in"), out("part", 99)], ref,
        {"part": (1e-4, 1e-5)},
        COL_NORM.format(k=3) + "Split sums of squared deviations: like 93, plus a second load of "
        "the column sum at tl.broadcast_to(x0, [XBLOCK, R0_BLOCK]) under the same masks, the "
        "deviation zeroed with tl.where(row in bounds, d*d, 0) before the accumulation.")


@case
def c96_ind_col_norm_apply(rng: np.random.Generator) -> Case:
    x = _col_norm_data(rng)
    colsum = x.astype(np.float64).sum(0).astype(np.float32)
    sq = ((x.astype(np.float64) - x.astype(np.float64).mean(0)) ** 2).sum(0).astype(np.float32)

    def ref() -> dict[str, np.ndarray]:
        xd = x.astype(np.float64)
        m = colsum.astype(np.float64) / 350
        sd = np.sqrt(sq.astype(np.float64) / 349)
        return {"out": ((xd - m) / (sd + 1e-5)).astype(np.float32)}
    return inductor_case(
        "96_ind_col_norm_apply", "triton_poi_fused_add_div_mean_std_sub_3",
        [Arr("x", x, "in"), Arr("colsum", colsum, "in"), Arr("sqsum", sq, "in"),
         out("out", (350, 33))], ref, {"out": (1e-5, 1e-5)},
        COL_NORM.format(k=4) + "Pointwise normalisation of 11550 elements (46 programs of 256): "
        "the per-column sums loaded at xindex % 33, / 350, / 349, tl.sqrt_rn, + 1e-5, division.")


@case
def c97_ind_int64_rowsum(rng: np.random.Generator) -> Case:
    x = rng.integers(-2 ** 40, 2 ** 40, (7, 45), dtype=np.int64)
    x[x % 5 == 0] = 0
    x[3] = -(rng.integers(1, 2 ** 50, 45, dtype=np.int64))       # all negative: amax < 0
    x[5, :] = 2 ** 46                                            # the sum needs 52 bits

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        return {"sum": N(xt.sum(1)), "npos": N((xt > 0).sum(1)), "amax": N(xt.amax(1))}
    return inductor_case(
        "97_ind_int64_rowsum", "triton_per_fused_amax_gt_sum_0",
        [Arr("x", x, "in"), out("sum", 7, "int64"), out("npos", 7, "int64"),
         out("amax", 7, "int64")], ref, {"sum": EXACT, "npos": EXACT, "amax": EXACT},
        "int64 reductions over rows of 45 ([8, 64] tile, XBLOCK=8, one program, 7 rows): tl.sum "
        "of int64 values up to 2^50 (row sums need 52 bits), tl.sum of (x > 0) widened to int64, "
        "max2 of int64 with the masked lanes at INT64_MIN (-9223372036854775808); row 3 is "
        "all negative. Any 32-bit truncation shows.")


@case
def c98_ind_int_divmod(rng: np.random.Generator) -> Case:
    a = rng.integers(-1000000, 1000001, 1000).astype(np.int32)
    a[:4] = [2 ** 31 - 1, -(2 ** 31) + 1, -7, 7]
    b = rng.integers(-50, 51, 1000).astype(np.int32)
    b[b == 0] = -3
    b[:4] = [-2, 3, 2, -2]

    def ref() -> dict[str, np.ndarray]:
        at, bt = T(a), T(b)
        return {"floordiv": N(torch.div(at, bt, rounding_mode="floor")),
                "remainder": N(torch.remainder(at, bt)),
                "truncdiv": N(torch.div(at, bt, rounding_mode="trunc")),
                "fmod": N(torch.fmod(at, bt)), "xor": N(at ^ bt), "shr": N(at >> 3)}
    keys = ("floordiv", "remainder", "truncdiv", "fmod", "xor", "shr")
    return inductor_case(
        "98_ind_int_divmod", "triton_poi_fused___rshift___bitwise_xor_div_fmod_remainder_0",
        [Arr("a", a, "in"), Arr("b", b, "in")] + [out(k, 1000, "int32") for k in keys], ref,
        {k: EXACT for k in keys},
        "int32 division family on signed values (both signs, |a| up to 2^31 - 1, b in [-50, 50] "
        "without 0): Python floor division built by Inductor from // on non-negative operands "
        "with ~ (bitwise not) for negative ones, remainder as C % corrected by the sign test "
        "(tmp1 < 0 on the i32 path of `libdevice.signbit(...) if dtype is tl.float32 else ...`), "
        "trunc division as arith.divsi, fmod as arith.remsi, ^ and an arithmetic >> 3.")


@case
def c99_ind_float_rounding(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal(1000, dtype=np.float32) * 10).astype(np.float32)
    x[:12] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, 3.0, -3.0, 1e7 + 1, -0.49999997]
    y = (rng.standard_normal(1000, dtype=np.float32) * 3).astype(np.float32)
    y[np.abs(y) < 0.1] = 0.75

    def ref() -> dict[str, np.ndarray]:
        xt = T(x)
        r = np.fmod(x, y)
        r = np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r).astype(np.float32)
        return {"round": N(torch.round(xt)), "trunc": N(torch.trunc(xt)),
                "signfloor": N(torch.sign(xt) * xt.floor()), "frac": N(torch.frac(xt)),
                "remainder": r, "fmod": np.fmod(x, y).astype(np.float32)}
    keys = ("round", "trunc", "signfloor", "frac", "remainder", "fmod")
    return inductor_case(
        "99_ind_float_rounding",
        "triton_poi_fused_floor_fmod_frac_mul_remainder_round_sign_trunc_0",
        [Arr("x", x, "in"), Arr("y", y, "in")] + [out(k, 1000) for k in keys], ref,
        {k: EXACT for k in keys},
        "Float rounding family: torch.round as libdevice.nearbyint (ties to even: 0.5, 1.5, "
        "2.5, -0.5, ...), libdevice.trunc, sign as (0 < x) - (x < 0) in int8 converted back, "
        "libdevice.floor, frac = x - trunc(x), remainder as the f32 `%` (arith.remf, C fmod) "
        "corrected by the sign test, libdevice.fmod. The remainder's expected values come from "
        "numpy fmod + the same correction (what the kernel computes; torch's own float "
        "remainder rounds differently). " + LIBDEVICE_MORE, "torch")


@case
def c100_ind_f64_dot(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((33, 45), dtype=np.float32)
    w = rng.standard_normal(45) * (1 + 1e-9 * rng.standard_normal(45))
    return inductor_case(
        "100_ind_f64_dot", "triton_per_fused__to_copy_mul_sum_0",
        [Arr("x", x, "in"), Arr("w", w, "in"), out("out", 33, "float64")],
        lambda: {"out": x.astype(np.float64) @ w}, {"out": (1e-12, 1e-12)},
        "float64 arithmetic: f32 values widened to f64 (arith.extf), multiplied by f64 weights "
        "(whose low bits matter) and summed in f64 (tl.sum) over rows of 45, XBLOCK=8 rows per "
        "program; f64 loads and stores. The tolerance 1e-12 exposes any f32 evaluation.")


@case
def c101_ind_upsample_bilinear(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((1, 3, 7, 9), dtype=np.float32)
    return inductor_case(
        "101_ind_upsample_bilinear",
        "triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_view_0",
        [Arr("x", x, "in"), out("out", (1, 3, 14, 18))],
        lambda: {"out": N(F.interpolate(T(x), scale_factor=2, mode="bilinear",
                                        align_corners=False))},
        {"out": (1e-5, 1e-6)},
        "Bilinear 2x upsampling [1, 3, 7, 9] -> [1, 3, 14, 18]: the source coordinates are "
        "computed in f32 from the output index ((i + 0.5) * 0.5 - 0.5, clamped at 0), converted "
        "to int32 (fptosi) and used in the addresses of 4 gathers (clamped with int64 minimum), "
        "the fractional parts weight the lerps.")


@case
def c102_ind_max_pool(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((2, 3, 9, 11), dtype=np.float32)
    x[1, 2, 4, 4] = np.nan

    def ref() -> dict[str, np.ndarray]:
        v, i = F.max_pool2d(T(x), 3, stride=2, padding=1, return_indices=True)
        return {"vals": N(v), "idx": N(i)}
    return inductor_case(
        "102_ind_max_pool", "triton_poi_fused_max_pool2d_with_indices_0",
        [Arr("x", x, "in"), out("vals", (2, 3, 5, 6)), out("idx", (2, 3, 5, 6), "int64")], ref,
        {"vals": EXACT, "idx": EXACT},
        "max_pool2d(3, stride 2, padding 1) with indices: 9 window loads at -12 + 2*x0 + 22*x1 + "
        "99*x2 + (row, col offsets) masked by the padding bounds (other=-inf; negative offsets "
        "at the top-left border), triton_helpers.maximum chain and a NaN-aware arg chain "
        "producing the window position, turned into the int64 flat input index; one NaN in the "
        "input (propagated with its index).")


@case
def c103_ind_avg_pool(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((2, 3, 9, 11), dtype=np.float32)
    return inductor_case(
        "103_ind_avg_pool", "triton_poi_fused_avg_pool2d_0",
        [Arr("x", x, "in"), out("out", (2, 3, 5, 6))],
        lambda: {"out": N(F.avg_pool2d(T(x), 3, stride=2, padding=1, count_include_pad=False))},
        {"out": (1e-5, 1e-6)},
        "avg_pool2d(3, stride 2, padding 1, count_include_pad=False): 9 masked window loads "
        "(other=0) summed, divided by the number of in-bounds elements, which Inductor computes "
        "as a product of clamped extents written with integer multiplications by comparisons "
        "((a) * ((a) >= (b)) + ...) converted to int32 and then f32.")


@case
def c104_ind_bucketize(rng: np.random.Generator) -> Case:
    bnd = np.sort(rng.standard_normal(17).astype(np.float32) * 2)
    x = (rng.standard_normal(1000, dtype=np.float32) * 3).astype(np.float32)
    x[:17] = bnd                                  # values equal to a boundary
    x[17:19] = [-100.0, 100.0]
    return inductor_case(
        "104_ind_bucketize", "triton_poi_fused_bucketize_0",
        [Arr("x", x, "in"), Arr("boundaries", bnd, "in"), out("out", 1000, "int64")],
        lambda: {"out": N(torch.bucketize(T(x), T(bnd)))}, {"out": EXACT},
        "torch.bucketize(x, boundaries[17]): triton_helpers.bucketize_binary_search, a binary "
        "search: `while full_range > 1` is an scf.while on a scalar i32 counter (18, 9, 5, 3, 2: "
        "5 iterations) carrying the int64 low / high tensors, each iteration a masked gather "
        "tl.load(boundaries + mid) at data-dependent int64 indices and tl.where updates; values "
        "equal to boundaries and beyond both ends.")


@case
def c105_ind_roll(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((7, 33), dtype=np.float32)
    return inductor_case(
        "105_ind_roll", "triton_poi_fused_mul_roll_0",
        [Arr("x", x, "in"), out("out", (7, 33))],
        lambda: {"out": (np.roll(x, 5, 1) * np.float32(2)).astype(np.float32)}, {"out": EXACT},
        "torch.roll(x, 5, 1) * 2: the source address 33*x1 + (28 + x0) % 33 wraps around inside "
        "every row (x0 = xindex % 33, x1 = xindex // 33): the [256] tile reads 7 rows, each in two "
        "contiguous pieces, one program.")


@case
def c106_ind_repeat_interleave(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((7, 11), dtype=np.float32)
    return inductor_case(
        "106_ind_repeat_interleave", "triton_poi_fused_add_clone_expand_unsqueeze_view_0",
        [Arr("x", x, "in"), out("out", (7, 33))],
        lambda: {"out": (np.repeat(x, 3, 1) + np.float32(1)).astype(np.float32)}, {"out": EXACT},
        "torch.repeat_interleave(x, 3, dim=1) + 1: every input element is read by 3 consecutive "
        "lanes (address xindex // 3), 231 outputs in one program of 256.")


@case
def c107_ind_pixel_shuffle(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((1, 8, 5, 7), dtype=np.float32)
    return inductor_case(
        "107_ind_pixel_shuffle", "triton_poi_fused_add_pixel_shuffle_0",
        [Arr("x", x, "in"), out("out", (1, 2, 10, 14))],
        lambda: {"out": N(F.pixel_shuffle(T(x), 2) + 1)}, {"out": EXACT},
        "pixel_shuffle(x[1, 8, 5, 7], 2) + 1: the source address 7*(x1 // 2) + 35*(x0 % 2) + "
        "70*(x1 % 2) + 140*x2 + x0 // 2 nests // 2 and % 2 of the decomposed output index "
        "(x0 = xindex % 14, x1 = (xindex // 14) % 10); 280 outputs in 2 programs.")


@case
def c108_ind_unfold_sum(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((5, 40), dtype=np.float32)

    def ref() -> dict[str, np.ndarray]:
        w = np.stack([x[:, 3 * i:3 * i + 4] for i in range(13)], 1).astype(np.float64)
        return {"out": w.sum(-1).astype(np.float32)}
    return inductor_case(
        "108_ind_unfold_sum", "triton_poi_fused_sum_unfold_0",
        [Arr("x", x, "in"), out("out", (5, 13))], ref, {"out": F32_EW},
        "x.unfold(1, 4, 3).sum(-1): overlapping windows of 4 with step 3, unrolled into 4 loads "
        "at 3*x0 + 40*x1 + k (a stride-3 gather: 12 bytes between lanes) summed.")


@case
def c109_ind_dyn_bias_silu(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((37, 45), dtype=np.float32)
    b = rng.standard_normal(45, dtype=np.float32)
    return inductor_case(
        "109_ind_dyn_bias_silu", "triton_poi_fused_add_mul_silu_0",
        [Arr("x", x, "in"), Arr("b", b, "in"), out("out", (37, 45))],
        lambda: {"out": N(F.silu(T(x) * 2 + T(b)))}, {"out": (1e-5, 1e-5)},
        "A dynamic-shape kernel (torch.compile(dynamic=True)): the sizes are runtime arguments, "
        "ks0 = 45 an i64 and xnumel = 1665 an i32 (not baked into the body); the bias is loaded "
        "at xindex % ks0 (a remainder by a runtime i64 value). " + LIBDEVICE, "torch")


@case
def c110_ind_dyn_softmax(rng: np.random.Generator) -> Case:
    x = (rng.standard_normal((13, 100), dtype=np.float32) * 3).astype(np.float32)
    return inductor_case(
        "110_ind_dyn_softmax", "triton_red_fused__softmax_abs_all_amax_eq_mul_ne_sub_0",
        [out("out", (13, 100)), Arr("x", x, "in")],
        lambda: {"out": N(torch.softmax(T(x) * 0.5, -1))}, {"out": (1e-5, 1e-6)},
        "softmax(x * 0.5) compiled with dynamic=True: a looped reduction (XBLOCK=2, R0_BLOCK=128) "
        "whose row length r0_numel=100 and row stride ks0=100 (i64) are runtime arguments (loads "
        "at r0_1 + ks0*x0); the first loop also tracks whether any x*0.5 is non-finite "
        "(triton_helpers.any of an i1 -> i8 tile) to pick between two max-subtraction forms; the "
        "second loop stores exp to the output, the third reloads and divides. " + LIBDEVICE,
        "torch")


@case
def c111_ind_dyn_permute(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((3, 33, 45), dtype=np.float32)
    return inductor_case(
        "111_ind_dyn_permute", "triton_poi_fused_clone_mul_permute_0",
        [Arr("x", x, "in"), out("out", (3, 45, 33))],
        lambda: {"out": (x.transpose(0, 2, 1) * np.float32(2)).astype(np.float32)},
        {"out": EXACT},
        "x.permute(0, 2, 1).contiguous() * 2 compiled with dynamic=True: 2-D tiles (YBLOCK = "
        "XBLOCK = 32) whose index math uses the runtime i64 sizes ks0 = 45 and ks1 = 33: y0 = y % "
        "ks0, y1 = y // ks0, load at y0 + ks0*x2 + ks0*ks1*y1, store at x2 + ks1*y3.")


@case
def c112_ind_u8_normalize(rng: np.random.Generator) -> Case:
    img = rng.integers(0, 256, (3, 17, 19)).astype(np.uint8)
    img.flat[:4] = [0, 255, 128, 127]
    m = np.array([0.485, 0.456, 0.406], np.float32)
    s = np.array([0.229, 0.224, 0.225], np.float32)

    def ref() -> dict[str, np.ndarray]:
        it = T(img)
        return {"norm": N(((it.float() / 255) - T(m)[:, None, None]) / T(s)[:, None, None]),
                "ints": N(it.to(torch.int32) * 3 + (it >> 4).to(torch.int32))}
    return inductor_case(
        "112_ind_u8_normalize", "triton_poi_fused___rshift____to_copy_add_div_mul_sub_unsqueeze_0",
        [Arr("img", img, "in"), Arr("mean", m, "in"), Arr("std", s, "in"),
         out("norm", (3, 17, 19)), out("ints", (3, 17, 19), "int32")], ref,
        {"norm": F32_EW, "ints": EXACT},
        "Image preprocessing on a uint8 input (values 0..255, !tt.ptr<i8> in the TTIR): "
        "unsigned conversions uint8 -> f32 (arith.uitofp) and uint8 -> i32 (arith.extui), a "
        "logical shift of the uint8 values (arith.shrui by a uint8 constant), per-channel mean "
        "/ std at xindex // 323.")


@case
def c113_ind_cumsum_long(rng: np.random.Generator) -> Case:
    x = rng.standard_normal((3, 5000), dtype=np.float32)
    return inductor_case(
        "113_ind_cumsum_long", "triton_red_fused_cumsum_0",
        [Arr("x", x, "in"), out("out", (3, 5000))],
        lambda: {"out": N(T(x).double().cumsum(-1).float())}, {"out": (1e-4, 1e-4)},
        "cumsum over rows of 5000 as a looped scan (XBLOCK=1, R0_BLOCK=2048, 3 iterations): each "
        "block is scanned with tl.associative_scan, its last element extracted with "
        "triton_helpers.select_one (a reduction of where(rbase == RBLOCK - 1)), and the running "
        "carry (initialised to NaN, replaced on the first iteration through tl.where(roffset > 0, "
        "...) on the loop's induction variable) added to the next blocks.")


# ============================================================================ plumbing
def inductor_meta(fn: Any) -> dict[str, Any] | None:
    name = getattr(fn, "__name__", None)
    return IK.META.get(name) if getattr(IK, str(name), None) is fn else None


_orig_jit_specialise = G.jit_specialise
_orig_build_params = G.build_params
_orig_portable_locs = G.portable_locs


def jit_specialise(fn: Any, args: list[Any], options: dict[str, Any]) -> tuple[Any, ...]:
    meta = inductor_meta(fn)
    if meta is None:
        return _orig_jit_specialise(fn, args, options)
    backend = G.make_backend(G.TARGET)
    opts = backend.parse_options(dict(meta["options"]))        # what triton.compile does with them
    constexprs = {(fn.arg_names.index(k),): v for k, v in meta["constants"].items()}
    return backend, opts, dict(meta["signature"]), constexprs, dict(meta["attrs"])


def build_params(fn: Any, args: dict[str, Any], constexprs: dict[tuple[int, ...], Any],
                 sig_named: list[dict[str, Any]],
                 sig_noloc: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if inductor_meta(fn) is None:
        return _orig_build_params(fn, args, constexprs, sig_named, sig_noloc)
    const = {fn.arg_names[k[0]] for k in constexprs}
    meta_sig = inductor_meta(fn)["signature"]
    params: list[dict[str, Any]] = []
    for pname in fn.arg_names:
        if pname in const:
            continue
        v = args[pname]
        if isinstance(v, Arr):
            params.append(dict(name=pname, kind="array", npz_key=v.key, dtype=v.dtype,
                               shape=list(v.data.shape), role=v.role))
        else:
            # the scalar's type is Inductor's (sizes of dynamic-shape kernels are i64)
            dtype = {"i32": "i32", "i64": "i64", "fp32": "f32"}[meta_sig[pname]]
            params.append(dict(name=pname, kind="scalar", dtype=dtype, value=v))
    assert len(params) == len(sig_named) == len(sig_noloc), (len(params), len(sig_named))
    for p, s, s0 in zip(params, sig_named, sig_noloc, strict=True):
        assert s["type"] == s0["type"] and s["divisibility"] == s0["divisibility"], (s, s0)
        assert p["name"] == s["name"], (p["name"], s["name"])
        want = f"!tt.ptr<{G.TTIR_ELEM[p['dtype']]}>" if p["kind"] == "array" else p["dtype"]
        assert s["type"] == want, (p, s)
        if p["kind"] == "scalar" and s["divisibility"]:
            assert p["value"] % s["divisibility"] == 0, (p, s)
    return params


def portable_locs(text: str) -> str:
    text = text.replace(f'"{os.path.abspath(IK.__file__)}"', '"inductor_kernels.py"')
    text = re.sub(r'"[^"]*/site-packages/(torch/[^"]*)"', r'"\1"', text)
    return _orig_portable_locs(text)


def install() -> None:
    """Point the corpus generator at this directory's kernels and cases."""
    jit = {n: getattr(m, n) for m in (kernels, IK) for n in dir(m)
           if type(getattr(m, n)).__name__ in ("JITFunction", "InterpretedFunction")}
    G.K = types.SimpleNamespace(__file__=kernels.__file__, **jit)
    G.CASES = CASES
    G.TTIR_ELEM["bool"] = "i1"
    G.jit_specialise, G.build_params, G.portable_locs = jit_specialise, build_params, portable_locs
    G.HERE = str(HERE)
    # G.interpret_all starts `python <G.__file__> --interp-worker`: make that this script.
    G.__file__ = os.path.abspath(__file__)
    G.__doc__ = __doc__


# Stand-ins for the libdevice functions tl.math lacks (tanh, log1p, pow, ...), used by the
# interpreter run only (shim_libdevice); accurate to a few f32 ulps, enough for the cross-check.
# @triton.jit functions stay unannotated (annotations change how Triton specialises them).
@triton.jit
def _shim_tanh(x):  # noqa: ANN001, ANN202
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


@triton.jit
def _shim_log1p(x):  # noqa: ANN001, ANN202
    return tl.log(1.0 + x)


@triton.jit
def _shim_pow(x, y):  # noqa: ANN001, ANN202
    return tl.exp2(y * tl.log2(x))


@triton.jit
def _shim_floor(x):  # noqa: ANN001, ANN202
    return tl.floor(x)


@triton.jit
def _shim_trunc(x):  # noqa: ANN001, ANN202
    return tl.where(x < 0, tl.ceil(x), tl.floor(x))


@triton.jit
def _shim_nearbyint(x):  # noqa: ANN001, ANN202
    r = tl.floor(x + 0.5)
    tie_to_odd = ((r - x) == 0.5) & ((r - 2.0 * tl.floor(r * 0.5)) != 0.0)
    return tl.where(tl.abs(x) >= 8388608.0, x, tl.where(tie_to_odd, r - 1.0, r))  # 2^23: integral


@triton.jit
def _shim_fmod(x, y):  # noqa: ANN001, ANN202
    return x % y             # the interpreter's float % is C fmod (np.fmod)


@triton.jit
def _shim_signbit(x):  # noqa: ANN001, ANN202
    return (x.to(tl.int32, bitcast=True) < 0).to(tl.int32)


class _LibdeviceShim:
    """`libdevice` for the interpreter: tl.math's erf / exp / rsqrt, looked up at call time (the
    interpreter patches tl.math while a kernel runs), and the stand-ins above."""

    extra = {"tanh": _shim_tanh, "log1p": _shim_log1p, "pow": _shim_pow, "trunc": _shim_trunc,
             "nearbyint": _shim_nearbyint, "fmod": _shim_fmod, "signbit": _shim_signbit,
             "floor": _shim_floor}

    def __getattr__(self, name: str) -> Any:
        return self.extra[name] if name in self.extra else getattr(tl.math, name)


def shim_libdevice() -> None:
    """The interpreter cannot run libdevice calls (tt.extern_elementwise). For the interpreter run
    only, the Inductor kernels' `libdevice` is replaced by triton.language's own functions, so their
    logic is still cross-checked against torch (their expected outputs then come from torch)."""
    IK.libdevice = _LibdeviceShim()


if __name__ == "__main__":
    install()
    if WORKER:
        shim_libdevice()
    sys.exit(G.interp_worker(sys.argv[2], set(sys.argv[3:])) if WORKER else G.main())
