"""The @triton.jit kernels of the robustness sweep (see README.md and sweep.py).

Each kernel is small and parameterised by constexprs (an operation name, a dtype, a shape), so
that one kernel gives many distinct TTIR modules. The module name "kernels" appears in the TTIR
locations (`kernels.py:LINE:COL`), so a failure's location points at a line of this file.
"""

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


# --------------------------------------------------------------------------- elementwise
@triton.jit
def binary(x_ptr, y_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    if OP == "add":
        z = x + y
    elif OP == "sub":
        z = x - y
    elif OP == "mul":
        z = x * y
    elif OP == "truediv":
        z = x / y
    elif OP == "floordiv":
        z = x // y
    elif OP == "mod":
        z = x % y
    elif OP == "and":
        z = x & y
    elif OP == "or":
        z = x | y
    elif OP == "xor":
        z = x ^ y
    elif OP == "shl":
        z = x << y
    elif OP == "shr":
        z = x >> y
    elif OP == "maximum":
        z = tl.maximum(x, y)
    elif OP == "minimum":
        z = tl.minimum(x, y)
    elif OP == "eq":
        z = x == y
    elif OP == "ne":
        z = x != y
    elif OP == "lt":
        z = x < y
    elif OP == "le":
        z = x <= y
    elif OP == "gt":
        z = x > y
    elif OP == "ge":
        z = x >= y
    elif OP == "fdiv":
        z = tl.fdiv(x, y)
    elif OP == "div_rn":
        z = tl.div_rn(x, y)
    elif OP == "umulhi":
        z = tl.umulhi(x, y)
    elif OP == "cdiv":
        z = tl.cdiv(x, y)
    elif OP == "logical_and":
        z = (x > 0) & (y > 0)
    elif OP == "pow":
        z = libdevice.pow(x, y)
    elif OP == "atan2":
        z = libdevice.atan2(x, y)
    elif OP == "fmod":
        z = libdevice.fmod(x, y)
    elif OP == "maximum_nan":
        z = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty))


@triton.jit
def unary(x_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "neg":
        z = -x
    elif OP == "invert":
        z = ~x
    elif OP == "abs":
        z = tl.abs(x)
    elif OP == "exp":
        z = tl.exp(x)
    elif OP == "exp2":
        z = tl.exp2(x)
    elif OP == "log":
        z = tl.log(tl.abs(x) + 1)
    elif OP == "log2":
        z = tl.log2(tl.abs(x) + 1)
    elif OP == "sqrt":
        z = tl.sqrt(tl.abs(x))
    elif OP == "sqrt_rn":
        z = tl.sqrt_rn(tl.abs(x))
    elif OP == "rsqrt":
        z = tl.rsqrt(tl.abs(x) + 1)
    elif OP == "sin":
        z = tl.sin(x)
    elif OP == "cos":
        z = tl.cos(x)
    elif OP == "floor":
        z = tl.floor(x)
    elif OP == "ceil":
        z = tl.ceil(x)
    elif OP == "erf":
        z = tl.erf(x)
    elif OP == "sigmoid":
        z = tl.sigmoid(x)
    elif OP == "softmax":
        z = tl.softmax(x)
    elif OP == "fma":
        z = tl.fma(x, x, x)
    elif OP == "clamp":
        z = tl.clamp(x, -1.0, 1.0)
    elif OP == "square_int":
        z = x * x + 3
    elif OP == "isnan":
        z = x != x
    elif OP == "ld_tanh":
        z = libdevice.tanh(x)
    elif OP == "ld_asin":
        z = libdevice.asin(tl.minimum(tl.maximum(x, -1.0), 1.0))
    elif OP == "ld_exp":
        z = libdevice.exp(x)
    elif OP == "ld_log1p":
        z = libdevice.log1p(tl.abs(x))
    elif OP == "ld_rint":
        z = libdevice.rint(x)
    elif OP == "ld_trunc":
        z = libdevice.trunc(x)
    elif OP == "ld_isinf":
        z = libdevice.isinf(x)
    elif OP == "ld_signbit":
        z = libdevice.signbit(x)
    elif OP == "ld_ffs":
        z = libdevice.ffs(x)
    elif OP == "ld_popc":
        z = libdevice.popc(x)
    elif OP == "ld_clz":
        z = libdevice.clz(x)
    elif OP == "ld_cbrt":
        z = libdevice.cbrt(x)
    elif OP == "ld_erfinv":
        z = libdevice.erfinv(x * 0.25)
    elif OP == "ld_round":
        z = libdevice.round(x)
    elif OP == "ld_nearbyint":
        z = libdevice.nearbyint(x)
    elif OP == "math_cos":
        z = tl.math.cos(x)
    elif OP == "math_log":
        z = tl.math.log(tl.abs(x) + 1)
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty))


@triton.jit
def cast(x_ptr, z_ptr, N: tl.constexpr, BITCAST: tl.constexpr, MID: tl.constexpr):
    """x -> z's dtype (bitcast or value cast), optionally through MID (e.g. an fp8 type)."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MID is not None:
        x = x.to(MID)
    tl.store(z_ptr + offs, x.to(z_ptr.dtype.element_ty, bitcast=BITCAST))


@triton.jit
def fp8_bits(x_ptr, z_ptr, N: tl.constexpr, F8: tl.constexpr, ROUNDING: tl.constexpr):
    """x (f16/f32/bf16) -> fp8 -> its bits (stored as i8)."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if ROUNDING is None:
        y = x.to(F8)
    else:
        y = x.to(F8, fp_downcast_rounding=ROUNDING)
    tl.store(z_ptr + offs, y.to(tl.int8, bitcast=True))


@triton.jit
def fp8_from_bits(x_ptr, z_ptr, N: tl.constexpr, F8: tl.constexpr):
    """i8 bits -> fp8 -> z's dtype."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs).to(F8, bitcast=True)
    tl.store(z_ptr + offs, x.to(z_ptr.dtype.element_ty))


@triton.jit
def where_kernel(c_ptr, x_ptr, y_ptr, z_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.load(c_ptr + offs) > 0
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    if MODE == "tt":
        z = tl.where(c, x, y)
    elif MODE == "ts":
        z = tl.where(c, x, 7)
    elif MODE == "st":
        z = tl.where(c, -3.5, y)
    elif MODE == "ss":
        z = tl.where(c, 1, 0)
    elif MODE == "scalar_cond":
        z = tl.where(N > 4, x, y)
    elif MODE == "mixed":
        z = tl.where(c, x, y.to(tl.float32))
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty))


@triton.jit
def masked_load(x_ptr, z_ptr, n, N: tl.constexpr, OTHER: tl.constexpr):
    offs = tl.arange(0, N)
    if OTHER is None:
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(z_ptr + offs, x, mask=offs < n)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=OTHER)
        tl.store(z_ptr + offs, x)


@triton.jit
def masked_2d(x_ptr, z_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * stride + rn, mask=mask, other=-1.5)
    tl.store(z_ptr + rm * stride + rn, x * 2, mask=mask)


@triton.jit
def scalar_ldst(x_ptr, z_ptr, MODE: tl.constexpr):
    if MODE == "copy":
        v = tl.load(x_ptr)
        tl.store(z_ptr, v + 1)
    elif MODE == "index":
        v = tl.load(x_ptr + 3)
        tl.store(z_ptr + tl.program_id(0), v * 2)
    elif MODE == "masked":
        v = tl.load(x_ptr + 1, mask=tl.program_id(0) == 0, other=5)
        tl.store(z_ptr + tl.program_id(0), v)
    elif MODE == "splat":
        v = tl.load(x_ptr)
        offs = tl.arange(0, 16)
        tl.store(z_ptr + offs, v + offs.to(v.dtype))
    elif MODE == "to_scalar_ptr":
        offs = tl.arange(0, 16)
        vals = tl.load(x_ptr + offs)
        tl.store(z_ptr, tl.sum(vals, axis=0))


# --------------------------------------------------------------------------- reductions / scans
@triton.jit
def _reduce(x, AXIS: tl.constexpr, OP: tl.constexpr, KEEP: tl.constexpr):
    if OP == "sum":
        r = tl.sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max":
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "min":
        r = tl.min(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmax":
        r = tl.argmax(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmin":
        r = tl.argmin(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "xor_sum":
        r = tl.xor_sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "reduce_or":
        r = tl.reduce_or(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "prod":
        r = tl.reduce(x, AXIS, _prod_combine, keep_dims=KEEP)
    return r


@triton.jit
def _prod_combine(a, b):
    return a * b


@triton.jit
def reduce1d(x_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    r = _reduce(x, AXIS, OP, False)
    tl.store(z_ptr, r.to(z_ptr.dtype.element_ty))


@triton.jit
def reduce2d(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, OP: tl.constexpr,
             AXIS: tl.constexpr, KEEP: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    r = _reduce(x, AXIS, OP, KEEP)
    if AXIS is None:
        tl.store(z_ptr, r.to(z_ptr.dtype.element_ty))
    elif AXIS == 0:
        if KEEP:
            tl.store(z_ptr + rn[None, :], r.to(z_ptr.dtype.element_ty))
        else:
            tl.store(z_ptr + rn, r.to(z_ptr.dtype.element_ty))
    else:
        if KEEP:
            tl.store(z_ptr + rm[:, None], r.to(z_ptr.dtype.element_ty))
        else:
            tl.store(z_ptr + rm, r.to(z_ptr.dtype.element_ty))


@triton.jit
def reduce3d(x_ptr, z_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, OP: tl.constexpr,
             AXIS: tl.constexpr):
    ra = tl.arange(0, A)[:, None, None]
    rb = tl.arange(0, B)[None, :, None]
    rc = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + ra * B * C + rb * C + rc)
    r = _reduce(x, AXIS, OP, False)
    if AXIS is None:
        tl.store(z_ptr, r.to(z_ptr.dtype.element_ty))
    elif AXIS == 0:
        tl.store(z_ptr + tl.arange(0, B)[:, None] * C + tl.arange(0, C)[None, :],
                 r.to(z_ptr.dtype.element_ty))
    elif AXIS == 1:
        tl.store(z_ptr + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :],
                 r.to(z_ptr.dtype.element_ty))
    else:
        tl.store(z_ptr + tl.arange(0, A)[:, None] * B + tl.arange(0, B)[None, :],
                 r.to(z_ptr.dtype.element_ty))


@triton.jit
def masked_row_reduce(x_ptr, z_ptr, n, N: tl.constexpr, OP: tl.constexpr):
    """One row per program, masked to n columns; `other` is the reduction's identity."""
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    if OP == "max":
        x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=-float("inf"))
        r = tl.max(x, axis=0)
    elif OP == "argmin":
        x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=float("inf"))
        r = tl.argmin(x, axis=0)
    else:
        x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0)
        r = tl.sum(x, axis=0)
    tl.store(z_ptr + row, r.to(z_ptr.dtype.element_ty))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _pair_combine(a0, a1, b0, b1):
    return a0 + b0, tl.maximum(a1, b1)


@triton.jit
def scan2d(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr,
           REVERSE: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    if OP == "cumsum":
        r = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    elif OP == "cumprod":
        r = tl.cumprod(x, axis=AXIS, reverse=REVERSE)
    elif OP == "cummax":
        r = tl.associative_scan(x, AXIS, _max_combine, reverse=REVERSE)
    elif OP == "pair":
        s, m = tl.associative_scan((x, x), AXIS, _pair_combine, reverse=REVERSE)
        r = s + m
    tl.store(z_ptr + rm * N + rn, r.to(z_ptr.dtype.element_ty))


@triton.jit
def scan1d(x_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "cumsum":
        r = tl.cumsum(x, 0, reverse=REVERSE)
    else:
        r = tl.cumprod(x, 0, reverse=REVERSE)
    tl.store(z_ptr + offs, r.to(z_ptr.dtype.element_ty))


@triton.jit
def _argmax_pair(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)


@triton.jit
def user_reduce_tuple(x_ptr, v_ptr, i_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    idx = tl.broadcast_to(rn, (M, N))
    v, i = tl.reduce((x, idx), 1, _argmax_pair)
    tl.store(v_ptr + tl.arange(0, M), v)
    tl.store(i_ptr + tl.arange(0, M), i)


# --------------------------------------------------------------------------- dot
@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               IN_DTYPE: tl.constexpr, PRECISION: tl.constexpr, ACC: tl.constexpr,
               OUT_DTYPE: tl.constexpr, TRANS_B: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    if TRANS_B:
        b = tl.load(b_ptr + rn[:, None] * K + rk[None, :])
        b = tl.trans(b)
    else:
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if IN_DTYPE is not None:
        a = a.to(IN_DTYPE, bitcast=True)
        b = b.to(IN_DTYPE, bitcast=True)
    if ACC == "none":
        c = tl.dot(a, b, input_precision=PRECISION, out_dtype=OUT_DTYPE)
    elif ACC == "zeros":
        acc = tl.zeros((M, N), dtype=OUT_DTYPE)
        c = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=OUT_DTYPE)
    elif ACC == "loaded":
        acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :]).to(OUT_DTYPE)
        c = tl.dot(a, b, acc=acc, input_precision=PRECISION, out_dtype=OUT_DTYPE)
    elif ACC == "twice":
        c = tl.dot(a, b, input_precision=PRECISION, out_dtype=OUT_DTYPE)
        c = tl.dot(a, b, c, input_precision=PRECISION, out_dtype=OUT_DTYPE)
    elif ACC == "relu":
        c = tl.dot(a, b, input_precision=PRECISION, out_dtype=OUT_DTYPE)
        c = tl.maximum(c, 0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c.to(c_ptr.dtype.element_ty))


@triton.jit
def dot_loop(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
             BK: tl.constexpr):
    """Tiled matmul with masks: M, N, K need not be multiples of the block."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a_mask = (rm[:, None] < M) & (kk[None, :] < K)
        b_mask = (kk[:, None] < K) & (rn[None, :] < N)
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=a_mask, other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=b_mask, other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot3d(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk_col = tl.arange(0, K)[None, None, :]
    rk_row = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + rb * M * K + rm * K + rk_col)
    b = tl.load(b_ptr + rb * K * N + rk_row * N + rn)
    c = tl.dot(a, b)
    tl.store(c_ptr + rb * M * N + rm * N + rn, c.to(c_ptr.dtype.element_ty))


# --------------------------------------------------------------------------- shape ops
@triton.jit
def shape_op(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, OP: tl.constexpr):
    """x is M x N (row-major); z receives the M*N (or as documented) result elements."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    if OP == "trans":
        z = tl.trans(x)
        tl.store(z_ptr + rn[:, None] * M + rm[None, :], z)
    elif OP == "permute":
        z = tl.permute(x, (1, 0))
        tl.store(z_ptr + rn[:, None] * M + rm[None, :], z)
    elif OP == "reshape":
        z = tl.reshape(x, (N, M))
        tl.store(z_ptr + rn[:, None] * M + rm[None, :], z + 1)
    elif OP == "ravel":
        z = tl.ravel(x)
        tl.store(z_ptr + tl.arange(0, M * N), z * 2)
    elif OP == "broadcast_row":
        row = tl.load(x_ptr + rn)
        z = tl.broadcast_to(row[None, :], (M, N)) + x
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "broadcast_col":
        col = tl.load(x_ptr + rm * N)
        z = col[:, None] + x
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "expand_dims":
        col = tl.load(x_ptr + rn)
        e = tl.expand_dims(col, 0)
        z = tl.broadcast_to(e, (M, N)) * 3
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "flip0":
        z = tl.flip(x, 0)
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "flip1":
        z = tl.flip(x, 1)
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "sort":
        z = tl.sort(x, 1)
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "sort_desc":
        z = tl.sort(x, 1, descending=True)
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)
    elif OP == "topk":
        z = tl.topk(x, 4)
        tl.store(z_ptr + rm[:, None] * 4 + tl.arange(0, 4)[None, :], z)
    elif OP == "cat":
        a = tl.load(x_ptr + rn)
        b = tl.load(x_ptr + N + rn)
        z = tl.cat(a, b, can_reorder=True)
        tl.store(z_ptr + tl.arange(0, 2 * N), tl.sort(z))
    elif OP == "join":
        z = tl.join(x, x + 1)
        tl.store(z_ptr + rm[:, None, None] * N * 2 + rn[None, :, None] * 2
                 + tl.arange(0, 2)[None, None, :], z)
    elif OP == "split":
        a, b = tl.split(tl.reshape(x, (M, N // 2, 2)))
        tl.store(z_ptr + rm[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :], a - b)
    elif OP == "interleave":
        z = tl.interleave(x, x * 2)
        tl.store(z_ptr + rm[:, None] * 2 * N + tl.arange(0, 2 * N)[None, :], z)
    elif OP == "reshape3d":
        z = tl.reshape(x, (2, M // 2, N))
        z = tl.permute(z, (1, 0, 2))
        z = tl.sum(z, axis=1)
        tl.store(z_ptr + tl.arange(0, M // 2)[:, None] * N + rn[None, :], z)
    elif OP == "slice_expand":
        z = tl.expand_dims(x, 2)
        z = tl.broadcast_to(z, (M, N, 2))
        z = tl.sum(z, 2)
        tl.store(z_ptr + rm[:, None] * N + rn[None, :], z)


@triton.jit
def gather_kernel(x_ptr, i_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    idx = tl.load(i_ptr + rm * N + rn)
    z = tl.gather(x, idx, AXIS)
    tl.store(z_ptr + rm * N + rn, z)


@triton.jit
def histogram_kernel(x_ptr, z_ptr, N: tl.constexpr, BINS: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MASKED:
        h = tl.histogram(x, BINS, mask=offs < N - 5)
    else:
        h = tl.histogram(x, BINS)
    tl.store(z_ptr + tl.arange(0, BINS), h)


@triton.jit
def indirect_load(x_ptr, i_ptr, z_ptr, N: tl.constexpr, I64: tl.constexpr):
    offs = tl.arange(0, N)
    idx = tl.load(i_ptr + offs)
    if I64:
        idx = idx.to(tl.int64)
    tl.store(z_ptr + offs, tl.load(x_ptr + idx))


@triton.jit
def indirect_store(x_ptr, i_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    idx = tl.load(i_ptr + offs)
    tl.store(z_ptr + idx, tl.load(x_ptr + offs))


# --------------------------------------------------------------------------- atomics
@triton.jit
def atomic_kernel(p_ptr, v_ptr, old_ptr, N: tl.constexpr, OP: tl.constexpr, SEM: tl.constexpr,
                  SCOPE: tl.constexpr, MASKED: tl.constexpr, TARGETS: tl.constexpr):
    """Every program adds its N values into TARGETS slots (offs % TARGETS) and stores the old
    values it saw (only order-independent results are checked for OP returning old values)."""
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    v = tl.load(v_ptr + pid * N + offs)
    ptrs = p_ptr + offs % TARGETS
    mask = (offs % 3 != 1) if MASKED else None
    if OP == "add":
        old = tl.atomic_add(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "max":
        old = tl.atomic_max(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "min":
        old = tl.atomic_min(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "and":
        old = tl.atomic_and(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "or":
        old = tl.atomic_or(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "xor":
        old = tl.atomic_xor(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "xchg":
        old = tl.atomic_xchg(ptrs, v, mask=mask, sem=SEM, scope=SCOPE)
    if old_ptr is not None:
        tl.store(old_ptr + pid * N + offs, old, mask=mask)


@triton.jit
def atomic_scalar(p_ptr, v_ptr, old_ptr, OP: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(v_ptr + pid)
    if OP == "add":
        old = tl.atomic_add(p_ptr, v)
    elif OP == "max":
        old = tl.atomic_max(p_ptr + 1, v)
    elif OP == "cas_lock":
        while tl.atomic_cas(p_ptr, 0, 1) == 1:
            pass
        cur = tl.load(p_ptr + 1)
        tl.store(p_ptr + 1, cur + v)
        tl.atomic_xchg(p_ptr, 0)
        old = cur
    elif OP == "counter":
        old = tl.atomic_add(p_ptr, 1, sem="relaxed")
    tl.store(old_ptr + pid, old * 0 + 1)


@triton.jit
def atomic_cas_kernel(p_ptr, old_ptr, N: tl.constexpr, SEM: tl.constexpr):
    """Tensor atomic_cas: slot i becomes 10+i if it holds i (odd i hold something else)."""
    offs = tl.arange(0, N)
    old = tl.atomic_cas(p_ptr + offs, offs.to(p_ptr.dtype.element_ty),
                        (offs + 10).to(p_ptr.dtype.element_ty), sem=SEM)
    tl.store(old_ptr + offs, old)


# --------------------------------------------------------------------------- control flow
@triton.jit
def control(x_ptr, z_ptr, n, iters, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "for":
        acc = tl.zeros((N,), tl.float32)
        for i in range(iters):
            acc = acc * 0.5 + x * i
        z = acc
    elif MODE == "for_two_carried":
        a = x
        b = tl.zeros_like(x)
        for _ in range(0, iters, 2):
            a, b = b + 1.0, a * 2.0
        z = a + b
    elif MODE == "for_step_neg":
        acc = x
        for i in range(iters, 0, -1):
            acc += i
        z = acc
    elif MODE == "while":
        i = 0
        acc = x
        while i < iters:
            acc = acc + tl.exp(acc * 0.0)
            i += 1
        z = acc
    elif MODE == "while_tensor_cond":
        acc = x
        while tl.max(acc, axis=0) < 100.0:
            acc = acc * 2.0 + 1.0
        z = acc
    elif MODE == "if_scalar":
        if n > 10:
            z = x + 1
        else:
            z = x - 1
    elif MODE == "if_pid":
        if tl.program_id(0) == 0:
            z = x * 3
        else:
            z = x
    elif MODE == "if_in_loop":
        acc = x
        for i in range(iters):
            if i % 2 == 0:
                acc = acc + 1
            else:
                acc = acc * 2
        z = acc
    elif MODE == "nested_for":
        acc = tl.zeros((N,), tl.float32)
        for i in range(iters):
            for j in range(i):
                acc += x * j
        z = acc
    elif MODE == "static_range":
        acc = x
        for i in tl.static_range(4):
            acc = acc + i * x
        z = acc
    elif MODE == "tl_range":
        acc = x
        for i in tl.range(0, iters, 1, num_stages=2):
            acc = tl.maximum(acc, x + i)
        z = acc
    elif MODE == "loop_store":
        for i in range(iters):
            tl.store(z_ptr + offs, x + i)
        z = tl.load(z_ptr + offs) + 0.5
    elif MODE == "early_dead":
        z = x
        if iters < 0:
            return
    elif MODE == "loop_scalar_carried":
        s = 0.0
        for i in range(iters):
            s += tl.sum(x, axis=0) * i
        z = x + s
    elif MODE == "for_ptr_carried":
        p = x_ptr
        acc = tl.zeros((N,), tl.float32)
        for _ in range(iters):
            acc += tl.load(p + offs)
            p += 1
        z = acc
    elif MODE == "loop_reduce_break":
        acc = x
        i = 0
        while (i < iters) & (tl.sum(acc, axis=0) < 1000.0):
            acc = acc + 10.0
            i += 1
        z = acc
    tl.store(z_ptr + offs, z, mask=offs < n)


@triton.jit
def constexpr_branch(x_ptr, z_ptr, N: tl.constexpr, FLAG: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if FLAG:
        x = x * SCALE
    else:
        x = x + SCALE
    tl.static_assert(N % 2 == 0)
    tl.store(z_ptr + offs, x)


@triton.jit
def _noinline_helper(x, y):
    return x * y + 1


@triton.jit(noinline=True)
def _noinline_fn(ptr, i, v):
    tl.store(ptr + i, v * 2)


@triton.jit
def call_kernel(x_ptr, z_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    _noinline_fn(z_ptr, pid, _noinline_helper(x, x))


# --------------------------------------------------------------------------- programs / pointers
@triton.jit
def grid3d(z_ptr, MODE: tl.constexpr):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (z * ny + y) * nx + x
    if MODE == "ids":
        tl.store(z_ptr + lin * 4 + tl.arange(0, 4),
                 tl.where(tl.arange(0, 4) == 0, x, tl.where(tl.arange(0, 4) == 1, y,
                          tl.where(tl.arange(0, 4) == 2, z, nx * ny * nz))))
    else:
        tl.store(z_ptr + lin, lin)


@triton.jit
def hints(x_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * N + tl.arange(0, N)
    if MODE == "multiple_of":
        offs = tl.multiple_of(offs, 16)
        offs = tl.max_contiguous(offs, 16)
    elif MODE == "assume":
        tl.assume(n > 0)
        tl.assume(pid >= 0)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(z_ptr + offs, x + 1, mask=offs < n)


@triton.jit
def ptr_i64(x_ptr, z_ptr, stride, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, N).to(tl.int64)
    if MODE == "i64_offsets":
        x = tl.load(x_ptr + pid * stride + offs)
        tl.store(z_ptr + pid * stride + offs, x * 2)
    elif MODE == "ptr_tensor_arith":
        p = x_ptr + pid * stride
        q = p + offs
        q = q - 1 + 1
        x = tl.load(q)
        tl.store(z_ptr + pid * stride + offs, x - 1)
    elif MODE == "i64_scalar_arg":
        x = tl.load(x_ptr + (stride - 8589934592) + offs)
        tl.store(z_ptr + offs + pid * N, x)
    elif MODE == "unsigned_offs":
        uo = tl.arange(0, N).to(tl.uint32)
        x = tl.load(x_ptr + pid * stride + uo)
        tl.store(z_ptr + pid * stride + uo, x)


@triton.jit
def tensor_desc(x_ptr, z_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    zd = tl.make_tensor_descriptor(z_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = xd.load([pid * BM, 0])
    zd.store([pid * BM, 0], x * 2)


@triton.jit
def i1_ptr(b_ptr, x_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    b = tl.load(b_ptr + offs)
    x = tl.load(x_ptr + offs)
    tl.store(z_ptr + offs, b & (x > 0))


@triton.jit
def misc(x_ptr, z_ptr, n, f, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    if MODE == "empty":
        pass
    elif MODE == "const_store":
        tl.store(z_ptr + offs, tl.full((N,), 7, z_ptr.dtype.element_ty))
    elif MODE == "scalar_arith":
        v = (n * 3 + 1) // 2 - n % 5
        tl.store(z_ptr + offs, tl.zeros((N,), tl.float32) + v * f)
    elif MODE == "mask_all_false":
        x = tl.load(x_ptr + offs, mask=offs < 0, other=1.0)
        tl.store(z_ptr + offs, x, mask=offs >= 0)
    elif MODE == "float_arg":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x * f + n)
    elif MODE == "big":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x * 2 + 1)
    elif MODE == "load_twice":
        a = tl.load(x_ptr + offs)
        b = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, a * b)
    elif MODE == "store_twice":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x)
        tl.store(z_ptr + offs, x + 1)
    elif MODE == "store_then_load":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x * 3)
        y = tl.load(z_ptr + N - 1 - offs)
        tl.store(z_ptr + offs, y + x)
    elif MODE == "reverse_offsets":
        x = tl.load(x_ptr + N - 1 - offs)
        tl.store(z_ptr + offs, x)
    elif MODE == "stride2":
        x = tl.load(x_ptr + 2 * offs)
        tl.store(z_ptr + offs, x)
    elif MODE == "broadcast_load":
        x = tl.load(x_ptr + offs // 4)
        tl.store(z_ptr + offs, x)
    elif MODE == "softmax2d":
        rm = tl.arange(0, 4)[:, None]
        rn = tl.arange(0, N // 4)[None, :]
        m = rn < n
        x = tl.load(x_ptr + rm * (N // 4) + rn, mask=m, other=-float("inf"))
        x = x - tl.max(x, axis=1)[:, None]
        e = tl.exp(x)
        tl.store(z_ptr + rm * (N // 4) + rn, e / tl.sum(e, axis=1)[:, None], mask=m)


# --------------------------------------------------------------------------- debug / random
@triton.jit
def debug_kernel(x_ptr, z_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "print":
        tl.device_print("x", x)
    elif MODE == "print_scalar":
        tl.device_print("pid", tl.program_id(0))
    elif MODE == "print_hex":
        tl.device_print("x", x, hex=True)
    elif MODE == "assert":
        tl.device_assert(x >= 0, "negative x")
    elif MODE == "assert_scalar":
        tl.device_assert(tl.sum(x, axis=0) >= 0, "negative sum")
    elif MODE == "static_print":
        tl.static_print("N =", N)
    tl.store(z_ptr + offs, x + 1)


@triton.jit
def random_kernel(z_ptr, seed, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    if MODE == "rand":
        r = tl.rand(seed, offs)
    elif MODE == "randn":
        r = tl.randn(seed, offs)
    elif MODE == "randint":
        r = (tl.randint(seed, offs) >> 8).to(tl.float32)
    elif MODE == "rand_i64":
        r = tl.rand(seed, offs.to(tl.int64))
    tl.store(z_ptr + offs, r)


# --------------------------------------------------------------------------- second batch
@triton.jit
def early_return(x_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * N + tl.arange(0, N)
    if MODE == "before_load":
        if pid == 1:
            return
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x + 1)
    elif MODE == "after_load":
        x = tl.load(x_ptr + offs)
        if pid == 1:
            return
        tl.store(z_ptr + offs, x + 1)
    elif MODE == "after_store":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x + 1)
        if pid == 1:
            return
        tl.store(z_ptr + offs, x + 2)
    elif MODE == "scalar_arg":
        if n > 1000:
            return
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x * 2)
    elif MODE == "data_dependent":
        x = tl.load(x_ptr + offs)
        if tl.sum(x, axis=0) > 0:
            return
        tl.store(z_ptr + offs, x * 2)


@triton.jit
def const_div(x_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr, C: tl.constexpr):
    """Integer ops by a constant (power-of-two divisors tempt strength reduction)."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "div":
        z = x // C
    elif OP == "mod":
        z = x % C
    elif OP == "mul":
        z = x * C
    elif OP == "shr":
        z = x >> C
    elif OP == "fdiv":
        z = x / C
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty))


@triton.jit
def scalar_operand(x_ptr, z_ptr, s, N: tl.constexpr, OP: tl.constexpr):
    """Tensor op runtime scalar argument."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "add":
        z = x + s
    elif OP == "rsub":
        z = s - x
    elif OP == "mul":
        z = x * s
    elif OP == "div":
        z = x / s
    elif OP == "floordiv":
        z = x // s
    elif OP == "mod":
        z = x % s
    elif OP == "rmod":
        z = s % x
    elif OP == "shl":
        z = x << s
    elif OP == "max":
        z = tl.maximum(x, s)
    elif OP == "where":
        z = tl.where(x > 0, x, s)
    elif OP == "lt":
        z = x < s
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty))


@triton.jit
def masked_grid(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr, OP: tl.constexpr):
    """Elementwise ops over several programs with a masked tail."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    if OP == "add":
        z = x + y
    elif OP == "div":
        z = x / y
    elif OP == "sum":
        z = x + tl.sum(y, axis=0)
    elif OP == "max_tail":
        z = tl.maximum(x, tl.max(y, axis=0))
    elif OP == "cumsum":
        z = tl.cumsum(x, 0)
    elif OP == "dot":
        xx = tl.reshape(x, (16, BLOCK // 16))
        yy = tl.reshape(y, (BLOCK // 16, 16))
        z = tl.reshape(tl.dot(xx, yy), (BLOCK,))
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty), mask=m)


@triton.jit
def load_attrs(x_ptr, z_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    if MODE == "cache":
        x = tl.load(x_ptr + offs, cache_modifier=".cg", eviction_policy="evict_last")
        tl.store(z_ptr + offs, x, cache_modifier=".wb", eviction_policy="evict_first")
    elif MODE == "volatile":
        x = tl.load(x_ptr + offs, volatile=True)
        tl.store(z_ptr + offs, x)
    elif MODE == "barrier":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x)
        tl.debug_barrier()
        y = tl.load(z_ptr + N - 1 - offs)
        tl.debug_barrier()
        tl.store(z_ptr + offs, x + y)
    elif MODE == "inline_asm":
        x = tl.load(x_ptr + offs)
        y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                      is_pure=True, pack=1)
        tl.store(z_ptr + offs, y)
    elif MODE == "map_elementwise":
        x = tl.load(x_ptr + offs)
        y = tl.map_elementwise(_scalar_relu, x)
        tl.store(z_ptr + offs, y)
    elif MODE == "unroll":
        x = tl.load(x_ptr + offs)
        acc = tl.zeros_like(x)
        for i in tl.range(0, 8, loop_unroll_factor=2):
            acc += x * i
        tl.store(z_ptr + offs, acc)
    elif MODE == "flatten":
        x = tl.load(x_ptr + offs)
        acc = tl.zeros_like(x)
        for i in tl.range(0, 3, flatten=True):
            for j in range(0, 2):
                acc += x * (i + j)
        tl.store(z_ptr + offs, acc)
    elif MODE == "nan_specials":
        x = tl.load(x_ptr + offs)
        y = tl.load(x_ptr + N - 1 - offs)
        r = tl.where(x != x, 1.0, 0.0) + tl.where(x < y, 2.0, 0.0) + tl.where(x == y, 4.0, 0.0)
        r += tl.where(x >= y, 8.0, 0.0) + tl.where(tl.abs(x) == float("inf"), 16.0, 0.0)
        tl.store(z_ptr + offs, r + tl.where(x > 0, 32.0, 0.0) + tl.where(-x < 0, 64.0, 0.0))
    elif MODE == "divzero":
        x = tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, x / (x * 0.0))


@triton.jit
def _scalar_relu(x):
    if x > 0:
        return x
    return 0.0


@triton.jit
def shape3d(x_ptr, z_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, OP: tl.constexpr):
    ra = tl.arange(0, A)[:, None, None]
    rb = tl.arange(0, B)[None, :, None]
    rc = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + ra * B * C + rb * C + rc)
    if OP == "permute120":
        z = tl.permute(x, (1, 2, 0))           # B x C x A
        tl.store(z_ptr + rb.reshape(B, 1, 1) * C * A + rc.reshape(1, C, 1) * A
                 + ra.reshape(1, 1, A), z)
    elif OP == "permute021":
        z = tl.permute(x, 0, 2, 1)             # A x C x B
        tl.store(z_ptr + ra * C * B + rc.reshape(1, C, 1) * B + rb.reshape(1, 1, B), z)
    elif OP == "trans_attr":
        z = tl.reshape(x, (A * B, C)).T        # C x (A*B)
        tl.store(z_ptr + tl.arange(0, C)[:, None] * (A * B) + tl.arange(0, A * B)[None, :], z)
    elif OP == "elementwise":
        z = x * 2 + tl.sum(x, axis=2, keep_dims=True)
        tl.store(z_ptr + ra * B * C + rb * C + rc, z)
    elif OP == "reshape_reorder":
        z = tl.sum(tl.reshape(x, (A * B * C,), can_reorder=True), axis=0)
        tl.store(z_ptr + tl.arange(0, 1), tl.full((1,), 0, tl.float32) + z)
    elif OP == "cat_det":
        a = tl.reshape(x, (A * B, C))
        z = tl.cat(a, a * 2)                   # (2*A*B) x C
        tl.store(z_ptr + tl.arange(0, 2 * A * B)[:, None] * C + tl.arange(0, C)[None, :], z)
    elif OP == "split3d":
        a, b = tl.split(x)                     # last dim of size 2
        tl.store(z_ptr + tl.arange(0, A)[:, None] * B + tl.arange(0, B)[None, :], a * 10 + b)
    elif OP == "join3d":
        z = tl.join(x, -x)                     # A x B x C x 2
        tl.store(z_ptr + (ra * B * C + rb * C + rc)[:, :, :, None] * 2
                 + tl.arange(0, 2)[None, None, None, :], z)
    elif OP == "broadcast3d":
        row = tl.load(x_ptr + rc)              # 1 x 1 x C
        z = x + row + tl.load(x_ptr + rb)      # + 1 x B x 1
        tl.store(z_ptr + ra * B * C + rb * C + rc, z)


@triton.jit
def sort_kernel(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    tl.store(z_ptr + rm * N + rn, tl.sort(x, descending=DESC))


@triton.jit
def atomic_extra(p_ptr, v_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    if MODE == "loop":
        for i in range(4):
            tl.atomic_add(p_ptr + offs, tl.load(v_ptr + offs) * i)
    elif MODE == "scalar_val":
        tl.atomic_add(p_ptr + offs, 3)
    elif MODE == "masked_tail":
        o = pid * N + offs
        tl.atomic_add(p_ptr + o % 8, tl.load(v_ptr + o, mask=o < n, other=0), mask=o < n)
    elif MODE == "same_slot":
        tl.atomic_add(p_ptr + offs * 0, tl.load(v_ptr + offs))
    elif MODE == "cas_scalar_loop":
        old = tl.atomic_cas(p_ptr, pid, pid + 1)
        while old != pid:
            old = tl.atomic_cas(p_ptr, pid, pid + 1)
        tl.store(z_ptr + pid, old)
    elif MODE == "old_scalar":
        old = tl.atomic_add(p_ptr, 1)
        tl.store(z_ptr + pid, old * 0 + 5)
    elif MODE == "min_neg_f32":
        v = tl.load(v_ptr + offs).to(tl.float32)
        tl.atomic_min(p_ptr.to(tl.pointer_type(tl.float32), bitcast=True) + offs, v - 100.0)


@triton.jit
def argred_ties(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, OP: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    if OP == "argmax":
        r = tl.argmax(x, 1)
    elif OP == "argmin":
        r = tl.argmin(x, 1)
    elif OP == "argmax_right":
        r = tl.argmax(x, 1, tie_break_left=False)
    elif OP == "argmax0":
        r = tl.argmax(x, 0)
    if OP == "argmax0":
        tl.store(z_ptr + rn, r)
    else:
        tl.store(z_ptr + rm, r)


@triton.jit
def dot_variants(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                 MODE: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    if MODE == "trans_a":
        a = tl.trans(tl.load(a_ptr + rk[:, None] * M + rm[None, :]))
    else:
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if MODE == "chain":
        c = tl.dot(a, b)
        c = tl.dot(c.to(tl.float16), tl.trans(b).to(tl.float16))    # M x K
        tl.store(c_ptr + rm[:, None] * K + rk[None, :], c)
    elif MODE == "scaled_inputs":
        c = tl.dot(a * 2, (b + 1).to(tl.float16))
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
    elif MODE == "dot_sum":
        c = tl.sum(tl.dot(a, b), axis=1)
        tl.store(c_ptr + rm, c)
    elif MODE == "f16_acc_f16":
        c = tl.dot(a, b, out_dtype=tl.float16)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c.to(tl.float32))
    else:
        c = tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def loop_kernels(x_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    if MODE == "data_trip_count":
        cnt = tl.load(x_ptr).to(tl.int32)
        acc = tl.zeros((N,), tl.float32)
        for i in range(cnt):
            acc += tl.load(x_ptr + 1 + offs) * i
        tl.store(z_ptr + offs, acc)
    elif MODE == "loop_in_if":
        acc = tl.load(x_ptr + offs)
        if n > 3:
            for i in range(n):
                acc = acc * 0.5 + i
        tl.store(z_ptr + offs, acc)
    elif MODE == "grid_stride":
        pid = tl.program_id(0)
        for start in range(pid * N, n, tl.num_programs(0) * N):
            o = start + offs
            tl.store(z_ptr + o, tl.load(x_ptr + o, mask=o < n) * 3, mask=o < n)
    elif MODE == "while_scalar_load":
        i = 0
        v = tl.load(x_ptr)
        while v < 100.0:
            v = v * 2 + 1
            i += 1
        tl.store(z_ptr + offs, tl.zeros((N,), tl.float32) + v + i)
    elif MODE == "reduce_in_loop_store":
        for r in range(4):
            x = tl.load(x_ptr + r * N + offs)
            tl.store(z_ptr + r, tl.sum(x, axis=0))
    elif MODE == "loop_carried_int_tensor":
        idx = offs
        for _ in range(3):
            idx = (idx * 5 + 1) % N
        tl.store(z_ptr + offs, tl.load(x_ptr + idx))
    elif MODE == "if_else_tensor_yield":
        x = tl.load(x_ptr + offs)
        if tl.program_id(0) == 0:
            y = x * 2
            w = tl.sum(x, axis=0)
        else:
            y = x - 1
            w = tl.max(x, axis=0)
        tl.store(z_ptr + offs, y + w)
    elif MODE == "break_like":
        acc = tl.zeros((N,), tl.float32)
        i = 0
        done = False
        while not done:
            acc += tl.load(x_ptr + i * N + offs)
            i += 1
            done = i >= n
        tl.store(z_ptr + offs, acc)


# --------------------------------------------------------------------------- third batch
@triton.jit
def scalar_math(x_ptr, z_ptr, OP: tl.constexpr):
    """Scalar (control-core) arithmetic on loaded values."""
    v = tl.load(x_ptr)
    w = tl.load(x_ptr + 1)
    if OP == "exp":
        r = tl.exp(v)
    elif OP == "sqrt":
        r = tl.sqrt(tl.abs(v))
    elif OP == "floor":
        r = tl.floor(v)
    elif OP == "abs":
        r = tl.abs(v)
    elif OP == "max":
        r = tl.maximum(v, w)
    elif OP == "select":
        r = tl.where(v > w, v, w * 2)
    elif OP == "div":
        r = v / w
    elif OP == "mod":
        r = v % w
    elif OP == "floordiv":
        r = v // w
    elif OP == "shr":
        r = v >> 2
    elif OP == "cast_f32":
        r = v.to(tl.float32) * 0.5
    elif OP == "cast_i32":
        r = v.to(tl.int32) + 1
    elif OP == "cmp":
        r = (v < w).to(tl.int32) * 10 + (v == w).to(tl.int32)
    elif OP == "fma":
        r = tl.fma(v, w, v)
    elif OP == "sum_scalar_tensor":
        r = tl.sum(tl.zeros((16,), v.dtype) + v, axis=0)
    tl.store(z_ptr, r.to(z_ptr.dtype.element_ty))


@triton.jit
def tiny(x_ptr, z_ptr, N: tl.constexpr, OP: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "add":
        z = x + 1
    elif OP == "sum":
        z = tl.zeros_like(x) + tl.sum(x, axis=0)
    elif OP == "cumsum":
        z = tl.cumsum(x, 0)
    elif OP == "sort":
        z = tl.sort(x)
    elif OP == "outer":
        o = x[:, None] * x[None, :]
        z = tl.sum(o, axis=1)
    tl.store(z_ptr + offs, z)


@triton.jit
def many_tiles(x_ptr, z_ptr, N: tl.constexpr, K: tl.constexpr, MODE: tl.constexpr):
    """K tiles alive at once (circular-buffer and local-memory pressure)."""
    offs = tl.arange(0, N)
    if MODE == "sum_all_live":
        t0 = tl.load(x_ptr + offs)
        acc = t0
        prod = t0
        for i in tl.static_range(1, K):
            t = tl.load(x_ptr + i * N + offs)
            acc = acc + t
            prod = prod * (t * 0.01 + 1.0)
        tl.store(z_ptr + offs, acc + prod)
    elif MODE == "stores":
        x = tl.load(x_ptr + offs)
        for i in tl.static_range(K):
            tl.store(z_ptr + i * N + offs, x + i)
    elif MODE == "long_loop":
        acc = tl.load(x_ptr + offs)
        for _ in range(K):
            acc = acc * 0.999 + 0.001
        tl.store(z_ptr + offs, acc)
    elif MODE == "nested3":
        acc = tl.zeros((N,), tl.float32)
        for i in range(2):
            for j in range(3):
                for k in range(2):
                    acc += tl.load(x_ptr + ((i * 3 + j) * 2 + k) * N + offs)
        tl.store(z_ptr + offs, acc)


@triton.jit
def ptr_select(x_ptr, y_ptr, z_ptr, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    if MODE == "lane_select":
        p = tl.where(offs % 2 == 0, x_ptr + offs, y_ptr + offs)
        tl.store(z_ptr + pid * N + offs, tl.load(p))
    elif MODE == "scalar_select":
        base = x_ptr if pid == 0 else y_ptr
        tl.store(z_ptr + pid * N + offs, tl.load(base + offs))
    elif MODE == "where_scalar_ptr":
        base = tl.where(pid == 0, x_ptr, y_ptr)
        tl.store(z_ptr + pid * N + offs, tl.load(base + offs))
    elif MODE == "ptr_to_int":
        a = x_ptr.to(tl.int64, bitcast=True)
        b = y_ptr.to(tl.int64, bitcast=True)
        same = tl.where(a == b, 1.0, 2.0)
        tl.store(z_ptr + pid * N + offs, tl.load(x_ptr + offs) * same)
    elif MODE == "data_mask":
        x = tl.load(x_ptr + offs)
        m = x > 0
        y = tl.load(y_ptr + offs, mask=m, other=-1.0)
        tl.store(z_ptr + pid * N + offs, y, mask=m | (offs < 4))


@triton.jit
def reduce_to_address(x_ptr, z_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "argmax_index":
        i = tl.argmax(x, 0)
        tl.store(z_ptr + offs, tl.load(x_ptr + N + i + offs * 0))
    elif MODE == "sum_as_offset":
        s = tl.sum((x > 0).to(tl.int32), axis=0)
        tl.store(z_ptr + s + offs * 0, x)
    elif MODE == "max_broadcast_store":
        tl.store(z_ptr + offs, x - tl.max(x, axis=0))
    elif MODE == "scalar_store_of_reduction":
        tl.store(z_ptr + 3, tl.sum(x, axis=0))


# --------------------------------------------------------------------------- fourth batch
@triton.jit
def branches(x_ptr, f_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    """Runtime branches (structured scf.if and unstructured early returns) on various conditions."""
    pid = tl.program_id(0)
    offs = pid * N + tl.arange(0, N)
    if MODE == "if_loaded_flag":
        x = tl.load(x_ptr + offs)
        if tl.load(f_ptr + pid) > 0:
            tl.store(z_ptr + offs, x * 2)
        else:
            tl.store(z_ptr + offs, x - 1)
    elif MODE == "if_loaded_flag_yield":
        x = tl.load(x_ptr + offs)
        if tl.load(f_ptr + pid) > 0:
            y = x * 2
        else:
            y = x - 1
        tl.store(z_ptr + offs, y)
    elif MODE == "return_loaded_flag":
        if tl.load(f_ptr + pid) > 0:
            return
        tl.store(z_ptr + offs, tl.load(x_ptr + offs) + 5)
    elif MODE == "two_returns":
        if pid == 0:
            return
        x = tl.load(x_ptr + offs)
        if n < 0:
            return
        tl.store(z_ptr + offs, x + 3)
    elif MODE == "return_if_else":
        x = tl.load(x_ptr + offs)
        if pid % 2 == 0:
            tl.store(z_ptr + offs, x)
            return
        else:
            tl.store(z_ptr + offs, -x)
    elif MODE == "return_after_loop":
        acc = tl.zeros((N,), tl.float32)
        for i in range(n):
            acc += tl.load(x_ptr + offs) * i
        if pid == 1:
            return
        tl.store(z_ptr + offs, acc)
    elif MODE == "if_store_only":
        if pid == 1:
            tl.store(z_ptr + offs, tl.load(x_ptr + offs))
    elif MODE == "if_no_else_yield":
        y = tl.load(x_ptr + offs)
        if pid == 1:
            y = y * 10
        tl.store(z_ptr + offs, y)
    elif MODE == "nested_if":
        y = tl.load(x_ptr + offs)
        if pid > 0:
            if n > 5:
                y = y + 1
            else:
                y = y - 1
        tl.store(z_ptr + offs, y)
    elif MODE == "loop_if_load":
        acc = tl.zeros((N,), tl.float32)
        for i in range(n):
            if i % 2 == 1:
                acc += tl.load(x_ptr + offs)
        tl.store(z_ptr + offs, acc)


@triton.jit
def big_grid(x_ptr, z_ptr, c_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * N + tl.arange(0, N)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if MODE == "copy":
        tl.store(z_ptr + offs, x + 1, mask=m)
    elif MODE == "counter":
        tl.store(z_ptr + offs, x + 1, mask=m)
        tl.atomic_add(c_ptr, 1)
    elif MODE == "hist":
        tl.store(z_ptr + offs, x, mask=m)
        tl.atomic_add(c_ptr + (x.to(tl.int32) & 7), 1, mask=m)
    elif MODE == "sum":
        tl.store(z_ptr + offs, x, mask=m)
        tl.atomic_add(c_ptr + 8 + tl.arange(0, N) * 0, tl.where(m, x, 0).to(tl.int32))


# --------------------------------------------------------------------------- memory ordering
@triton.jit
def memdep(p_ptr, q_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    """Loads and stores of the same locations in program order (one program): every later
    access must see the earlier ones (RAW, WAR, WAW through memory, across loop iterations,
    between tensor (DMA) and scalar or atomic accesses)."""
    offs = tl.arange(0, N)
    if MODE == "loop_inplace":
        for _ in range(n):
            x = tl.load(p_ptr + offs)
            tl.store(p_ptr + offs, x + 1)
    elif MODE == "loop_shift":
        for _ in range(n):
            x = tl.load(p_ptr + offs)
            tl.store(p_ptr + offs + 1, x * 0.5)
    elif MODE == "war":
        a = tl.load(p_ptr + offs)
        tl.store(p_ptr + offs, tl.zeros_like(a))
        tl.store(q_ptr + offs, a)
    elif MODE == "war_reversed":
        a = tl.load(p_ptr + offs)
        tl.store(p_ptr + N - 1 - offs, a * 2)
    elif MODE == "scalar_store_tensor_load":
        tl.store(p_ptr + 2, 42.0)
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x)
    elif MODE == "tensor_store_scalar_load":
        x = tl.load(p_ptr + offs)
        tl.store(p_ptr + offs, x * 2)
        s = tl.load(p_ptr + 3)
        tl.store(q_ptr + offs, x * 0 + s)
    elif MODE == "tensor_store_scalar_load_store":
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x * 2)
        s = tl.load(q_ptr + 3)
        tl.store(q_ptr + 5, s + 1)
    elif MODE == "atomic_then_load":
        tl.atomic_add(p_ptr + offs, 1.0)
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x)
    elif MODE == "load_then_atomic":
        x = tl.load(p_ptr + offs)
        tl.atomic_add(p_ptr + offs, 1.0)
        tl.store(q_ptr + offs, x)
    elif MODE == "scalar_loop_prefix":
        for i in range(1, n):
            tl.store(p_ptr + i, tl.load(p_ptr + i - 1) + tl.load(p_ptr + i))
    elif MODE == "accumulate_in_memory":
        tl.store(q_ptr + offs, tl.zeros((N,), tl.float32))
        for i in range(n):
            tl.store(q_ptr + offs, tl.load(q_ptr + offs) + tl.load(p_ptr + i * 4 + offs))
    elif MODE == "tensor_then_scalar_store":
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x)
        tl.store(q_ptr + 3, -1.0)
    elif MODE == "scalar_then_tensor_store":
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + 3, -1.0)
        tl.store(q_ptr + offs, x)
    elif MODE == "atomic_scalar_then_tensor_store":
        x = tl.load(p_ptr + offs)
        tl.atomic_add(q_ptr, 1.0)
        tl.store(q_ptr + offs, x)
    elif MODE == "tensor_store_then_atomic_scalar":
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x)
        tl.atomic_add(q_ptr, 1.0)
    elif MODE == "masked_partial_overwrite":
        x = tl.load(p_ptr + offs)
        tl.store(q_ptr + offs, x)
        tl.store(q_ptr + offs, -x, mask=offs % 3 == 0)
        y = tl.load(q_ptr + offs)
        tl.store(p_ptr + offs, y + 100)
    elif MODE == "loop_store_load_other_offsets":
        for i in range(n):
            x = tl.load(p_ptr + (offs + i) % N)
            tl.store(p_ptr + offs, x + 1)
    elif MODE == "scalar_rmw_loop":
        for _ in range(n):
            tl.store(q_ptr, tl.load(q_ptr) + 1.0)
        tl.store(q_ptr + 1 + offs, tl.load(q_ptr + offs))


# --------------------------------------------------------------------------- constants / bool args
@triton.jit
def constants(x_ptr, z_ptr, flag, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "nan":
        z = tl.where(offs % 2 == 0, x * float("nan"), x)
    elif MODE == "neg_inf_where":
        z = tl.where(x > 0, x, float("-inf"))
    elif MODE == "neg_zero":
        z = tl.where(x > 0, -0.0, x * 0.0)
    elif MODE == "f16_inf_full":
        z = tl.full((N,), float("inf"), tl.float16).to(tl.float32) + x
    elif MODE == "i64_big":
        z = (x.to(tl.int64) + 4611686018427387904).to(tl.float32)
    elif MODE == "u32_max":
        z = (tl.full((N,), 4294967295, tl.uint32) - x.to(tl.uint32)).to(tl.float32)
    elif MODE == "f32_tiny":
        z = x * 1e-45 * 1e30
    elif MODE == "bool_arg":
        if flag:
            z = x + 1
        else:
            z = x - 1
    elif MODE == "bool_arg_tensor":
        z = tl.where(flag, x, -x)
    elif MODE == "bool_arg_arith":
        z = x * flag.to(tl.float32) + flag
    tl.store(z_ptr + offs, z)


# --------------------------------------------------------------------------- inter-program
@triton.jit
def inter_program(data_ptr, flag_ptr, out_ptr, N: tl.constexpr, MODE: tl.constexpr):
    """Programs that wait for each other through atomics (all programs of the grid must make
    progress together, as on a GPU whose grid fits on the device)."""
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    if MODE == "message":                      # program 0 produces, the last one consumes
        if pid == 0:
            tl.store(data_ptr + offs, offs.to(tl.float32) + 1)
            tl.atomic_xchg(flag_ptr, 1, sem="release")
        elif pid == tl.num_programs(0) - 1:
            while tl.atomic_add(flag_ptr, 0, sem="acquire") == 0:
                pass
            tl.store(out_ptr + offs, tl.load(data_ptr + offs) * 2)
    elif MODE == "message_reverse":            # the last program produces, program 0 consumes
        if pid == tl.num_programs(0) - 1:
            tl.store(data_ptr + offs, offs.to(tl.float32) + 1)
            tl.atomic_xchg(flag_ptr, 1, sem="release")
        elif pid == 0:
            while tl.atomic_cas(flag_ptr, 1, 1, sem="acquire") == 0:
                pass
            tl.store(out_ptr + offs, tl.load(data_ptr + offs) * 2)
    elif MODE == "grid_barrier":
        tl.store(data_ptr + pid * N + offs, offs.to(tl.float32) + pid)
        tl.atomic_add(flag_ptr, 1, sem="release")
        while tl.atomic_add(flag_ptr, 0, sem="acquire") < tl.num_programs(0):
            pass
        other = (pid + 1) % tl.num_programs(0)
        tl.store(out_ptr + pid * N + offs, tl.load(data_ptr + other * N + offs))


# --------------------------------------------------------------------------- reduction -> control
@triton.jit
def reduce_control(x_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    """Scalars reduced from tensors steering control flow (the control core needs them)."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "for_trip_from_reduce":
        cnt = tl.max(tl.load(x_ptr + N + offs).to(tl.int32), axis=0)
        acc = tl.zeros_like(x)
        for _ in range(cnt):
            acc += x
        tl.store(z_ptr + offs, acc)
    elif MODE == "if_reduce_store_both":
        if tl.sum(x, axis=0) > 0:
            tl.store(z_ptr + offs, x * 2)
        else:
            tl.store(z_ptr + offs, x * 3)
    elif MODE == "if_reduce_use_after":
        y = x * 2
        if tl.sum(x, axis=0) > 0:
            tl.store(z_ptr + offs, y)
        tl.store(z_ptr + N + offs, y + 1)
    elif MODE == "where_scalar_from_reduce":
        s = tl.sum(x, axis=0)
        tl.store(z_ptr + offs, tl.where(s > 0, x, -x))
    elif MODE == "return_in_loop":
        for i in range(n):
            if i == 3:
                return
            tl.store(z_ptr + i * N + offs, x + i)
    elif MODE == "return_in_while":
        i = 0
        while i < n:
            tl.store(z_ptr + i * N + offs, x * i)
            if i == 2:
                return
            i += 1
    elif MODE == "return_reduce_no_use":
        if tl.sum(x, axis=0) > 0:
            return
        tl.store(z_ptr + offs, tl.load(x_ptr + N + offs))
    elif MODE == "return_scalar_load_use_tile":
        if tl.load(x_ptr) > 0:
            return
        tl.store(z_ptr + offs, x + 1)


# --------------------------------------------------------------------------- size stress
@triton.jit
def _noinline_scale(v, s):
    return v * s + 1


@triton.jit
def size_stress(x_ptr, z_ptr, N: tl.constexpr, K: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if MODE == "unrolled_chain":
        acc = x
        for i in tl.static_range(K):
            acc = acc * 0.999 + x * (i % 3)
        tl.store(z_ptr + offs, acc)
    elif MODE == "unrolled_loads":
        acc = x
        for i in tl.static_range(1, K):
            acc = tl.maximum(acc, tl.load(x_ptr + i * N + offs))
        tl.store(z_ptr + offs, acc)
    elif MODE == "unrolled_reductions":
        acc = tl.zeros((N,), tl.float32)
        for i in tl.static_range(K):
            acc += tl.sum(x * i, axis=0)
        tl.store(z_ptr + offs, acc)
    elif MODE == "noinline_scalar_ret":
        s = tl.load(x_ptr + 1)
        r = _noinline_scale_ni(s, 3.0)
        tl.store(z_ptr + offs, x * r)


@triton.jit(noinline=True)
def _noinline_scale_ni(v, s):
    return v * s + 1


@triton.jit
def store_forms(x_ptr, z_ptr, n, N: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    if MODE == "scalar_mask_load":
        x = tl.load(x_ptr + pid * N + offs, mask=pid < 1, other=-4)
        tl.store(z_ptr + pid * N + offs, x)
    elif MODE == "scalar_mask_store":
        x = tl.load(x_ptr + pid * N + offs)
        tl.store(z_ptr + pid * N + offs, x, mask=pid > 0)
    elif MODE == "scalar_value_store":
        tl.store(z_ptr + pid * N + offs, 3.0, mask=offs < n)
    elif MODE == "int_value_to_float_ptr":
        x = tl.load(x_ptr + pid * N + offs)
        tl.store(z_ptr + pid * N + offs, (x * 4).to(tl.int32))
    elif MODE == "row_mask_2d":
        rm = tl.arange(0, 4)[:, None]
        rn = tl.arange(0, N // 4)[None, :]
        x = tl.load(x_ptr + pid * N + rm * (N // 4) + rn, mask=rm < 3, other=9.0)
        tl.store(z_ptr + pid * N + rm * (N // 4) + rn, x, mask=rn < n // 8)
    elif MODE == "col_mask_other_tensor":
        x = tl.load(x_ptr + pid * N + offs, mask=offs % 2 == 0, other=0.0)
        tl.store(z_ptr + pid * N + offs, x)
