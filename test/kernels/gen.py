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
  does not assume graph inputs are aligned) and integers equal to 1 may stay in the signature;
* `portable_locs`: also makes inductor_kernels.py and torch/_inductor paths relative;
* `K` (the kernel namespace) holds the kernels of both modules; `CASES` is the list below;
* `__file__`: the interpreter phase re-runs this script (not the corpus one) with --interp-worker;
  there, the Inductor kernels' `libdevice` is replaced by `triton.language.math` (the interpreter
  cannot run libdevice calls), so that their logic is cross-checked too; their expected outputs
  come from torch.
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
    params: list[dict[str, Any]] = []
    for pname in fn.arg_names:
        if pname in const:
            continue
        v = args[pname]
        if isinstance(v, Arr):
            params.append(dict(name=pname, kind="array", npz_key=v.key, dtype=v.dtype,
                               shape=list(v.data.shape), role=v.role))
        else:
            params.append(dict(name=pname, kind="scalar", dtype=G.ttir_type_of_scalar(v), value=v))
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


def shim_libdevice() -> None:
    """The interpreter cannot run libdevice calls (tt.extern_elementwise). For the interpreter run
    only, the Inductor kernels' `libdevice` is replaced by triton.language's own functions, so their
    logic is still cross-checked against torch (their expected outputs then come from torch)."""
    import triton.language as tl

    IK.libdevice = tl.math      # has erf, exp, rsqrt; the interpreter patches it like tl


if __name__ == "__main__":
    install()
    if WORKER:
        shim_libdevice()
    sys.exit(G.interp_worker(sys.argv[2], set(sys.argv[3:])) if WORKER else G.main())
