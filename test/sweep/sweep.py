#!/usr/bin/env python3
"""Robustness sweep: many small Triton kernels through `mtia_compiler.compile` and `run`.

The rule checked: for any valid TTIR, `compile` succeeds or raises `CompilationError` whose
message starts with `file:line:col: error:`; never a crash, a hang or another exception. A
compiled kernel's `run` gives the right numbers or raises `SimulationError`.

Two phases with files in between (see README.md):

    # 1. in a venv with triton 3.9.0, torch (CPU), numpy: TTIR, inputs, references
    python sweep.py gen OUT [-k SUBSTR ...]
    # 2. in the compiler's venv (mtia_compiler, numpy): compile + run each case in a child
    python sweep.py run OUT [-j 2] [--timeout 60] [-k SUBSTR ...]
    # one case (what `run` starts per case); also runs a saved failure (failures/NAME.ttir)
    python sweep.py one OUT/cases/NAME          (or failures/NAME.ttir)

`gen` writes OUT/cases/<name>/{kernel.ttir, case.json, case.npz} in the format of test/corpus
(so test/corpus/run_case.py runs them too) and OUT/skipped.json (cases Triton's own frontend
rejects: not valid TTIR, so outside the rule). `run` writes OUT/results.json and prints one
line per case and the counts per class:

    pass       compiled, ran, right numbers
    located    CompilationError whose message starts with `file:line:col: error:`
    unlocated  CompilationError without such a location (breaks the rule)
    exception  any other Python exception from compile or run (breaks the rule)
    crash      the process died from a signal or exited without a result (breaks the rule)
    hang       no result within the timeout (breaks the rule)
    simerror   SimulationError from run
    wrong      ran, but an output differs from the reference (breaks the rule)
    nocheck    compiled and ran; no trusted reference, numbers not checked
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import traceback
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True
FUZZ_DIR: Path | None = None                  # where gen writes fuzz_kernels.py (OUT)

# ============================================================================ dtypes and data
NP_NAME = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
           "u16": "uint16", "u32": "uint32", "u64": "uint64",
           "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
           "b": "bool"}
INTS = ["i8", "i16", "i32", "i64", "u8"]
UINTS = ["u16", "u32", "u64"]                 # only in the unsigned batch
ISINT = set(INTS + UINTS)
FLOATS = ["f16", "bf16", "f32", "f64"]
ALL = INTS + FLOATS
BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64,
        "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "b": 8}
TTIR_ELEM = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "i8",
             "uint16": "i16", "uint32": "i32", "uint64": "i64",
             "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
             "bool": "i1"}

Tol = tuple[float, float]
EXACT: Tol = (0.0, 0.0)
TOL: dict[str, Tol] = {"f64": (1e-10, 1e-12), "f32": (1e-5, 1e-6), "f16": (2e-3, 2e-3),
                       "bf16": (1.6e-2, 1e-2)}


def storage(ab: str) -> Any:
    """numpy storage dtype of a dtype abbreviation (bf16 as uint16 bit patterns)."""
    return np.uint16 if ab == "bf16" else np.dtype(NP_NAME[ab])


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float values -> bf16 bit patterns, round to nearest even (no torch needed)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, 0x7FC0, r).astype(np.uint16)


def bf16_float(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def as_f64(a: np.ndarray, ab: str) -> np.ndarray:
    return bf16_float(a).astype(np.float64) if ab == "bf16" else np.asarray(a).astype(np.float64)


def from_f64(x: np.ndarray, ab: str) -> np.ndarray:
    """float64 values -> storage of `ab` (round to nearest even; ints truncate toward zero)."""
    if ab == "bf16":
        return bf16_bits(np.asarray(x, dtype=np.float32))
    if ab == "b":
        return np.asarray(x) != 0
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(x).astype(storage(ab))


def data(rng: np.random.Generator, ab: str, shape: Any, lo: float | None = None,
         hi: float | None = None, nonzero: bool = False) -> np.ndarray:
    """Random inputs of dtype `ab`; ints in [lo, hi] (default: a signed range), floats ~ N(0, 3)."""
    if ab == "b":
        return rng.random(shape) < 0.5
    if ab in ISINT:
        info = np.iinfo(storage(ab))
        dlo, dhi = {"i8": (-100, 100), "u8": (0, 255), "u16": (0, 65535), "u32": (0, 2**32 - 1),
                    "u64": (0, 2**64 - 1), "i16": (-3000, 3000),
                    "i32": (-100000, 100000), "i64": (-10**12, 10**12)}[ab]
        lo = dlo if lo is None else max(lo, info.min)
        hi = dhi if hi is None else min(hi, info.max)
        x = rng.integers(int(lo), int(hi) + 1, size=shape,
                         dtype=np.uint64 if ab == "u64" else np.int64)
        if nonzero:
            x = np.where(x == 0, 1 if hi >= 1 else -1, x)
        return x.astype(storage(ab))
    if lo is not None:
        x = rng.uniform(lo, hi, size=shape)
    else:
        x = rng.standard_normal(shape) * 3.0
    if nonzero:
        x = np.where(np.abs(x) < 0.25, 0.5, x)
    if ab == "f16":                           # keep values representable in f16 (no overflow)
        x = np.clip(x, -60000, 60000)
    return from_f64(x, ab)


# ============================================================================ cases
@dataclass
class Arr:
    """A pointer argument: a buffer, its role and dtype abbreviation."""

    key: str
    data: np.ndarray
    role: str  # "in" | "out" | "inout"
    ab: str

    def torch(self) -> Any:
        import torch
        src = torch.from_numpy(np.array(self.data, copy=True))
        t = torch.empty(src.shape, dtype=src.dtype)   # 64-byte aligned: tt.divisibility=16
        t.copy_(src)
        if self.ab == "bf16":
            t = t.view(torch.bfloat16)
        return t


def inp(key: str, x: np.ndarray, ab: str) -> Arr:
    return Arr(key, np.ascontiguousarray(x, dtype=storage(ab)), "in", ab)


def out(key: str, shape: Any, ab: str) -> Arr:
    """A pure output, filled with a sentinel so that missed stores show up."""
    if ab == "b":
        return Arr(key, np.zeros(shape, bool), "out", ab)
    if ab in ISINT:
        return Arr(key, np.full(shape, -77 if BITS[ab] == 8 else -31337).astype(storage(ab)),
                   "out", ab)
    return Arr(key, from_f64(np.full(shape, -31337.0), ab), "out", ab)


@dataclass
class Case:
    name: str
    kernel: str
    args: dict[str, Any]                      # kernel parameter -> Arr | int | float | constexpr
    grid: tuple[int, int, int] = (1, 1, 1)
    tol: dict[str, Tol] = field(default_factory=dict)   # per output key (default: by dtype)
    ref: Callable[[], dict[str, np.ndarray]] | None = None
    expected: str = "interpreter"             # "interpreter" | "ref" | "none" | "simerror"
    options: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    # run the interpreter on an fp32 twin of the bf16 buffers (set by build_cases): Triton
    # 3.9's interpreter keeps bf16 as uint16 and does arithmetic on the bit patterns
    twin: bool = False
    interp: bool = True                       # False: do not run the interpreter (it would hang)
    auto_tol: bool = False                    # float tolerance scaled by the reference's magnitude

    def arrays(self) -> dict[str, Arr]:
        return {v.key: v for v in self.args.values() if isinstance(v, Arr)}

    def outputs(self) -> dict[str, Arr]:
        return {k: a for k, a in self.arrays().items() if a.role != "in"}


def crc_rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def ld_ref(op: str) -> Callable[[np.ndarray], np.ndarray] | None:
    """numpy reference of the libdevice unary ops (the interpreter cannot run them)."""
    import math
    table: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "ld_tanh": np.tanh, "ld_exp": np.exp, "ld_log1p": lambda x: np.log1p(np.abs(x)),
        "ld_asin": lambda x: np.arcsin(np.clip(x, -1, 1)), "ld_rint": np.rint, "ld_trunc": np.trunc,
        "ld_isinf": np.isinf, "ld_signbit": np.signbit, "ld_cbrt": np.cbrt,
        "ld_round": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), "ld_nearbyint": np.rint,
        "ld_erfinv": lambda x: np.vectorize(_erfinv)(x * 0.25),
        "ld_popc": lambda x: np.vectorize(lambda v: bin(int(v) & _mask(x)).count("1"))(x),
        "ld_clz": lambda x: np.vectorize(
            lambda v: _bits(x) - (int(v) & _mask(x)).bit_length())(x),
        "ld_ffs": lambda x: np.vectorize(
            lambda v: 0 if v == 0 else ((int(v) & -int(v)) & _mask(x)).bit_length())(x),
    }
    del math
    return table.get(op)


def _bits(x: np.ndarray) -> int:
    return x.dtype.itemsize * 8


def _mask(x: np.ndarray) -> int:
    return (1 << _bits(x)) - 1


def _erfinv(y: float) -> float:
    """CUDA's erfinv: NaN outside [-1, 1], infinities at the ends."""
    import math
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    lo, hi = -6.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erf(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def build_cases() -> list[Case]:  # noqa: C901 (one table)
    """The case table. Needs triton (constexpr dtypes); runs in the generator and the worker."""
    import triton.language as tl
    from triton.language.semantic import TritonSemantic
    sem = TritonSemantic(None)
    TL = {"i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64, "u8": tl.uint8,
          "u16": tl.uint16, "u32": tl.uint32, "u64": tl.uint64,
          "f16": tl.float16, "bf16": tl.bfloat16, "f32": tl.float32, "f64": tl.float64}
    AB = {str(v): k for k, v in TL.items()}
    cases: list[Case] = []

    def add(c: Case) -> None:
        cases.append(c)

    def result_ab(op: str, a: str, b: str) -> str:
        """The dtype Triton gives OP(a, b) (a guess is fine: the kernel casts to the output)."""
        ta, tb = TL[a], TL[b]
        if op in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and"):
            return "i8"
        if op == "truediv":
            if ta.is_int() and tb.is_int():
                return "f32"
            if ta.is_floating() and tb.is_floating():
                return a if ta.fp_mantissa_width > tb.fp_mantissa_width else b
            return a if ta.is_floating() else b
        if op == "shl" or op == "shr":
            return a
        try:
            t = sem.computation_type_impl(ta, False, tb, False, op in ("mod", "floordiv", "fdiv"))
        except TypeError:
            return a
        return AB.get(str(t), a)

    # ---------------------------------------------------------------- binary
    N = 64

    def binary(op: str, a: str, b: str, tag: str = "") -> None:
        name = f"bin_{op}_{a}_{b}{tag}"
        rng = crc_rng(name)
        kw: dict[str, Any] = {}
        if op in ("truediv", "floordiv", "mod", "cdiv", "fdiv", "div_rn", "fmod"):
            kw = dict(nonzero=True)
        x = data(rng, a, N)
        if op in ("shl", "shr"):
            y = data(rng, b, N, lo=0, hi=BITS[a] - 1)
        elif op == "pow":
            x = data(rng, a, N, lo=0.1, hi=4.0)
            y = data(rng, b, N, lo=-3.0, hi=3.0)
        elif op == "cdiv":
            x = data(rng, a, N, lo=0, hi=1000)
            y = data(rng, b, N, lo=1, hi=50)
        else:
            y = data(rng, b, N, **kw)
        r = result_ab(op, a, b)
        c = Case(name, "binary", dict(x_ptr=inp("x", x, a), y_ptr=inp("y", y, b),
                                      z_ptr=out("z", N, r), N=N, OP=op))
        if op in ("floordiv", "mod") and a in ISINT and b in ISINT:
            # C semantics (truncation toward zero), what arith.divsi/remsi mean
            def ref(x: np.ndarray = x, y: np.ndarray = y, op: str = op, r: str = r) -> dict:
                res = []
                for xv, yv in zip(x.tolist(), y.tolist(), strict=True):
                    q = abs(xv) // abs(yv) * (1 if (xv < 0) == (yv < 0) else -1)
                    res.append(q if op == "floordiv" else xv - q * yv)
                bits = BITS[r]
                return {"z": np.array([v % (1 << bits) for v in res], dtype=np.uint64)
                        .astype(storage(r))}
            c.ref = ref
        if op in ("pow", "atan2", "fmod"):
            fn = {"pow": np.power, "atan2": np.arctan2, "fmod": np.fmod}[op]
            c.ref = lambda x=x, y=y, fn=fn, a=a, b=b, r=r: {
                "z": from_f64(fn(as_f64(x, a), as_f64(y, b)), r)}
            c.expected = "ref"
            c.tol = {"z": (1e-5, 1e-5) if r == "f32" else TOL[r]}
        add(c)

    ops_all = ["add", "sub", "mul", "truediv", "floordiv", "mod", "and", "or", "xor", "shl", "shr",
               "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge"]
    for ab in ALL:
        for op in ops_all:
            binary(op, ab, ab)
    for i, a in enumerate(ALL):
        for b in ALL[i + 1:]:
            binary("add", a, b)
    for a, b in [("i8", "i32"), ("u8", "i16"), ("i32", "i64"), ("i16", "f16"), ("i32", "f32"),
                 ("f16", "f32"), ("bf16", "f32"), ("f16", "bf16"), ("f32", "f64"), ("i64", "f64"),
                 ("u8", "f32"), ("i8", "bf16")]:
        for op in ("truediv", "mod", "lt", "mul"):
            binary(op, a, b)
            binary(op, b, a)
    binary("shr", "i32", "i8")
    binary("shl", "u8", "u8", "_b")
    for op, abs_ in [("fdiv", ["f32", "f16"]), ("div_rn", ["f32"]), ("umulhi", ["i32"]),
                     ("cdiv", ["i32", "i64"]), ("logical_and", ["f32", "i32"]),
                     ("pow", ["f32", "f64"]), ("atan2", ["f32"]), ("fmod", ["f32", "f64"]),
                     ("maximum_nan", ["f32"])]:
        for ab in abs_:
            binary(op, ab, ab)

    # ---------------------------------------------------------------- unary
    f_ops = ["neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos",
             "floor", "ceil", "erf", "sigmoid", "softmax", "fma", "clamp", "isnan", "math_cos",
             "math_log"]
    ld_ops = ["ld_tanh", "ld_asin", "ld_exp", "ld_log1p", "ld_rint", "ld_trunc", "ld_isinf",
              "ld_signbit", "ld_cbrt", "ld_erfinv", "ld_round", "ld_nearbyint"]

    def unary(op: str, ab: str) -> None:
        name = f"un_{op}_{ab}"
        rng = crc_rng(name)
        x = data(rng, ab, N)
        if ab in FLOATS and op in ("exp", "exp2", "ld_exp"):
            x = data(rng, ab, N, lo=-8, hi=8)
        r = ab
        if op in ("isnan", "ld_isinf", "ld_signbit"):
            r = "i8"
        elif op in ("ld_ffs", "ld_popc", "ld_clz"):
            r = "i32"
        c = Case(name, "unary", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", N, r), N=N, OP=op))
        if ab in FLOATS and op not in ("neg", "pos", "abs", "floor", "ceil", "clamp", "isnan"):
            c.tol = {"z": {"f32": (2e-5, 1e-5), "f64": (1e-9, 1e-12)}.get(r, TOL.get(r, EXACT))}
        fn = ld_ref(op)
        if fn is not None:
            xs = as_f64(x, ab) if ab in FLOATS else x
            c.ref = lambda fn=fn, xs=xs, r=r: {"z": from_f64(fn(xs), r) if r in FLOATS
                                               else np.asarray(fn(xs)).astype(storage(r))}
            c.expected = "ref"
        add(c)

    for op in f_ops + ld_ops:
        unary(op, "f32")
    for ab in ("f16", "bf16"):                # Triton's math ops take fp32/fp64 only
        for op in ["neg", "abs", "fma", "clamp", "isnan"]:
            unary(op, ab)
    for op in ["neg", "abs", "exp", "log", "sqrt", "sin", "floor", "sigmoid", "fma", "ld_tanh",
               "rsqrt", "erf"]:
        unary(op, "f64")
    for ab in INTS:
        for op in ["neg", "abs", "invert", "square_int"]:
            unary(op, ab)
    for ab in ("i32", "i64"):
        for op in ["ld_ffs", "ld_popc", "ld_clz"]:
            unary(op, ab)

    # ---------------------------------------------------------------- casts
    def cast(a: str, b: str, bitcast: bool = False, mid: Any = None, tag: str = "") -> None:
        name = f"cast_{a}_{b}{'_bitcast' if bitcast else ''}{tag}"
        rng = crc_rng(name)
        if b in ISINT and a in FLOATS and not bitcast:    # stay inside b's range (no UB)
            lo, hi = (0, 250) if b[0] == "u" else (-120, 120)   # negative -> unsigned is UB
            x = data(rng, a, N, lo=lo, hi=hi)
        elif b == "u8" and a in ISINT and not bitcast:
            x = data(rng, a, N, lo=-300, hi=300)         # wraps modulo 256
        else:
            x = data(rng, a, N)
        c = Case(name, "cast", dict(x_ptr=inp("x", x, a), z_ptr=out("z", N, b), N=N,
                                    BITCAST=bitcast, MID=mid))
        if mid is not None:                    # the interpreter's fp8 rounding is not RNE
            import torch
            tdt = {"fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}[str(mid)]
            c.ref = lambda x=x, a=a, b=b, tdt=tdt: {"z": from_f64(torch.from_numpy(
                as_f64(x, a).astype(np.float32)).to(tdt).double().numpy(), b)}
            c.expected = "ref"
        if b == "bf16" and a in ("f32", "f64") and not bitcast:   # interpreter truncates
            c.ref = lambda x=x, a=a: {"z": bf16_bits(as_f64(x, a).astype(np.float32))}
            c.expected = "ref"
            c.tol = {"z": EXACT}
        add(c)

    for a in ALL:
        for b in ALL:
            if a != b:
                cast(a, b)
    cast("i8", "b")
    cast("f32", "b")
    cast("b", "f32")
    for a, b in [("i32", "f32"), ("f32", "i32"), ("i16", "f16"), ("f16", "i16"), ("i16", "bf16"),
                 ("bf16", "i16"), ("i64", "f64"), ("f64", "i64"), ("u8", "i8"), ("i8", "u8"),
                 ("f16", "bf16")]:
        cast(a, b, bitcast=True)
    for f8 in ("float8e4nv", "float8e5"):
        for a in ("f16", "f32", "bf16"):
            cast(a, "f32", mid=getattr(tl, f8), tag=f"_via_{f8}")

    import torch

    def fp8_bits(src: str, f8: str, rounding: str | None = None) -> None:
        name = f"fp8_{src}_to_{f8}{'_' + rounding if rounding else ''}"
        rng = crc_rng(name)
        lim = 440.0 if f8 == "float8e4nv" else 50000.0
        x = data(rng, src, N, lo=-lim, hi=lim)
        x = np.where(np.arange(N) % 4 == 0, from_f64(as_f64(x, src) / 1000.0, src), x)
        tdt = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}[f8]
        xt = torch.from_numpy(as_f64(x, src).astype(np.float32))
        if src == "f16":
            xt = torch.from_numpy(as_f64(x, src).astype(np.float16))
        c = Case(name, "fp8_bits", dict(x_ptr=inp("x", x, src), z_ptr=out("z", N, "i8"), N=N,
                                        F8=getattr(tl, f8), ROUNDING=rounding))
        if rounding is None:
            c.ref = lambda xt=xt, tdt=tdt: {"z": xt.to(tdt).view(torch.int8).numpy()}
            c.expected = "ref"
        else:
            c.expected = "none"
            c.note = "rtz rounding: no trusted reference"
        add(c)

    for f8 in ("float8e4nv", "float8e5"):
        for src in ("f16", "f32", "bf16"):
            fp8_bits(src, f8)
        fp8_bits("f32", f8, "rtz")

    def fp8_from(f8: str, dst: str) -> None:
        name = f"fp8_{f8}_to_{dst}"
        rng = crc_rng(name)
        bits = rng.integers(-128, 128, N).astype(np.int8)
        tdt = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}[f8]
        bits = np.where(np.isfinite(torch.from_numpy(bits).view(tdt).float().numpy()), bits, 0
                        ).astype(np.int8)
        vals = torch.from_numpy(bits.copy()).view(tdt).double().numpy()
        c = Case(name, "fp8_from_bits", dict(x_ptr=inp("x", bits, "i8"), z_ptr=out("z", N, dst),
                                             N=N, F8=getattr(tl, f8)),
                 ref=lambda vals=vals, dst=dst: {"z": from_f64(vals, dst)}, expected="ref",
                 tol={"z": EXACT})
        add(c)

    for f8 in ("float8e4nv", "float8e5"):
        for dst in ("f16", "f32", "bf16"):
            fp8_from(f8, dst)

    # ---------------------------------------------------------------- where
    for mode in ("tt", "ts", "st", "ss", "scalar_cond", "mixed"):
        for ab in ("f32", "i32", "f16") if mode != "mixed" else ("f16", "i32"):
            name = f"where_{mode}_{ab}"
            rng = crc_rng(name)
            r = "f32" if mode == "mixed" or (mode == "st" and ab != "f16") else ab
            add(Case(name, "where_kernel", dict(
                c_ptr=inp("c", data(rng, "i32", N, lo=-3, hi=3), "i32"),
                x_ptr=inp("x", data(rng, ab, N), ab), y_ptr=inp("y", data(rng, ab, N), ab),
                z_ptr=out("z", N, r), N=N, MODE=mode)))

    # ---------------------------------------------------------------- masked loads
    for ab in ALL + ["b"]:
        for other in (None, "value"):
            name = f"masked_load_{ab}_{'nomask_other' if other is None else 'other'}"
            rng = crc_rng(name)
            ov: Any = None
            if other is not None:
                ov = {"b": True, "u8": 200, "i8": -5}.get(ab, 3 if ab in ISINT else -2.5)
            add(Case(name, "masked_load", dict(
                x_ptr=inp("x", data(rng, ab, N), ab),
                z_ptr=out("z", N, ab), n=45, N=N, OTHER=ov)))
    for M_, N_, ab in [(50, 70, "f32"), (33, 17, "f16")]:
        name = f"masked_2d_{M_}x{N_}_{ab}"
        rng = crc_rng(name)
        add(Case(name, "masked_2d", dict(
            x_ptr=inp("x", data(rng, ab, (M_, N_)), ab), z_ptr=out("z", (M_, N_), ab),
            M=M_, N=N_, stride=N_, BM=32, BN=32), grid=(-(-M_ // 32), -(-N_ // 32), 1)))

    # ---------------------------------------------------------------- scalar loads / stores
    for mode in ("copy", "index", "masked", "splat", "to_scalar_ptr"):
        for ab in ("f32", "i64", "f16", "i8"):
            name = f"scalar_{mode}_{ab}"
            rng = crc_rng(name)
            zn = 16 if mode in ("splat", "to_scalar_ptr") else 4
            grid = (1, 1, 1) if mode in ("copy", "splat", "to_scalar_ptr") else (3, 1, 1)
            zab = ("i64" if ab in ISINT else "f32") if mode == "to_scalar_ptr" and ab != "f32" \
                else ab
            if mode == "to_scalar_ptr" and ab in ("i8",):
                zab = "i32"
            add(Case(name, "scalar_ldst", dict(
                x_ptr=inp("x", data(rng, ab, 16, lo=-20, hi=20), ab),
                z_ptr=out("z", zn, zab), MODE=mode), grid=grid))

    # ---------------------------------------------------------------- reductions
    def reduce2d(op: str, ab: str, axis: Any, keep: bool = False, M: int = 8, Nn: int = 16) -> None:
        name = f"red2d_{op}_{ab}_ax{axis}{'_keep' if keep else ''}_{M}x{Nn}"
        rng = crc_rng(name)
        x = data(rng, ab, (M, Nn))
        if op == "prod":
            x = data(rng, ab, (M, Nn), lo=-2, hi=2) if ab in ISINT else \
                data(rng, ab, (M, Nn), lo=0.5, hi=1.5)
        if op in ("argmax", "argmin"):
            r = "i32"
        elif op == "sum" and ab in ("i8", "i16"):
            r = "i32"
        elif op == "reduce_or":
            r = ab
        else:
            r = ab
        shape = {None: 1, 0: Nn, 1: M}[axis]
        c = Case(name, "reduce2d", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", shape, r),
                                        M=M, N=Nn, OP=op, AXIS=axis, KEEP=keep))
        if r in FLOATS and op in ("sum", "prod"):
            c.tol = {"z": {"f32": (1e-4, 1e-4), "f64": (1e-10, 1e-10), "f16": (1e-2, 1e-2),
                           "bf16": (3e-2, 0.1)}[r]}
        if r == "u8" and op == "sum":
            pass
        add(c)

    for op in ("sum", "max", "min", "argmax", "argmin"):
        for axis in (0, 1) if op.startswith("arg") else (0, 1, None):
            for ab in ("f32", "i32"):
                reduce2d(op, ab, axis)
    for axis in (0, 1, None):
        reduce2d("xor_sum", "i32", axis)
        reduce2d("prod", "f32", axis)
    for ab in ("i8", "i16", "i64", "u8", "f16", "bf16", "f64"):
        reduce2d("sum", ab, 1)
        reduce2d("max", ab, 0)
        reduce2d("argmin", ab, 1)
    reduce2d("xor_sum", "i64", 0)
    reduce2d("xor_sum", "u8", None)
    reduce2d("reduce_or", "i32", 1)
    reduce2d("prod", "i32", 1)
    reduce2d("sum", "f32", 1, keep=True)
    reduce2d("max", "f32", 0, keep=True)
    reduce2d("sum", "f32", 1, M=4, Nn=256)
    reduce2d("sum", "f32", 0, M=128, Nn=4)
    reduce2d("argmax", "f16", 1, M=2, Nn=128)

    def reduce1d(op: str, ab: str, n: int = 64) -> None:
        name = f"red1d_{op}_{ab}_{n}"
        rng = crc_rng(name)
        x = data(rng, ab, n)
        r = "i32" if op in ("argmax", "argmin") or (op == "sum" and ab in ("i8", "i16")) else ab
        c = Case(name, "reduce1d", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", 1, r), N=n, OP=op,
                                        AXIS=0))
        if r in FLOATS and op == "sum":
            c.tol = {"z": {"f32": (1e-4, 1e-4), "f64": (1e-10, 1e-10), "f16": (1e-2, 1e-2),
                           "bf16": (3e-2, 0.1)}[r]}
        add(c)

    for ab in ALL:
        for op in ("sum", "max", "argmax") if ab in FLOATS else ("sum", "min", "argmin", "xor_sum"):
            reduce1d(op, ab)
    reduce1d("sum", "f32", 1024)
    reduce1d("max", "i32", 2)

    def reduce3d(op: str, ab: str, axis: Any, shape: tuple[int, int, int] = (2, 4, 8)) -> None:
        name = f"red3d_{op}_{ab}_ax{axis}_{'x'.join(map(str, shape))}"
        rng = crc_rng(name)
        A, B, C = shape
        x = data(rng, ab, shape)
        oshape = {None: 1, 0: (B, C), 1: (A, C), 2: (A, B)}[axis]
        r = "i32" if op in ("argmax", "argmin") else ab
        c = Case(name, "reduce3d", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", oshape, r),
                                        A=A, B=B, C=C, OP=op, AXIS=axis))
        if r == "f32" and op == "sum":
            c.tol = {"z": (1e-4, 1e-4)}
        add(c)

    for axis in (0, 1, 2, None):
        reduce3d("sum", "f32", axis)
        reduce3d("max", "i32", axis)
    reduce3d("argmin", "f32", 1)
    reduce3d("argmax", "i32", 2)
    reduce3d("xor_sum", "i16", 0)

    for op, ab in [("sum", "f32"), ("max", "f32"), ("argmin", "f32"), ("sum", "i32"),
                   ("sum", "f16")]:
        name = f"masked_row_reduce_{op}_{ab}"
        rng = crc_rng(name)
        r = "i32" if op == "argmin" else ab
        c = Case(name, "masked_row_reduce", dict(
            x_ptr=inp("x", data(rng, ab, (5, 100)), ab), z_ptr=out("z", 5, r), n=100, N=128,
            OP=op), grid=(5, 1, 1))
        if ab == "f32" and op == "sum":
            c.tol = {"z": (1e-4, 1e-4)}
        if ab == "f16":
            c.tol = {"z": (1e-2, 1e-2)}
        add(c)

    name = "user_reduce_tuple_argmax"
    rng = crc_rng(name)
    add(Case(name, "user_reduce_tuple", dict(
        x_ptr=inp("x", data(rng, "f32", (8, 32)), "f32"), v_ptr=out("v", 8, "f32"),
        i_ptr=out("i", 8, "i32"), M=8, N=32)))

    # ---------------------------------------------------------------- scans
    def scan2d(op: str, ab: str, axis: int, reverse: bool = False, M: int = 8,
               Nn: int = 16) -> None:
        name = f"scan2d_{op}_{ab}_ax{axis}{'_rev' if reverse else ''}" \
               f"{'' if (M, Nn) == (8, 16) else f'_{M}x{Nn}'}"
        rng = crc_rng(name)
        x = data(rng, ab, (M, Nn), lo=-3, hi=3) if op != "cumprod" else \
            (data(rng, ab, (M, Nn), lo=-2, hi=2) if ab in ISINT else
             data(rng, ab, (M, Nn), lo=0.8, hi=1.25))
        r = "i32" if op == "cumsum" and ab in ("i8", "i16") else ab
        c = Case(name, "scan2d", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", (M, Nn), r), M=M,
                                      N=Nn, OP=op, AXIS=axis, REVERSE=reverse))
        if r in ("f32", "f16", "bf16"):
            c.tol = {"z": {"f32": (1e-4, 1e-3), "f16": (1e-2, 1e-2), "bf16": (3e-2, 0.1)}[r]}
        add(c)

    for axis in (0, 1):
        for rev in (False, True):
            scan2d("cumsum", "f32", axis, rev)
            scan2d("cumprod", "f32", axis, rev)
    for ab in ("i32", "i64", "f16", "i8", "bf16", "f64"):
        scan2d("cumsum", ab, 1)
    scan2d("cumprod", "i32", 1)
    scan2d("cummax", "f32", 1)
    scan2d("cummax", "i32", 0, True)
    scan2d("pair", "f32", 1)
    for op in ("cumsum", "cumprod"):
        for n in (64, 1024):
            name = f"scan1d_{op}_{n}"
            rng = crc_rng(name)
            x = data(rng, "f32", n, lo=0.99, hi=1.01) if op == "cumprod" else data(rng, "f32", n)
            add(Case(name, "scan1d", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", n, "f32"), N=n,
                                          OP=op, REVERSE=n == 64), tol={"z": (1e-4, 1e-3)}))

    # ---------------------------------------------------------------- dot
    def dot(in_ab: str, M: int, Nn: int, K: int, precision: Any = None, acc: str = "none",
            out_ab: str = "f32", trans_b: bool = False, f8: Any = None, tag: str = "") -> None:
        name = f"dot_{tag or in_ab}_{M}x{Nn}x{K}_{acc}{'_' + precision if precision else ''}" \
               f"{'_tb' if trans_b else ''}_{out_ab}"
        rng = crc_rng(name)
        if f8 is not None:
            tdt = {"fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}[str(f8)]
            av = torch.from_numpy(rng.uniform(-2, 2, (M, K)).astype(np.float32)).to(tdt)
            bv = torch.from_numpy(rng.uniform(-2, 2, (K, Nn)).astype(np.float32)).to(tdt)
            a = av.view(torch.int8).numpy()
            b = bv.view(torch.int8).numpy()
            ref_c = av.double().numpy() @ bv.double().numpy()
            store_ab = "i8"
        else:
            store_ab = in_ab
            if in_ab in ISINT:
                a = data(rng, in_ab, (M, K), lo=-8, hi=8)
                b = data(rng, in_ab, (K, Nn), lo=-8, hi=8)
            else:
                a = data(rng, in_ab, (M, K), lo=-1, hi=1)
                b = data(rng, in_ab, (K, Nn), lo=-1, hi=1)
            ref_c = as_f64(a, in_ab) @ as_f64(b, in_ab)
        b_store = np.ascontiguousarray(b.T) if trans_b else b
        c_ab = "i32" if in_ab in ISINT else ("f16" if out_ab == "f16" else
                                            ("f64" if in_ab == "f64" else "f32"))
        if acc == "loaded":
            c0 = data(rng, c_ab, (M, Nn), lo=-2, hi=2)
            carr = Arr("c", c0.copy(), "inout", c_ab)
            ref_c = ref_c + as_f64(c0, c_ab)
        else:
            carr = out("c", (M, Nn), c_ab)
        if acc == "twice":
            ref_c = 2 * ref_c
        if acc == "relu":
            ref_c = np.maximum(ref_c, 0)
        odt = {"f32": tl.float32, "f16": tl.float16, "i32": tl.int32, "f64": tl.float64}[
            "i32" if in_ab in ISINT else ("f64" if in_ab == "f64" else out_ab)]
        c = Case(name, "dot_kernel", dict(
            a_ptr=inp("a", a, store_ab), b_ptr=inp("b", b_store, store_ab), c_ptr=carr,
            M=M, N=Nn, K=K, IN_DTYPE=f8, PRECISION=precision, ACC=acc, OUT_DTYPE=odt,
            TRANS_B=trans_b))
        scale = float(np.sqrt(K))
        if c_ab == "i32":
            c.tol = {"c": EXACT}
        elif c_ab == "f64":
            c.tol = {"c": (1e-10, 1e-10)}
        elif c_ab == "f16" or in_ab in ("f16", "bf16") or f8 is not None:
            c.tol = {"c": (1e-2, 1e-2 * scale)}
        elif precision in ("tf32", None):
            c.tol = {"c": (2e-2, 2e-3 * scale)}
        else:
            c.tol = {"c": (1e-4, 1e-4 * scale)}
        if f8 is not None:
            c.ref = lambda ref_c=ref_c, c_ab=c_ab: {"c": from_f64(ref_c, c_ab)}
            c.expected = "ref"
        add(c)

    for in_ab in ("f16", "bf16", "f32", "i8"):
        for (M, Nn, K) in ((16, 16, 16), (32, 64, 16), (64, 32, 128)):
            if in_ab == "i8":                  # Triton: int8 dots need K >= 32
                K = max(K, 32)
            dot(in_ab, M, Nn, K, precision="ieee" if in_ab == "f32" else None)
    dot("f32", 16, 16, 16, precision="tf32")
    dot("f32", 32, 32, 32, precision="tf32x3")
    dot("f64", 16, 16, 16)
    dot("f16", 32, 32, 32, acc="zeros")
    dot("f16", 32, 32, 32, acc="loaded")
    dot("f16", 32, 32, 32, acc="twice")
    dot("f16", 32, 32, 32, acc="relu")
    dot("f16", 32, 32, 32, out_ab="f16")
    dot("f16", 32, 32, 32, acc="loaded", out_ab="f16")
    dot("f32", 32, 16, 64, precision="ieee", acc="loaded")
    dot("i8", 32, 32, 64, acc="loaded")
    dot("bf16", 16, 32, 16, trans_b=True)
    dot("f16", 64, 64, 64, trans_b=True)
    dot("i8", 16, 16, 32, trans_b=True)
    for f8 in ("float8e4nv", "float8e5"):
        dot("f8", 32, 32, 32, f8=getattr(tl, f8), tag=f8)
    for M_, N_, K_, ab in [(70, 50, 45, "f32"), (64, 64, 100, "f16")]:
        name = f"dot_loop_{M_}x{N_}x{K_}_{ab}"
        rng = crc_rng(name)
        a = data(rng, ab, (M_, K_), lo=-1, hi=1)
        b = data(rng, ab, (K_, N_), lo=-1, hi=1)
        add(Case(name, "dot_loop", dict(
            a_ptr=inp("a", a, ab), b_ptr=inp("b", b, ab), c_ptr=out("c", (M_, N_), "f32"),
            M=M_, N=N_, K=K_, BM=32, BN=32, BK=32), grid=(-(-M_ // 32), -(-N_ // 32), 1),
            tol={"c": (2e-2, 2e-2)}))
    name = "dot3d_f16_2x16x16x16"
    rng = crc_rng(name)
    add(Case(name, "dot3d", dict(
        a_ptr=inp("a", data(rng, "f16", (2, 16, 16), lo=-1, hi=1), "f16"),
        b_ptr=inp("b", data(rng, "f16", (2, 16, 16), lo=-1, hi=1), "f16"),
        c_ptr=out("c", (2, 16, 16), "f32"), B=2, M=16, N=16, K=16), tol={"c": (1e-2, 4e-2)}))

    # ---------------------------------------------------------------- shape ops
    shape_ops = {"trans": (8, 16), "permute": (16, 8), "reshape": (8, 16), "ravel": (8, 16),
                 "broadcast_row": (8, 16), "broadcast_col": (8, 16), "expand_dims": (4, 16),
                 "flip0": (8, 16), "flip1": (8, 16), "sort": (4, 16), "sort_desc": (4, 16),
                 "topk": (4, 16), "cat": (8, 16), "join": (4, 8), "split": (4, 16),
                 "interleave": (4, 8), "reshape3d": (8, 16), "slice_expand": (4, 8)}
    out_n = {"topk": lambda m, n: m * 4, "cat": lambda m, n: 2 * n, "join": lambda m, n: 2 * m * n,
             "split": lambda m, n: m * n // 2, "interleave": lambda m, n: 2 * m * n,
             "reshape3d": lambda m, n: m * n // 2}
    for op, (M_, N_) in shape_ops.items():
        for ab in ("f32", "i32", "f16") if op in ("trans", "sort", "flip1", "join") else ("f32",):
            name = f"shape_{op}_{ab}"
            rng = crc_rng(name)
            x = data(rng, ab, (M_, N_))
            if op in ("sort", "sort_desc", "topk", "cat"):
                x = np.ascontiguousarray(rng.permutation(x.reshape(-1)).reshape(M_, N_))
            n_out = out_n.get(op, lambda m, n: m * n)(M_, N_)
            add(Case(name, "shape_op", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", n_out, ab),
                                            M=M_, N=N_, OP=op)))
    for axis, ab in [(0, "f32"), (1, "f32"), (1, "i64"), (0, "f16")]:
        name = f"gather_ax{axis}_{ab}"
        rng = crc_rng(name)
        M_, N_ = 8, 16
        idx = rng.integers(0, (M_, N_)[axis], (M_, N_)).astype(np.int32)
        add(Case(name, "gather_kernel", dict(
            x_ptr=inp("x", data(rng, ab, (M_, N_)), ab), i_ptr=inp("i", idx, "i32"),
            z_ptr=out("z", (M_, N_), ab), M=M_, N=N_, AXIS=axis)))
    for bins, masked, ab in [(8, False, "i32"), (16, True, "i32"), (4, False, "i32")]:
        name = f"histogram_{bins}_{'masked' if masked else 'nomask'}_{ab}"
        rng = crc_rng(name)
        add(Case(name, "histogram_kernel", dict(
            x_ptr=inp("x", rng.integers(0, bins, 64).astype(storage(ab)), ab),
            z_ptr=out("z", bins, "i32"), N=64, BINS=bins, MASKED=masked)))
    for i64 in (False, True):
        name = f"indirect_load_{'i64' if i64 else 'i32'}"
        rng = crc_rng(name)
        add(Case(name, "indirect_load", dict(
            x_ptr=inp("x", data(rng, "f32", 200), "f32"),
            i_ptr=inp("i", rng.integers(0, 200, 64).astype(np.int32), "i32"),
            z_ptr=out("z", 64, "f32"), N=64, I64=i64)))
    name = "indirect_store_perm"
    rng = crc_rng(name)
    add(Case(name, "indirect_store", dict(
        x_ptr=inp("x", data(rng, "f32", 64), "f32"),
        i_ptr=inp("i", rng.permutation(64).astype(np.int32), "i32"),
        z_ptr=out("z", 64, "f32"), N=64)))

    # ---------------------------------------------------------------- atomics
    def atomic(op: str, ab: str, sem_: Any = None, scope: Any = None, masked: bool = False,
               targets: int = 16, grid: int = 4, want_old: bool | None = None) -> None:
        name = f"atomic_{op}_{ab}{'_' + sem_ if sem_ else ''}{'_' + scope if scope else ''}" \
               f"{'_masked' if masked else ''}_t{targets}_g{grid}"
        rng = crc_rng(name)
        Nn = 16
        if ab in FLOATS:
            v = from_f64(rng.integers(-16, 17, (grid, Nn)) / 4.0, ab)
            p0 = from_f64(rng.integers(-16, 17, Nn) / 4.0, ab)
        else:
            lo, hi = (0, 255) if ab == "u8" else (-1000, 1000)
            if op in ("and", "or", "xor"):
                lo, hi = 0, 255
            v = data(rng, ab, (grid, Nn), lo=lo, hi=hi)
            p0 = data(rng, ab, Nn, lo=lo, hi=hi)
        if want_old is None:
            want_old = grid == 1 and targets == Nn
        args = dict(p_ptr=Arr("p", p0.copy(), "inout", ab), v_ptr=inp("v", v, ab),
                    old_ptr=out("old", (grid, Nn), ab) if want_old else None, N=Nn, OP=op,
                    SEM=sem_, SCOPE=scope, MASKED=masked, TARGETS=targets)
        c = Case(name, "atomic_kernel", args, grid=(grid, 1, 1),
                 tol={"p": EXACT, "old": EXACT})

        def ref(p0: np.ndarray = p0, v: np.ndarray = v, ab: str = ab, op: str = op,
                grid: int = grid, targets: int = targets, masked: bool = masked,
                want_old: bool = want_old, c: Case = c) -> dict[str, np.ndarray]:
            """Programs one after another, lanes in order (exact for these inputs)."""
            conv = (lambda a: list(as_f64(a, ab).reshape(-1))) if ab in FLOATS else \
                (lambda a: [int(t) for t in np.asarray(a).reshape(-1)])
            p, vals = conv(p0), conv(v)
            old = list(conv(c.args["old_ptr"].data)) if want_old else None
            fns = {"add": lambda a, b: a + b, "max": max, "min": min, "and": lambda a, b: a & b,
                   "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "xchg": lambda a, b: b}
            for g in range(grid):
                for i in range(Nn):
                    if masked and i % 3 == 1:
                        continue
                    t = i % targets
                    if old is not None:
                        old[g * Nn + i] = p[t]
                    p[t] = fns[op](p[t], vals[g * Nn + i])
            res = {"p": from_f64(np.array(p, dtype=np.float64), ab) if ab in FLOATS
                   else np.array(p, dtype=np.int64).astype(storage(ab))}
            if old is not None:
                res["old"] = from_f64(np.array(old, dtype=np.float64), ab) if ab in FLOATS \
                    else np.array(old, dtype=np.int64).astype(storage(ab))
            return res
        c.ref = ref
        if ab in ("bf16",) or op == "xchg":        # the interpreter cannot run these
            c.expected = "ref"
        add(c)

    for op in ("add", "max", "min", "and", "or", "xor"):
        atomic(op, "i32")
        atomic(op, "i32", grid=1)
    atomic("xchg", "i32", grid=1)
    for ab in ("i64", "f32", "f16", "bf16", "f64"):
        atomic("add", ab)
    for ab in ("i64", "f32"):
        atomic("max", ab)
        atomic("min", ab, grid=1)
    atomic("xchg", "f32", grid=1)
    atomic("xchg", "i64", grid=1)
    for sem_ in ("relaxed", "acquire", "release", "acq_rel"):
        atomic("add", "i32", sem_=sem_)
    for scope in ("gpu", "cta", "sys"):
        atomic("add", "f32", scope=scope)
    atomic("add", "i32", masked=True)
    atomic("max", "f32", masked=True, grid=1)
    atomic("add", "f32", targets=4)
    atomic("or", "i32", targets=2, grid=2)
    atomic("add", "f32", grid=1, targets=16, masked=True)
    for op in ("add", "max", "cas_lock", "counter"):
        name = f"atomic_scalar_{op}"
        rng = crc_rng(name)
        add(Case(name, "atomic_scalar", dict(
            p_ptr=Arr("p", np.zeros(4, np.int32), "inout", "i32"),
            v_ptr=inp("v", rng.integers(-50, 50, 6).astype(np.int32), "i32"),
            old_ptr=out("old", 6, "i32"), OP=op), grid=(6, 1, 1)))
    for ab, sem_ in [("i32", None), ("i64", "acq_rel"), ("f32", None), ("i16", "relaxed")]:
        name = f"atomic_cas_{ab}_{sem_}"
        p0 = np.arange(16, dtype=np.float64)
        p0[1::2] += 100
        add(Case(name, "atomic_cas_kernel", dict(
            p_ptr=Arr("p", from_f64(p0, ab), "inout", ab), old_ptr=out("old", 16, ab), N=16,
            SEM=sem_)))

    # ---------------------------------------------------------------- control flow
    for mode in ("for", "for_two_carried", "for_step_neg", "while", "while_tensor_cond",
                 "if_scalar", "if_pid", "if_in_loop", "nested_for", "static_range", "tl_range",
                 "loop_store", "early_dead", "loop_scalar_carried", "for_ptr_carried",
                 "loop_reduce_break"):
        for iters in (5, 0) if mode in ("for", "while", "for_ptr_carried") else (5,):
            name = f"control_{mode}_it{iters}"
            rng = crc_rng(name)
            x = data(rng, "f32", N + 8, lo=0.5, hi=2.0)
            add(Case(name, "control", dict(
                x_ptr=inp("x", x, "f32"), z_ptr=out("z", N, "f32"), n=50, iters=iters, N=N,
                MODE=mode), grid=(2, 1, 1) if mode == "if_pid" else (1, 1, 1),
                tol={"z": (1e-5, 1e-5)}))
    for flag in (True, False):
        name = f"constexpr_branch_{flag}"
        rng = crc_rng(name)
        add(Case(name, "constexpr_branch", dict(
            x_ptr=inp("x", data(rng, "f32", 32), "f32"), z_ptr=out("z", 32, "f32"), N=32,
            FLAG=flag, SCALE=2.5)))
    name = "call_noinline"
    rng = crc_rng(name)
    add(Case(name, "call_kernel", dict(x_ptr=inp("x", data(rng, "f32", 32), "f32"),
                                       z_ptr=out("z", 32, "f32"), N=32), grid=(3, 1, 1)))

    # ---------------------------------------------------------------- programs / pointers
    add(Case("grid3d_ids", "grid3d", dict(z_ptr=out("z", 2 * 3 * 4 * 4, "i32"), MODE="ids"),
             grid=(2, 3, 4)))
    add(Case("grid3d_linear", "grid3d", dict(z_ptr=out("z", 3 * 2 * 5, "i32"), MODE="lin"),
             grid=(3, 2, 5)))
    for mode in ("multiple_of", "assume", "plain"):
        name = f"hints_{mode}"
        rng = crc_rng(name)
        add(Case(name, "hints", dict(x_ptr=inp("x", data(rng, "f32", 100), "f32"),
                                     z_ptr=out("z", 100, "f32"), n=100, N=32, MODE=mode),
                 grid=(4, 1, 1)))
    for mode in ("i64_offsets", "ptr_tensor_arith", "i64_scalar_arg", "unsigned_offs"):
        name = f"ptr_{mode}"
        rng = crc_rng(name)
        stride = 2**33 + 8 if mode == "i64_scalar_arg" else 40
        if mode == "i64_scalar_arg":
            c = Case(name, "ptr_i64", dict(x_ptr=inp("x", data(rng, "f32", 64), "f32"),
                                           z_ptr=out("z", 64, "f32"), stride=stride, N=32,
                                           MODE=mode), grid=(2, 1, 1),
                     note="an i64 scalar argument (2**33 + 8) in the offset arithmetic")
        else:
            c = Case(name, "ptr_i64", dict(x_ptr=inp("x", data(rng, "f32", 120), "f32"),
                                           z_ptr=out("z", 120, "f32"), stride=stride, N=32,
                                           MODE=mode), grid=(3, 1, 1))
        add(c)
    name = "tensor_desc_2d"
    rng = crc_rng(name)
    add(Case(name, "tensor_desc", dict(x_ptr=inp("x", data(rng, "f32", (40, 24)), "f32"),
                                       z_ptr=out("z", (40, 24), "f32"), M=40, N=24, BM=16, BN=32),
             grid=(3, 1, 1)))
    name = "i1_pointer"
    rng = crc_rng(name)
    add(Case(name, "i1_ptr", dict(b_ptr=inp("b", rng.random(32) < 0.5, "b"),
                                  x_ptr=inp("x", data(rng, "f32", 32), "f32"),
                                  z_ptr=out("z", 32, "b"), N=32)))

    # ---------------------------------------------------------------- misc / big tiles
    for mode, n_, zab in [("empty", 64, "f32"), ("const_store", 64, "i16"),
                          ("scalar_arith", 64, "f32"), ("mask_all_false", 64, "f32"),
                          ("float_arg", 64, "f32"), ("load_twice", 64, "f32"),
                          ("store_twice", 64, "f32"), ("store_then_load", 64, "f32"),
                          ("reverse_offsets", 64, "f32"), ("stride2", 64, "f32"),
                          ("broadcast_load", 64, "f32"), ("softmax2d", 128, "f32"),
                          ("big", 4096, "f32"), ("big", 16384, "f32"), ("big", 65536, "f32"),
                          ("big", 131072, "f16")]:
        name = f"misc_{mode}_{n_}_{zab}"
        rng = crc_rng(name)
        xab = "f16" if zab == "f16" else "f32"
        c = Case(name, "misc", dict(x_ptr=inp("x", data(rng, xab, 2 * n_), xab),
                                    z_ptr=out("z", n_, zab), n=27, f=1.5, N=n_, MODE=mode))
        if mode == "empty":
            c.tol = {"z": EXACT}
        add(c)
    for M_, N_, K_, ab, prec in [(128, 128, 64, "f16", None), (128, 128, 128, "f32", "ieee"),
                                 (256, 128, 32, "f16", None)]:
        dot(ab, M_, N_, K_, precision=prec)
    reduce2d("sum", "f32", 1, M=128, Nn=256)
    reduce2d("max", "f16", 0, M=256, Nn=128)
    scan2d("cumsum", "f32", 1, M=64, Nn=256)

    # ---------------------------------------------------------------- debug / random
    for mode in ("print", "print_scalar", "print_hex", "assert", "assert_scalar", "static_print"):
        name = f"debug_{mode}"
        rng = crc_rng(name)
        add(Case(name, "debug_kernel", dict(x_ptr=inp("x", data(rng, "i32", 16, lo=0, hi=9), "i32"),
                                            z_ptr=out("z", 16, "i32"), N=16, MODE=mode),
                 options={"debug": True} if "assert" in mode else {}, grid=(2, 1, 1)))
    for mode in ("rand", "randn", "randint", "rand_i64"):
        name = f"random_{mode}"
        add(Case(name, "random_kernel", dict(z_ptr=out("z", 128, "f32"), seed=1234, N=64,
                                             MODE=mode), grid=(2, 1, 1),
                 tol={"z": (1e-5, 1e-5) if mode == "randn" else (1e-6, 1e-7)}))
    # ---------------------------------------------------------------- wider unsigned types
    for ab in UINTS:
        for op in ("add", "sub", "mul", "floordiv", "mod", "and", "or", "xor", "shl", "shr",
                   "maximum", "minimum", "lt", "ge", "eq"):
            binary(op, ab, ab)
        for b in ("f32", "f64", "i64", "i32", "u8", "f16"):
            cast(ab, b)
            cast(b, ab)
        reduce2d("sum", ab, 1)
        reduce2d("max", ab, 0)
        reduce2d("min", ab, None)
        reduce2d("argmax", ab, 1)
        scan2d("cumsum", ab, 1)
        unary("neg", ab)
        unary("invert", ab)
        unary("abs", ab)
    binary("add", "u32", "i32")
    binary("lt", "u32", "i64")
    binary("add", "u64", "i64")
    binary("lt", "u16", "i32")
    binary("mul", "u32", "f32")
    atomic("max", "u32")
    atomic("min", "u32", grid=1)
    atomic("add", "u32")
    atomic("add", "u64")
    atomic("max", "u64")

    second_batch(add, crc_rng, result_ab)
    third_batch(add, crc_rng)
    fourth_batch(add, crc_rng)
    fifth_batch(add, crc_rng)
    memory_batch(add, crc_rng)
    for mode in ("scalar_mask_load", "scalar_mask_store", "scalar_value_store",
                 "int_value_to_float_ptr", "row_mask_2d", "col_mask_other_tensor"):
        name = f"store_form_{mode}"
        rng = crc_rng(name)
        x = data(rng, "f32", 64)
        c = Case(name, "store_forms", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", 64, "f32"),
                                           n=20, N=32, MODE=mode), grid=(2, 1, 1))
        if mode.startswith("scalar_mask"):          # the interpreter rejects scalar masks
            ref = np.full(64, -31337.0, np.float32)
            if mode == "scalar_mask_load":
                ref[:32], ref[32:] = x[:32], -4.0
            else:
                ref[32:] = x[32:]
            c.ref = lambda ref=ref: {"z": ref}
            c.expected = "ref"
        add(c)
    for mode, k in [("unrolled_chain", 500), ("unrolled_loads", 100), ("unrolled_loads", 300),
                    ("unrolled_reductions", 100), ("noinline_scalar_ret", 1)]:
        name = f"size_{mode}_k{k}"
        rng = crc_rng(name)
        add(Case(name, "size_stress", dict(x_ptr=inp("x", data(rng, "f32", 64 * 300), "f32"),
                                           z_ptr=out("z", 64, "f32"), N=64, K=k, MODE=mode),
                 tol={"z": (1e-4, 1e-4)}))
    for mode in ("for_trip_from_reduce", "if_reduce_store_both", "if_reduce_use_after",
                 "where_scalar_from_reduce", "return_reduce_no_use",
                 "return_scalar_load_use_tile"):
        for sign in (1, -1):
            name = f"redctl_{mode}_{'pos' if sign > 0 else 'neg'}"
            rng = crc_rng(name)
            x = data(rng, "f32", 64, lo=0.5, hi=3.0) * sign
            add(Case(name, "reduce_control", dict(x_ptr=inp("x", x, "f32"),
                                                  z_ptr=out("z", 256, "f32"), n=5, N=32,
                                                  MODE=mode)))
    for mode, grid in [("message", 2), ("message", 8), ("message_reverse", 2),
                       ("message_reverse", 8), ("grid_barrier", 4), ("grid_barrier", 16)]:
        name = f"inter_program_{mode}_g{grid}"
        ref_out = np.full(32 * grid, -31337.0, np.float32)
        if mode.startswith("message"):
            ref_out[:32] = (np.arange(32) + 1) * 2
            ref_data = np.full(32 * grid, -31337.0, np.float32)
            ref_data[:32] = np.arange(32) + 1
        else:
            ref_data = (np.arange(32)[None, :] + np.arange(grid)[:, None]).astype(np.float32)
            ref_out = np.roll(ref_data, -1, axis=0).reshape(-1)
            ref_data = ref_data.reshape(-1)
        flag = np.array([1 if mode.startswith("message") else grid], np.int32)
        add(Case(name, "inter_program", dict(
            data_ptr=Arr("data", np.full(32 * grid, -31337.0, np.float32), "inout", "f32"),
            flag_ptr=Arr("flag", np.zeros(1, np.int32), "inout", "i32"),
            out_ptr=Arr("out", np.full(32 * grid, -31337.0, np.float32), "inout", "f32"),
            N=32, MODE=mode), grid=(grid, 1, 1), interp=False, expected="ref",
            ref=lambda d=ref_data, o=ref_out, f=flag: {"data": d, "out": o, "flag": f},
            note="programs wait for each other: needs them to run concurrently"))
    for mode in ("nan", "neg_inf_where", "neg_zero", "f16_inf_full", "i64_big", "u32_max",
                 "f32_tiny", "bool_arg", "bool_arg_tensor", "bool_arg_arith"):
        for flag in (True, False) if mode.startswith("bool") else (True,):
            name = f"const_{mode}" + (f"_{flag}" if mode.startswith("bool") else "")
            rng = crc_rng(name)
            x = data(rng, "f32", 64, lo=0, hi=1000) if mode in ("i64_big", "u32_max") \
                else data(rng, "f32", 64)
            add(Case(name, "constants", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", 64, "f32"),
                                             flag=flag, N=64, MODE=mode)))
    if FUZZ_DIR is not None:
        fuzz_batch(add, FUZZ_DIR)
    # the same kernels lowered for other targets (different make_ttir passes, e.g. tensor
    # descriptors rewritten to pointers below sm_90)
    import dataclasses
    by_name = {c.name: c for c in cases}
    for target, tag in (("cuda:80", "cuda80"), ("hip:gfx942", "gfx942")):
        for nm in ("tensor_desc_2d", "dot_f16_32x64x16_none_f32", "dot_i8_32x32x64_loaded_f32",
                   "red2d_sum_f32_ax1_8x16", "atomic_add_f32_t16_g4", "masked_load_f16_other",
                   "control_for_it5", "scan2d_cumsum_f32_ax1", "shape_sort_f32",
                   "bin_mod_i32_i32", "cast_f32_bf16", "masked_grid_dot_f16_256",
                   "debugmode_add_i32", "dot_loop_70x50x45_f32", "shape3d_permute120"):
            c = by_name[nm]
            cases.append(dataclasses.replace(c, name=f"{nm}_{tag}",
                                             options={**c.options, "target": target}))
    for c in cases:
        has_bf16 = any(a_.ab == "bf16" for a_ in c.arrays().values())
        if has_bf16 and c.expected == "interpreter" and not c.args.get("BITCAST"):
            c.twin = True
            c.note = (c.note + " " if c.note else "") + \
                "Reference: the interpreter on fp32 copies of the bf16 buffers, rounded to bf16."
    names = [c.name for c in cases]
    dup = [n for n, k in Counter(names).items() if k > 1]
    assert not dup, f"duplicate case names {dup}"
    return cases


def second_batch(add: Callable[[Case], None], crc_rng: Callable[[str], np.random.Generator],
                 result_ab: Callable[[str, str, str], str]) -> None:  # noqa: C901 (one table)
    """Less regular kernels: early returns, constant divisors, runtime scalars, masked grids,
    load/store attributes, 3-D shapes, sorts, atomics in loops, ties, dot chains, loops."""
    for mode in ("before_load", "after_load", "after_store", "scalar_arg", "data_dependent"):
        for n in (27, 5000) if mode == "scalar_arg" else (27,):
            name = f"early_return_{mode}_n{n}"
            rng = crc_rng(name)
            add(Case(name, "early_return", dict(
                x_ptr=inp("x", data(rng, "f32", 96), "f32"), z_ptr=out("z", 96, "f32"), n=n,
                N=32, MODE=mode), grid=(3, 1, 1)))

    for ab in ("i32", "i8", "u8", "i64", "i16"):
        for op, cst in [("div", 4), ("mod", 4), ("div", -3), ("mod", -8), ("div", 1), ("mul", 8),
                        ("shr", 3), ("div", 7), ("mod", 2)]:
            name = f"const_{op}_{ab}_{cst}".replace("-", "m")
            rng = crc_rng(name)
            x = data(rng, ab, 64)
            r = ab
            add(Case(name, "const_div", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", 64, r), N=64,
                                             OP=op, C=cst)))
    for cst in (4.0, 3.0, 0.1):
        name = f"const_fdiv_f32_{cst}"
        rng = crc_rng(name)
        add(Case(name, "const_div", dict(x_ptr=inp("x", data(rng, "f32", 64), "f32"),
                                         z_ptr=out("z", 64, "f32"), N=64, OP="fdiv", C=cst)))

    combos = [("f32", 1.5), ("f32", -0.75), ("i32", 7), ("i32", -3), ("f16", 2.5), ("i8", 5),
              ("i64", 2**40 + 3), ("u8", 9), ("i16", -7), ("bf16", 0.5), ("f64", 1.25)]
    for ab, sv in combos:
        ops = ["add", "rsub", "mul", "div", "mod", "max", "where", "lt"] if ab in FLOATS else \
            ["add", "rsub", "mul", "div", "floordiv", "mod", "rmod", "shl", "max", "where", "lt"]
        for op in ops:
            name = f"scalar_op_{op}_{ab}_{sv}".replace("-", "m").replace(".", "p")
            rng = crc_rng(name)
            x = data(rng, ab, 64, nonzero=op in ("rmod", "div"))
            if op == "shl":
                sv2: Any = 3
            else:
                sv2 = sv
            r = "i8" if op == "lt" else ("f32" if op == "div" and ab in ISINT else ab)
            add(Case(name, "scalar_operand", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", 64, r),
                                                  s=sv2, N=64, OP=op)))

    for op, ab, block in [("add", "f32", 128), ("add", "i32", 128), ("add", "f16", 128),
                          ("add", "i8", 128), ("div", "f32", 128), ("sum", "f32", 128),
                          ("sum", "i32", 128), ("max_tail", "f32", 128), ("cumsum", "f32", 128),
                          ("cumsum", "i32", 128), ("dot", "f16", 256), ("add", "f32", 1024)]:
        name = f"masked_grid_{op}_{ab}_{block}"
        rng = crc_rng(name)
        n = 1000
        c = Case(name, "masked_grid", dict(
            x_ptr=inp("x", data(rng, ab, n, lo=-2, hi=2), ab),
            y_ptr=inp("y", data(rng, ab, n, lo=0.5, hi=2) if op == "div" else
                      data(rng, ab, n, lo=-2, hi=2), ab),
            z_ptr=out("z", n, ab), n=n, BLOCK=block, OP=op), grid=(-(-n // block), 1, 1))
        if op in ("sum", "cumsum", "dot") and ab in FLOATS:
            c.tol = {"z": (1e-3, 1e-3) if ab == "f32" else (1e-2, 5e-2)}
        add(c)

    for mode in ("cache", "volatile", "barrier", "inline_asm", "map_elementwise", "unroll",
                 "flatten", "nan_specials", "divzero"):
        name = f"attrs_{mode}"
        rng = crc_rng(name)
        x = data(rng, "f32", 64)
        if mode in ("nan_specials", "divzero"):
            sp = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 3e38], np.float32)
            x = np.where(np.arange(64) % 3 == 0, sp[np.arange(64) % 8], x).astype(np.float32)
        c = Case(name, "load_attrs", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", 64, "f32"),
                                          N=64, MODE=mode))
        if mode in ("map_elementwise", "inline_asm"):    # the interpreter cannot run these
            c.ref = lambda x=x, mode=mode: {"z": np.maximum(x, 0) if mode == "map_elementwise"
                                            else x}
            c.expected = "ref"
        add(c)

    for op, shape in [("permute120", (2, 4, 8)), ("permute021", (2, 4, 8)),
                      ("trans_attr", (2, 4, 8)), ("elementwise", (2, 4, 8)),
                      ("reshape_reorder", (2, 4, 8)), ("cat_det", (2, 4, 8)),
                      ("split3d", (4, 8, 2)), ("join3d", (2, 4, 8)), ("broadcast3d", (2, 4, 8))]:
        name = f"shape3d_{op}"
        rng = crc_rng(name)
        A, B, C = shape
        n_out = {"reshape_reorder": 1, "cat_det": 2 * A * B * C, "split3d": A * B,
                 "join3d": 2 * A * B * C}.get(op, A * B * C)
        c = Case(name, "shape3d", dict(x_ptr=inp("x", data(rng, "f32", A * B * C), "f32"),
                                       z_ptr=out("z", n_out, "f32"), A=A, B=B, C=C, OP=op))
        if op == "reshape_reorder":
            c.tol = {"z": (1e-4, 1e-4)}
        add(c)

    for (M, N_, ab, desc) in [(1, 128, "f32", False), (1, 128, "f32", True), (4, 32, "i32", True),
                              (2, 16, "f16", False), (8, 8, "u8", False), (2, 64, "i64", True)]:
        name = f"sort_{M}x{N_}_{ab}_{'desc' if desc else 'asc'}"
        rng = crc_rng(name)
        x = data(rng, ab, (M, N_), lo=-5, hi=5) if ab in ("i32", "i64") else data(rng, ab, (M, N_))
        add(Case(name, "sort_kernel", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", (M, N_), ab),
                                           M=M, N=N_, DESC=desc)))

    for mode, ab, grid in [("loop", "i32", 3), ("scalar_val", "i32", 3), ("scalar_val", "f32", 3),
                           ("masked_tail", "i32", 2), ("same_slot", "f32", 2),
                           ("same_slot", "i32", 1), ("cas_scalar_loop", "i32", 4),
                           ("old_scalar", "i32", 4), ("min_neg_f32", "i32", 2)]:
        name = f"atomic_extra_{mode}_{ab}_g{grid}"
        rng = crc_rng(name)
        p0 = np.zeros(16, storage(ab)) if mode != "min_neg_f32" else \
            np.zeros(16, np.float32).view(np.int32)
        v = from_f64(rng.integers(-8, 9, 40) / (4.0 if ab == "f32" else 1.0), ab)
        add(Case(name, "atomic_extra", dict(
            p_ptr=Arr("p", p0, "inout", ab), v_ptr=inp("v", v, ab), z_ptr=out("z", 4, "i32"),
            n=20, N=16, MODE=mode), grid=(grid, 1, 1)))

    for op in ("argmax", "argmin", "argmax_right", "argmax0"):
        for ab in ("i32", "f32"):
            name = f"ties_{op}_{ab}"
            rng = crc_rng(name)
            x = rng.integers(0, 4, (8, 16)).astype(storage(ab))
            c = Case(name, "argred_ties", dict(
                x_ptr=inp("x", x, ab), z_ptr=out("z", 16 if op == "argmax0" else 8, "i32"),
                M=8, N=16, OP=op))
            if op == "argmax_right":
                # tie_break_left=False only says "not the leftmost": Triton's combine keeps
                # the right operand on ties, so a left-to-right fold gives the rightmost
                # maximum (the interpreter's tree order gives another valid one)
                c.ref = lambda x=x: {"z": np.array(
                    [np.flatnonzero(r == r.max())[-1] for r in x], np.int32)}
                c.expected = "ref"
                c.note = "tie order of tie_break_left=False is unspecified; reference: rightmost"
            add(c)

    for mode in ("trans_a", "chain", "scaled_inputs", "dot_sum", "f16_acc_f16", "plain"):
        name = f"dotvar_{mode}"
        rng = crc_rng(name)
        M = N_ = K = 32
        a = data(rng, "f16", (M, K), lo=-1, hi=1)
        b = data(rng, "f16", (K, N_), lo=-1, hi=1)
        n_out = M if mode == "dot_sum" else M * N_
        add(Case(name, "dot_variants", dict(a_ptr=inp("a", a, "f16"), b_ptr=inp("b", b, "f16"),
                                            c_ptr=out("c", n_out, "f32"), M=M, N=N_, K=K,
                                            MODE=mode), tol={"c": (2e-2, 5e-2)}))

    for mode, n, grid in [("data_trip_count", 5, 1), ("loop_in_if", 5, 1), ("loop_in_if", 2, 1),
                          ("grid_stride", 300, 3), ("while_scalar_load", 5, 1),
                          ("reduce_in_loop_store", 5, 1), ("loop_carried_int_tensor", 5, 1),
                          ("if_else_tensor_yield", 5, 2), ("break_like", 3, 1)]:
        name = f"loops_{mode}_n{n}_g{grid}"
        rng = crc_rng(name)
        x = data(rng, "f32", 301, lo=0.5, hi=2.0)
        x[0] = {"data_trip_count": 5.0, "while_scalar_load": 1.5}.get(mode, x[0])
        add(Case(name, "loop_kernels", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", 300, "f32"),
                                            n=n, N=32, MODE=mode), grid=(grid, 1, 1),
                 tol={"z": (1e-5, 1e-5)}))


def third_batch(add: Callable[[Case], None],
                crc_rng: Callable[[str], np.random.Generator]) -> None:
    """Scalar arithmetic, tiny tensors, many live tiles, pointer selects, reduction results
    used as addresses."""
    for ab, ops in [("f32", ["exp", "sqrt", "floor", "abs", "max", "select", "div", "mod",
                             "cast_i32", "cmp", "fma", "sum_scalar_tensor"]),
                    ("i32", ["abs", "max", "select", "div", "mod", "floordiv", "shr", "cast_f32",
                             "cmp", "sum_scalar_tensor"]),
                    ("i64", ["max", "floordiv", "mod", "shr", "cast_f32", "cmp"]),
                    ("i8", ["max", "floordiv", "shr", "cast_f32"]),
                    ("u8", ["max", "floordiv", "shr", "cmp"]),
                    ("f64", ["exp", "div", "cast_i32", "fma"]),
                    ("i16", ["mod", "select"])]:
        for op in ops:
            name = f"scalar_math_{op}_{ab}"
            rng = crc_rng(name)
            x = data(rng, ab, 2, nonzero=True)
            if ab in ISINT and ab != "u8":
                x[0] = -abs(int(x[0])) if x[0] != 0 else -7
            r = {"cmp": "i32", "cast_f32": "f32", "cast_i32": "i32"}.get(op, ab)
            if op == "div" and ab in ISINT:
                r = "f32"
            add(Case(name, "scalar_math", dict(x_ptr=inp("x", x, ab), z_ptr=out("z", 1, r),
                                               OP=op)))

    for n in (1, 2, 4):
        for op in ("add", "sum", "cumsum", "sort", "outer"):
            name = f"tiny_{op}_{n}"
            rng = crc_rng(name)
            c = Case(name, "tiny", dict(x_ptr=inp("x", data(rng, "f32", n), "f32"),
                                        z_ptr=out("z", n, "f32"), N=n, OP=op))
            c.tol = {"z": (1e-5, 1e-5)}
            add(c)

    for mode, n, k in [("sum_all_live", 64, 8), ("sum_all_live", 64, 40),
                       ("sum_all_live", 1024, 24), ("stores", 64, 40), ("long_loop", 64, 3000),
                       ("nested3", 64, 12)]:
        name = f"many_{mode}_{n}_k{k}"
        rng = crc_rng(name)
        nin = n * max(k, 12) if mode != "long_loop" else n
        add(Case(name, "many_tiles", dict(
            x_ptr=inp("x", data(rng, "f32", nin), "f32"),
            z_ptr=out("z", n * (k if mode == "stores" else 1), "f32"), N=n, K=k, MODE=mode),
            tol={"z": (1e-4, 1e-4)}))

    for mode in ("lane_select", "scalar_select", "where_scalar_ptr", "ptr_to_int", "data_mask"):
        name = f"ptrsel_{mode}"
        rng = crc_rng(name)
        add(Case(name, "ptr_select", dict(
            x_ptr=inp("x", data(rng, "f32", 32), "f32"),
            y_ptr=inp("y", data(rng, "f32", 32), "f32"),
            z_ptr=out("z", 64, "f32"), N=32, MODE=mode), grid=(2, 1, 1)))

    for mode in ("argmax_index", "sum_as_offset", "max_broadcast_store",
                 "scalar_store_of_reduction"):
        name = f"red_addr_{mode}"
        rng = crc_rng(name)
        add(Case(name, "reduce_to_address", dict(
            x_ptr=inp("x", data(rng, "f32", 128), "f32"), z_ptr=out("z", 128, "f32"), N=32,
            MODE=mode), tol={"z": (1e-5, 1e-5)}))


def fourth_batch(add: Callable[[Case], None],
                 crc_rng: Callable[[str], np.random.Generator]) -> None:
    """Runtime branches and early returns; grids larger than the PE array with atomics."""
    for mode in ("if_loaded_flag", "if_loaded_flag_yield", "return_loaded_flag", "two_returns",
                 "return_if_else", "return_after_loop", "if_store_only", "if_no_else_yield",
                 "nested_if", "loop_if_load"):
        name = f"branch_{mode}"
        rng = crc_rng(name)
        add(Case(name, "branches", dict(
            x_ptr=inp("x", data(rng, "f32", 128), "f32"),
            f_ptr=inp("f", np.array([1, -1, 0, 2], np.int32), "i32"),
            z_ptr=out("z", 128, "f32"), n=6, N=32, MODE=mode), grid=(4, 1, 1),
            tol={"z": (1e-5, 1e-5)}))
    for mode, n, blk in [("copy", 10000, 32), ("copy", 4100, 16), ("counter", 3000, 16),
                         ("hist", 2000, 16), ("sum", 2000, 32)]:
        name = f"big_grid_{mode}_{n}_{blk}"
        rng = crc_rng(name)
        add(Case(name, "big_grid", dict(
            x_ptr=inp("x", rng.integers(-50, 50, n).astype(np.int32), "i32"),
            z_ptr=out("z", n, "i32"), c_ptr=Arr("c", np.zeros(16, np.int32), "inout", "i32"),
            n=n, N=blk, MODE=mode), grid=(-(-n // blk), 1, 1)))


SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-42, 3.4e38, -3.4e38, 65504.0, 65520.0,
            1e-7, 6e-8, 1.0, -2.5, 0.5]


def fifth_batch(add: Callable[[Case], None],
                crc_rng: Callable[[str], np.random.Generator]) -> None:
    """Special float values (NaN, inf, -0.0, subnormals, overflow) through casts and arithmetic;
    kernels compiled with debug=True (overflow checks, asserts); asserts that must fail."""
    import torch
    sp = np.array(SPECIALS * 4, dtype=np.float64)
    N = 64
    for a, b in [("f32", "f16"), ("f32", "bf16"), ("f64", "f32"), ("f64", "f16"), ("f16", "f32"),
                 ("bf16", "f32"), ("f32", "f64"), ("f64", "bf16")]:
        name = f"special_cast_{a}_{b}"
        x = from_f64(sp, a)
        xs = as_f64(x, a)
        if b == "bf16":
            r = bf16_bits(xs.astype(np.float32)) if a == "f32" else \
                torch.from_numpy(xs).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
        else:
            with np.errstate(over="ignore"):
                r = xs.astype(storage(b))
        add(Case(name, "cast", dict(x_ptr=inp("x", x, a), z_ptr=out("z", N, b), N=N,
                                    BITCAST=False, MID=None),
                 ref=lambda r=r: {"z": r}, expected="ref", tol={"z": EXACT}))
    rng = crc_rng("special")
    y = sp[rng.permutation(N)]
    for op, fn in [("add", np.add), ("mul", np.multiply), ("sub", np.subtract),
                   ("truediv", np.divide), ("lt", np.less), ("eq", np.equal), ("ne", np.not_equal),
                   ("ge", np.greater_equal)]:
        for ab in ("f32", "f16", "f64"):
            name = f"special_bin_{op}_{ab}"
            x, yy = from_f64(sp, ab), from_f64(y, ab)
            r = "i8" if op in ("lt", "eq", "ne", "ge") else ab
            if ab == "f16" and op == "truediv":
                r = "f32"

            def ref(x: np.ndarray = x, yy: np.ndarray = yy, fn: Any = fn, ab: str = ab,
                    r: str = r) -> dict[str, np.ndarray]:
                with np.errstate(all="ignore"):
                    cdt = np.float32 if r == "f32" else storage(ab)
                    v = fn(x.astype(cdt), yy.astype(cdt))
                return {"z": v.astype(storage(r))}
            add(Case(name, "binary", dict(x_ptr=inp("x", x, ab), y_ptr=inp("y", yy, ab),
                                          z_ptr=out("z", N, r), N=N, OP=op),
                     ref=ref, expected="ref", tol={"z": EXACT}))
    for op, fn in [("neg", np.negative), ("abs", np.abs), ("floor", np.floor), ("ceil", np.ceil),
                   ("sqrt", lambda v: np.sqrt(np.abs(v))), ("isnan", lambda v: v != v)]:
        name = f"special_un_{op}_f32"
        x = from_f64(sp, "f32")
        r = "i8" if op == "isnan" else "f32"
        with np.errstate(all="ignore"):
            ref_v = np.asarray(fn(x)).astype(storage(r))
        add(Case(name, "unary", dict(x_ptr=inp("x", x, "f32"), z_ptr=out("z", N, r), N=N, OP=op),
                 ref=lambda ref_v=ref_v: {"z": ref_v}, expected="ref",
                 tol={"z": EXACT if op != "sqrt" else (1e-7, 0.0)}))

    # debug=True: the frontend adds overflow checks (tt.assert) to integer arithmetic
    for kernel, args_fn, tag in [
        ("binary", lambda rng: dict(x_ptr=inp("x", data(rng, "i32", N), "i32"),
                                    y_ptr=inp("y", data(rng, "i32", N), "i32"),
                                    z_ptr=out("z", N, "i32"), N=N, OP="add"), "add_i32"),
        ("binary", lambda rng: dict(x_ptr=inp("x", data(rng, "i16", N, lo=-100, hi=100), "i16"),
                                    y_ptr=inp("y", data(rng, "i16", N, lo=-100, hi=100), "i16"),
                                    z_ptr=out("z", N, "i16"), N=N, OP="mul"), "mul_i16"),
        ("binary", lambda rng: dict(x_ptr=inp("x", data(rng, "i64", N), "i64"),
                                    y_ptr=inp("y", data(rng, "i64", N), "i64"),
                                    z_ptr=out("z", N, "i64"), N=N, OP="sub"), "sub_i64"),
        ("masked_grid", lambda rng: dict(x_ptr=inp("x", data(rng, "i32", 300), "i32"),
                                         y_ptr=inp("y", data(rng, "i32", 300), "i32"),
                                         z_ptr=out("z", 300, "i32"), n=300, BLOCK=128, OP="sum"),
         "masked_sum_i32"),
        ("control", lambda rng: dict(x_ptr=inp("x", data(rng, "f32", 72, lo=0.5, hi=2), "f32"),
                                     z_ptr=out("z", 64, "f32"), n=50, iters=5, N=64,
                                     MODE="nested_for"), "nested_for"),
        ("dot_loop", lambda rng: dict(a_ptr=inp("a", data(rng, "f16", (40, 50), -1, 1), "f16"),
                                      b_ptr=inp("b", data(rng, "f16", (50, 36), -1, 1), "f16"),
                                      c_ptr=out("c", (40, 36), "f32"), M=40, N=36, K=50, BM=32,
                                      BN=32, BK=32), "dot_loop"),
    ]:
        name = f"debugmode_{tag}"
        rng = crc_rng(name)
        args = args_fn(rng)
        grid = (3, 1, 1) if kernel == "masked_grid" else ((2, 2, 1) if kernel == "dot_loop"
                                                          else (1, 1, 1))
        add(Case(name, kernel, args, grid=grid, options={"debug": True},
                 tol={"z": (1e-5, 1e-5), "c": (2e-2, 2e-2)} if kernel in ("control", "dot_loop")
                 else {}))
    name = "debugmode_assert_fails"
    rng = crc_rng(name)
    x = data(rng, "i32", 16, lo=0, hi=9)
    x[5] = -3
    add(Case(name, "debug_kernel", dict(x_ptr=inp("x", x, "i32"), z_ptr=out("z", 16, "i32"),
                                        N=16, MODE="assert"),
             options={"debug": True}, expected="simerror",
             note="x[5] < 0: tl.device_assert must stop the kernel (a GPU traps)"))
    name = "oob_load_fails"
    rng = crc_rng(name)
    add(Case(name, "indirect_load", dict(
        x_ptr=inp("x", data(rng, "f32", 64), "f32"),
        i_ptr=inp("i", np.where(np.arange(64) == 7, 1 << 20, np.arange(64)).astype(np.int32),
                  "i32"),
        z_ptr=out("z", 64, "f32"), N=64, I64=False), expected="simerror",
        note="one index is 2**20 past a 64-element buffer: the access must fault"))


def memory_batch(add: Callable[[Case], None],
                 crc_rng: Callable[[str], np.random.Generator]) -> None:
    """Program-order memory dependences inside one program (kernels.memdep)."""
    for mode in ("loop_inplace", "loop_shift", "war", "war_reversed", "scalar_store_tensor_load",
                 "tensor_store_scalar_load", "tensor_store_scalar_load_store", "atomic_then_load",
                 "load_then_atomic", "scalar_loop_prefix", "accumulate_in_memory",
                 "tensor_then_scalar_store", "scalar_then_tensor_store",
                 "atomic_scalar_then_tensor_store", "tensor_store_then_atomic_scalar",
                 "masked_partial_overwrite", "loop_store_load_other_offsets", "scalar_rmw_loop"):
        name = f"memdep_{mode}"
        rng = crc_rng(name)
        p0 = from_f64(rng.integers(-8, 9, 80) / 4.0, "f32")
        q0 = from_f64(rng.integers(-8, 9, 80) / 4.0, "f32")
        add(Case(name, "memdep", dict(p_ptr=Arr("p", p0, "inout", "f32"),
                                      q_ptr=Arr("q", q0, "inout", "f32"), n=5, N=32, MODE=mode),
                 tol={"p": EXACT, "q": EXACT}))


FUZZ_COUNT = 300
FUZZ_DTYPES = ["f32", "f16", "i32", "i8", "i64", "u8", "i16"]
TLNAME = {"f32": "tl.float32", "i32": "tl.int32", "i8": "tl.int8", "i64": "tl.int64",
          "u8": "tl.uint8", "i16": "tl.int16", "f16": "tl.float16"}


def fuzz_program(rng: np.random.Generator, idx: int) -> tuple[str, list[str], int, int, str]:
    """A random elementwise/reduction DAG over three loaded tensors (no division, no float->int
    casts, no NaNs: integer results are exact, float results need a tolerance only).
    -> (source, input dtypes, M, N, output dtype)."""
    M = int(rng.choice([2, 4, 8, 16]))
    N = int(rng.choice([16, 32, 64]))
    dts = [str(rng.choice(FUZZ_DTYPES)) for _ in range(3)]
    body = ["    rm = tl.arange(0, M)[:, None]", "    rn = tl.arange(0, N)[None, :]"]
    vals: list[tuple[str, str, str]] = []      # (name, "f"/"i", shape "mn"/"m1"/"1n")
    for j, dt in enumerate(dts):
        if rng.random() < 0.3:
            body.append(f"    v{j} = tl.load(x{j}_ptr + rm * N + rn, mask=rn < n, other=1)")
        else:
            body.append(f"    v{j} = tl.load(x{j}_ptr + rm * N + rn)")
        if dt == "f16":
            body.append(f"    v{j} = v{j}.to(tl.float32)")
        vals.append((f"v{j}", "f" if dt[0] == "f" else "i", "mn"))

    def pick(kind: str | None = None, shape: str | None = None) -> tuple[str, str, str] | None:
        cands = [v for v in vals if (kind is None or v[1] == kind)
                 and (shape is None or v[2] == shape)]
        return cands[int(rng.integers(len(cands)))] if cands else None

    def bshape(a: str, b: str) -> str:
        return "".join("m" if "m" in (x, y) else ("n" if "n" in (x, y) else "1")
                       for x, y in zip(a, b, strict=True)).replace("mn", "mn")

    steps = int(rng.integers(4, 16))
    for k in range(steps):
        t = f"t{k}"
        a = pick()
        b = pick()
        assert a and b
        op = str(rng.choice(["arith", "arith", "minmax", "where", "unary", "bitwise", "shift",
                             "cast", "math", "rowred", "colred", "cumsum", "argmax", "const",
                             "fma", "loop", "dot"]))
        kind = "f" if "f" in (a[1], b[1]) else "i"
        shape = bshape(a[2], b[2])
        if op == "arith":
            o = str(rng.choice(["+", "-", "*"]))
            expr = f"{a[0]} {o} {b[0]}"
        elif op == "minmax":
            expr = f"tl.{rng.choice(['maximum', 'minimum'])}({a[0]}, {b[0]})"
        elif op == "where":
            c = pick()
            assert c
            expr = f"tl.where({a[0]} > {b[0]}, {a[0]}, {c[0]})"
            kind = "f" if "f" in (a[1], c[1]) else "i"
            shape = bshape(shape, c[2])
        elif op == "unary":
            expr = str(rng.choice([f"-{a[0]}", f"tl.abs({a[0]})"]))
            kind, shape = a[1], a[2]
        elif op in ("bitwise", "shift"):
            a = pick("i")
            b = pick("i")
            if not a or not b:
                continue
            if op == "bitwise":
                expr = f"{a[0]} {rng.choice(['&', '|', '^'])} {b[0]}"
                kind, shape = "i", bshape(a[2], b[2])
            else:
                expr = f"{a[0]} {rng.choice(['>>', '<<'])} {int(rng.integers(0, 4))}"
                kind, shape = "i", a[2]
        elif op == "cast":
            if a[1] == "i":
                dt = str(rng.choice(["f32", "i32", "i8", "i64", "u8", "i16"]))
                expr = f"{a[0]}.to({TLNAME[dt]})"
                kind = "f" if dt[0] == "f" else "i"
            else:
                expr = f"{a[0]}.to(tl.float16).to(tl.float32)"
                kind = "f"
            shape = a[2]
        elif op == "math":
            f = str(rng.choice(["tl.exp(tl.minimum({x}, 8.0))", "tl.log(tl.abs({x}) + 1.0)",
                                "tl.sqrt(tl.abs({x}))", "tl.sigmoid({x})"]))
            expr = f.format(x=f"{a[0]}.to(tl.float32)")
            kind, shape = "f", a[2]
        elif op in ("rowred", "colred"):
            a = pick(shape="mn")
            if not a:
                continue
            fn = str(rng.choice(["sum", "max", "min"]))
            ax = 1 if op == "rowred" else 0
            expr = f"tl.{fn}({a[0]}, axis={ax}, keep_dims=True)"
            kind, shape = a[1], ("m1" if ax == 1 else "1n")
        elif op == "cumsum":
            a = pick(shape="mn")
            if not a:
                continue
            expr = f"tl.cumsum({a[0]}, axis={int(rng.integers(2))})"
            kind, shape = a[1], "mn"
        elif op == "argmax":
            a = pick(shape="mn")
            if not a:
                continue
            expr = f"tl.{rng.choice(['argmax', 'argmin'])}({a[0]}, axis=1, keep_dims=True)"
            kind, shape = "i", "m1"
        elif op == "const":
            expr = f"{a[0]} * {int(rng.integers(-3, 4))} + {int(rng.integers(-5, 6))}"
            kind, shape = a[1], a[2]
        elif op == "loop":
            expr = f"{a[0]}.to(tl.float32)\n    for _i in range({int(rng.integers(0, 4))}):\n" \
                   f"        {t} = {t} * 0.5 + {b[0]}"
            expr = expr.replace(f"{a[0]}.to(tl.float32)\n", f"{a[0]}.to(tl.float32)\n", 1)
            kind, shape = "f", bshape(a[2], b[2])
            if shape != a[2]:
                expr = f"tl.broadcast_to({a[0]}.to(tl.float32), (M, N))" + \
                    expr[len(f"{a[0]}.to(tl.float32)"):]
                shape = "mn"
        elif op == "dot":
            c = pick(shape="mn")
            a = pick(shape="mn")
            b = pick(shape="mn")
            if M != 16 or not (a and b and c):
                continue
            expr = (f"tl.dot(tl.dot({a[0]}.to(tl.float32), tl.trans({b[0]}.to(tl.float32)), "
                    f"input_precision=\"ieee\"), {c[0]}.to(tl.float32), input_precision=\"ieee\")")
            kind, shape = "f", "mn"
        else:                                   # fma on floats
            c = pick()
            assert c
            expr = f"{a[0]}.to(tl.float32) * {b[0]} + {c[0]}"
            kind, shape = "f", bshape(shape, c[2])
        body.append(f"    {t} = {expr}")
        vals.append((t, kind, shape))
    last = vals[-1]
    odt = "f32" if last[1] == "f" else "i64"
    body.append(f"    r = tl.broadcast_to({last[0]}, (M, N)).to({TLNAME[odt]})")
    body.append("    tl.store(z_ptr + rm * N + rn, r)")
    src = (f"@triton.jit\ndef fuzz_{idx:03d}(x0_ptr, x1_ptr, x2_ptr, z_ptr, n, M: tl.constexpr, "
           f"N: tl.constexpr):\n" + "\n".join(body) + "\n")
    return src, dts, M, N, odt


def fuzz_batch(add: Callable[[Case], None], fuzz_dir: Path) -> None:
    """FUZZ_COUNT random kernels, written to FUZZ_DIR/fuzz_kernels.py (deterministic)."""
    rng = np.random.default_rng(20261203)
    srcs = ['"""Random kernels written by test/sweep/sweep.py (fuzz_batch); do not edit."""',
            "import triton", "import triton.language as tl", ""]
    for i in range(FUZZ_COUNT):
        src, dts, M, N, odt = fuzz_program(rng, i)
        srcs.append("\n" + src)
        name = f"fuzz_{i:03d}"
        r2 = crc_rng(name)
        ins = {}
        for j, dt in enumerate(dts):
            x = data(r2, dt, (M, N), lo=-20 if dt[0] != "u" else 0, hi=20) if dt[0] != "f" \
                else data(r2, dt, (M, N), lo=-3, hi=3)
            ins[f"x{j}_ptr"] = inp(f"x{j}", x, dt)
        add(Case(name, f"fuzz_kernels.{name}", dict(**ins, z_ptr=out("z", (M, N), odt),
                                                     n=int(N * 3 // 4), M=M, N=N),
                 auto_tol=True))
    text = "\n".join(srcs)
    path = fuzz_dir / "fuzz_kernels.py"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


# ============================================================================ gen phase
FUNC_RE = re.compile(r"tt\.func\s+public\s+@([\w.$\-]+)\s*\(")


def save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Deterministic npz (fixed zip timestamps)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for k in sorted(arrays):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arrays[k]), allow_pickle=False)
            zi = zipfile.ZipInfo(k + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(zi, buf.getvalue())


def make_ttir(fn: Any, args: list[Any], options: dict[str, Any]) -> tuple[Any, Any]:
    """Frontend + CUDA make_ttir, specialised exactly like `kernel[grid](*args)` on sm_90."""
    from triton import knobs
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature
    kwargs = dict(options)
    kind, arch = kwargs.pop("target", "cuda:90").split(":")
    target = GPUTarget(kind, int(arch) if kind == "cuda" else arch, 32 if kind == "cuda" else 64)
    backend = make_backend(target)
    kwargs["debug"] = kwargs.get("debug", fn.debug) or False
    kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
    kwargs["fpsan_homomorphic_casts"] = knobs.compilation.fpsan_homomorphic_casts
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound_args, specialization, kw = binder(*args, **kwargs)
    opts, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound_args,
                                                       specialization, kw)
    src = ASTSource(fn, signature, constexprs, attrs)
    popts = backend.parse_options(dict(opts.__dict__, **src.parse_options()))
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = src.make_ir(target, popts, backend.get_codegen_implementation(popts),
                      backend.get_module_map(), ctx)
    stages: dict[str, Any] = {}
    backend.add_stages(stages, popts, Language.TRITON)
    mod = stages["ttir"](mod, {"target": target, **popts.__dict__})
    assert mod.verify()
    return mod, constexprs


def portable_locs(text: str) -> str:
    kfile = str(HERE / "kernels.py")
    text = text.replace(f'"{kfile}"', '"kernels.py"')
    if FUZZ_DIR is not None:
        text = text.replace(f'"{FUZZ_DIR / "fuzz_kernels.py"}"', '"fuzz_kernels.py"')
    text = re.sub(r'"[^"]*/site-packages/(triton/[^"]*)"', r'"\1"', text)
    return text


def call_args(c: Case, make: Callable[[Arr], Any]) -> list[Any]:
    return [make(v) if isinstance(v, Arr) else v for v in c.args.values()]


def signature_params(c: Case, constexprs: dict[Any, Any], fn: Any) -> list[dict[str, Any]]:
    const_names = {fn.arg_names[k[0]] for k in constexprs}
    params = []
    for pname, v in c.args.items():
        if pname in const_names:
            continue
        if isinstance(v, Arr):
            params.append(dict(name=pname, kind="array", npz_key=v.key, dtype=NP_NAME[v.ab],
                               shape=list(v.data.shape), role=v.role))
        elif isinstance(v, bool):
            params.append(dict(name=pname, kind="scalar", dtype="i1", value=int(v)))
        elif isinstance(v, int):
            params.append(dict(name=pname, kind="scalar",
                               dtype="i32" if -2**31 <= v < 2**31 else "i64", value=v))
        elif isinstance(v, float):
            params.append(dict(name=pname, kind="scalar", dtype="f32", value=v))
        else:
            raise TypeError(f"{c.name}: non-constexpr argument {pname}={v!r}")
    return params


def default_tol(ab: str) -> Tol:
    return TOL.get(ab, EXACT)


def kernel_fn(name: str) -> Any:
    """kernels.NAME, or fuzz_kernels.NAME from the generated module in FUZZ_DIR."""
    if name.startswith("fuzz_kernels."):
        assert FUZZ_DIR is not None
        if str(FUZZ_DIR) not in sys.path:
            sys.path.insert(0, str(FUZZ_DIR))
        import fuzz_kernels
        return getattr(fuzz_kernels, name.split(".", 1)[1])
    import kernels
    return getattr(kernels, name)


def interp_worker(out_dir: Path, names: set[str]) -> int:
    """Child process (TRITON_INTERPRET=1): run each case under the interpreter, save outputs."""
    global FUZZ_DIR
    FUZZ_DIR = out_dir.parent
    for c in build_cases():
        if c.name not in names:
            continue
        res: dict[str, Any] = dict(error=None, stdout="")
        tensors: dict[str, Any] = {}

        def make(a: Arr, tensors: dict[str, Any] = tensors, twin: bool = c.twin) -> Any:
            if twin and a.ab == "bf16":
                import torch
                tensors[a.key] = torch.from_numpy(bf16_float(a.data).copy())
            else:
                tensors[a.key] = a.torch()
            return tensors[a.key]
        try:
            args = call_args(c, make)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                kernel_fn(c.kernel)[c.grid](*args, **{k: v for k, v in c.options.items()
                                                       if k != "target"})
            res["stdout"] = buf.getvalue()[:2000]
            arrays = {}
            import torch
            for k, t in tensors.items():
                if c.twin and c.arrays()[k].ab == "bf16":
                    arrays[k] = bf16_bits(t.numpy())
                    continue
                if t.dtype == torch.bfloat16:
                    t = t.view(torch.int16)
                arrays[k] = t.numpy().view(c.arrays()[k].data.dtype)
            save_npz(out_dir / f"{c.name}.npz", arrays)
        except Exception as e:  # noqa: BLE001 (recorded)
            res["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-400:]
        (out_dir / f"{c.name}.json").write_text(json.dumps(res))
    return 0


def compare(actual: np.ndarray, expected: np.ndarray, ab: str, tol: Tol) -> tuple[bool, str]:
    run_case = load_run_case()
    return run_case.compare_output(actual, expected, NP_NAME[ab], tol[0], tol[1])


_RUN_CASE: Any = None


def load_run_case() -> Any:
    """test/corpus/run_case.py (its compare_output is the corpus' comparison rule)."""
    global _RUN_CASE
    if _RUN_CASE is None:
        spec = importlib.util.spec_from_file_location("corpus_run_case",
                                                      HERE.parent / "corpus" / "run_case.py")
        assert spec and spec.loader
        _RUN_CASE = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_RUN_CASE)
    return _RUN_CASE


def selected(name: str, pats: list[str] | None) -> bool:
    return not pats or any(p in name for p in pats)


def gen_main(a: argparse.Namespace) -> int:
    os.environ.pop("TRITON_INTERPRET", None)
    sys.path.insert(0, str(HERE))
    import warnings
    warnings.filterwarnings("ignore")
    global FUZZ_DIR
    t0 = time.time()
    root = Path(a.out).resolve()
    cdir = root / "cases"
    cdir.mkdir(parents=True, exist_ok=True)
    FUZZ_DIR = root
    cases = [c for c in build_cases() if selected(c.name, a.k)]
    skipped: dict[str, str] = {}
    built: list[tuple[Case, dict[str, Any]]] = []
    for c in cases:
        fn = kernel_fn(c.kernel)
        assert list(c.args) == fn.arg_names, (c.name, list(c.args), fn.arg_names)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                mod, constexprs = make_ttir(fn, call_args(c, lambda arr: arr.torch()), c.options)
        except Exception as e:  # noqa: BLE001 (Triton rejects it: not valid TTIR)
            msg = "".join(traceback.format_exception_only(type(e), e)).strip()
            skipped[c.name] = re.sub(r"\s+", " ", msg)[-300:]
            continue
        ttir = portable_locs(mod.str())
        fname = FUNC_RE.search(ttir)
        fname_ = c.kernel.split(".")[-1]
        assert fname and fname.group(1) == fname_, c.name
        meta = {"name": c.name, "ttir_func": fname_, "grid": list(c.grid),
                "params": signature_params(c, constexprs, fn), "outputs": {},
                "reference": c.expected, "notes": c.note,
                "constexprs": {fn.arg_names[k[0]]: repr(v) for k, v in constexprs.items()}}
        built.append((c, meta))
        d = cdir / c.name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir()
        (d / "kernel.ttir").write_text(ttir)
        (d / "kernel.noloc.ttir").write_text(mod.str_nodebug())
    print(f"TTIR: {len(built)} cases, {len(skipped)} rejected by Triton's frontend "
          f"({time.time() - t0:.0f}s)", flush=True)

    # interpreter, in a child (TRITON_INTERPRET must be set before triton is imported)
    idir = root / "interp"
    if idir.exists():
        shutil.rmtree(idir)
    idir.mkdir()
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONDONTWRITEBYTECODE="1")
    todo = [c.name for c, _ in built
            if c.interp and (c.expected == "interpreter" or c.ref is not None)]
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "interp-worker",
                        str(idir), *todo], env=env)
    assert r.returncode == 0, f"interpreter worker failed ({r.returncode})"
    warn = 0
    for c, meta in built:
        outs = c.outputs()
        info = json.loads((idir / f"{c.name}.json").read_text()) \
            if (idir / f"{c.name}.json").exists() else {"error": "not run"}
        interp = None
        if info.get("error") is None and (idir / f"{c.name}.npz").exists():
            with np.load(idir / f"{c.name}.npz") as z:
                interp = {k: z[k] for k in z.files}
        ref = None
        if c.ref is not None:
            ref = {k: np.asarray(v).reshape(outs[k].data.shape).astype(outs[k].data.dtype)
                   for k, v in c.ref().items()}
        expected: dict[str, np.ndarray] | None = None
        if c.expected == "ref":
            expected = ref
        elif c.expected in ("none", "simerror"):
            pass
        elif c.expected == "interpreter":
            expected = interp
            if interp is None:
                print(f"note {c.name}: interpreter failed ({info.get('error')}); numbers "
                      "not checked")
                meta["reference"] = "none"
        tols = {k: c.tol.get(k, default_tol(a_.ab)) for k, a_ in outs.items()}
        if c.auto_tol and expected is not None:
            for k, a_ in outs.items():
                if a_.ab in FLOATS:
                    e = as_f64(expected[k], a_.ab)
                    big = float(np.max(np.abs(e[np.isfinite(e)]), initial=0.0))
                    tols[k] = (1e-4, 1e-5 * big + 1e-6)
        if interp is not None and ref is not None:
            for k in ref:
                ok, why = compare(interp[k], ref[k], outs[k].ab, tols[k])
                if not ok:
                    warn += 1
                    print(f"note {c.name}: interpreter vs numpy/torch reference differ "
                          f"({'reference used' if c.expected == 'ref' else 'INTERPRETER used'})"
                          f": {k}: {why}")
        npz = {k: v.data for k, v in c.arrays().items()}
        if expected is not None and meta["reference"] != "none":
            for k in outs:
                npz["expected_" + k] = expected[k]
                meta["outputs"][k] = {"expected_key": "expected_" + k, "rtol": tols[k][0],
                                      "atol": tols[k][1]}
        save_npz(cdir / c.name / "case.npz", npz)
        (cdir / c.name / "case.json").write_text(json.dumps(meta, indent=1) + "\n")
    if a.k and (root / "skipped.json").exists():      # a partial run adds to the list
        old = json.loads((root / "skipped.json").read_text())
        old = {k: v for k, v in old.items() if not selected(k, a.k)}
        skipped = {**old, **skipped}
    (root / "skipped.json").write_text(json.dumps(skipped, indent=1) + "\n")
    shutil.rmtree(idir)
    print(f"{len(built)} cases written to {cdir}, {len(skipped)} skipped (see skipped.json), "
          f"{warn} reference notes, {time.time() - t0:.0f}s")
    return 0


# ============================================================================ run phase
LOCATED = re.compile(r"^\S+:\d+:\d+: error: ")
MARK = "SWEEP-RESULT "


def one_main(a: argparse.Namespace) -> int:
    """Compile and run one case; prints `SWEEP-RESULT {json}` as the last line."""
    path = Path(a.case)
    if path.suffix == ".ttir":                 # a saved failure: NAME.ttir + NAME.json/.npz
        ttir, meta_p, npz_p = path, path.with_suffix(".json"), path.with_suffix(".npz")
    else:
        ttir, meta_p, npz_p = path / ("kernel.noloc.ttir" if a.noloc else "kernel.ttir"), \
            path / "case.json", path / "case.npz"
    meta = json.loads(meta_p.read_text())
    with np.load(npz_p) as z:
        data_ = {k: z[k] for k in z.files}
    run_case = load_run_case()
    args, bufs = run_case.build_args(meta, data_)

    def result(cls: str, msg: str = "") -> int:
        print(MARK + json.dumps({"cls": cls, "msg": msg[:3000]}), flush=True)
        return 0

    sys.stderr.write("PHASE compile\n")
    sys.stderr.flush()
    import mtia_compiler
    try:
        k = mtia_compiler.compile(str(ttir))
    except mtia_compiler.CompilationError as e:
        msg = str(e)
        return result("located" if LOCATED.match(msg) else "unlocated", msg)
    except Exception as e:  # noqa: BLE001 (what is checked)
        return result("exception", "compile: " + "".join(
            traceback.format_exception(type(e), e, e.__traceback__))[-3000:])
    sys.stderr.write("PHASE run\n")
    sys.stderr.flush()
    try:
        k.run(*args, grid=tuple(meta["grid"]))
    except mtia_compiler.SimulationError as e:
        return result("pass" if meta["reference"] == "simerror" else "simerror", str(e))
    except Exception as e:  # noqa: BLE001 (what is checked)
        return result("exception", "run: " + "".join(
            traceback.format_exception(type(e), e, e.__traceback__))[-3000:])
    if meta["reference"] == "simerror":
        return result("wrong", "ran to the end, but the kernel must fault (failing assert or "
                      "out-of-bounds access)")
    if meta["reference"] == "none" or not meta["outputs"]:
        return result("nocheck")
    reason = run_case.check(meta, data_, bufs)
    return result("wrong", reason) if reason else result("pass")


BAD = ("unlocated", "exception", "crash", "hang", "wrong")


def run_one(case_dir: Path, timeout: float, noloc: bool = False) -> dict[str, Any]:
    t0 = time.time()
    cmd = [sys.executable, str(Path(__file__).resolve()), "one", str(case_dir)] + \
        (["--noloc"] if noloc else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           start_new_session=True)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        phase = re.findall(r"PHASE (\w+)", err)
        return {"cls": "hang", "msg": f"no result after {timeout:.0f}s "
                f"(in {phase[-1] if phase else 'startup'})", "secs": time.time() - t0}
    secs = time.time() - t0
    lines = [x for x in p.stdout.splitlines() if x.startswith(MARK)]
    if lines:
        r = json.loads(lines[-1][len(MARK):])
        r["secs"] = secs
        return r
    phase = re.findall(r"PHASE (\w+)", p.stderr)
    where = phase[-1] if phase else "startup"
    if p.returncode < 0:
        sig = signal.Signals(-p.returncode).name
        what = f"killed by {sig} during {where}"
    else:
        what = f"exit status {p.returncode} without a result during {where}"
    tail = "\n".join(x for x in p.stderr.splitlines() if not x.startswith("PHASE"))[-1500:]
    return {"cls": "crash", "msg": f"{what}: {tail}", "secs": secs}


def run_main(a: argparse.Namespace) -> int:
    root = Path(a.out).resolve()
    dirs = sorted(d for d in (root / "cases").iterdir()
                  if d.is_dir() and selected(d.name, a.k))
    res_path = root / ("results.noloc.json" if a.noloc else "results.json")
    results: dict[str, Any] = json.loads(res_path.read_text()) \
        if res_path.exists() and a.k else {}
    t0 = time.time()

    def job(d: Path) -> tuple[str, dict[str, Any]]:
        return d.name, run_one(d, a.timeout, a.noloc)

    with ThreadPoolExecutor(a.jobs) as ex:
        for name, r in ex.map(job, dirs):
            results[name] = r
            first = r.get("msg", "").strip().splitlines()
            print(f"{r['cls']:9s} {name:44s} {r['secs']:5.1f}s  {first[0][:150] if first else ''}",
                  flush=True)
    res_path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    counts = Counter(r["cls"] for r in results.values())
    print(f"\n{len(dirs)} cases in {time.time() - t0:.0f}s; totals over results.json: "
          + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)))
    bad = sum(counts[k] for k in BAD)
    print(f"{bad} break the rule ({', '.join(BAD)})")
    return 1 if bad else 0


def save_main(a: argparse.Namespace) -> int:
    """Copy cases (TTIR with a header saying what happened and how to reproduce, case.json,
    case.npz) to a failures directory as NAME.ttir / NAME.json / NAME.npz."""
    root = Path(a.out).resolve()
    results = json.loads((root / "results.json").read_text())
    dest = Path(a.to)
    dest.mkdir(parents=True, exist_ok=True)
    for name in a.names:
        d = root / "cases" / name
        r = results.get(name, {"cls": "?", "msg": ""})
        msg = r.get("msg", "").strip().splitlines()
        meta = json.loads((d / "case.json").read_text())
        cx = ", ".join(f"{k}={v}" for k, v in meta.get("constexprs", {}).items())
        head = [f"// sweep case {name}: {r['cls']}",
                *[f"//   {x[:200]}" for x in msg[:3]],
                f"// kernel: test/sweep/kernels.py {meta['ttir_func']}({cx}), grid {meta['grid']}",
                "// reproduce (compiler venv, repository root): compiles this file, runs it on",
                "// the inputs of the .npz next to it and checks the outputs:",
                f"//   python test/sweep/sweep.py one test/sweep/failures/{name}.ttir"]
        (dest / f"{name}.ttir").write_text("\n".join(head) + "\n" + (d / "kernel.ttir").read_text())
        shutil.copy(d / "case.json", dest / f"{name}.json")
        shutil.copy(d / "case.npz", dest / f"{name}.npz")
        print(f"saved {name} ({r['cls']})")
    return 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "interp-worker":
        sys.path.insert(0, str(HERE))
        return interp_worker(Path(sys.argv[2]), set(sys.argv[3:]))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="TTIR, inputs and references (needs triton, torch)")
    g.add_argument("out")
    g.add_argument("-k", action="append", help="only cases whose name contains this")
    r = sub.add_parser("run", help="compile and run every case (needs mtia_compiler)")
    r.add_argument("out")
    r.add_argument("-j", "--jobs", type=int, default=2)
    r.add_argument("--timeout", type=float, default=60.0)
    r.add_argument("-k", action="append", help="only cases whose name contains this")
    r.add_argument("--noloc", action="store_true",
                   help="compile kernel.noloc.ttir (no loc() attributes; errors must then point "
                        "into the .ttir file) and write results.noloc.json")
    sv = sub.add_parser("save", help="copy cases to a failures directory")
    sv.add_argument("out")
    sv.add_argument("names", nargs="+")
    sv.add_argument("--to", default=str(HERE / "failures"))
    o = sub.add_parser("one", help="compile and run one case directory or saved failure")
    o.add_argument("case")
    o.add_argument("--noloc", action="store_true", help="compile kernel.noloc.ttir")
    a = ap.parse_args()
    if a.cmd == "gen":
        return gen_main(a)
    if a.cmd == "run":
        return run_main(a)
    if a.cmd == "save":
        return save_main(a)
    return one_main(a)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "interp-worker":
        os.environ["TRITON_INTERPRET"] = "1"
    sys.exit(main())
