"""Hand-written @triton.jit kernels of test/kernels: patterns real Triton users write that the
shared corpus (test/corpus) does not cover. The loc(...) line numbers of the cases' kernel.ttir
point into this file; gen.py defines the cases (sizes, inputs, references)."""

import triton
import triton.language as tl

# ------------------------------------------------------------------------------ matmuls


# 01: the tutorial-03 matmul with grouped program ordering, `% M` / `% N` wrap-around offsets, a
# K loop whose masks compare against `K - k * BLOCK_K`, loop-carried pointer increments, and B
# given as an nn.Linear weight ([N, K] row-major: stride_bk = 1, stride_bn = K).
@triton.jit
def matmul_grouped(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# 23: the everyday matmul loop without `% M` wrap-around: masked M/N edges, pointer tensors
# advanced in the K loop by a constant (`a_ptrs += BLOCK_K * stride_ak` with stride_ak == 1
# specialised away) and by a runtime stride (`b_ptrs += BLOCK_K * stride_bk`).
@triton.jit
def matmul_ptr_advance(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


# 26: the same loop as 23 with A stored column-major (A = At.T, a transposed view: stride_am == 1
# is specialised away, stride_ak = M is a runtime argument), so the A tile is a strided gather
# whose pointer tensor is carried through the K loop.
@triton.jit
def matmul_a_colmajor(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_cm,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


# 02: bf16 linear layer y = silu(x @ w^T + bias) with a 2-D grid, fp32 accumulation, the bias
# added in fp32 and a bf16 store (the epilogue Inductor would fuse after addmm).
@triton.jit
def linear_bias_silu_bf16(x_ptr, w_ptr, bias_ptr, y_ptr, M, N, K, stride_xm, stride_wn, stride_ym,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + kk[:, None],
                    mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(x, w)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    acc = acc + bias[None, :]
    acc = acc * tl.sigmoid(acc)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# 03: batched matmul, batch on program_id(2) (3-D grid), fp32 operands with
# input_precision="ieee", batch strides as runtime arguments.
@triton.jit
def bmm_ieee(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_cb,
             stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bat = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + bat * stride_ab
    b_base = b_ptr + bat * stride_bb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_base + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_base + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + bat * stride_cb + rm[:, None] * stride_cm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# 04: int8 x int8 -> int32 matmul with a K loop (masked tail, other=0), then a per-row fp32
# dequantisation scale: both the int32 accumulator and the fp32 result are stored.
@triton.jit
def int8_matmul_dequant(a_ptr, b_ptr, scale_ptr, c_ptr, d_ptr, M, N, K,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b, out_dtype=tl.int32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=mask)
    scale = tl.load(scale_ptr + rm, mask=rm < M, other=0.0)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float32) * scale[:, None], mask=mask)


# 05: the tensor-descriptor idiom that replaced block pointers (tl.make_block_ptr is gone in
# Triton 3.9): device-side descriptors advanced through a K loop by their load offsets, B given as
# an nn.Linear weight [N, K] transposed in registers (tl.trans), bias epilogue, descriptor store.
@triton.jit
def desc_linear_f16(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    w_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        w = w_desc.load([pid_n * BLOCK_N, k * BLOCK_K])
        acc = tl.dot(a, tl.trans(w), acc)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], (acc + bias[None, :]).to(tl.float16))


# 06: 3-D tl.dot (a batch of small matrices in one program) on a transposed operand: C[b] =
# A[b]^T @ B[b] with tl.trans / tl.permute of a loaded [B, K, M] tile.
@triton.jit
def dot3d_trans(a_ptr, b_ptr, c_ptr, NB, BB: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                K: tl.constexpr):
    pid = tl.program_id(0)
    rb = pid * BB + tl.arange(0, BB)
    bmask = rb < NB
    rk = tl.arange(0, K)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    a = tl.load(a_ptr + rb[:, None, None] * (K * M) + rk[None, :, None] * M + rm[None, None, :],
                mask=bmask[:, None, None], other=0.0)                     # [BB, K, M]
    b = tl.load(b_ptr + rb[:, None, None] * (K * N) + rk[None, :, None] * N + rn[None, None, :],
                mask=bmask[:, None, None], other=0.0)                     # [BB, K, N]
    c = tl.dot(tl.permute(a, (0, 2, 1)), b, input_precision="ieee")      # [BB, M, N]
    tl.store(c_ptr + rb[:, None, None] * (M * N) + rm[None, :, None] * N + rn[None, None, :], c,
             mask=bmask[:, None, None])


# ------------------------------------------------------------------------------ row kernels


# 07: softmax over rows longer than the block: an online-softmax loop (running max and rescaled
# running sum carried through scf.for), then a second loop that writes the normalised row.
@triton.jit
def online_softmax(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    m_i = tl.full([BLOCK], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m_i, x)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m_i - m_new))
        p = tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        l_i = l_i * alpha + p
        m_i = m_new
    m = tl.max(m_i, 0)
    l_sum = tl.sum(l_i * tl.exp(m_i - m), 0)
    inv = 1.0 / l_sum
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=float("-inf"))
        tl.store(y_row + cols, tl.exp(x - m) * inv, mask=mask)


# 25: a three-loop softmax that keeps its intermediate in the output buffer, as Inductor's looped
# softmax does: exp(x - max) is stored to y in the second loop and loaded back from y in the
# third (a store -> load dependence through global memory inside one program).
@triton.jit
def softmax_store_reload(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    m_acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m_acc = tl.maximum(m_acc, tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")))
    m = tl.max(m_acc, 0)
    s_acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        e = tl.exp(tl.load(x_row + cols, mask=mask, other=float("-inf")) - m)
        tl.store(y_row + cols, e, mask=mask)
        s_acc += e
    inv = 1.0 / tl.sum(s_acc, 0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        tl.store(y_row + cols, tl.load(y_row + cols, mask=mask, other=0.0) * inv, mask=mask)


# 08: RMS norm of fp16 rows in two looped passes (sum of squares, then scale by rsqrt and the
# fp16 weight); several rows per program through a row loop with a runtime step.
@triton.jit
def rms_norm_f16(x_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, eps, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        acc = tl.zeros([BLOCK], tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
            acc += x * x
        rstd = tl.rsqrt(tl.sum(acc, 0) / n_cols + eps)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n_cols
            x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
            w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
            tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(tl.float16), mask=mask)


# 09: row gather through an int64 index tensor (embedding lookup), rows of an unaligned width
# read in column blocks, scaled by a per-index weight loaded as a scalar.
@triton.jit
def row_gather(idx_ptr, table_ptr, wt_ptr, out_ptr, n_idx, D, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    if i >= n_idx:
        return
    row = tl.load(idx_ptr + i)
    wt = tl.load(wt_ptr + i)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        v = tl.load(table_ptr + row * D + cols, mask=cols < D, other=0.0)
        tl.store(out_ptr + i * D + cols, v * wt, mask=cols < D)


# ------------------------------------------------------------------------------ elementwise


# 10: 2-D blocked elementwise with runtime strides on every operand: x is read transposed
# (strides given by the caller), y and the padded output row-major; row and column masks.
@triton.jit
def strided_2d(x_ptr, y_ptr, out_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_om, alpha,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask, other=0.0)
    y = tl.load(y_ptr + rm[:, None] * stride_ym + rn[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], x * alpha + y, mask=mask)


# 11: 3-D grid over a [B, M, N] tensor (program_id / num_programs on all three axes), small odd
# block sizes, tl.multiple_of / tl.max_contiguous hints, a broadcast row vector.
@triton.jit
def grid3d_hints(x_ptr, v_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(2)
    pid_m = tl.program_id(1)
    rn0 = tl.program_id(0) * BLOCK_N
    rn = tl.max_contiguous(tl.multiple_of(rn0 + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    nb = tl.num_programs(2)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = b * M * N + rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + rn, mask=rn < N, other=0.0)
    tl.store(out_ptr + offs, x * v[None, :] + (b + nb).to(tl.float32), mask=mask)


# 12: tl.where with a scalar condition, a tensor condition with a scalar other, a condition from
# integer index arithmetic, a scalar flag loaded from memory and an if on program_id that
# yields a tensor (scf.if with results).
@triton.jit
def where_scalar_tensor(x_ptr, flag_ptr, out_ptr, n, thr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    flag = tl.load(flag_ptr)
    c = tl.where(flag > 0, x, -x)
    d = tl.where(x > thr, c, 0.5)
    e = tl.where(offs % 3 == 0, d, tl.full([BLOCK], 7.0, tl.float32))
    if pid == 1:
        e = e * 2.0
    else:
        e = e - 1.0
    tl.store(out_ptr + offs, e, mask=mask)


# 13: integer arithmetic on signed data: // and % (C semantics: truncation), shifts (arithmetic
# >> on signed, logical >> on the uint32 view), &, |, ^, ~, min/max/abs, i64 products, umulhi,
# and a runtime divisor.
@triton.jit
def int_arith(a_ptr, b_ptr, out_ptr, n, d, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    o = out_ptr + offs * 8
    tl.store(o + 0, a // b, mask=mask)
    tl.store(o + 1, a % b, mask=mask)
    tl.store(o + 2, (a << 3) ^ (a >> 2), mask=mask)
    tl.store(o + 3, (a.to(tl.uint32, bitcast=True) >> 5).to(tl.int32, bitcast=True), mask=mask)
    tl.store(o + 4, (a & 0xFF) | (~b & 0x7F00), mask=mask)
    tl.store(o + 5, tl.maximum(a, b) - tl.minimum(a, b) + tl.abs(a) // d, mask=mask)
    prod = a.to(tl.int64) * b.to(tl.int64) * 65537
    tl.store(o + 6, (prod >> 20).to(tl.int32), mask=mask)
    golden = tl.full([BLOCK], 2654435761, tl.uint32)
    hi = tl.umulhi(a.to(tl.uint32, bitcast=True), golden)
    tl.store(o + 7, hi.to(tl.int32, bitcast=True), mask=mask)


# 14: dtype conversions: f32 -> bf16 / f16 (round to nearest even), bf16 -> f32, f32 -> i32
# (truncation toward zero), i32 -> f32, u8 -> f32, bf16 bitcast to i16; a bool (i1) output.
@triton.jit
def casts(x_ptr, u8_ptr, bf_ptr, h_ptr, i_ptr, f_ptr, bits_ptr, pos_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    u = tl.load(u8_ptr + offs, mask=mask, other=0)
    bf = (x * 3.0).to(tl.bfloat16)
    tl.store(bf_ptr + offs, bf, mask=mask)
    tl.store(h_ptr + offs, (bf.to(tl.float32) - x).to(tl.float16), mask=mask)
    i = (x * 100.0).to(tl.int32)
    tl.store(i_ptr + offs, i, mask=mask)
    tl.store(f_ptr + offs, i.to(tl.float32) * 0.5 + u.to(tl.float32), mask=mask)
    tl.store(bits_ptr + offs, bf.to(tl.int16, bitcast=True), mask=mask)
    tl.store(pos_ptr + offs, x > 0, mask=mask)


# ------------------------------------------------------------------------------ reductions, scans


# 15: tl.argmax / tl.argmin along both axes of a tile, tl.max / tl.min with return_indices=True
# (tie-break left), on data with many ties.
@triton.jit
def arg_reductions(x_ptr, amax_ptr, amin_ptr, vmax_ptr, imax_ptr, imin_ptr, M, N,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=float("-inf"))
    tl.store(amax_ptr + rm, tl.argmax(x, axis=1), mask=rm < M)
    y = tl.where(mask, x, float("inf"))
    tl.store(amin_ptr + rn, tl.argmin(y, axis=0), mask=rn < N)
    v, i = tl.max(x, axis=1, return_indices=True, return_indices_tie_break_left=True)
    tl.store(vmax_ptr + rm, v, mask=rm < M)
    tl.store(imax_ptr + rm, i, mask=rm < M)
    _, j = tl.min(y, axis=0, return_indices=True, return_indices_tie_break_left=True)
    tl.store(imin_ptr + rn, j, mask=rn < N)


@triton.jit
def _lse_combine(m1, s1, m2, s2):
    m = tl.maximum(m1, m2)
    s = tl.where(s1 > 0, s1 * tl.exp(m1 - m), 0.0) + tl.where(s2 > 0, s2 * tl.exp(m2 - m), 0.0)
    return m, s


@triton.jit
def _bit_or(a, b):
    return a | b


# 16: tl.reduce with user combine functions: a two-operand (max, scaled sum) logsumexp combine
# over each row and a one-operand bitwise-or over each column of an int tile.
@triton.jit
def user_reduce(x_ptr, bits_ptr, lse_ptr, or_ptr, M, N, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=float("-inf"))
    ones = tl.where(mask, 1.0, 0.0)
    m, s = tl.reduce((x, ones), 1, _lse_combine)
    tl.store(lse_ptr + rm, m + tl.log(s), mask=rm < M)
    bits = tl.load(bits_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0)
    tl.store(or_ptr + rn, tl.reduce(bits, 0, _bit_or), mask=rn < N)


@triton.jit
def _linrec_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


# 17: scans: tl.cumsum along both axes, reverse tl.cumprod, and a two-operand
# tl.associative_scan computing the linear recurrence h_t = a_t * h_{t-1} + b_t along each row.
@triton.jit
def scans(x_ptr, a_ptr, csum_row_ptr, csum_col_ptr, cprod_ptr, h_ptr, M, N,
          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    tl.store(csum_row_ptr + offs, tl.cumsum(x, axis=1), mask=mask)
    tl.store(csum_col_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
    tl.store(cprod_ptr + offs, tl.cumprod(a, axis=1, reverse=True), mask=mask)
    _, h = tl.associative_scan((a, x), 1, _linrec_combine)
    tl.store(h_ptr + offs, h, mask=mask)


# 18: tl.sort of fp32 rows (ascending and descending), tl.sort of int32 rows, tl.flip, tl.topk.
@triton.jit
def sort_rows(x_ptr, k_ptr, asc_ptr, desc_ptr, ks_ptr, top_ptr, N: tl.constexpr,
              TOPK: tl.constexpr):
    row = tl.program_id(0)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + rn)
    tl.store(asc_ptr + row * N + rn, tl.sort(x))
    tl.store(desc_ptr + row * N + rn, tl.flip(tl.sort(x, descending=True)) * -1.0)
    k = tl.load(k_ptr + row * N + rn)
    tl.store(ks_ptr + row * N + rn, tl.sort(k, descending=True))
    tl.store(top_ptr + row * TOPK + tl.arange(0, TOPK), tl.topk(x, TOPK))


# ------------------------------------------------------------------------------ atomics


# 19: scatter with conflicting addresses inside a block: masked tensor tl.atomic_add (f32, values
# are multiples of 1/8 so any order is exact) and tensor atomic_max (i32, data-dependent mask,
# relaxed) to random bins; the returned old values are not used.
@triton.jit
def atomic_scatter(bin_ptr, val_ptr, ival_ptr, sum_ptr, max_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(bin_ptr + offs, mask=mask, other=0)
    v = tl.load(val_ptr + offs, mask=mask, other=0.0)
    iv = tl.load(ival_ptr + offs, mask=mask, other=0)
    tl.atomic_add(sum_ptr + b, v, mask=mask)
    tl.atomic_max(max_ptr + b, iv, mask=mask & (iv > 0), sem="relaxed")


# 24: f32 tl.atomic_min / tl.atomic_max of tensors with both signs: the frontend lowers them to
# integer atomics on the bitcast pointer (signed max/min for non-negative values, unsigned min/max
# for negative ones), selected per lane.
@triton.jit
def atomic_float_minmax(bin_ptr, val_ptr, min_ptr, max_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(bin_ptr + offs, mask=mask, other=0)
    v = tl.load(val_ptr + offs, mask=mask, other=0.0)
    tl.atomic_min(min_ptr + b, v, mask=mask)
    tl.atomic_max(max_ptr + b, v, mask=mask)


# ------------------------------------------------------------------------------ control flow


# 20: CSR segment sums: per-row loop bounds loaded from memory (scf.for with runtime lower and
# upper bound), column blocks, a scalar accumulator, a scalar store.
@triton.jit
def csr_row_sum(rowptr_ptr, val_ptr, out_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(rowptr_ptr + row)
    end = tl.load(rowptr_ptr + row + 1)
    acc = 0.0
    for j in range(start, end, BLOCK):
        cols = j + tl.arange(0, BLOCK)
        v = tl.load(val_ptr + cols, mask=cols < end, other=0.0)
        acc += tl.sum(v, 0)
    tl.store(out_ptr + row, acc)


# 21: while loops on runtime conditions: a scalar Collatz-style loop whose trip count depends on
# a loaded value, and a tensor loop `while tl.max(x) > limit` (a reduction in the condition).
@triton.jit
def while_loops(n_ptr, x_ptr, steps_ptr, y_ptr, limit, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(n_ptr + pid)
    steps = 0
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    tl.store(steps_ptr + pid, steps)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    while tl.max(tl.abs(x), 0) > limit:
        x = x * 0.5
    tl.store(y_ptr + offs, x)


# 22: tl.static_range (unrolled) loops, an early return for programs past the end, scalar loads
# and stores, scalar fp16 arithmetic and a pointer advanced in a loop by a runtime stride.
@triton.jit
def static_unroll_scalar(x_ptr, h_ptr, out_ptr, hout_ptr, n_rows, stride, n_steps,
                         TAPS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for t in tl.static_range(TAPS):
        w = (t + 1) * 0.25
        acc += w * tl.load(x_ptr + row * stride + cols + t, mask=cols + t < stride, other=0.0)
    tl.store(out_ptr + row * BLOCK + cols, acc)
    p = h_ptr + row * n_steps
    h = tl.load(p)
    for _ in range(1, n_steps):
        p += 1
        h = h * 0.5 + tl.load(p)
    tl.store(hout_ptr + row, h)


# ============================================================================== third batch (27-37)


# 27: fused attention forward in the form of real varlen / prefix-LM kernels: fp16 Q/K/V with
# head dim 32, BLOCK_M=16, BLOCK_N=32, K loaded as [BLOCK_N, D] rows and transposed with tl.trans,
# an online softmax in base e over a KV loop, a bottom-right aligned causal mask (query i sees keys
# j <= i + N_KV - N_Q) and a per-batch key length loaded from memory, both applied with tl.where;
# the log-sum-exp of every row is stored too (what the backward pass needs).
@triton.jit
def attn_fwd_prefix_f16(q_ptr, k_ptr, v_ptr, kvlen_ptr, o_ptr, lse_ptr, sm_scale, H, N_Q, N_KV,
                        stride_qh, stride_kh, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    kv_len = tl.load(kvlen_ptr + b)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + bh * stride_qh + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=offs_m[:, None] < N_Q, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    q_pos = offs_m + (N_KV - N_Q)
    for start_n in range(0, N_KV, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + bh * stride_kh + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=offs_n[:, None] < N_KV, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        keep = (offs_n[None, :] <= q_pos[:, None]) & (offs_n[None, :] < kv_len)
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.exp(s - m_safe[:, None])
        alpha = tl.exp(m_i - m_safe)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + bh * stride_kh + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=offs_n[:, None] < N_KV, other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + bh * stride_qh + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             acc.to(tl.float16), mask=offs_m[:, None] < N_Q)
    tl.store(lse_ptr + bh * N_Q + offs_m, m_i + tl.log(l_i), mask=offs_m < N_Q)


# 28: layer-norm backward (dx and the partial sums of dw / db): each program walks a strided set of
# rows, recomputes x_hat from the saved mean / rstd, writes dx, keeps per-column partial sums of
# dy * x_hat and dy in registers and finally adds them into dw / db with tl.atomic_add (several
# programs add to the same columns).
@triton.jit
def layer_norm_bwd(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_ptr, db_ptr, n_rows,
                   N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0)
    dw_acc = tl.zeros([BLOCK_N], tl.float32)
    db_acc = tl.zeros([BLOCK_N], tl.float32)
    for row in range(pid, n_rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * N + cols, mask=cmask, other=0.0)
        dy = tl.load(dy_ptr + row * N + cols, mask=cmask, other=0.0)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(cmask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * N + cols, dx, mask=cmask)
        dw_acc += dy * xhat
        db_acc += dy
    tl.atomic_add(dw_ptr + cols, dw_acc, mask=cmask)
    tl.atomic_add(db_ptr + cols, db_acc, mask=cmask)


@triton.jit
def _segsum_combine(f1, v1, f2, v2):
    return f1 | f2, tl.where(f2 != 0, v2, v1 + v2)


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


# 29: tl.associative_scan with user combine functions on rows of 200 (block 256): a segmented
# cumulative sum over (segment-start flag, value) pairs (the combine restarts at a flag), and a
# reverse first-order linear recurrence h_t = a_t * h_{t+1} + x_t (the (a, b) affine combine run
# right to left, as in a discounted return).
@triton.jit
def segmented_scan(flag_ptr, x_ptr, a_ptr, seg_ptr, ret_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    f = tl.load(flag_ptr + row * n + offs, mask=mask, other=1)
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0.0)
    a = tl.load(a_ptr + row * n + offs, mask=mask, other=1.0)
    _, seg = tl.associative_scan((f, x), 0, _segsum_combine)
    tl.store(seg_ptr + row * n + offs, seg, mask=mask)
    _, ret = tl.associative_scan((a, x), 0, _affine_combine, reverse=True)
    tl.store(ret_ptr + row * n + offs, ret, mask=mask)


# 30: split-K matmul: program_id(1) picks every SPLIT_K-th K block (the interleaved split of the
# Triton split-K kernels), the fp32 partial products are accumulated into C with tl.atomic_add;
# masked M / N edges and a K tail.
@triton.jit
def matmul_splitk_atomic(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(pid_k * BLOCK_K, K, BLOCK_K * SPLIT_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc,
                  mask=(rm[:, None] < M) & (rn[None, :] < N))


# 31: batched matmul through 3-D device-side tensor descriptors ([B, M, K] with [1, BM, BK]
# blocks, reshaped to 2-D for tl.dot and back to 3-D for the store) with the tile order remapped
# by tl.swizzle2d on a 2-D program_id grid; fp16 in, fp32 out.
@triton.jit
def desc_bmm_swizzle(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    pid_m0 = tl.program_id(0)
    pid_n0 = tl.program_id(1)
    bat = tl.program_id(2)
    pid_m, pid_n = tl.swizzle2d(pid_m0, pid_n0, tl.num_programs(0), tl.num_programs(1), GROUP)
    B = tl.num_programs(2)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[B, M, K], strides=[M * K, K, 1],
                                       block_shape=[1, BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[B, K, N], strides=[K * N, N, 1],
                                       block_shape=[1, BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[B, M, N], strides=[M * N, N, 1],
                                       block_shape=[1, BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = a_desc.load([bat, pid_m * BLOCK_M, k]).reshape(BLOCK_M, BLOCK_K)
        b = b_desc.load([bat, k, pid_n * BLOCK_N]).reshape(BLOCK_K, BLOCK_N)
        acc = tl.dot(a, b, acc)
    c_desc.store([bat, pid_m * BLOCK_M, pid_n * BLOCK_N], acc.reshape(1, BLOCK_M, BLOCK_N))


# 32: attention-score softmax with an ALiBi bias and a causal mask built with tl.where from row and
# column indices: scores[b, h, i, :] (fp16) -> softmax(scores * scale - slope[h] * (i - j)) over
# j <= i, fp16 probabilities; BLOCK_R rows per program on a 2-D grid.
@triton.jit
def alibi_causal_softmax(s_ptr, slope_ptr, p_ptr, H, T, scale, BLOCK_R: tl.constexpr,
                         BLOCK_T: tl.constexpr):
    pid_r = tl.program_id(0)
    bh = tl.program_id(1)
    h = bh % H
    slope = tl.load(slope_ptr + h)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_T)
    inb = (rows[:, None] < T) & (cols[None, :] < T)
    offs = bh * T * T + rows[:, None] * T + cols[None, :]
    s = tl.load(s_ptr + offs, mask=inb, other=0.0).to(tl.float32)
    dist = (rows[:, None] - cols[None, :]).to(tl.float32)
    z = tl.where(cols[None, :] <= rows[:, None], s * scale - slope * dist, float("-inf"))
    z = z - tl.max(z, axis=1)[:, None]
    e = tl.exp(z)
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(p_ptr + offs, p.to(tl.float16), mask=inb)


# 33: a weighted embedding bag through loaded, masked indices: idx[b, j] (int32, -1 = padding) is
# loaded with a mask, the table rows are gathered with tl.load(table + idx * D + cols) masked by
# idx >= 0, weighted and summed over the bag (tl.sum over axis 0 of a [BLOCK_L, BLOCK_D] tile).
@triton.jit
def masked_bag_gather(idx_ptr, wt_ptr, table_ptr, out_ptr, L, D, BLOCK_L: tl.constexpr,
                      BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    pid_d = tl.program_id(1)
    j = tl.arange(0, BLOCK_L)
    cols = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    jmask = j < L
    idx = tl.load(idx_ptr + bag * L + j, mask=jmask, other=-1)
    wt = tl.load(wt_ptr + bag * L + j, mask=jmask, other=0.0)
    valid = (idx >= 0)[:, None] & (cols[None, :] < D)
    rows = tl.load(table_ptr + idx[:, None].to(tl.int64) * D + cols[None, :], mask=valid,
                   other=0.0)
    tl.store(out_ptr + bag * D + cols, tl.sum(rows * wt[:, None], axis=0), mask=cols < D)


# 34: a mixture-of-experts style gather-scale-scatter with early returns on loaded scalars: the
# program (expert e, token block t) returns at once when expert e received no tokens, or when its
# block starts past the expert's token count; the rest gather token rows through a sorted token id
# list and scatter the scaled rows back.
@triton.jit
def moe_scale_early_return(count_ptr, offset_ptr, tok_ptr, gate_ptr, escale_ptr, x_ptr, out_ptr,
                           D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    e = tl.program_id(0)
    t0 = tl.program_id(1) * BLOCK_T
    count = tl.load(count_ptr + e)
    if count == 0:
        return
    if t0 >= count:
        return
    start = tl.load(offset_ptr + e)
    escale = tl.load(escale_ptr + e)
    t = t0 + tl.arange(0, BLOCK_T)
    tmask = t < count
    tok = tl.load(tok_ptr + start + t, mask=tmask, other=0)
    g = tl.load(gate_ptr + start + t, mask=tmask, other=0.0) * escale
    cols = tl.arange(0, BLOCK_D)
    m2 = tmask[:, None] & (cols[None, :] < D)
    x = tl.load(x_ptr + tok[:, None] * D + cols[None, :], mask=m2, other=0.0)
    tl.store(out_ptr + tok[:, None] * D + cols[None, :], x * g[:, None], mask=m2)


# 35: integer hashing with wrapping int32 arithmetic (an LCG step x * 1103515245 + 12345, xor
# shifts, a logical shift on the uint32 view, a murmur-style finaliser), unsigned division,
# remainder and comparison on the uint32 view, and Philox random numbers:
# tl.randint (raw uint32), tl.rand (uniform), tl.randn (normal, Box-Muller) from a runtime seed.
@triton.jit
def hash_and_philox(x_ptr, h_ptr, uq_ptr, ur_ptr, ri_ptr, ru_ptr, rn_ptr, n, seed,
                    BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = x * 1103515245 + 12345
    h = h ^ (h >> 16)
    u = h.to(tl.uint32, bitcast=True)
    u = (u ^ (u >> 13)) * 0x5BD1E995
    u = u ^ (u >> 15)
    tl.store(h_ptr + offs, u.to(tl.int32, bitcast=True) ^ (x << 7), mask=mask)
    ux = x.to(tl.uint32, bitcast=True)
    tl.store(uq_ptr + offs, (ux // 1000003).to(tl.int32, bitcast=True), mask=mask)
    tl.store(ur_ptr + offs, (ux % 7919 + (ux > 3000000000).to(tl.uint32) * 10000).to(tl.int32),
             mask=mask)
    r = tl.randint(seed, offs)
    tl.store(ri_ptr + offs, r.to(tl.int32, bitcast=True), mask=mask)
    tl.store(ru_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(rn_ptr + offs, tl.randn(seed + 1, offs), mask=mask)


# 36: shape manipulation in registers: a [512] block reshaped to [8, 4, 16], tl.permute'd to
# [16, 8, 4], reshaped to [16, 32] and tl.trans'posed to [32, 16]; position-dependent arithmetic
# between the steps (so any layout mistake shows), a reduction over a permuted axis and a 3-D
# tl.trans with explicit dims.
@triton.jit
def reshape_permute_trans(x_ptr, y_ptr, r_ptr, z_ptr):
    offs = tl.arange(0, 512)
    x = tl.load(x_ptr + offs)
    a = tl.reshape(x, (8, 4, 16))
    i16 = tl.arange(0, 16)
    a = a + i16[None, None, :].to(tl.float32) * 0.5
    p = tl.permute(a, (2, 0, 1))                                        # [16, 8, 4]
    p = p * (tl.arange(0, 4)[None, None, :] + 1).to(tl.float32)
    tl.store(r_ptr + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :], tl.sum(p, axis=2))
    m = tl.trans(tl.reshape(p, (16, 32)))                               # [32, 16]
    m = m - tl.arange(0, 32)[:, None].to(tl.float32)
    tl.store(y_ptr + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :], m)
    t3 = tl.trans(a, 1, 0, 2)                                           # [4, 8, 16]
    tl.store(z_ptr + tl.arange(0, 4)[:, None, None] * 128 + tl.arange(0, 8)[None, :, None] * 16
             + tl.arange(0, 16)[None, None, :], t3)


# 37: rotary position embedding on interleaved (even, odd) pairs: a [BLOCK_T, D] fp16 tile is
# reshaped to [BLOCK_T, D/2, 2] and tl.split into the pair halves, rotated by cos / sin, put back
# together with tl.join + reshape; a second output stores tl.interleave(y_odd, y_even) (the pairs
# swapped). Rows of the position table are selected by a position id loaded per token.
@triton.jit
def rope_split_join(x_ptr, pos_ptr, cos_ptr, sin_ptr, y_ptr, ys_ptr, T, HALF: tl.constexpr,
                    BLOCK_T: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = t < T
    D: tl.constexpr = 2 * HALF
    dcol = tl.arange(0, D)
    x = tl.load(x_ptr + t[:, None] * D + dcol[None, :], mask=tmask[:, None], other=0.0)
    x = x.to(tl.float32)
    pos = tl.load(pos_ptr + t, mask=tmask, other=0)
    hcol = tl.arange(0, HALF)
    c = tl.load(cos_ptr + pos[:, None] * HALF + hcol[None, :], mask=tmask[:, None], other=1.0)
    s = tl.load(sin_ptr + pos[:, None] * HALF + hcol[None, :], mask=tmask[:, None], other=0.0)
    x_even, x_odd = tl.split(tl.reshape(x, (BLOCK_T, HALF, 2)))
    y_even = x_even * c - x_odd * s
    y_odd = x_even * s + x_odd * c
    y = tl.reshape(tl.join(y_even, y_odd), (BLOCK_T, D))
    tl.store(y_ptr + t[:, None] * D + dcol[None, :], y.to(tl.float16), mask=tmask[:, None])
    ys = tl.interleave(y_odd, y_even)
    tl.store(ys_ptr + t[:, None] * D + dcol[None, :], ys.to(tl.float16), mask=tmask[:, None])


# 38: the values atomics return: tl.atomic_add (f32), tl.atomic_max (i32), tl.atomic_cas,
# tl.atomic_xchg, tl.atomic_and / or / xor (i32) on distinct addresses (each touched by one lane of
# one program, so the old values are deterministic); the old values are stored and reused.
@triton.jit
def atomic_old_values(acc_ptr, x_ptr, m_ptr, flag_ptr, xchg_ptr, bits_ptr, old_f_ptr, old_i_ptr,
                      n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    old_acc = tl.atomic_add(acc_ptr + offs, x, mask=mask)
    old_m = tl.atomic_max(m_ptr + offs, (x * 100.0).to(tl.int32), mask=mask)
    tl.store(old_f_ptr + offs * 2, old_acc * 2.0, mask=mask)
    tl.store(old_f_ptr + offs * 2 + 1, old_m.to(tl.float32), mask=mask)
    old_flag = tl.atomic_cas(flag_ptr + offs, offs % 3, offs + 100)   # no mask: flag has room
    old_x = tl.atomic_xchg(xchg_ptr + offs, old_flag, mask=mask)
    b = tl.atomic_and(bits_ptr + offs, 0x0FF0, mask=mask)
    b = b + tl.atomic_or(bits_ptr + n + offs, 0x1001, mask=mask)
    b = b + tl.atomic_xor(bits_ptr + 2 * n + offs, offs, mask=mask)
    tl.store(old_i_ptr + offs * 3, old_flag, mask=mask)
    tl.store(old_i_ptr + offs * 3 + 1, old_x, mask=mask)
    tl.store(old_i_ptr + offs * 3 + 2, b, mask=mask)


# 39: the tutorial matmul with the block sizes its autotune configs (and most real matmul kernels)
# use: 128x128 output tiles, BLOCK_K=64, GROUP_M=8, fp16 in, fp32 accumulate, fp16 out.
@triton.jit
def matmul_block128(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    group_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % group_m
    pid_n = (pid % group) // group_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# 40: a lane-by-lane choice between two source buffers (even lanes from x, odd lanes from y, a
# masked tail): tensors of pointers from an `arith.select`, which only an indexed gather can read.
@triton.jit
def interleave_sources(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ptrs = tl.where(offs % 2 == 0, x_ptr + offs, y_ptr + offs)
    tl.store(z_ptr + offs, tl.load(ptrs, mask=mask, other=0.0) * 2.0, mask=mask)


# 41: a residual block `x @ w + x` in fp16: the loaded x is an operand of the dot and of the
# elementwise add, so two units share it.
@triton.jit
def dot_residual(x_ptr, w_ptr, y_ptr, M, D: tl.constexpr, BLOCK_M: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    mask = rm[:, None] < M
    x = tl.load(x_ptr + rm[:, None] * D + rd[None, :], mask=mask, other=0.0)
    w = tl.load(w_ptr + rd[:, None] * D + rd[None, :])
    y = tl.dot(x, w) + x.to(tl.float32)
    tl.store(y_ptr + rm[:, None] * D + rd[None, :], y.to(tl.float16), mask=mask)


# 42: rows of a matrix whose length (781 floats) keeps them off the DMA's 32-byte alignment, read
# at a column offset and written transposed: each program scales a 16x64 window by a row maximum.
@triton.jit
def unaligned_rows_window(x_ptr, y_ptr, rows, cols, col0, BLOCK_R: tl.constexpr,
                          BLOCK_C: tl.constexpr):
    rr = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    rc = col0 + tl.arange(0, BLOCK_C)
    mask = (rr[:, None] < rows) & (rc[None, :] < cols)
    x = tl.load(x_ptr + rr[:, None] * cols + rc[None, :], mask=mask, other=0.0)
    scaled = x / tl.max(tl.abs(x), axis=1, keep_dims=True)
    tl.store(y_ptr + (rc[None, :] - col0) * rows + rr[:, None], scaled, mask=mask)
