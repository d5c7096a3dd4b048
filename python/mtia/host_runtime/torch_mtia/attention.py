"""Scaled dot-product attention on the simulated chip: flash-attention Triton
kernels, forward and backward, for what `scaled_dot_product_attention`
computes (PyTorch's math backend is the reference): any batch, heads and
sequence lengths (queries and keys apart), any head dimension (blocks of the
next power of two, masked), keys and values shared by groups of query heads
(grouped-query attention), a causal mask aligned to the top left (query i
sees keys 0..i), an additive bias of any shape that broadcasts to the scores
(a boolean mask becomes one, as PyTorch converts it), any scale. A row whose
every score is masked gives zeros, as the math backend's safe softmax does.

The kernels are PyTorch operators (`torch.ops.mtia_compiler.attention` and
`attention_backward`, `torch.library.triton_op`s): the runtime calls them
for the attention of `mtia` tensors (PyTorch's "overrideable" attention
backend), and `mtia_compiler.torch.compile` decomposes attention into them on
either device, so Inductor compiles their kernels into its graphs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton
from torch.utils.flop_counter import (
    register_flop_formula,
    sdpa_backward_flop_count,
    sdpa_flop_count,
)

#: log2(e): the kernels take exponentials in base 2 of scores scaled by it.
LOG2E = 1.4426950408889634
#: The largest blocks of queries and keys a program takes.
MAX_BLOCK = 64
#: The smallest block of any dimension (the DPE's smallest operand).
MIN_BLOCK = 16


@triton.jit
def _scores(q, k_ptr, bias_ptr, rows, cols, dims, skn, skd, sbm, sbn, L, S, D, scale,
            HAS_BIAS: tl.constexpr, CAUSAL: tl.constexpr):
    """The scores of a block of queries `q` (rows) against a block of keys
    (cols) in base 2: (q k^T * scale + bias) * log2(e), -inf where masked
    (past the sequences, or above the diagonal when causal)."""
    k = tl.load(k_ptr + cols[:, None] * skn + dims[None, :] * skd,
                mask=(cols[:, None] < S) & (dims[None, :] < D), other=0.0)
    s = tl.dot(q, tl.trans(k), input_precision="ieee") * scale
    if HAS_BIAS:
        s += tl.load(bias_ptr + rows[:, None] * sbm + cols[None, :] * sbn,
                     mask=(rows[:, None] < L) & (cols[None, :] < S), other=0.0).to(tl.float32)
    valid = cols[None, :] < S
    if CAUSAL:
        valid = valid & (cols[None, :] <= rows[:, None])
    return tl.where(valid, s * 1.4426950408889634, float("-inf"))


@triton.jit
def _attention_kernel(q_ptr, k_ptr, v_ptr, bias_ptr, out_ptr, lse_ptr,
                      sqb, sqh, sqm, sqd, skb, skh, skn, skd, svb, svh, svn, svd,
                      sbb, sbh, sbm, sbn, sob, soh, som, sod,
                      HEADS, GROUP, L, S, D, DV, scale,
                      HAS_BIAS: tl.constexpr, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr):
    """One block of queries of one head per program (grid: query blocks,
    batch * heads): the online softmax over the key blocks, then the output
    and each row's log-sum-exp (natural, f32, (batch, heads, L) contiguous)."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    batch = tl.program_id(1) // HEADS
    head = tl.program_id(1) % HEADS
    kv_head = head // GROUP
    dims = tl.arange(0, BLOCK_D)
    value_dims = tl.arange(0, BLOCK_DV)
    q = tl.load(q_ptr + batch * sqb + head * sqh + rows[:, None] * sqm + dims[None, :] * sqd,
                mask=(rows[:, None] < L) & (dims[None, :] < D), other=0.0)
    k_base = k_ptr + batch * skb + kv_head * skh
    v_base = v_ptr + batch * svb + kv_head * svh
    bias_base = bias_ptr + batch * sbb + head * sbh
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.float32)
    end = tl.minimum(S, (tl.program_id(0) + 1) * BLOCK_M) if CAUSAL else S
    for start in range(0, end, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        s = _scores(q, k_base, bias_base, rows, cols, dims, skn, skd, sbm, sbn, L, S, D, scale,
                    HAS_BIAS, CAUSAL)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        # A row with no unmasked score yet keeps its sums at zero.
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.math.exp2(m_i - m_safe)
        p = tl.math.exp2(s - m_safe[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + cols[:, None] * svn + value_dims[None, :] * svd,
                    mask=(cols[:, None] < S) & (value_dims[None, :] < DV), other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision="ieee")
        m_i = m_new
    seen = l_i > 0.0
    out = acc / tl.where(seen, l_i, 1.0)[:, None]
    tl.store(out_ptr + batch * sob + head * soh + rows[:, None] * som
             + value_dims[None, :] * sod, out.to(out_ptr.dtype.element_ty),
             mask=(rows[:, None] < L) & (value_dims[None, :] < DV))
    lse = tl.where(seen, (m_i + tl.math.log2(tl.where(seen, l_i, 1.0))) * 0.6931471805599453,
                   0.0)
    tl.store(lse_ptr + tl.program_id(1) * L + rows, lse, mask=rows < L)


@triton.jit
def _attention_delta_kernel(out_ptr, grad_ptr, delta_ptr, sob, soh, som, sod,
                            sgb, sgh, sgm, sgd, HEADS, L, DV,
                            BLOCK_M: tl.constexpr, BLOCK_DV: tl.constexpr):
    """delta = rowsum(dO * O) of one block of rows of one head per program,
    f32, (batch, heads, L) contiguous: the backward's correction of dP."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    batch = tl.program_id(1) // HEADS
    head = tl.program_id(1) % HEADS
    dims = tl.arange(0, BLOCK_DV)
    mask = (rows[:, None] < L) & (dims[None, :] < DV)
    out = tl.load(out_ptr + batch * sob + head * soh + rows[:, None] * som + dims[None, :] * sod,
                  mask=mask, other=0.0).to(tl.float32)
    grad = tl.load(grad_ptr + batch * sgb + head * sgh + rows[:, None] * sgm
                   + dims[None, :] * sgd, mask=mask, other=0.0).to(tl.float32)
    tl.store(delta_ptr + tl.program_id(1) * L + rows, tl.sum(out * grad, 1), mask=rows < L)


@triton.jit
def _attention_key_grad_kernel(q_ptr, k_ptr, v_ptr, bias_ptr, grad_ptr, lse_ptr, delta_ptr,
                               dk_ptr, dv_ptr,
                               sqb, sqh, sqm, sqd, skb, skh, skn, skd, svb, svh, svn, svd,
                               sbb, sbh, sbm, sbn, sgb, sgh, sgm, sgd, slb, slh, slm,
                               HEADS, GROUP, L, S, D, DV, scale,
                               HAS_BIAS: tl.constexpr, CAUSAL: tl.constexpr,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                               BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr):
    """The gradients of one block of keys and values of one key head per
    program (grid: key blocks, batch * key heads), summed over the query
    heads that share them and every query block that sees them:
    dV = P^T dO, dK = (P * (dO V^T - delta))^T Q * scale. dK and dV are
    contiguous (batch, key heads, S, D or DV), of the keys' and values' types."""
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    batch = tl.program_id(1) // (HEADS // GROUP)
    kv_head = tl.program_id(1) % (HEADS // GROUP)
    dims = tl.arange(0, BLOCK_D)
    value_dims = tl.arange(0, BLOCK_DV)
    k_base = k_ptr + batch * skb + kv_head * skh
    v = tl.load(v_ptr + batch * svb + kv_head * svh + cols[:, None] * svn
                + value_dims[None, :] * svd,
                mask=(cols[:, None] < S) & (value_dims[None, :] < DV), other=0.0)
    dk = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, BLOCK_DV], dtype=tl.float32)
    # Causal: the query blocks from the one holding this block's first key.
    first = (tl.program_id(0) * BLOCK_N) // BLOCK_M if CAUSAL else 0
    blocks = tl.cdiv(L, BLOCK_M) - first
    for step in range(0, GROUP * blocks):
        head = kv_head * GROUP + step // blocks
        rows = (first + step % blocks) * BLOCK_M + tl.arange(0, BLOCK_M)
        row_mask = rows < L
        q = tl.load(q_ptr + batch * sqb + head * sqh + rows[:, None] * sqm
                    + dims[None, :] * sqd,
                    mask=row_mask[:, None] & (dims[None, :] < D), other=0.0)
        grad = tl.load(grad_ptr + batch * sgb + head * sgh + rows[:, None] * sgm
                       + value_dims[None, :] * sgd,
                       mask=row_mask[:, None] & (value_dims[None, :] < DV), other=0.0)
        lse = tl.load(lse_ptr + batch * slb + head * slh + rows * slm, mask=row_mask, other=0.0)
        delta = tl.load(delta_ptr + (batch * HEADS + head) * L + rows, mask=row_mask, other=0.0)
        s = _scores(q, k_base, bias_ptr + batch * sbb + head * sbh, rows, cols, dims, skn, skd,
                    sbm, sbn, L, S, D, scale, HAS_BIAS, CAUSAL)
        p = tl.math.exp2(s - lse[:, None] * 1.4426950408889634)
        dv += tl.dot(tl.trans(p).to(grad.dtype), grad, input_precision="ieee")
        dp = tl.dot(grad, tl.trans(v), input_precision="ieee")
        ds = p * (dp - delta[:, None])
        dk += tl.dot(tl.trans(ds).to(q.dtype), q, input_precision="ieee")
    heads_col = (batch * (HEADS // GROUP) + kv_head) * S + cols
    tl.store(dk_ptr + heads_col[:, None] * D + dims[None, :],
             (dk * scale).to(dk_ptr.dtype.element_ty),
             mask=(cols[:, None] < S) & (dims[None, :] < D))
    tl.store(dv_ptr + heads_col[:, None] * DV + value_dims[None, :],
             dv.to(dv_ptr.dtype.element_ty),
             mask=(cols[:, None] < S) & (value_dims[None, :] < DV))


@triton.jit
def _attention_query_grad_kernel(q_ptr, k_ptr, v_ptr, bias_ptr, grad_ptr, lse_ptr, delta_ptr,
                                 dq_ptr, ds_ptr,
                                 sqb, sqh, sqm, sqd, skb, skh, skn, skd, svb, svh, svn, svd,
                                 sbb, sbh, sbm, sbn, sgb, sgh, sgm, sgd, slb, slh, slm,
                                 HEADS, GROUP, L, S, D, DV, scale,
                                 HAS_BIAS: tl.constexpr, CAUSAL: tl.constexpr,
                                 STORE_DS: tl.constexpr, BLOCK_M: tl.constexpr,
                                 BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
                                 BLOCK_DV: tl.constexpr):
    """The gradient of one block of queries of one head per program (grid:
    query blocks, batch * heads): dQ = (P * (dO V^T - delta)) K * scale,
    contiguous (batch, heads, L, D), of the queries' type; with STORE_DS, also the scores'
    gradient dS = P * (dO V^T - delta) (the bias's, before it is summed over
    what the bias broadcasts), contiguous (batch, heads, L, S), f32."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    batch = tl.program_id(1) // HEADS
    head = tl.program_id(1) % HEADS
    kv_head = head // GROUP
    dims = tl.arange(0, BLOCK_D)
    value_dims = tl.arange(0, BLOCK_DV)
    row_mask = rows < L
    q = tl.load(q_ptr + batch * sqb + head * sqh + rows[:, None] * sqm + dims[None, :] * sqd,
                mask=row_mask[:, None] & (dims[None, :] < D), other=0.0)
    grad = tl.load(grad_ptr + batch * sgb + head * sgh + rows[:, None] * sgm
                   + value_dims[None, :] * sgd,
                   mask=row_mask[:, None] & (value_dims[None, :] < DV), other=0.0)
    heads_row = tl.program_id(1) * L + rows
    lse = tl.load(lse_ptr + batch * slb + head * slh + rows * slm, mask=row_mask, other=0.0)
    delta = tl.load(delta_ptr + heads_row, mask=row_mask, other=0.0)
    k_base = k_ptr + batch * skb + kv_head * skh
    v_base = v_ptr + batch * svb + kv_head * svh
    dq = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    # Every key block when the scores' gradient is stored (it is zero past
    # the diagonal); else, causal, the blocks up to the diagonal.
    end = tl.minimum(S, (tl.program_id(0) + 1) * BLOCK_M) if CAUSAL and not STORE_DS else S
    for start in range(0, end, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        s = _scores(q, k_base, bias_ptr + batch * sbb + head * sbh, rows, cols, dims, skn, skd,
                    sbm, sbn, L, S, D, scale, HAS_BIAS, CAUSAL)
        p = tl.math.exp2(s - lse[:, None] * 1.4426950408889634)
        v = tl.load(v_base + cols[:, None] * svn + value_dims[None, :] * svd,
                    mask=(cols[:, None] < S) & (value_dims[None, :] < DV), other=0.0)
        dp = tl.dot(grad, tl.trans(v), input_precision="ieee")
        ds = p * (dp - delta[:, None])
        if STORE_DS:
            tl.store(ds_ptr + heads_row[:, None] * S + cols[None, :], ds,
                     mask=row_mask[:, None] & (cols[None, :] < S))
        k = tl.load(k_base + cols[:, None] * skn + dims[None, :] * skd,
                    mask=(cols[:, None] < S) & (dims[None, :] < D), other=0.0)
        dq += tl.dot(ds.to(k.dtype), k, input_precision="ieee")
    tl.store(dq_ptr + heads_row[:, None] * D + dims[None, :],
             (dq * scale).to(dq_ptr.dtype.element_ty),
             mask=row_mask[:, None] & (dims[None, :] < D))


@triton.jit
def _attention_bias_grad_kernel(ds_ptr, out_ptr, B, H, L, S, sob, soh, som, son,
                      KEEP_BATCH: tl.constexpr, KEEP_HEADS: tl.constexpr,
                      KEEP_ROWS: tl.constexpr, KEEP_COLS: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """A bias's gradient: the scores' gradient `ds` (contiguous f32 (B, H,
    L, S)) summed over the dimensions the bias broadcasts (those not KEEP_),
    stored through the bias's strides (`out`, of the bias's type). Grid: the
    kept rows' blocks, the kept columns' blocks, the kept batches * heads;
    one loop runs over the reduced batches, heads, row blocks and column
    blocks."""
    kept_heads = H if KEEP_HEADS else 1
    batch0 = tl.program_id(2) // kept_heads
    head0 = tl.program_id(2) % kept_heads
    batches = 1 if KEEP_BATCH else B
    heads = 1 if KEEP_HEADS else H
    row_blocks = 1 if KEEP_ROWS else tl.cdiv(L, BLOCK_M)
    col_blocks = 1 if KEEP_COLS else tl.cdiv(S, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for step in range(0, batches * heads * row_blocks * col_blocks):
        col_block = step % col_blocks
        row_block = (step // col_blocks) % row_blocks
        head = (step // (col_blocks * row_blocks)) % heads
        batch = step // (col_blocks * row_blocks * heads)
        batch = batch0 if KEEP_BATCH else batch
        head = head0 if KEEP_HEADS else head
        row_block = tl.program_id(0) if KEEP_ROWS else row_block
        col_block = tl.program_id(1) if KEEP_COLS else col_block
        rows = row_block * BLOCK_M + tl.arange(0, BLOCK_M)
        cols = col_block * BLOCK_N + tl.arange(0, BLOCK_N)
        acc += tl.load(ds_ptr + ((batch * H + head) * L + rows[:, None]) * S + cols[None, :],
                       mask=(rows[:, None] < L) & (cols[None, :] < S), other=0.0)
    base = out_ptr + batch0 * sob + head0 * soh
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    element = out_ptr.dtype.element_ty
    if KEEP_ROWS and KEEP_COLS:
        tl.store(base + rows[:, None] * som + cols[None, :] * son, acc.to(element),
                 mask=(rows[:, None] < L) & (cols[None, :] < S))
    elif KEEP_COLS:
        tl.store(base + cols * son, tl.sum(acc, 0).to(element), mask=cols < S)
    elif KEEP_ROWS:
        tl.store(base + rows * som, tl.sum(acc, 1).to(element), mask=rows < L)
    else:
        tl.store(base, tl.sum(tl.sum(acc, 1), 0).to(element))


def bias_gradient(scores_grad: torch.Tensor, bias: torch.Tensor, out: torch.Tensor) -> None:
    """out (of `bias`'s shape) = the scores' gradient (contiguous f32
    (batch, heads, L, S)) summed over what `bias` broadcasts."""
    batch, heads, length, source = scores_grad.shape
    expanded = out.expand(batch, heads, length, source)
    # The bias's sizes aligned to the scores' dimensions from the right.
    sizes = (1,) * (4 - bias.dim()) + tuple(bias.shape)
    kept = [sizes[dim] == scores_grad.shape[dim] for dim in range(4)]
    block_m = _block(length) if kept[2] else MAX_BLOCK
    block_n = _block(source) if kept[3] else MAX_BLOCK
    grid = (triton.cdiv(length, block_m) if kept[2] else 1,
            triton.cdiv(source, block_n) if kept[3] else 1,
            (batch if kept[0] else 1) * (heads if kept[1] else 1))
    wrap_triton(_attention_bias_grad_kernel)[grid](
        scores_grad, expanded, batch, heads, length, source, *expanded.stride(),
        KEEP_BATCH=kept[0], KEEP_HEADS=kept[1], KEEP_ROWS=kept[2], KEEP_COLS=kept[3],
        BLOCK_M=block_m, BLOCK_N=block_n)


def attention_runs_as_kernel(types: Sequence[torch.dtype], mask_type: torch.dtype | None,
                             dropout_p: float) -> bool:
    """Whether the attention operators take a call whose query, key and
    value have `types` and whose mask has `mask_type` (None without one):
    one floating type the kernels support, an additive mask (a boolean one
    is converted first), no dropout."""
    from mtia.host_runtime.torch_mtia.kernels import FLOAT_TYPES

    return (dropout_p == 0.0 and types[0] in FLOAT_TYPES
            and all(t == types[0] for t in types) and mask_type != torch.bool)


def _block(size: int) -> int:
    """A block of queries or keys of a sequence of `size`: the next power of
    two, within the blocks the kernels take."""
    return max(MIN_BLOCK, min(MAX_BLOCK, triton.next_power_of_2(size)))


def _head_block(size: int) -> int:
    """The block of a head dimension of `size`: all of it, in the next power
    of two."""
    return max(MIN_BLOCK, triton.next_power_of_2(size))


def _scale(query: torch.Tensor, scale: float | None) -> float:
    return 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)


def _scores_bias(bias: torch.Tensor | None, query: torch.Tensor,
                 key: torch.Tensor) -> tuple[torch.Tensor, tuple[int, ...]]:
    """`bias` broadcast to the scores (batch, heads, L, S), and its strides
    (0 along what it broadcasts). Without a bias, the query and strides 0:
    the kernels compute the bias's addresses but read none."""
    if bias is None:
        return query, (0, 0, 0, 0)
    expanded = bias.expand(*query.shape[:3], key.shape[2])
    return expanded, expanded.stride()


def _launch_shape(query: torch.Tensor, key: torch.Tensor,
                  value: torch.Tensor) -> tuple[int, int, int, int, int, int]:
    """(heads, group, L, S, D, DV): the query heads, the query heads per key
    head, the sequence lengths and the head dimensions of the keys and the
    values."""
    heads, length, dim = query.shape[1:]
    return (heads, heads // key.shape[1], length, key.shape[2], dim, value.shape[3])


def attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
              bias: torch.Tensor | None, causal: bool, scale: float | None,
              out: torch.Tensor, lse: torch.Tensor) -> None:
    """out = softmax(query key^T * scale + bias, causal) value, and lse the
    log-sum-exp of each row of scores (0 for a row whose scores are all
    masked): query (batch, heads, L, D), key (batch, key heads, S, D), value
    (batch, key heads, S, DV), any strides; `out` of the output's shape in
    any layout; `lse` contiguous f32 (batch, heads, L)."""
    batch = query.shape[0]
    heads, group, length, source, dim, value_dim = _launch_shape(query, key, value)
    expanded, bias_strides = _scores_bias(bias, query, key)
    block_m = _block(length)
    grid = (triton.cdiv(length, block_m), batch * heads)
    wrap_triton(_attention_kernel)[grid](
        query, key, value, expanded, out, lse, *query.stride(), *key.stride(), *value.stride(),
        *bias_strides, *out.stride(), heads, group, length, source, dim, value_dim,
        _scale(query, scale), HAS_BIAS=bias is not None, CAUSAL=causal, BLOCK_M=block_m,
        BLOCK_N=_block(source), BLOCK_D=_head_block(dim), BLOCK_DV=_head_block(value_dim))


def _gradients_of(*tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Contiguous tensors of the shapes and types of `tensors`, for their
    gradients."""
    return tuple(torch.empty(*t.shape, dtype=t.dtype, device=t.device) for t in tensors)


def attention_backward(grad: torch.Tensor, query: torch.Tensor, key: torch.Tensor,
                       value: torch.Tensor, bias: torch.Tensor | None, out: torch.Tensor,
                       lse: torch.Tensor, causal: bool, scale: float | None,
                       scores_grad: torch.Tensor | None,
                       ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The gradients of the query, key and value (contiguous, of their
    types) from the output's, `out` and `lse` of `attention` (`lse` in any
    layout); with
    `scores_grad` (contiguous f32 (batch, heads, L, S)), also the gradient of
    the scores, which is the bias's before it is summed over what the bias
    broadcasts."""
    batch = query.shape[0]
    heads, group, length, source, dim, value_dim = _launch_shape(query, key, value)
    expanded, bias_strides = _scores_bias(bias, query, key)
    block_m, block_n = _block(length), _block(source)
    block_d, block_dv = _head_block(dim), _head_block(value_dim)
    device = query.device
    delta = torch.empty(batch, heads, length, dtype=torch.float32, device=device)
    rows_grid = (triton.cdiv(length, block_m), batch * heads)
    wrap_triton(_attention_delta_kernel)[rows_grid](
        out, grad, delta, *out.stride(), *grad.stride(), heads, length, value_dim,
        BLOCK_M=block_m, BLOCK_DV=block_dv)
    grad_query, grad_key, grad_value = _gradients_of(query, key, value)
    common = (*query.stride(), *key.stride(), *value.stride(), *bias_strides, *grad.stride(),
              *lse.stride(), heads, group, length, source, dim, value_dim, _scale(query, scale))
    blocks = {"HAS_BIAS": bias is not None, "CAUSAL": causal, "BLOCK_M": block_m,
              "BLOCK_N": block_n, "BLOCK_D": block_d, "BLOCK_DV": block_dv}
    wrap_triton(_attention_key_grad_kernel)[(triton.cdiv(source, block_n),
                                             batch * key.shape[1])](
        query, key, value, expanded, grad, lse, delta, grad_key, grad_value, *common, **blocks)
    wrap_triton(_attention_query_grad_kernel)[rows_grid](
        query, key, value, expanded, grad, lse, delta, grad_query, scores_grad, *common,
        STORE_DS=scores_grad is not None, **blocks)
    return grad_query, grad_key, grad_value


def _attention_outputs(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                       *options: object) -> tuple[torch.Tensor, torch.Tensor]:
    """The output and log-sum-exp `attention_operator` allocates (also its
    fake implementation: the operators' shapes may be symbolic in a graph)."""
    out = torch.empty(*query.shape[:3], value.shape[3], dtype=query.dtype,
                      device=query.device)
    return out, torch.empty(query.shape[:3], dtype=torch.float32, device=query.device)


@triton_op("mtia_compiler::attention", mutates_args={})
def attention_operator(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                       bias: torch.Tensor | None, causal: bool,
                       scale: float | None) -> tuple[torch.Tensor, torch.Tensor]:
    """(output, log-sum-exp) of attention (see `attention`); the output is
    contiguous, the log-sum-exp contiguous f32 (batch, heads, L)."""
    out, lse = _attention_outputs(query, key, value)
    attention(query, key, value, bias, causal, scale, out, lse)
    return out, lse


def _bias_grad_output(query: torch.Tensor, bias: torch.Tensor | None,
                      bias_grad: bool) -> torch.Tensor:
    """The bias's gradient `attention_backward_operator` returns when it is
    asked for it, else an empty tensor (also its fake implementation's)."""
    if bias_grad and bias is not None:
        return torch.empty(bias.shape, dtype=bias.dtype, device=bias.device)
    return torch.empty(0, dtype=query.dtype, device=query.device)


@triton_op("mtia_compiler::attention_backward", mutates_args={})
def attention_backward_operator(
        grad: torch.Tensor, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
        bias: torch.Tensor | None, out: torch.Tensor, lse: torch.Tensor, causal: bool,
        scale: float | None, bias_grad: bool,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The gradients of attention's query, key and value (contiguous, of
    their types) and, with `bias_grad`, of its bias (summed to the bias's
    shape; empty otherwise)."""
    scores_grad = torch.empty(*query.shape[:3], key.shape[2], dtype=torch.float32,
                              device=query.device) if bias_grad else None
    grads = attention_backward(grad, query, key, value, bias, out, lse, causal, scale,
                               scores_grad)
    grad_bias = _bias_grad_output(query, bias, bias_grad)
    if scores_grad is not None and bias is not None:
        bias_gradient(scores_grad, bias, grad_bias)
    return (*grads, grad_bias)


def _attention_backward_fake(grad: torch.Tensor, query: torch.Tensor, key: torch.Tensor,
                             value: torch.Tensor, bias: torch.Tensor | None, out: torch.Tensor,
                             lse: torch.Tensor, causal: bool, scale: float | None,
                             bias_grad: bool,
                             ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    grad_query, grad_key, grad_value = _gradients_of(query, key, value)
    return grad_query, grad_key, grad_value, _bias_grad_output(query, bias, bias_grad)


attention_operator.register_fake(_attention_outputs)
attention_backward_operator.register_fake(_attention_backward_fake)


@register_flop_formula(torch.ops.mtia_compiler.attention)
def _attention_flops(query_shape: torch.Size, key_shape: torch.Size, value_shape: torch.Size,
                     *args: object, out_shape: object = None, **kwargs: object) -> int:
    """The FLOPs of attention, as PyTorch's flop counter counts them for
    `scaled_dot_product_attention` (the two products)."""
    return sdpa_flop_count(query_shape, key_shape, value_shape)


@register_flop_formula(torch.ops.mtia_compiler.attention_backward)
def _attention_backward_flops(grad_shape: torch.Size, query_shape: torch.Size,
                              key_shape: torch.Size, value_shape: torch.Size, *args: object,
                              out_shape: object = None, **kwargs: object) -> int:
    return sdpa_backward_flop_count(grad_shape, query_shape, key_shape, value_shape)
