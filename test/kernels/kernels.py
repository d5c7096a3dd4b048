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
