"""@triton.jit kernels of the backend tests (in a file of their own: Triton
reads a kernel's source, and the error-location tests name these lines)."""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, stride, factor, BLOCK: tl.constexpr = 64,
                 SHIFT: tl.constexpr = 0.5):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets * stride, mask=mask)
    tl.store(out_ptr + offsets, x * factor + SHIFT, mask=mask)


@triton.jit(do_not_specialize=["n"])
def fill_kernel(out_ptr, n, value, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.full((BLOCK,), value, tl.int32), mask=offsets < n)


@triton.jit
def tuple_kernel(pointers, sizes, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < sizes[0]
    a = tl.load(pointers[0] + offsets, mask=mask)
    b = tl.load(pointers[1] + offsets, mask=mask)
    tl.store(pointers[2] + offsets, a * b + sizes[1], mask=mask)


@triton.jit
def optional_bias_kernel(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    if bias_ptr is not None:
        x += tl.load(bias_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x, mask=mask)


@triton.jit
def descriptor_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    block = in_desc.load([row, col])
    out_desc.store([row, col], block * 2 + 1)


@triton.jit
def shifted_descriptor_kernel(in_desc, out_desc, shift, BM: tl.constexpr, BN: tl.constexpr):
    # Each block copies the rows `shift` above its own, as it loads them.
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    out_desc.store([row, col], in_desc.load([row - shift, col]))


@triton.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x = ", x)


@triton.jit
def inline_asm_kernel(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                  is_pure=True, pack=1)
    tl.store(x_ptr + offsets, y)


@triton.jit
def unmasked_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))


# Blocks of ROWS x 64 elements, each sorted whole by its program. The config
# with ASSEMBLY passes the sums through GPU assembly first, which no unit of
# the chip runs: it does not compile.
@triton.autotune(configs=[triton.Config({"ROWS": rows, "COLS": 64, "ASSEMBLY": assembly})
                          for rows, assembly in ((1, False), (4, False), (4, True))],
                 key=["n"])
@triton.jit
def autotuned_sort_kernel(x_ptr, y_ptr, out_ptr, n, ROWS: tl.constexpr, COLS: tl.constexpr,
                          ASSEMBLY: tl.constexpr):
    offsets = tl.program_id(0) * ROWS * COLS + tl.arange(0, ROWS * COLS)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=float("inf"))
    y = tl.load(y_ptr + offsets, mask=mask)
    sums = x + y
    if ASSEMBLY:
        sums = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [sums], dtype=tl.float32,
                                         is_pure=True, pack=1)
    tl.store(out_ptr + offsets, tl.sort(sums), mask=mask)


@triton.jit
def scalar_bitcast_kernel(float_ptr, int_ptr, float_out, int_out, FLOAT: tl.constexpr,
                          INT: tl.constexpr):
    # Scalars: the bit moves run on the control core.
    x = tl.load(float_ptr)
    tl.store(int_out, x.to(INT, bitcast=True))
    i = tl.load(int_ptr)
    tl.store(float_out, i.to(FLOAT, bitcast=True) * 2)


@triton.jit
def scalar_half_conversions_kernel(half_ptr, brain_ptr, sum_ptr, to_brain_ptr, to_half_ptr,
                                   BLOCK: tl.constexpr):
    # A scalar f16 plus a bf16 block (added in f16), and scalar conversions
    # between f16 and bf16 (tt.fp_to_fp, rounding to nearest).
    offsets = tl.arange(0, BLOCK)
    half = tl.load(half_ptr)
    brain = tl.load(brain_ptr + offsets)
    tl.store(sum_ptr + offsets, half + brain)
    tl.store(to_brain_ptr, half.to(tl.bfloat16))
    tl.store(to_half_ptr, tl.load(brain_ptr).to(tl.float16))


@triton.jit
def scalar_libdevice_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # libdevice calls and clamps of scalars run on the SIMD engine.
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    total = tl.sum(x)
    first = tl.load(x_ptr)
    tl.store(out_ptr, libdevice.rsqrt(total))
    tl.store(out_ptr + 1, tl.clamp(first, 0.25, 0.75))
    tl.store(out_ptr + 2, libdevice.pow(first, 3))
    tl.store(out_ptr + 3, libdevice.exp(first) + total)
    tl.store(out_ptr + 4 + tl.arange(0, BLOCK), libdevice.pow(x, -2))


@triton.jit
def item_kernel(x_ptr, out_ptr, ROWS: tl.constexpr):
    # `.item()` of a one-element block (tt.unsplat) steers a scalar: the block
    # is a row of the input, picked by the program.
    row = tl.program_id(0)
    x = tl.load(x_ptr + row + tl.arange(0, 1)[:, None])
    value = (x * 2).item()
    tl.store(out_ptr + row, value + ROWS)


@triton.jit
def transpose_kernel(x_ptr, out_ptr, rows, cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr,
                     TRANSPOSED_LOAD: tl.constexpr):
    # out (cols x rows) = x (rows x cols) transposed, both row-major: either
    # the load reads x column by column (unit stride along the block's first
    # dimension) or the store writes out that way.
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    if TRANSPOSED_LOAD:
        block = tl.load(x_ptr + c[:, None] + r[None, :] * cols,
                        mask=(c[:, None] < cols) & (r[None, :] < rows), other=-1.0)
        tl.store(out_ptr + c[:, None] * rows + r[None, :], block * 2,
                 mask=(c[:, None] < cols) & (r[None, :] < rows))
    else:
        block = tl.load(x_ptr + r[:, None] * cols + c[None, :],
                        mask=(r[:, None] < rows) & (c[None, :] < cols))
        tl.store(out_ptr + r[:, None] + c[None, :] * rows, block * 2,
                 mask=(r[:, None] < rows) & (c[None, :] < cols))


@triton.jit
def row_max_of_scores_kernel(q_ptr, k_ptr, out_ptr, n_keys, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, DIM: tl.constexpr, MASKED: tl.constexpr,
                             LOOP_STAGES: tl.constexpr = None):
    # The maximum over all keys of each query's scores q . k, block of keys
    # by block: the loop `mtia-pipeline-dots` runs blocks ahead, as many as
    # the loop's stages (LOOP_STAGES, else the launch's num_stages) exceed
    # two. Without MASKED the key blocks are read whole (the caller pads the
    # keys), so a read before a loop that runs no iteration would leave the
    # tensor.
    rows = tl.arange(0, BLOCK_M)
    dims = tl.arange(0, DIM)
    q = tl.load(q_ptr + rows[:, None] * DIM + dims[None, :])
    best = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    for start in tl.range(0, n_keys, BLOCK_N, num_stages=LOOP_STAGES):
        keys = start + tl.arange(0, BLOCK_N)
        if MASKED:
            k = tl.load(k_ptr + keys[None, :] * DIM + dims[:, None],
                        mask=keys[None, :] < n_keys, other=0.0)
        else:
            k = tl.load(k_ptr + keys[None, :] * DIM + dims[:, None])
        scores = tl.where(keys[None, :] < n_keys, tl.dot(q, k), -float("inf"))
        best = tl.maximum(best, tl.max(scores, axis=1))
    tl.store(out_ptr + rows, best)


@triton.jit
def triangle_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, REPEAT: tl.constexpr):
    # Program (x, y) runs (x + 1) * REPEAT iterations on its block: a causal
    # attention's triangle of work, with y as its heads.
    offsets = (tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)) * BLOCK + \
        tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    acc = tl.zeros([BLOCK], tl.float32)
    for _ in range(0, (tl.program_id(0) + 1) * REPEAT):
        acc = acc * 0.5 + x
    tl.store(out_ptr + offsets, acc)


@triton.jit
def copy_blocks_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))


@triton.jit
def masked_block_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # The maximum of x[:n] over blocks, the last masked by a select.
    acc = tl.full([BLOCK], -float("inf"), tl.float32)
    for start in range(0, n, BLOCK):
        keys = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + keys, mask=keys < n, other=0.0)
        acc = tl.maximum(acc, tl.where(keys < n, x, -float("inf")))
    tl.store(out_ptr + tl.program_id(0), tl.max(acc, axis=0))


@triton.jit
def causal_block_sums_kernel(x_ptr, out_ptr, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Row r of the program's query block sums x[r, k] over keys k <= r
    # (and k < n), block by block up to the diagonal, as a causal
    # attention's loop meets its keys.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    end = tl.minimum((tl.program_id(0) + 1) * BLOCK_M, n)
    for start in range(0, end, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        inside = (rows[:, None] < n) & (keys[None, :] < n)
        x = tl.load(x_ptr + rows[:, None] * n + keys[None, :], mask=inside, other=0.0)
        acc += tl.where(inside & (keys[None, :] <= rows[:, None]), x, 0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rows < n)


@triton.jit(do_not_specialize=["steps"])
def decaying_row_maxima_kernel(x_ptr, maxima_ptr, last_ptr, steps, decay,
                               ROWS: tl.constexpr, COLS: tl.constexpr):
    # A tile the loop carries for the SIMD engine, which also passes each
    # iteration's to the reduction engine: `y` decays towards 1 every step,
    # and the row maxima of every step add up.
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    y = tl.load(x_ptr + offsets) * 2.0
    total = tl.zeros([ROWS], tl.float32)
    for _ in range(steps):
        y = y * decay + 1.0
        total += tl.max(y, axis=1)
    tl.store(maxima_ptr + tl.arange(0, ROWS), total)
    tl.store(last_ptr + offsets, y)


@triton.jit(do_not_specialize=["steps"])
def four_decaying_row_maxima_kernel(x_ptr, maxima_ptr, steps, ROWS: tl.constexpr,
                                    COLS: tl.constexpr):
    # Four tiles like decaying_row_maxima_kernel's `y`, each of which the
    # loop could carry in pages of its own.
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + offsets)
    a = x * 1.5
    b = x * 2.0
    c = x * 2.5
    d = x * 3.0
    total = tl.zeros([ROWS], tl.float32)
    for _ in range(steps):
        a = a * 0.5 + 1.0
        b = b * 0.5 + 1.0
        c = c * 0.5 + 1.0
        d = d * 0.5 + 1.0
        total += tl.max(a, axis=1) + tl.max(b, axis=1) + tl.max(c, axis=1) + tl.max(d, axis=1)
    tl.store(maxima_ptr + tl.arange(0, ROWS), total)


@triton.jit
def scaled_row_max_kernel(x_ptr, out_ptr, scale, ROWS: tl.constexpr, COLS: tl.constexpr):
    # The row maxima of a block scaled by an argument of either sign.
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + tl.arange(0, ROWS), tl.max(x * scale, axis=1))


@triton.jit
def multiply_add_kernel(x_ptr, y_ptr, z_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    z = tl.load(z_ptr + offsets)
    tl.store(out_ptr + offsets, x * y + z)


@triton.jit
def branch_units_kernel(x_ptr, out_ptr, flag, ROWS: tl.constexpr, COLS: tl.constexpr):
    # One branch computes the row result on the reduction engine, the other
    # on the SIMD engine (a sum, then scaled).
    offsets = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + offsets)
    if flag > 0:
        result = tl.max(x, axis=1)
    else:
        result = tl.sum(x, axis=1) * 0.5
    tl.store(out_ptr + tl.arange(0, ROWS), result)


@triton.jit
def load_or_scale_kernel(x_ptr, y_ptr, out_ptr, flag, BLOCK: tl.constexpr):
    # One branch yields a loaded block as it is, the other a scaled one.
    offsets = tl.arange(0, BLOCK)
    if flag > 0:
        value = tl.load(x_ptr + offsets)
    else:
        value = tl.load(y_ptr + offsets) * 3.0
    tl.store(out_ptr + offsets, value)


@triton.jit
def tutorial_attention_kernel(q_ptr, k_ptr, v_ptr, out_ptr, scale, seq_len,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, DIM: tl.constexpr,
                              CAUSAL: tl.constexpr, MASKED: tl.constexpr = True):
    # Attention forward as Triton's tutorial writes it: the row maximum is
    # taken of the raw scores and scaled, and the scores are scaled and
    # shifted in one expression. The reduction engine and the SIMD engine
    # both read the DPE's product. Without MASKED the scores are not masked
    # (the tutorial's blocks off the diagonal; the sequence must be whole
    # blocks), so the loop carries the product itself.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, DIM)
    q = tl.load(q_ptr + rows[:, None] * DIM + dims[None, :], mask=rows[:, None] < seq_len,
                other=0.0)
    m_i = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, DIM), tl.float32)
    qk_scale = scale * 1.44269504
    end = tl.minimum((tl.program_id(0) + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start in range(0, end, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + keys[None, :] * DIM + dims[:, None], mask=keys[None, :] < seq_len,
                    other=0.0)
        qk = tl.dot(q, k)
        valid = keys[None, :] < seq_len
        if CAUSAL:
            valid = valid & (keys[None, :] <= rows[:, None])
        if MASKED:
            qk = tl.where(valid, qk, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + keys[:, None] * DIM + dims[None, :], mask=keys[:, None] < seq_len,
                    other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_ij
    tl.store(out_ptr + rows[:, None] * DIM + dims[None, :], (acc / l_i[:, None]).to(tl.float16),
             mask=rows[:, None] < seq_len)


@triton.jit
def offset_scale_kernel(x_ptr, SCALE: tl.constexpr, out_ptr, n, BLOCK: tl.constexpr):
    """A constexpr between runtime parameters: a relaunch without the
    constexprs must bind `out_ptr` and `n` to the right slots."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * SCALE, mask=mask)


@triton.jit(do_not_specialize=["n"])
def count_kernel(out_ptr, n, BLOCK: tl.constexpr):
    """Writes n where n is positive (an i32 parameter given 2**32 - 1 is -1)."""
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.full((BLOCK,), 1, tl.int32) * n, mask=offsets < n)


@triton.jit(do_not_specialize=["steps"])
def spin_kernel(out_ptr, steps):
    """Doubles a count plus one `steps` times, in 16 bits: long enough for
    any budget (a count the loop only advances by one would be computed
    from its trip count, without the loop)."""
    total = 0
    for _ in range(steps):
        total = (total * 2 + 1) & 0xFFFF
    tl.store(out_ptr, total)


@triton.jit
def accumulate_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """out += x: its result depends on what `out` held."""
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(out_ptr + offsets) + tl.load(x_ptr + offsets))


@triton.jit
def reversed_copy_kernel(x_ptr, x_stride, out_ptr, BLOCK: tl.constexpr):
    """Copies BLOCK elements of x read with a stride (negative for a flip)."""
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets * x_stride))


@triton.jit
def bounded_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N: tl.constexpr, K: tl.constexpr,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr):
    # One block of C = A @ B whose N and K are constants below the blocks,
    # padded with zeros and left out of the store, as users write it.
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :],
                mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
    c = tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def padded_row_sum_kernel(x_ptr, out_ptr, COLS: tl.constexpr, BLOCK: tl.constexpr):
    # The sum of each row's COLS values and of the padding's ones.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * COLS + offs, mask=offs < COLS, other=1.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def unmasked_store_kernel(x_ptr, out_ptr, COLS: tl.constexpr, BLOCK: tl.constexpr):
    # Copies COLS values of each row and writes zeros over the rest of the
    # output's row of BLOCK.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * COLS + offs, mask=offs < COLS, other=0.0)
    tl.store(out_ptr + row * BLOCK + offs, x)


@triton.jit
def padded_row_stats_kernel(x_ptr, sum_ptr, max_ptr, COLS: tl.constexpr, BLOCK: tl.constexpr):
    # The sum and the maximum of each row's COLS values, the padding of the
    # block zeros for the sum and -inf for the maximum.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < COLS
    x = tl.load(x_ptr + row * COLS + offs, mask=mask, other=0.0)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    tl.store(max_ptr + row, tl.max(tl.where(mask, x, float("-inf")), axis=0))
