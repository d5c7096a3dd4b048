"""TorchInductor-generated Triton kernels of test/kernels (from capture_inductor.py).

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


# ---- graph 'bias_gelu': torch.nn.functional.gelu(x + b)  (bias add + exact gelu, b broadcast over rows)
#      inputs: x: float32[37, 130], b: float32[130]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_gelu_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4810
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 130)
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = tl.full([1], 1.0, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tl.store(out_ptr0 + (x2), tmp10, xmask)

META['triton_poi_fused_add_gelu_0'] = {'graph': 'bias_gelu', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [19, 1, 1], 'launch': [['tensor', [37, 130], [130, 1], 'float32', 0], ['tensor', [130], [1], 'float32', 0], ['tensor', [37, 130], [130, 1], 'float32', 0], 4810]}


# ---- graph 'swiglu_bf16': torch.nn.functional.silu(a) * g  on bf16 tensors
#      inputs: a: bfloat16[37, 96], g: bfloat16[37, 96]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_mul_silu_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 3552
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp8 = tl.load(in_ptr1 + (x0), xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = tl.full([1], 1.0, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = (tmp1 / tmp5)
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(out_ptr0 + (x0), tmp9, xmask)

META['triton_poi_fused_mul_silu_0'] = {'graph': 'swiglu_bf16', 'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [14, 1, 1], 'launch': [['tensor', [37, 96], [96, 1], 'bfloat16', 0], ['tensor', [37, 96], [96, 1], 'bfloat16', 0], ['tensor', [37, 96], [96, 1], 'bfloat16', 0], 3552]}


# ---- graph 'softmax': torch.softmax(x, -1)  (781-long rows: one persistent reduction per row)
#      inputs: x: float32[13, 781]
#      Inductor autotune configs: [{'XBLOCK': 1}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused__softmax_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 13
    r0_numel = 781
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 781*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp4 = triton_helpers.max2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tmp0 - tmp4
    tmp6 = libdevice.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(r0_mask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None].to(tl.float32)
    tmp11 = (tmp6 / tmp10)
    tl.store(in_out_ptr0 + (r0_1 + 781*x0), tmp11, r0_mask & xmask)

META['triton_per_fused__softmax_0'] = {'graph': 'softmax', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 8, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [13, 1, 1], 'launch': [['tensor', [13, 781], [781, 1], 'float32', 0], ['tensor', [13, 781], [781, 1], 'float32', 0], 13, 781]}


# ---- graph 'log_softmax_long': torch.log_softmax(x, -1)  (4500-long rows: looped reduction, R0_BLOCK=2048)
#      inputs: x: float32[3, 4500]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 8192}, {'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused__log_softmax_0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 3
    r0_numel = 4500
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    tmp10 = tl_math.log(tmp8)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp11 = tl.load(in_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp12 = tmp11 - tmp2
        tmp13 = tmp12 - tmp10
        tl.store(out_ptr1 + (r0_1 + 4500*x0), tmp13, r0_mask & xmask)

META['triton_red_fused__log_softmax_0'] = {'graph': 'log_softmax_long', 'signature': {'in_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [3, 4500], [4500, 1], 'float32', 0], ['tensor', [3, 4500], [4500, 1], 'float32', 0], 3, 4500]}


# ---- graph 'layer_norm': torch.nn.functional.layer_norm(x, (3000,), w, b)  (welford, looped with R0_BLOCK=2048)
#      inputs: x: float32[4, 3000], w: float32[3000], b: float32[3000]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 4096}, {'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused_native_layer_norm_0(in_ptr0, in_ptr1, in_ptr2, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3000*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = triton_helpers.welford_reduce(
            tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0
        )
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = triton_helpers.welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp3[:, None]
    tmp6 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp8 = tl.load(in_ptr0 + (r0_1 + 3000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp16 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp18 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp9 = tmp8 - tmp2
        tmp10 = tl.full([1, 1], 3000.0, tl.float32)
        tmp11 = (tmp6 / tmp10)
        tmp12 = tl.full([1, 1], 1e-05, tl.float32)
        tmp13 = tmp11 + tmp12
        tmp14 = libdevice.rsqrt(tmp13)
        tmp15 = tmp9 * tmp14
        tmp17 = tmp15 * tmp16
        tmp19 = tmp17 + tmp18
        tl.store(out_ptr2 + (r0_1 + 3000*x0), tmp19, r0_mask & xmask)

META['triton_red_fused_native_layer_norm_0'] = {'graph': 'layer_norm', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [4, 3000], [3000, 1], 'float32', 0], ['tensor', [3000], [1], 'float32', 0], ['tensor', [3000], [1], 'float32', 0], ['tensor', [4, 3000], [3000, 1], 'float32', 0], 4, 3000]}


# ---- graph 'rms_norm_bf16': (x.float() * rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(bf16)
#      inputs: x: bfloat16[6, 5000], w: bfloat16[5000]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 8192}, {'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0(in_ptr0, in_ptr1, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 5000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 5000*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tmp1 * tmp1
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp6 = tl.load(in_ptr0 + (r0_1 + 5000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tl.full([1, 1], 5000.0, tl.float32)
        tmp9 = (tmp4 / tmp8)
        tmp10 = tl.full([1, 1], 1e-06, tl.float32)
        tmp11 = tmp9 + tmp10
        tmp12 = libdevice.rsqrt(tmp11)
        tmp13 = tmp7 * tmp12
        tmp15 = tmp14.to(tl.float32)
        tmp16 = tmp13 * tmp15
        tmp17 = tmp16.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 5000*x0), tmp17, r0_mask & xmask)

META['triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0'] = {'graph': 'rms_norm_bf16', 'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [6, 1, 1], 'launch': [['tensor', [6, 5000], [5000, 1], 'bfloat16', 0], ['tensor', [5000], [1], 'bfloat16', 0], ['tensor', [6, 5000], [5000, 1], 'bfloat16', 0], 6, 5000]}


# ---- graph 'var_mean': torch.var_mean(x, -1, correction=0)  (persistent two-pass variance, 300-long rows)
#      inputs: x: float32[40, 300]
#      Inductor autotune configs: [{'XBLOCK': 1}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused_var_mean_0(in_out_ptr0, in_out_ptr1, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 40
    r0_numel = 300
    R0_BLOCK: tl.constexpr = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 300*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl.full([1, 1], 300.0, tl.float32)
    tmp6 = (tmp4 / tmp5)
    tmp7 = tmp0 - tmp6
    tmp8 = tmp7 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask & xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = (tmp12 / tmp5)
    tl.store(in_out_ptr0 + (x0), tmp6, xmask)
    tl.store(in_out_ptr1 + (x0), tmp13, xmask)

META['triton_per_fused_var_mean_0'] = {'graph': 'var_mean', 'signature': {'in_out_ptr0': '*fp32', 'in_out_ptr1': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1}, 'attrs': {(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [40, 1, 1], 'launch': [['tensor', [40, 1], [1, 40], 'float32', 0], ['tensor', [40], [1], 'float32', 0], ['tensor', [40, 300], [300, 1], 'float32', 0], 40, 300]}


# ---- graph 'col_sum': x.sum(0)  (column sum, split into two kernels; the first sums 100-row chunks, index math x % 37, x // 37)
#      inputs: x: float32[300, 37]
#      Inductor autotune configs: [{'XBLOCK': 2, 'R0_BLOCK': 64}]; chosen: {'XBLOCK': 2, 'R0_BLOCK': 64}

@triton.jit
def triton_red_fused_sum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 111
    r0_numel = 100
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 37)
    x1 = xindex // 37
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 37*r0_2 + 3700*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp2, xmask)

META['triton_red_fused_sum_0'] = {'graph': 'col_sum', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 2, 'R0_BLOCK': 64}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [56, 1, 1], 'launch': [['tensor', [300, 37], [37, 1], 'float32', 0], ['tensor', [37, 3], [1, 37], 'float32', 0], 111, 100]}


# ---- graph 'max_dim': torch.max(x, 1)  (values and int64 indices)
#      inputs: x: float32[37, 50]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}, {'XBLOCK': 32}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_max_0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 37
    r0_numel = 50
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 50*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp5 = tl.broadcast_to(rindex, tmp4.shape)
    tmp2, tmp3 = triton_helpers.max_with_index(tmp4, tmp5, 1)
    tmp2 = tmp2[:, None]
    tmp3 = tmp3[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp3, xmask)

META['triton_per_fused_max_0'] = {'graph': 'max_dim', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [5, 1, 1], 'launch': [['tensor', [37, 50], [50, 1], 'float32', 0], ['tensor', [37], [1], 'float32', 0], ['tensor', [37], [1], 'int64', 0], 37, 50]}


# ---- graph 'argmax_long': x.argmax(-1)  (3000-long rows: looped index-carrying reduction)
#      inputs: x: float32[5, 3000]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused_argmax_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 5
    r0_numel = 3000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    _tmp2_index = tl.full([XBLOCK, R0_BLOCK], 2147483647, tl.int32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        _tmp2_next, _tmp2_index_next = triton_helpers.maximum_with_index(
            _tmp2, _tmp2_index, tmp1, rindex
        )
        _tmp2 = tl.where(r0_mask & xmask, _tmp2_next, _tmp2)
        _tmp2_index = tl.where(r0_mask & xmask, _tmp2_index_next, _tmp2_index)
    tmp2_val, tmp2_idx = triton_helpers.max_with_index(_tmp2, _tmp2_index, 1)
    tmp2 = tmp2_idx[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)

META['triton_red_fused_argmax_0'] = {'graph': 'argmax_long', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [5, 1, 1], 'launch': [['tensor', [5, 3000], [3000, 1], 'float32', 0], ['tensor', [5], [1], 'int64', 0], 5, 3000]}


# ---- graph 'cumsum': x.cumsum(-1)  (tl.associative_scan with an Inductor combine helper)
#      inputs: x: float32[37, 100]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}, {'XBLOCK': 32}]; chosen: {'XBLOCK': 8}

@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton.jit
def triton_per_fused_cumsum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 37
    r0_numel = 100
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 100*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_1 + 100*x0), tmp3, r0_mask & xmask)

META['triton_per_fused_cumsum_0'] = {'graph': 'cumsum', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [5, 1, 1], 'launch': [['tensor', [37, 100], [100, 1], 'float32', 0], ['tensor', [37, 100], [100, 1], 'float32', 0], 37, 100]}


# ---- graph 'transpose_cat': torch.cat([x.t(), y], 0) * 2  (the transposing copy into the cat buffer: 2-D tiles)
#      inputs: x: float32[45, 37], y: float32[10, 45]
#      Inductor autotune configs: [{'XBLOCK': 32, 'YBLOCK': 32}]; chosen: {'XBLOCK': 32, 'YBLOCK': 32}

@triton.jit
def triton_poi_fused_cat_t_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 37
    xnumel = 45
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 37*x1), xmask & ymask)
    tl.store(out_ptr0 + (x1 + 45*y0), tmp0, xmask & ymask)

META['triton_poi_fused_cat_t_0'] = {'graph': 'transpose_cat', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 32, 'YBLOCK': 32}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid2D', 'grid': [2, 2, 1], 'launch': [['tensor', [45, 37], [37, 1], 'float32', 0], ['tensor', [37, 45], [45, 1], 'float32', 0], 37, 45]}


# ---- graph 'permute_add': x.permute(0, 2, 1) + y  (3-D permute, 2-D tiled pointwise kernel)
#      inputs: x: float32[4, 37, 45], y: float32[4, 45, 37]
#      Inductor autotune configs: [{'XBLOCK': 32, 'YBLOCK': 32}, {'XBLOCK': 64, 'YBLOCK': 64}, {'XBLOCK': 16, 'YBLOCK': 256}, {'XBLOCK': 64, 'YBLOCK': 4}, {'XBLOCK': 1, 'YBLOCK': 256}]; chosen: {'XBLOCK': 32, 'YBLOCK': 32}

@triton.jit
def triton_poi_fused_add_permute_0(in_ptr0, in_ptr1, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 148
    xnumel = 45
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 37)
    y1 = yindex // 37
    tmp0 = tl.load(in_ptr0 + (x2 + 45*y3), xmask & ymask)
    tmp1 = tl.load(in_ptr1 + (y0 + 37*x2 + 1665*y1), xmask & ymask)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2 + 45*y3), tmp2, xmask & ymask)

META['triton_poi_fused_add_permute_0'] = {'graph': 'permute_add', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 32, 'YBLOCK': 32}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid2D', 'grid': [2, 5, 1], 'launch': [['tensor', [4, 37, 45], [1665, 45, 1], 'float32', 0], ['tensor', [4, 45, 37], [1665, 37, 1], 'float32', 0], ['tensor', [4, 45, 37], [1665, 1, 45], 'float32', 0], 148, 45]}


# ---- graph 'embedding': torch.nn.functional.embedding(idx, w) * 2 + 1  (indirect load, tl.device_assert)
#      inputs: idx: int64[7, 13], w: float32[100, 72]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_embedding_mul_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 6552
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 72
    x0 = (xindex % 72)
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp0) & (tmp0 < 100)) | ~(xmask), "index out of bounds: 0 <= tmp0 < 100")
    tmp2 = tl.load(in_ptr1 + (x0 + 72*tmp0), xmask)
    tmp3 = tl.full([1], 2.0, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1], 1.0, tl.float32)
    tmp6 = tmp4 + tmp5
    tl.store(out_ptr0 + (x2), tmp6, xmask)

META['triton_poi_fused_add_embedding_mul_0'] = {'graph': 'embedding', 'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [26, 1, 1], 'launch': [['tensor', [7, 13], [13, 1], 'int64', 0], ['tensor', [100, 72], [72, 1], 'float32', 0], ['tensor', [7, 13, 72], [936, 72, 1], 'float32', 0], 6552]}


# ---- graph 'index_add': a.index_add(0, idx, src)  (scatter with tl.atomic_add, negative-index wrap)
#      inputs: a: float32[50, 24], idx: int64[70], src: float32[70, 24]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_index_add_1(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1680
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 24
    x2 = xindex
    x0 = (xindex % 24)
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr1 + (x2), xmask)
    tmp1 = (tl.full([XBLOCK], 50, tl.int32)).to(tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 50")
    tl.atomic_add(out_ptr0 + (x0 + 24*tmp4), tmp6, xmask, sem='relaxed')

META['triton_poi_fused_index_add_1'] = {'graph': 'index_add', 'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [7, 1, 1], 'launch': [['tensor', [70], [1], 'int64', 0], ['tensor', [70, 24], [24, 1], 'float32', 0], ['tensor', [50, 24], [24, 1], 'float32', 0], 1680]}


# ---- graph 'sort': torch.sort(x, -1)  (values and int64 indices: triton_helpers.sort_with_index)
#      inputs: x: float32[5, 16]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused_sort_0(in_ptr0, out_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 5
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 16*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = (r0_1).to(tl.int16)
    tmp2 = (tmp1).to(tl.int16)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5, tmp6, = triton_helpers.sort_with_index(tmp3, tmp4, rnumel, 1, stable=False, descending=False)
    tmp7 = tmp6.to(tl.int64)
    tl.store(out_ptr0 + (r0_1 + 16*x0), tmp5, r0_mask & xmask)
    tl.store(out_ptr2 + (r0_1 + 16*x0), tmp7, r0_mask & xmask)

META['triton_per_fused_sort_0'] = {'graph': 'sort', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr2': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [5, 1, 1], 'launch': [['tensor', [5, 16], [16, 1], 'float32', 0], ['tensor', [5, 16], [16, 1], 'float32', 0], ['tensor', [5, 16], [16, 1], 'int64', 0], 5, 16]}


# ---- graph 'sum_all': x.sum()  (full reduction split in two kernels; the second one sums the 3 partial sums into a 0-d tensor: xnumel=1 is a constexpr)
#      inputs: x: float32[3000, 7]
#      Inductor autotune configs: [{'XBLOCK': 1}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused_sum_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 3
    R0_BLOCK: tl.constexpr = 4
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp4, None)

META['triton_per_fused_sum_1'] = {'graph': 'sum_all', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'xnumel': 1, 'XBLOCK': 1}, 'attrs': {(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [3], [1], 'float32', 0], ['tensor', [], [], 'float32', 0], 1, 3]}


# ---- graph 'where_clamp': torch.where(x > 0, x, 0.1 * x).clamp(-1, 1).masked_fill(m, -inf), x > 0.5  (bool input and output)
#      inputs: x: float32[1000], m: bool[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_clamp_gt_masked_fill_mul_where_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.int1)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.full([1], 0.0, tl.float32)
    tmp3 = tmp1 > tmp2
    tmp4 = tl.full([1], 0.1, tl.float32)
    tmp5 = tmp1 * tmp4
    tmp6 = tl.where(tmp3, tmp1, tmp5)
    tmp7 = tl.full([1], -1.0, tl.float32)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp9 = tl.full([1], 1.0, tl.float32)
    tmp10 = triton_helpers.minimum(tmp8, tmp9)
    tmp11 = tl.full([1], float("-inf"), tl.float32)
    tmp12 = tl.where(tmp0, tmp11, tmp10)
    tmp13 = tl.full([1], 0.5, tl.float32)
    tmp14 = tmp1 > tmp13
    tl.store(out_ptr0 + (x0), tmp12, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)

META['triton_poi_fused_clamp_gt_masked_fill_mul_where_0'] = {'graph': 'where_clamp', 'signature': {'in_ptr0': '*i1', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i1', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'bool', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'bool', 0], 1000]}


# ---- graph 'casts': (x * h.float()).to(bf16), (x * 8).to(int32)  (f16 input, bf16 and int32 outputs)
#      inputs: x: float32[1000], h: float16[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused__to_copy_mul_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask).to(tl.float32)
    tmp2 = tmp1.to(tl.float32)
    tmp3 = tmp0 * tmp2
    tmp4 = tmp3.to(tl.float32)
    tmp5 = tl.full([1], 8.0, tl.float32)
    tmp6 = tmp0 * tmp5
    tmp7 = tmp6.to(tl.int32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp7, xmask)

META['triton_poi_fused__to_copy_mul_0'] = {'graph': 'casts', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp16', 'out_ptr0': '*bf16', 'out_ptr1': '*i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float16', 0], ['tensor', [1000], [1], 'bfloat16', 0], ['tensor', [1000], [1], 'int32', 0], 1000]}


# ---- graph 'mean_dims': x.mean(dim=(1, 2))  (reduction over two inner dims of 1665)
#      inputs: x: float32[4, 37, 45]
#      Inductor autotune configs: [{'XBLOCK': 2, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 2, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused_mean_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 1665
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 1665*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tmp4 = tl.full([1, 1], 1665.0, tl.float32)
    tmp5 = (tmp2 / tmp4)
    tl.store(in_out_ptr0 + (x0), tmp5, xmask)

META['triton_red_fused_mean_0'] = {'graph': 'mean_dims', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 2, 'R0_BLOCK': 2048}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [2, 1, 1], 'launch': [['tensor', [4], [1], 'float32', 0], ['tensor', [4, 37, 45], [1665, 45, 1], 'float32', 0], 4, 1665]}


# ---- graph 'cross_entropy': torch.nn.functional.cross_entropy(logits, target)  (gather through target index)
#      inputs: logits: float32[37, 100], target: int64[37]
#      Inductor autotune configs: [{'XBLOCK': 1}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused__log_softmax_nll_loss_forward_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 37
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp7 = tl.load(in_ptr2 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp9 = tl.load(in_ptr3 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.full([1, 1], -100, tl.int64)
    tmp2 = tmp0 != tmp1
    tmp3 = tl.full([1, 1], 0, tl.int64)
    tmp4 = tl.where(tmp2, tmp0, tmp3)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 100)) | ~(r0_mask), "index out of bounds: 0 <= tmp4 < 100")
    tmp6 = tl.load(in_ptr1 + (tmp4 + 100*r0_0), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp8 = tmp6 - tmp7
    tmp10 = tmp8 - tmp9
    tmp11 = -tmp10
    tmp12 = tl.full([1, 1], 0.0, tl.float32)
    tmp13 = tl.where(tmp2, tmp11, tmp12)
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(r0_mask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = tmp2.to(tl.int64)
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(r0_mask, tmp19, 0)
    tmp22 = tl.sum(tmp21, 1)[:, None].to(tl.int64)
    tmp23 = tmp22.to(tl.float32)
    tmp24 = (tmp17 / tmp23)
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp24, None)

META['triton_per_fused__log_softmax_nll_loss_forward_1'] = {'graph': 'cross_entropy', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'xnumel': 1, 'XBLOCK': 1}, 'attrs': {(0,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [], [], 'float32', 0], ['tensor', [37], [1], 'int64', 0], ['tensor', [37, 100], [100, 1], 'float32', 0], ['tensor', [37, 1], [1, 37], 'float32', 0], ['tensor', [37, 1], [1, 37], 'float32', 0], 1, 37]}


# ---- graph 'softmax_long': torch.softmax(x, -1)  (rows of 4500, looped; exp stored to the output, read back)
#      inputs: x: float32[3, 4500]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 8192}, {'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused__softmax_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 3
    r0_numel = 4500
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
        tl.store(in_out_ptr0 + (r0_1 + 4500*x0), tmp6, r0_mask & xmask)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_out_ptr0 + (r0_1 + 4500*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = (tmp10 / tmp8)
        tl.store(in_out_ptr0 + (r0_1 + 4500*x0), tmp11, r0_mask & xmask)

META['triton_red_fused__softmax_0'] = {'graph': 'softmax_long', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [3, 4500], [4500, 1], 'float32', 0], ['tensor', [3, 4500], [4500, 1], 'float32', 0], 3, 4500]}


# ---- graph 'dropout': torch.nn.functional.dropout(x, 0.25, training=True)  (seed loaded from a buffer)
#      inputs: x: float32[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_native_dropout_0(in_out_ptr0, in_ptr0, in_ptr1, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp6 = tl.load(in_ptr1 + (x0), xmask)
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = (x0).to(tl.int32)
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tmp3 = tl.full([1], 0.25, tl.float32)
    tmp4 = tmp2 > tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1], 1.3333333333333333, tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)

META['triton_poi_fused_native_dropout_0'] = {'graph': 'dropout', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'float32', 0], ['tensor', [1], [1], 'int64', 0], ['tensor', [1000], [1], 'float32', 0], 0, 1000]}


# ---- graph 'bn_hardswish_4d': hardswish(batch_norm(x, running_mean, running_var, w, b, training=False))  (inference batch norm on NCHW: per-channel vectors indexed by (i // 63) % 5)
#      inputs: x: float32[2, 5, 7, 9], rm: float32[5], rv: float32[5], w: float32[5], b: float32[5]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused__native_batch_norm_legit_no_training_hardswish_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, XBLOCK : tl.constexpr):
    xnumel = 630
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x1 = ((xindex // 63) % 5)
    tmp0 = tl.load(in_ptr0 + (x3), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr3 + (x1), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 1e-05, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = tl.sqrt_rn(tmp5)
    tmp7 = tl.full([1], 1.0, tl.float32)
    tmp8 = (tmp7 / tmp6)
    tmp9 = tmp8 * tmp7
    tmp10 = tmp2 * tmp9
    tmp12 = tmp10 * tmp11
    tmp14 = tmp12 + tmp13
    tmp15 = tl.full([1], 3.0, tl.float32)
    tmp16 = tmp14 + tmp15
    tmp17 = tl.full([1], 0.0, tl.float32)
    tmp18 = triton_helpers.maximum(tmp16, tmp17)
    tmp19 = tl.full([1], 6.0, tl.float32)
    tmp20 = triton_helpers.minimum(tmp18, tmp19)
    tmp21 = tmp14 * tmp20
    tmp22 = (tmp21 / tmp19)
    tl.store(in_out_ptr0 + (x3), tmp22, xmask)

META['triton_poi_fused__native_batch_norm_legit_no_training_hardswish_0'] = {'graph': 'bn_hardswish_4d', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [2, 5, 7, 9], [315, 63, 9, 1], 'float32', 0], ['tensor', [2, 5, 7, 9], [315, 63, 9, 1], 'float32', 0], ['tensor', [5], [1], 'float32', 0], ['tensor', [5], [1], 'float32', 0], ['tensor', [5], [1], 'float32', 0], ['tensor', [5], [1], 'float32', 0], 630]}


# ---- graph 'activations': gelu(x, approximate='tanh'), silu(x), leaky_relu(x, 0.02), softplus(x)  (four outputs)
#      inputs: x: float32[7, 143]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_gelu_leaky_relu_silu_softplus_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1001
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp0 * tmp0
    tmp4 = tmp3 * tmp0
    tmp5 = tl.full([1], 0.044715, tl.float32)
    tmp6 = tmp4 * tmp5
    tmp7 = tmp0 + tmp6
    tmp8 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = libdevice.tanh(tmp9)
    tmp11 = tl.full([1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp2 * tmp12
    tmp14 = -tmp0
    tmp15 = libdevice.exp(tmp14)
    tmp16 = tmp15 + tmp11
    tmp17 = (tmp0 / tmp16)
    tmp18 = tl.full([1], 0.0, tl.float32)
    tmp19 = tmp0 > tmp18
    tmp20 = tl.full([1], 0.02, tl.float32)
    tmp21 = tmp0 * tmp20
    tmp22 = tl.where(tmp19, tmp0, tmp21)
    tmp23 = tl.full([1], 20.0, tl.float32)
    tmp24 = tmp0 > tmp23
    tmp25 = libdevice.exp(tmp0)
    tmp26 = libdevice.log1p(tmp25)
    tmp27 = tl.where(tmp24, tmp0, tmp26)
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp17, xmask)
    tl.store(out_ptr2 + (x0), tmp22, xmask)
    tl.store(out_ptr3 + (x0), tmp27, xmask)

META['triton_poi_fused_gelu_leaky_relu_silu_softplus_0'] = {'graph': 'activations', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [7, 143], [143, 1], 'float32', 0], ['tensor', [7, 143], [143, 1], 'float32', 0], ['tensor', [7, 143], [143, 1], 'float32', 0], ['tensor', [7, 143], [143, 1], 'float32', 0], ['tensor', [7, 143], [143, 1], 'float32', 0], 1001]}


# ---- graph 'where_pow_rsqrt': torch.where(x > 0, x ** 3, 0.5).clamp_min(0.1).rsqrt() + x.abs() ** 0.7
#      inputs: x: float32[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 128}

@triton.jit
def triton_poi_fused_abs_add_clamp_min_gt_pow_rsqrt_scalar_tensor_where_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 0.0, tl.float32)
    tmp2 = tmp0 > tmp1
    tmp3 = tmp0 * tmp0
    tmp4 = tmp3 * tmp0
    tmp5 = tl.full([1], 0.5, tl.float32)
    tmp6 = tl.where(tmp2, tmp4, tmp5)
    tmp7 = tl.full([1], 0.1, tl.float32)
    tmp8 = triton_helpers.maximum(tmp6, tmp7)
    tmp9 = libdevice.rsqrt(tmp8)
    tmp10 = tl_math.abs(tmp0)
    tmp11 = tl.full([1], 0.7, tl.float32)
    tmp12 = libdevice.pow(tmp10, tmp11)
    tmp13 = tmp9 + tmp12
    tl.store(out_ptr0 + (x0), tmp13, xmask)

META['triton_poi_fused_abs_add_clamp_min_gt_pow_rsqrt_scalar_tensor_where_0'] = {'graph': 'where_pow_rsqrt', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 128}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [8, 1, 1], 'launch': [['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], 1000]}


# ---- graph 'sigmoid_half': sigmoid(x) * y.half(), sigmoid(y)  (x fp16, y bf16: fp16 and bf16 outputs)
#      inputs: x: float16[33, 65], y: bfloat16[33, 65]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused__to_copy_mul_sigmoid_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2145
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (x0), xmask).to(tl.float32)
    tmp1 = tl.sigmoid(tmp0)
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp1 * tmp3
    tmp5 = tl.sigmoid(tmp2)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp5, xmask)

META['triton_poi_fused__to_copy_mul_sigmoid_0'] = {'graph': 'sigmoid_half', 'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*bf16', 'out_ptr0': '*fp16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [9, 1, 1], 'launch': [['tensor', [33, 65], [65, 1], 'float16', 0], ['tensor', [33, 65], [65, 1], 'bfloat16', 0], ['tensor', [33, 65], [65, 1], 'float16', 0], ['tensor', [33, 65], [65, 1], 'bfloat16', 0], 2145]}


# ---- graph 'logsumexp': torch.logsumexp(x, 1)  (45-long rows, 8 rows per program)
#      inputs: x: float32[100, 45]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}, {'XBLOCK': 32}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_logsumexp_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 100
    r0_numel = 45
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 45*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp4 = triton_helpers.max2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl_math.abs(tmp4)
    tmp6 = tl.full([1, 1], float("inf"), tl.float32)
    tmp7 = tmp5 == tmp6
    tmp8 = tl.full([1, 1], 0.0, tl.float32)
    tmp9 = tl.where(tmp7, tmp8, tmp4)
    tmp10 = tmp0 - tmp9
    tmp11 = libdevice.exp(tmp10)
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(r0_mask & xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tl_math.log(tmp15)
    tmp17 = tmp16 + tmp9
    tl.store(in_out_ptr0 + (x0), tmp17, xmask)

META['triton_per_fused_logsumexp_0'] = {'graph': 'logsumexp', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [13, 1, 1], 'launch': [['tensor', [100], [1], 'float32', 0], ['tensor', [100, 45], [45, 1], 'float32', 0], 100, 45]}


# ---- graph 'amax_amin': x.amax(dim=(0, 2)), x.amin(dim=(0, 2))  (reduction over an outer and an inner dim)
#      inputs: x: float32[4, 33, 45]
#      Inductor autotune configs: [{'XBLOCK': 1}]; chosen: {'XBLOCK': 1}

@triton.jit
def triton_per_fused_amax_amin_0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 33
    r0_numel = 180
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = (r0_index % 45)
    r0_2 = r0_index // 45
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 45*x0 + 1485*r0_2), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float("-inf"))
    tmp4 = triton_helpers.max2(tmp3, 1)[:, None].to(tl.float32)
    tmp6 = tl.where(r0_mask & xmask, tmp1, float("inf"))
    tmp7 = triton_helpers.min2(tmp6, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp7, xmask)

META['triton_per_fused_amax_amin_0'] = {'graph': 'amax_amin', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [33, 1, 1], 'launch': [['tensor', [4, 33, 45], [1485, 45, 1], 'float32', 0], ['tensor', [33], [1], 'float32', 0], ['tensor', [33], [1], 'float32', 0], 33, 180]}


# ---- graph 'instance_std': (x - x.mean((2, 3), keepdim=True)) / x.std((2, 3), keepdim=True)  (NCHW)
#      inputs: x: float32[2, 3, 7, 9]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_div_mean_std_sub_0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 63
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 63*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl.full([1, 1], 63.0, tl.float32)
    tmp6 = (tmp4 / tmp5)
    tmp7 = tmp0 - tmp6
    tmp8 = tmp7 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask & xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = tl.full([1, 1], 62.0, tl.float32)
    tmp14 = (tmp12 / tmp13)
    tmp15 = tl.sqrt_rn(tmp14)
    tmp16 = (tmp7 / tmp15)
    tl.store(out_ptr1 + (r0_1 + 63*x0), tmp16, r0_mask & xmask)

META['triton_per_fused_div_mean_std_sub_0'] = {'graph': 'instance_std', 'signature': {'in_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [2, 3, 7, 9], [189, 63, 9, 1], 'float32', 0], ['tensor', [2, 3, 7, 9], [189, 63, 9, 1], 'float32', 0], 6, 63]}


# ---- graph 'group_norm': torch.nn.functional.group_norm(x, 3, w, b)  (the statistics kernel: 6 groups of 70)
#      inputs: x: float32[2, 6, 5, 7], w: float32[6], b: float32[6]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_native_group_norm_0(in_out_ptr0, in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 70
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 70*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl.full([1, 1], 70.0, tl.float32)
    tmp6 = (tmp4 / tmp5)
    tmp7 = tmp0 - tmp6
    tmp8 = tmp7 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask & xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tl.store(in_out_ptr0 + (x0), tmp6, xmask)
    tl.store(out_ptr0 + (x0), tmp12, xmask)

META['triton_per_fused_native_group_norm_0'] = {'graph': 'group_norm', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [2, 3, 1, 1], [3, 1, 6, 6], 'float32', 0], ['tensor', [2, 6, 5, 7], [210, 35, 7, 1], 'float32', 0], ['tensor', [2, 3, 1, 1], [3, 1, 6, 6], 'float32', 0], 6, 70]}


# ---- graph 'embedding_bag': embedding(idx, w).sum(1)  (an embedding bag of 5 indices per row: 5 gathers unrolled)
#      inputs: idx: int64[9, 5], w: float32[50, 33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 128}

@triton.jit
def triton_poi_fused_embedding_sum_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 297
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 33
    x0 = (xindex % 33)
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (5*x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (1 + 5*x1), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr0 + (2 + 5*x1), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr0 + (3 + 5*x1), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr0 + (4 + 5*x1), xmask, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp0) & (tmp0 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp0 < 50")
    tmp2 = tl.load(in_ptr1 + (x0 + 33*tmp0), xmask)
    tl.device_assert(((0 <= tmp3) & (tmp3 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp3 < 50")
    tmp5 = tl.load(in_ptr1 + (x0 + 33*tmp3), xmask)
    tmp6 = tmp2 + tmp5
    tl.device_assert(((0 <= tmp7) & (tmp7 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 50")
    tmp9 = tl.load(in_ptr1 + (x0 + 33*tmp7), xmask)
    tmp10 = tmp6 + tmp9
    tl.device_assert(((0 <= tmp11) & (tmp11 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp11 < 50")
    tmp13 = tl.load(in_ptr1 + (x0 + 33*tmp11), xmask)
    tmp14 = tmp10 + tmp13
    tl.device_assert(((0 <= tmp15) & (tmp15 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp15 < 50")
    tmp17 = tl.load(in_ptr1 + (x0 + 33*tmp15), xmask)
    tmp18 = tmp14 + tmp17
    tl.store(out_ptr0 + (x2), tmp18, xmask)

META['triton_poi_fused_embedding_sum_0'] = {'graph': 'embedding_bag', 'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 128}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [9, 5], [5, 1], 'int64', 0], ['tensor', [50, 33], [33, 1], 'float32', 0], ['tensor', [9, 33], [33, 1], 'float32', 0], 297]}


# ---- graph 'index_select': torch.index_select(x, 1, idx) * 3  (gather along the inner dim)
#      inputs: x: float32[7, 100], idx: int64[33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_index_select_mul_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 231
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 33)
    x1 = xindex // 33
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = (tl.full([XBLOCK], 100, tl.int32)).to(tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 100)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 100")
    tmp6 = tl.load(in_ptr1 + (tmp4 + 100*x1), xmask, eviction_policy='evict_last')
    tmp7 = tl.full([1], 3.0, tl.float32)
    tmp8 = tmp6 * tmp7
    tl.store(out_ptr0 + (x2), tmp8, xmask)

META['triton_poi_fused_index_select_mul_0'] = {'graph': 'index_select', 'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [33], [1], 'int64', 0], ['tensor', [7, 100], [100, 1], 'float32', 0], ['tensor', [7, 33], [33, 1], 'float32', 0], 231]}


# ---- graph 'index_put_2d': x.index_put((i, j), v, accumulate=True)  (x[i, j] += v with repeated (i, j): atomics)
#      inputs: x: float32[50, 7], i: int64[33], j: int64[33], v: float32[33]
#      Inductor autotune configs: [{'XBLOCK': 64}]; chosen: {'XBLOCK': 64}

@triton.jit
def triton_poi_fused_index_put_1(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 33
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp6 = tl.load(in_ptr1 + (x0), xmask)
    tmp12 = tl.load(in_ptr2 + (x0), xmask)
    tmp1 = (tl.full([XBLOCK], 50, tl.int32)).to(tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 50")
    tmp7 = (tl.full([XBLOCK], 7, tl.int32)).to(tl.int32)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp6 < 0
    tmp10 = tl.where(tmp9, tmp8, tmp6)
    tl.device_assert(((0 <= tmp10) & (tmp10 < 7)) | ~(xmask), "index out of bounds: 0 <= tmp10 < 7")
    tl.atomic_add(out_ptr0 + (tl.broadcast_to(tmp10 + 7*tmp4, [XBLOCK])), tmp12, xmask, sem='relaxed')

META['triton_poi_fused_index_put_1'] = {'graph': 'index_put_2d', 'signature': {'in_ptr0': '*i64', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 64}, 'attrs': {(3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 1, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [33], [1], 'int64', 0], ['tensor', [33], [1], 'int64', 0], ['tensor', [33], [1], 'float32', 0], ['tensor', [50, 7], [7, 1], 'float32', 0], 33]}


# ---- graph 'cumsum_dim0': (x * 0.5).cumsum(0)  (scan along the outer dim: strided tiles, 32 columns per program)
#      inputs: x: float32[33, 45]
#      Inductor autotune configs: [{'XBLOCK': 32}]; chosen: {'XBLOCK': 32}

@triton.jit
def triton_per_fused_cumsum_mul_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 45
    r0_numel = 33
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 45*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.full([1, 1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp5, = tl.associative_scan((tmp4,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (x0 + 45*r0_1), tmp5, r0_mask & xmask)

META['triton_per_fused_cumsum_mul_0'] = {'graph': 'cumsum_dim0', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 32}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 8, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [2, 1, 1], 'launch': [['tensor', [33, 45], [45, 1], 'float32', 0], ['tensor', [33, 45], [45, 1], 'float32', 0], 45, 33]}


# ---- graph 'argmin_short': x.argmin(1)  (rows of 7: Inductor unrolls the comparisons, NaN-aware, into a pointwise kernel)
#      inputs: x: float32[100, 7]
#      Inductor autotune configs: [{'XBLOCK': 128}]; chosen: {'XBLOCK': 128}

@triton.jit
def triton_poi_fused_argmin_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 100
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (7*x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + 7*x0), xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr0 + (2 + 7*x0), xmask, eviction_policy='evict_last')
    tmp32 = tl.load(in_ptr0 + (3 + 7*x0), xmask, eviction_policy='evict_last')
    tmp47 = tl.load(in_ptr0 + (4 + 7*x0), xmask, eviction_policy='evict_last')
    tmp62 = tl.load(in_ptr0 + (5 + 7*x0), xmask, eviction_policy='evict_last')
    tmp77 = tl.load(in_ptr0 + (6 + 7*x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 < tmp1
    tmp3 = tmp0 == tmp1
    tmp4 = tmp0 != tmp0
    tmp5 = tmp1 != tmp1
    tmp6 = tmp4 > tmp5
    tmp7 = tmp2 | tmp6
    tmp8 = tmp4 & tmp5
    tmp9 = tmp3 | tmp8
    tmp10 = tl.full([1], 0, tl.int64)
    tmp11 = tl.full([1], 1, tl.int64)
    tmp12 = tmp10 < tmp11
    tmp13 = tmp9 & tmp12
    tmp14 = tmp7 | tmp13
    tmp15 = tl.where(tmp14, tmp0, tmp1)
    tmp16 = tl.where(tmp14, tmp10, tmp11)
    tmp18 = tmp15 < tmp17
    tmp19 = tmp15 == tmp17
    tmp20 = tmp15 != tmp15
    tmp21 = tmp17 != tmp17
    tmp22 = tmp20 > tmp21
    tmp23 = tmp18 | tmp22
    tmp24 = tmp20 & tmp21
    tmp25 = tmp19 | tmp24
    tmp26 = tl.full([1], 2, tl.int64)
    tmp27 = tmp16 < tmp26
    tmp28 = tmp25 & tmp27
    tmp29 = tmp23 | tmp28
    tmp30 = tl.where(tmp29, tmp15, tmp17)
    tmp31 = tl.where(tmp29, tmp16, tmp26)
    tmp33 = tmp30 < tmp32
    tmp34 = tmp30 == tmp32
    tmp35 = tmp30 != tmp30
    tmp36 = tmp32 != tmp32
    tmp37 = tmp35 > tmp36
    tmp38 = tmp33 | tmp37
    tmp39 = tmp35 & tmp36
    tmp40 = tmp34 | tmp39
    tmp41 = tl.full([1], 3, tl.int64)
    tmp42 = tmp31 < tmp41
    tmp43 = tmp40 & tmp42
    tmp44 = tmp38 | tmp43
    tmp45 = tl.where(tmp44, tmp30, tmp32)
    tmp46 = tl.where(tmp44, tmp31, tmp41)
    tmp48 = tmp45 < tmp47
    tmp49 = tmp45 == tmp47
    tmp50 = tmp45 != tmp45
    tmp51 = tmp47 != tmp47
    tmp52 = tmp50 > tmp51
    tmp53 = tmp48 | tmp52
    tmp54 = tmp50 & tmp51
    tmp55 = tmp49 | tmp54
    tmp56 = tl.full([1], 4, tl.int64)
    tmp57 = tmp46 < tmp56
    tmp58 = tmp55 & tmp57
    tmp59 = tmp53 | tmp58
    tmp60 = tl.where(tmp59, tmp45, tmp47)
    tmp61 = tl.where(tmp59, tmp46, tmp56)
    tmp63 = tmp60 < tmp62
    tmp64 = tmp60 == tmp62
    tmp65 = tmp60 != tmp60
    tmp66 = tmp62 != tmp62
    tmp67 = tmp65 > tmp66
    tmp68 = tmp63 | tmp67
    tmp69 = tmp65 & tmp66
    tmp70 = tmp64 | tmp69
    tmp71 = tl.full([1], 5, tl.int64)
    tmp72 = tmp61 < tmp71
    tmp73 = tmp70 & tmp72
    tmp74 = tmp68 | tmp73
    tmp75 = tl.where(tmp74, tmp60, tmp62)
    tmp76 = tl.where(tmp74, tmp61, tmp71)
    tmp78 = tmp75 < tmp77
    tmp79 = tmp75 == tmp77
    tmp80 = tmp75 != tmp75
    tmp81 = tmp77 != tmp77
    tmp82 = tmp80 > tmp81
    tmp83 = tmp78 | tmp82
    tmp84 = tmp80 & tmp81
    tmp85 = tmp79 | tmp84
    tmp86 = tl.full([1], 6, tl.int64)
    tmp87 = tmp76 < tmp86
    tmp88 = tmp85 & tmp87
    tmp89 = tmp83 | tmp88
    tmp90 = tl.where(tmp89, tmp75, tmp77)
    tmp91 = tl.where(tmp89, tmp76, tmp86)
    tl.store(out_ptr0 + (x0), tmp91, xmask)

META['triton_poi_fused_argmin_0'] = {'graph': 'argmin_short', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 128}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [100, 7], [7, 1], 'float32', 0], ['tensor', [100], [1], 'int64', 0], 100]}


# ---- graph 'transpose12': x.transpose(1, 2).contiguous() + 1  (3-D, 2-D tiles with YBLOCK)
#      inputs: x: float32[3, 33, 45]
#      Inductor autotune configs: [{'XBLOCK': 32, 'YBLOCK': 32}]; chosen: {'XBLOCK': 32, 'YBLOCK': 32}

@triton.jit
def triton_poi_fused_add_clone_transpose_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 135
    xnumel = 33
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % 45)
    y1 = yindex // 45
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + 45*x2 + 1485*y1), xmask & ymask)
    tmp1 = tl.full([1, 1], 1.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2 + 33*y3), tmp2, xmask & ymask)

META['triton_poi_fused_add_clone_transpose_0'] = {'graph': 'transpose12', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 32, 'YBLOCK': 32}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid2D', 'grid': [2, 5, 1], 'launch': [['tensor', [3, 33, 45], [1485, 45, 1], 'float32', 0], ['tensor', [3, 45, 33], [1485, 33, 1], 'float32', 0], 135, 33]}


# ---- graph 'cat3': torch.cat([a, b * 2, c], 1)  (one kernel per input, each writing a column range of the [7, 18] result through an offset pointer)
#      inputs: a: float32[7, 5], b: float32[7, 12], c: float32[7, 1]
#      Inductor autotune configs: [{'XBLOCK': 128}]; chosen: {'XBLOCK': 128}

@triton.jit
def triton_poi_fused_mul_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 84
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 12)
    x1 = xindex // 12
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x0 + 18*x1), tmp2, xmask)

META['triton_poi_fused_mul_1'] = {'graph': 'cat3', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 128}, 'attrs': {}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [7, 12], [12, 1], 'float32', 0], ['tensor', [7, 12], [18, 1], 'float32', 5], 84]}


# ---- graph 'slice_flip_pad': F.pad(x[:, ::2].flip(1), (1, 2, 0, 1), value=-1)  (step slice, flip, constant pad)
#      inputs: x: float32[7, 33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_constant_pad_nd_flip_slice_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 160
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = xindex // 20
    x0 = (xindex % 20)
    x2 = xindex
    tmp0 = (x1).to(tl.int32)
    tmp1 = tl.full([1], 7, tl.int64)
    tmp2 = tmp0 < tmp1
    tmp3 = ((-1) + x0).to(tl.int32)
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1], 17, tl.int64)
    tmp7 = tmp3 < tmp6
    tmp8 = tmp2 & tmp5
    tmp9 = tmp8 & tmp7
    tmp10 = tl.load(in_ptr0 + (34 + ((-2)*x0) + 33*x1), tmp9 & xmask, eviction_policy='evict_last', other=-1.0)
    tl.store(out_ptr0 + (x2), tmp10, xmask)

META['triton_poi_fused_constant_pad_nd_flip_slice_0'] = {'graph': 'slice_flip_pad', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [7, 33], [33, 1], 'float32', 0], ['tensor', [8, 20], [20, 1], 'float32', 0], 160]}


# ---- graph 'repeat_expand': x.repeat(2, 3) + y.expand(14, 33)
#      inputs: x: float32[7, 11], y: float32[1, 33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_expand_repeat_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 462
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 33)
    x1 = xindex // 33
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (11*((x1 % 7)) + ((x0 % 11))), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2), tmp2, xmask)

META['triton_poi_fused_add_expand_repeat_0'] = {'graph': 'repeat_expand', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [2, 1, 1], 'launch': [['tensor', [7, 11], [11, 1], 'float32', 0], ['tensor', [1, 33], [33, 1], 'float32', 0], ['tensor', [14, 33], [33, 1], 'float32', 0], 462]}


# ---- graph 'int8_dequant': (q.float() - zero[:, None].float()) * scale[:, None]  (int8 values, int32 zero points)
#      inputs: q: int8[33, 65], zero: int32[33], scale: float32[33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused__to_copy_mul_sub_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2145
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x1 = xindex // 65
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp2 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp1 - tmp3
    tmp6 = tmp4 * tmp5
    tl.store(out_ptr0 + (x2), tmp6, xmask)

META['triton_poi_fused__to_copy_mul_sub_unsqueeze_0'] = {'graph': 'int8_dequant', 'signature': {'in_ptr0': '*i8', 'in_ptr1': '*i32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [9, 1, 1], 'launch': [['tensor', [33, 65], [65, 1], 'int8', 0], ['tensor', [33], [1], 'int32', 0], ['tensor', [33], [1], 'float32', 0], ['tensor', [33, 65], [65, 1], 'float32', 0], 2145]}


# ---- graph 'sort_dim0': torch.sort(x.abs(), dim=0, descending=True, stable=True)  (sort along the outer dim, ties broken by index)
#      inputs: x: float32[12, 9]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_abs_sort_0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 9
    r0_numel = 12
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 9*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl_math.abs(tmp0)
    tmp2 = (r0_1).to(tl.int16)
    tmp3 = (tmp2).to(tl.int16)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6, tmp7, = triton_helpers.sort_with_index(tmp4, tmp5, rnumel, 1, stable=True, descending=True)
    tl.store(out_ptr0 + (x0 + 9*r0_1), tmp6, r0_mask & xmask)
    tl.store(out_ptr1 + (x0 + 9*r0_1), tmp7, r0_mask & xmask)

META['triton_per_fused_abs_sort_0'] = {'graph': 'sort_dim0', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [2, 1, 1], 'launch': [['tensor', [12, 9], [9, 1], 'float32', 0], ['tensor', [12, 9], [9, 1], 'float32', 0], ['tensor', [12, 9], [9, 1], 'int16', 0], 9, 12]}


# ---- graph 'col_norm': (x - x.mean(0)) / (x.std(0) + 1e-5)  (column normalisation: four kernels, all kept)
#      inputs: x: float32[350, 33]
#      Inductor autotune configs: [{'XBLOCK': 2, 'R0_BLOCK': 64}]; chosen: {'XBLOCK': 2, 'R0_BLOCK': 64}

@triton.jit
def triton_red_fused_mean_std_0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 99
    r0_numel = 117
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 33
    x0 = (xindex % 33)
    _tmp5 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + 117*x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 350, tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (x0 + 33*r0_2 + 3861*x1), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
        tmp6 = _tmp5 + tmp4
        _tmp5 = tl.where(r0_mask & xmask, tmp6, _tmp5)
    tmp5 = tl.sum(_tmp5, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp5, xmask)
    tl.store(out_ptr1 + (x3), tmp5, xmask)

META['triton_red_fused_mean_std_0'] = {'graph': 'col_norm', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 2, 'R0_BLOCK': 64}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [50, 1, 1], 'launch': [['tensor', [350, 33], [33, 1], 'float32', 0], ['tensor', [33, 3], [1, 33], 'float32', 0], ['tensor', [1, 33, 3], [99, 1, 33], 'float32', 0], 99, 117]}


# ---- graph 'col_norm': (x - x.mean(0)) / (x.std(0) + 1e-5)  (column normalisation: four kernels, all kept)
#      inputs: x: float32[350, 33]
#      Inductor autotune configs: [{'XBLOCK': 64}]; chosen: {'XBLOCK': 64}

@triton.jit
def triton_per_fused_mean_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 33
    r0_numel = 3
    R0_BLOCK: tl.constexpr = 4
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 33*r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)

META['triton_per_fused_mean_1'] = {'graph': 'col_norm', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 64}, 'attrs': {(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [33, 3], [1, 33], 'float32', 0], ['tensor', [33], [1], 'float32', 0], 33, 3]}


# ---- graph 'col_norm': (x - x.mean(0)) / (x.std(0) + 1e-5)  (column normalisation: four kernels, all kept)
#      inputs: x: float32[350, 33]
#      Inductor autotune configs: [{'XBLOCK': 2, 'R0_BLOCK': 64}]; chosen: {'XBLOCK': 2, 'R0_BLOCK': 64}

@triton.jit
def triton_red_fused_std_2(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 99
    r0_numel = 117
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 33
    x0 = (xindex % 33)
    _tmp12 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = (r0_2 + 117*x1).to(tl.int32)
        tmp1 = tl.full([1, 1], 350, tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (x0 + 33*r0_2 + 3861*x1), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.load(in_ptr1 + (tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tl.full([1, 1], 350.0, tl.float32)
        tmp6 = (tmp4 / tmp5)
        tmp7 = tmp3 - tmp6
        tmp8 = tmp7 * tmp7
        tmp9 = tl.full(tmp8.shape, 0, tmp8.dtype)
        tmp10 = tl.where(tmp2, tmp8, tmp9)
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 + tmp11
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
    tmp12 = tl.sum(_tmp12, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp12, xmask)

META['triton_red_fused_std_2'] = {'graph': 'col_norm', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 2, 'R0_BLOCK': 64}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [50, 1, 1], 'launch': [['tensor', [350, 33], [33, 1], 'float32', 0], ['tensor', [1, 33], [33, 1], 'float32', 0], ['tensor', [33, 3], [1, 33], 'float32', 0], 99, 117]}


# ---- graph 'col_norm': (x - x.mean(0)) / (x.std(0) + 1e-5)  (column normalisation: four kernels, all kept)
#      inputs: x: float32[350, 33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_div_mean_std_sub_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 11550
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 33)
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tl.full([1], 350.0, tl.float32)
    tmp3 = (tmp1 / tmp2)
    tmp4 = tmp0 - tmp3
    tmp6 = tl.full([1], 349.0, tl.float32)
    tmp7 = (tmp5 / tmp6)
    tmp8 = tl.sqrt_rn(tmp7)
    tmp9 = tl.full([1], 1e-05, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = (tmp4 / tmp10)
    tl.store(out_ptr0 + (x2), tmp11, xmask)

META['triton_poi_fused_add_div_mean_std_sub_3'] = {'graph': 'col_norm', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [46, 1, 1], 'launch': [['tensor', [350, 33], [33, 1], 'float32', 0], ['tensor', [33], [1], 'float32', 0], ['tensor', [33], [1], 'float32', 0], ['tensor', [350, 33], [33, 1], 'float32', 0], 11550]}


# ---- graph 'int64_rowsum': x.sum(1), (x > 0).sum(1), x.amax(1)  on int64 values beyond the int32 range
#      inputs: x: int64[7, 45]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused_amax_gt_sum_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 7
    r0_numel = 45
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 45*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.int64)
    tmp5 = tl.full([1, 1], 0, tl.int64)
    tmp6 = tmp0 > tmp5
    tmp7 = tmp6.to(tl.int64)
    tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask & xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.int64)
    tmp13 = tl.where(r0_mask & xmask, tmp1, -9223372036854775808)
    tmp14 = triton_helpers.max2(tmp13, 1)[:, None].to(tl.int64)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp11, xmask)
    tl.store(out_ptr2 + (x0), tmp14, xmask)

META['triton_per_fused_amax_gt_sum_0'] = {'graph': 'int64_rowsum', 'signature': {'in_ptr0': '*i64', 'out_ptr0': '*i64', 'out_ptr1': '*i64', 'out_ptr2': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [7, 45], [45, 1], 'int64', 0], ['tensor', [7], [1], 'int64', 0], ['tensor', [7], [1], 'int64', 0], ['tensor', [7], [1], 'int64', 0], 7, 45]}


# ---- graph 'int_divmod': floor division, remainder, trunc division, fmod, >> 3 and ^ of int32 tensors (Python vs C semantics on negative values)
#      inputs: a: int32[1000], b: int32[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused___rshift___bitwise_xor_div_fmod_remainder_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tl.full([1], 0, tl.int32)
    tmp3 = tl.full([1], 1, tl.int32)
    tmp4 = tmp1 == tmp2
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tmp6 = tmp5 < tmp2
    tmp7 = tmp2 - tmp0
    tmp8 = tl.where(tmp6, tmp7, tmp0)
    tmp9 = tmp2 - tmp5
    tmp10 = tl.where(tmp6, tmp9, tmp5)
    tmp11 = tmp8 < tmp2
    tmp12 = ~tmp8
    tmp13 = tl.where(tmp11, tmp12, tmp8)
    tmp14 = tmp13 // tmp10
    tmp15 = ~tmp14
    tmp16 = tl.where(tmp11, tmp15, tmp14)
    tmp17 = tl.where(tmp4, tmp2, tmp16)
    tmp18 = (tmp0 % tmp1)
    tmp19 = tmp18 != tmp2
    tmp20 = (libdevice.signbit(tmp18) != 0) if (tmp18).dtype is tl.float32 else tmp18 < 0
    tmp21 = (libdevice.signbit(tmp1) != 0) if (tmp1).dtype is tl.float32 else tmp1 < 0
    tmp22 = tmp20 != tmp21
    tmp23 = tmp19 & tmp22
    tmp24 = tmp18 + tmp1
    tmp25 = tl.where(tmp23, tmp24, tmp18)
    tmp26 = tmp0 // tmp1
    tmp27 = tmp0 ^ tmp1
    tmp28 = tl.full([1], 3, tl.int32)
    tmp29 = tmp0 >> tmp28
    tl.store(out_ptr0 + (x0), tmp17, xmask)
    tl.store(out_ptr1 + (x0), tmp25, xmask)
    tl.store(out_ptr2 + (x0), tmp26, xmask)
    tl.store(out_ptr3 + (x0), tmp18, xmask)
    tl.store(out_ptr4 + (x0), tmp27, xmask)
    tl.store(out_ptr5 + (x0), tmp29, xmask)

META['triton_poi_fused___rshift___bitwise_xor_div_fmod_remainder_0'] = {'graph': 'int_divmod', 'signature': {'in_ptr0': '*i32', 'in_ptr1': '*i32', 'out_ptr0': '*i32', 'out_ptr1': '*i32', 'out_ptr2': '*i32', 'out_ptr3': '*i32', 'out_ptr4': '*i32', 'out_ptr5': '*i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], ['tensor', [1000], [1], 'int32', 0], 1000]}


# ---- graph 'float_rounding': round, trunc, sign * floor, frac, remainder, fmod of float32 tensors
#      inputs: x: float32[1000], y: float32[1000]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_floor_fmod_frac_mul_remainder_round_sign_trunc_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp13 = tl.load(in_ptr1 + (x0), xmask)
    tmp1 = libdevice.nearbyint(tmp0)
    tmp2 = libdevice.trunc(tmp0)
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = tmp3 < tmp0
    tmp5 = tmp4.to(tl.int8)
    tmp6 = tmp0 < tmp3
    tmp7 = tmp6.to(tl.int8)
    tmp8 = tmp5 - tmp7
    tmp9 = tmp8.to(tmp0.dtype)
    tmp10 = libdevice.floor(tmp0)
    tmp11 = tmp9 * tmp10
    tmp12 = tmp0 - tmp2
    tmp14 = (tmp0 % tmp13)
    tmp15 = tmp14 != tmp3
    tmp16 = (libdevice.signbit(tmp14) != 0) if (tmp14).dtype is tl.float32 else tmp14 < 0
    tmp17 = (libdevice.signbit(tmp13) != 0) if (tmp13).dtype is tl.float32 else tmp13 < 0
    tmp18 = tmp16 != tmp17
    tmp19 = tmp15 & tmp18
    tmp20 = tmp14 + tmp13
    tmp21 = tl.where(tmp19, tmp20, tmp14)
    tmp22 = libdevice.fmod(tmp0, tmp13)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
    tl.store(out_ptr1 + (x0), tmp2, xmask)
    tl.store(out_ptr2 + (x0), tmp11, xmask)
    tl.store(out_ptr3 + (x0), tmp12, xmask)
    tl.store(out_ptr4 + (x0), tmp21, xmask)
    tl.store(out_ptr5 + (x0), tmp22, xmask)

META['triton_poi_fused_floor_fmod_frac_mul_remainder_round_sign_trunc_0'] = {'graph': 'float_rounding', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'out_ptr4': '*fp32', 'out_ptr5': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], ['tensor', [1000], [1], 'float32', 0], 1000]}


# ---- graph 'f64_dot': (x.double() * w).sum(-1)  (float32 input, float64 weights and result)
#      inputs: x: float32[33, 45], w: float64[45]
#      Inductor autotune configs: [{'XBLOCK': 1}, {'XBLOCK': 8}, {'XBLOCK': 32}]; chosen: {'XBLOCK': 8}

@triton.jit
def triton_per_fused__to_copy_mul_sum_0(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 33
    r0_numel = 45
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 45*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp2 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tmp0.to(tl.float64)
    tmp3 = tmp1 * tmp2
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float64)
    tl.store(out_ptr0 + (x0), tmp7, xmask)

META['triton_per_fused__to_copy_mul_sum_0'] = {'graph': 'f64_dot', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp64', 'out_ptr0': '*fp64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 8}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [5, 1, 1], 'launch': [['tensor', [33, 45], [45, 1], 'float32', 0], ['tensor', [45], [1], 'float64', 0], ['tensor', [33], [1], 'float64', 0], 33, 45]}


# ---- graph 'upsample_bilinear': F.interpolate(x, scale_factor=2, mode='bilinear')  (source indices computed in float and converted to int)
#      inputs: x: float32[1, 3, 7, 9]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_view_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 756
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 18) % 14)
    x0 = (xindex % 18)
    x2 = xindex // 252
    x4 = xindex
    tmp0 = (x1).to(tl.float32)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2 * tmp1
    tmp4 = tmp3 - tmp1
    tmp5 = tl.full([1], 0.0, tl.float32)
    tmp6 = triton_helpers.maximum(tmp4, tmp5)
    tmp7 = tmp6.to(tl.int32)
    tmp8 = (x0).to(tl.float32)
    tmp9 = tmp8 + tmp1
    tmp10 = tmp9 * tmp1
    tmp11 = tmp10 - tmp1
    tmp12 = triton_helpers.maximum(tmp11, tmp5)
    tmp13 = tmp12.to(tl.int32)
    tmp14 = tl.load(in_ptr0 + (tmp13 + 9*tmp7 + 63*x2), xmask, eviction_policy='evict_last')
    tmp15 = tl.full([1], 1, tl.int64)
    tmp16 = tmp13 + tmp15
    tmp17 = tl.full([1], 8, tl.int64)
    tmp18 = triton_helpers.minimum(tmp16, tmp17)
    tmp19 = tl.load(in_ptr0 + (tmp18 + 9*tmp7 + 63*x2), xmask, eviction_policy='evict_last')
    tmp20 = tmp19 - tmp14
    tmp21 = (tmp8).to(tl.float32)
    tmp22 = tmp21 + tmp1
    tmp23 = tmp22 * tmp1
    tmp24 = tmp23 - tmp1
    tmp25 = triton_helpers.maximum(tmp24, tmp5)
    tmp26 = tmp25.to(tl.int32)
    tmp27 = tmp26.to(tl.float32)
    tmp28 = tmp25 - tmp27
    tmp29 = triton_helpers.maximum(tmp28, tmp5)
    tmp30 = tl.full([1], 1.0, tl.float32)
    tmp31 = triton_helpers.minimum(tmp29, tmp30)
    tmp32 = tmp20 * tmp31
    tmp33 = tmp14 + tmp32
    tmp34 = tmp7 + tmp15
    tmp35 = tl.full([1], 6, tl.int64)
    tmp36 = triton_helpers.minimum(tmp34, tmp35)
    tmp37 = tl.load(in_ptr0 + (tmp13 + 9*tmp36 + 63*x2), xmask, eviction_policy='evict_last')
    tmp38 = tl.load(in_ptr0 + (tmp18 + 9*tmp36 + 63*x2), xmask, eviction_policy='evict_last')
    tmp39 = tmp38 - tmp37
    tmp40 = tmp39 * tmp31
    tmp41 = tmp37 + tmp40
    tmp42 = tmp41 - tmp33
    tmp43 = (tmp0).to(tl.float32)
    tmp44 = tmp43 + tmp1
    tmp45 = tmp44 * tmp1
    tmp46 = tmp45 - tmp1
    tmp47 = triton_helpers.maximum(tmp46, tmp5)
    tmp48 = tmp47.to(tl.int32)
    tmp49 = tmp48.to(tl.float32)
    tmp50 = tmp47 - tmp49
    tmp51 = triton_helpers.maximum(tmp50, tmp5)
    tmp52 = triton_helpers.minimum(tmp51, tmp30)
    tmp53 = tmp42 * tmp52
    tmp54 = tmp33 + tmp53
    tl.store(out_ptr0 + (x4), tmp54, xmask)

META['triton_poi_fused__to_copy__unsafe_index_add_arange_clamp_mul_sub_view_0'] = {'graph': 'upsample_bilinear', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [1, 3, 7, 9], [189, 63, 9, 1], 'float32', 0], ['tensor', [1, 3, 14, 18], [756, 252, 18, 1], 'float32', 0], 756]}


# ---- graph 'max_pool': F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
#      inputs: x: float32[2, 3, 9, 11]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_max_pool2d_with_indices_0(in_ptr0, out_ptr0, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 180
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 6) % 5)
    x0 = (xindex % 6)
    x2 = xindex // 30
    x4 = xindex
    tmp0 = ((-1) + 2*x1).to(tl.int32)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 9, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = ((-1) + 2*x0).to(tl.int32)
    tmp7 = tmp6 >= tmp1
    tmp8 = tl.full([1], 11, tl.int64)
    tmp9 = tmp6 < tmp8
    tmp10 = tmp7 & tmp9
    tmp11 = tmp5 & tmp10
    tmp12 = tl.load(in_ptr0 + ((-12) + 2*x0 + 22*x1 + 99*x2), tmp11 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp13 = (2*x0).to(tl.int32)
    tmp14 = tmp13 >= tmp1
    tmp15 = tmp13 < tmp8
    tmp16 = tmp14 & tmp15
    tmp17 = tmp5 & tmp16
    tmp18 = tl.load(in_ptr0 + ((-11) + 2*x0 + 22*x1 + 99*x2), tmp17 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp19 = triton_helpers.maximum(tmp12, tmp18)
    tmp20 = (1 + 2*x0).to(tl.int32)
    tmp21 = tmp20 >= tmp1
    tmp22 = tmp20 < tmp8
    tmp23 = tmp21 & tmp22
    tmp24 = tmp5 & tmp23
    tmp25 = tl.load(in_ptr0 + ((-10) + 2*x0 + 22*x1 + 99*x2), tmp24 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp26 = triton_helpers.maximum(tmp19, tmp25)
    tmp27 = (2*x1).to(tl.int32)
    tmp28 = tmp27 >= tmp1
    tmp29 = tmp27 < tmp3
    tmp30 = tmp28 & tmp29
    tmp31 = tmp30 & tmp10
    tmp32 = tl.load(in_ptr0 + ((-1) + 2*x0 + 22*x1 + 99*x2), tmp31 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp33 = triton_helpers.maximum(tmp26, tmp32)
    tmp34 = tmp30 & tmp16
    tmp35 = tl.load(in_ptr0 + (2*x0 + 22*x1 + 99*x2), tmp34 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp36 = triton_helpers.maximum(tmp33, tmp35)
    tmp37 = tmp30 & tmp23
    tmp38 = tl.load(in_ptr0 + (1 + 2*x0 + 22*x1 + 99*x2), tmp37 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp39 = triton_helpers.maximum(tmp36, tmp38)
    tmp40 = (1 + 2*x1).to(tl.int32)
    tmp41 = tmp40 >= tmp1
    tmp42 = tmp40 < tmp3
    tmp43 = tmp41 & tmp42
    tmp44 = tmp43 & tmp10
    tmp45 = tl.load(in_ptr0 + (10 + 2*x0 + 22*x1 + 99*x2), tmp44 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp46 = triton_helpers.maximum(tmp39, tmp45)
    tmp47 = tmp43 & tmp16
    tmp48 = tl.load(in_ptr0 + (11 + 2*x0 + 22*x1 + 99*x2), tmp47 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp49 = triton_helpers.maximum(tmp46, tmp48)
    tmp50 = tmp43 & tmp23
    tmp51 = tl.load(in_ptr0 + (12 + 2*x0 + 22*x1 + 99*x2), tmp50 & xmask, eviction_policy='evict_last', other=float("-inf"))
    tmp52 = triton_helpers.maximum(tmp49, tmp51)
    tmp53 = tmp12 > tmp18
    tmp54 = tmp12 == tmp18
    tmp55 = tmp12 != tmp12
    tmp56 = tmp18 != tmp18
    tmp57 = tmp55 > tmp56
    tmp58 = tmp53 | tmp57
    tmp59 = tmp55 & tmp56
    tmp60 = tmp54 | tmp59
    tmp61 = tl.full([1], 1, tl.int64)
    tmp62 = tmp1 < tmp61
    tmp63 = tmp60 & tmp62
    tmp64 = tmp58 | tmp63
    tmp65 = tl.where(tmp64, tmp12, tmp18)
    tmp66 = tl.where(tmp64, tmp1, tmp61)
    tmp67 = tmp65 > tmp25
    tmp68 = tmp65 == tmp25
    tmp69 = tmp65 != tmp65
    tmp70 = tmp25 != tmp25
    tmp71 = tmp69 > tmp70
    tmp72 = tmp67 | tmp71
    tmp73 = tmp69 & tmp70
    tmp74 = tmp68 | tmp73
    tmp75 = tl.full([1], 2, tl.int64)
    tmp76 = tmp66 < tmp75
    tmp77 = tmp74 & tmp76
    tmp78 = tmp72 | tmp77
    tmp79 = tl.where(tmp78, tmp65, tmp25)
    tmp80 = tl.where(tmp78, tmp66, tmp75)
    tmp81 = tmp79 > tmp32
    tmp82 = tmp79 == tmp32
    tmp83 = tmp79 != tmp79
    tmp84 = tmp32 != tmp32
    tmp85 = tmp83 > tmp84
    tmp86 = tmp81 | tmp85
    tmp87 = tmp83 & tmp84
    tmp88 = tmp82 | tmp87
    tmp89 = tl.full([1], 3, tl.int64)
    tmp90 = tmp80 < tmp89
    tmp91 = tmp88 & tmp90
    tmp92 = tmp86 | tmp91
    tmp93 = tl.where(tmp92, tmp79, tmp32)
    tmp94 = tl.where(tmp92, tmp80, tmp89)
    tmp95 = tmp93 > tmp35
    tmp96 = tmp93 == tmp35
    tmp97 = tmp93 != tmp93
    tmp98 = tmp35 != tmp35
    tmp99 = tmp97 > tmp98
    tmp100 = tmp95 | tmp99
    tmp101 = tmp97 & tmp98
    tmp102 = tmp96 | tmp101
    tmp103 = tl.full([1], 4, tl.int64)
    tmp104 = tmp94 < tmp103
    tmp105 = tmp102 & tmp104
    tmp106 = tmp100 | tmp105
    tmp107 = tl.where(tmp106, tmp93, tmp35)
    tmp108 = tl.where(tmp106, tmp94, tmp103)
    tmp109 = tmp107 > tmp38
    tmp110 = tmp107 == tmp38
    tmp111 = tmp107 != tmp107
    tmp112 = tmp38 != tmp38
    tmp113 = tmp111 > tmp112
    tmp114 = tmp109 | tmp113
    tmp115 = tmp111 & tmp112
    tmp116 = tmp110 | tmp115
    tmp117 = tl.full([1], 5, tl.int64)
    tmp118 = tmp108 < tmp117
    tmp119 = tmp116 & tmp118
    tmp120 = tmp114 | tmp119
    tmp121 = tl.where(tmp120, tmp107, tmp38)
    tmp122 = tl.where(tmp120, tmp108, tmp117)
    tmp123 = tmp121 > tmp45
    tmp124 = tmp121 == tmp45
    tmp125 = tmp121 != tmp121
    tmp126 = tmp45 != tmp45
    tmp127 = tmp125 > tmp126
    tmp128 = tmp123 | tmp127
    tmp129 = tmp125 & tmp126
    tmp130 = tmp124 | tmp129
    tmp131 = tl.full([1], 6, tl.int64)
    tmp132 = tmp122 < tmp131
    tmp133 = tmp130 & tmp132
    tmp134 = tmp128 | tmp133
    tmp135 = tl.where(tmp134, tmp121, tmp45)
    tmp136 = tl.where(tmp134, tmp122, tmp131)
    tmp137 = tmp135 > tmp48
    tmp138 = tmp135 == tmp48
    tmp139 = tmp135 != tmp135
    tmp140 = tmp48 != tmp48
    tmp141 = tmp139 > tmp140
    tmp142 = tmp137 | tmp141
    tmp143 = tmp139 & tmp140
    tmp144 = tmp138 | tmp143
    tmp145 = tl.full([1], 7, tl.int64)
    tmp146 = tmp136 < tmp145
    tmp147 = tmp144 & tmp146
    tmp148 = tmp142 | tmp147
    tmp149 = tl.where(tmp148, tmp135, tmp48)
    tmp150 = tl.where(tmp148, tmp136, tmp145)
    tmp151 = tmp149 > tmp51
    tmp152 = tmp149 == tmp51
    tmp153 = tmp149 != tmp149
    tmp154 = tmp51 != tmp51
    tmp155 = tmp153 > tmp154
    tmp156 = tmp151 | tmp155
    tmp157 = tmp153 & tmp154
    tmp158 = tmp152 | tmp157
    tmp159 = tl.full([1], 8, tl.int64)
    tmp160 = tmp150 < tmp159
    tmp161 = tmp158 & tmp160
    tmp162 = tmp156 | tmp161
    tmp163 = tl.where(tmp162, tmp149, tmp51)
    tmp164 = tl.where(tmp162, tmp150, tmp159)
    tmp165 = tmp164.to(tl.int8)
    tmp166 = (tl.full([XBLOCK], 9, tl.int32)).to(tl.int32)
    tmp167 = tmp165 + tmp166
    tmp168 = tmp165 < 0
    tmp169 = tl.where(tmp168, tmp167, tmp165)
    tl.device_assert(((0 <= tmp169) & (tmp169 < 9)) | ~(xmask), "index out of bounds: 0 <= tmp169 < 9")
    tmp171 = ((-12) + tmp169 + 2*x0 + 8*(tmp169 // 3) + 22*x1).to(tl.int64)
    tmp172 = (tmp171).to(tl.int64)
    tl.store(out_ptr0 + (x4), tmp52, xmask)
    tl.store(out_ptr2 + (x4), tmp172, xmask)

META['triton_poi_fused_max_pool2d_with_indices_0'] = {'graph': 'max_pool', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr2': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [2, 3, 9, 11], [297, 99, 11, 1], 'float32', 0], ['tensor', [2, 3, 5, 6], [90, 30, 6, 1], 'float32', 0], ['tensor', [2, 3, 5, 6], [90, 30, 6, 1], 'int64', 0], 180]}


# ---- graph 'avg_pool': F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)
#      inputs: x: float32[2, 3, 9, 11]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_avg_pool2d_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 180
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 6) % 5)
    x0 = (xindex % 6)
    x2 = xindex // 30
    x4 = xindex
    tmp0 = ((-1) + 2*x1).to(tl.int32)
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 9, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = ((-1) + 2*x0).to(tl.int32)
    tmp7 = tmp6 >= tmp1
    tmp8 = tl.full([1], 11, tl.int64)
    tmp9 = tmp6 < tmp8
    tmp10 = tmp7 & tmp9
    tmp11 = tmp5 & tmp10
    tmp12 = tl.load(in_ptr0 + ((-12) + 2*x0 + 22*x1 + 99*x2), tmp11 & xmask, eviction_policy='evict_last', other=0.0)
    tmp13 = (2*x0).to(tl.int32)
    tmp14 = tmp13 >= tmp1
    tmp15 = tmp13 < tmp8
    tmp16 = tmp14 & tmp15
    tmp17 = tmp5 & tmp16
    tmp18 = tl.load(in_ptr0 + ((-11) + 2*x0 + 22*x1 + 99*x2), tmp17 & xmask, eviction_policy='evict_last', other=0.0)
    tmp19 = tmp12 + tmp18
    tmp20 = (1 + 2*x0).to(tl.int32)
    tmp21 = tmp20 >= tmp1
    tmp22 = tmp20 < tmp8
    tmp23 = tmp21 & tmp22
    tmp24 = tmp5 & tmp23
    tmp25 = tl.load(in_ptr0 + ((-10) + 2*x0 + 22*x1 + 99*x2), tmp24 & xmask, eviction_policy='evict_last', other=0.0)
    tmp26 = tmp19 + tmp25
    tmp27 = (2*x1).to(tl.int32)
    tmp28 = tmp27 >= tmp1
    tmp29 = tmp27 < tmp3
    tmp30 = tmp28 & tmp29
    tmp31 = tmp30 & tmp10
    tmp32 = tl.load(in_ptr0 + ((-1) + 2*x0 + 22*x1 + 99*x2), tmp31 & xmask, eviction_policy='evict_last', other=0.0)
    tmp33 = tmp26 + tmp32
    tmp34 = tmp30 & tmp16
    tmp35 = tl.load(in_ptr0 + (2*x0 + 22*x1 + 99*x2), tmp34 & xmask, eviction_policy='evict_last', other=0.0)
    tmp36 = tmp33 + tmp35
    tmp37 = tmp30 & tmp23
    tmp38 = tl.load(in_ptr0 + (1 + 2*x0 + 22*x1 + 99*x2), tmp37 & xmask, eviction_policy='evict_last', other=0.0)
    tmp39 = tmp36 + tmp38
    tmp40 = (1 + 2*x1).to(tl.int32)
    tmp41 = tmp40 >= tmp1
    tmp42 = tmp40 < tmp3
    tmp43 = tmp41 & tmp42
    tmp44 = tmp43 & tmp10
    tmp45 = tl.load(in_ptr0 + (10 + 2*x0 + 22*x1 + 99*x2), tmp44 & xmask, eviction_policy='evict_last', other=0.0)
    tmp46 = tmp39 + tmp45
    tmp47 = tmp43 & tmp16
    tmp48 = tl.load(in_ptr0 + (11 + 2*x0 + 22*x1 + 99*x2), tmp47 & xmask, eviction_policy='evict_last', other=0.0)
    tmp49 = tmp46 + tmp48
    tmp50 = tmp43 & tmp23
    tmp51 = tl.load(in_ptr0 + (12 + 2*x0 + 22*x1 + 99*x2), tmp50 & xmask, eviction_policy='evict_last', other=0.0)
    tmp52 = tmp49 + tmp51
    tmp53 = (((0) * ((0) >= ((-1) + 2*x0)) + ((-1) + 2*x0) * (((-1) + 2*x0) > (0)))*((0) * ((0) >= ((-1) + 2*x1)) + ((-1) + 2*x1) * (((-1) + 2*x1) > (0))) + ((9) * ((9) <= (2 + 2*x1)) + (2 + 2*x1) * ((2 + 2*x1) < (9)))*((11) * ((11) <= (2 + 2*x0)) + (2 + 2*x0) * ((2 + 2*x0) < (11))) + ((-1)*((0) * ((0) >= ((-1) + 2*x0)) + ((-1) + 2*x0) * (((-1) + 2*x0) > (0)))*((9) * ((9) <= (2 + 2*x1)) + (2 + 2*x1) * ((2 + 2*x1) < (9)))) + ((-1)*((0) * ((0) >= ((-1) + 2*x1)) + ((-1) + 2*x1) * (((-1) + 2*x1) > (0)))*((11) * ((11) <= (2 + 2*x0)) + (2 + 2*x0) * ((2 + 2*x0) < (11))))).to(tl.int32)
    tmp54 = (tmp52 / tmp53)
    tl.store(out_ptr0 + (x4), tmp54, xmask)

META['triton_poi_fused_avg_pool2d_0'] = {'graph': 'avg_pool', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [2, 3, 9, 11], [297, 99, 11, 1], 'float32', 0], ['tensor', [2, 3, 5, 6], [90, 30, 6, 1], 'float32', 0], 180]}


# ---- graph 'bucketize': torch.bucketize(x, boundaries)  (triton_helpers.bucketize_binary_search)
#      inputs: x: float32[1000], boundaries: float32[17]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}, {'XBLOCK': 64}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_bucketize_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = triton_helpers.bucketize_binary_search(tmp0, in_ptr1, 17, 17, 1, 0, tl.int64, False, None, None, None, )
    tl.store(out_ptr0 + (x0), tmp1, xmask)

META['triton_poi_fused_bucketize_0'] = {'graph': 'bucketize', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [1000], [1], 'float32', 0], ['tensor', [17], [1], 'float32', 0], ['tensor', [1000], [1], 'int64', 0], 1000]}


# ---- graph 'u8_normalize': ((img.float() / 255) - mean[:, None, None]) / std[:, None, None], img.int() * 3 + (img >> 4)  (uint8 image input)
#      inputs: img: uint8[3, 17, 19], mean: float32[3], std: float32[3]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused___rshift____to_copy_add_div_mul_sub_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 969
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x1 = xindex // 323
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp4 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr2 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 255.0, tl.float32)
    tmp3 = (tmp1 / tmp2)
    tmp5 = tmp3 - tmp4
    tmp7 = (tmp5 / tmp6)
    tmp8 = tmp0.to(tl.int32)
    tmp9 = tl.full([1], 3, tl.int32)
    tmp10 = tmp8 * tmp9
    tmp11 = tl.full([1], 4, tl.uint8)
    tmp12 = tmp0 >> tmp11
    tmp13 = tmp12.to(tl.int32)
    tmp14 = tmp10 + tmp13
    tl.store(out_ptr0 + (x2), tmp7, xmask)
    tl.store(out_ptr1 + (x2), tmp14, xmask)

META['triton_poi_fused___rshift____to_copy_add_div_mul_sub_unsqueeze_0'] = {'graph': 'u8_normalize', 'signature': {'in_ptr0': '*u8', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [4, 1, 1], 'launch': [['tensor', [3, 17, 19], [323, 19, 1], 'uint8', 0], ['tensor', [3], [1], 'float32', 0], ['tensor', [3], [1], 'float32', 0], ['tensor', [3, 17, 19], [323, 19, 1], 'float32', 0], ['tensor', [3, 17, 19], [323, 19, 1], 'int32', 0], 969]}


# ---- graph 'cumsum_long': x.cumsum(-1) on rows of 5000  (looped scan: the carry between blocks is kept in registers)
#      inputs: x: float32[3, 5000]
#      Inductor autotune configs: [{'XBLOCK': 1, 'R0_BLOCK': 2048}]; chosen: {'XBLOCK': 1, 'R0_BLOCK': 2048}

@triton.jit
def triton_red_fused_cumsum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 3
    r0_numel = 5000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3 = tl.full([XBLOCK, 1], float('nan'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 5000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
        tmp5 = triton_helpers.select_one((tmp4), rbase == (RBLOCK - 1), dim=-1, keep_dims=True)
        tmp6 = tmp3 + tmp5
        tmp7 = tmp3 + tmp4
        tmp8 = tl.where(roffset > 0, tmp7, tmp4)
        tmp3 = tl.where(roffset > 0, tmp6, tmp5)
        tl.store(out_ptr0 + (r0_1 + 5000*x0), tmp8, r0_mask & xmask)

META['triton_red_fused_cumsum_0'] = {'graph': 'cumsum_long', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 1, 'R0_BLOCK': 2048}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 16, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [3, 1, 1], 'launch': [['tensor', [3, 5000], [5000, 1], 'float32', 0], ['tensor', [3, 5000], [5000, 1], 'float32', 0], 3, 5000]}


# ---- graph 'roll': torch.roll(x, 5, 1) * 2  (wrap-around index (28 + x0) % 33)
#      inputs: x: float32[7, 33]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_mul_roll_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 231
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 33)
    x1 = xindex // 33
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (33*x1 + (((28 + x0) % 33))), xmask)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x2), tmp2, xmask)

META['triton_poi_fused_mul_roll_0'] = {'graph': 'roll', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [7, 33], [33, 1], 'float32', 0], ['tensor', [7, 33], [33, 1], 'float32', 0], 231]}


# ---- graph 'repeat_interleave': torch.repeat_interleave(x, 3, dim=1) + 1  (every element read 3 times: x2 // 3)
#      inputs: x: float32[7, 11]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_clone_expand_unsqueeze_view_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 231
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x2 // 3), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1], 1.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2), tmp2, xmask)

META['triton_poi_fused_add_clone_expand_unsqueeze_view_0'] = {'graph': 'repeat_interleave', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [7, 11], [11, 1], 'float32', 0], ['tensor', [7, 33], [33, 1], 'float32', 0], 231]}


# ---- graph 'pixel_shuffle': F.pixel_shuffle(x, 2) + 1  (nested // 2 and % 2 in the source address)
#      inputs: x: float32[1, 8, 5, 7]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_pixel_shuffle_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 280
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 14)
    x1 = ((xindex // 14) % 10)
    x2 = xindex // 140
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (7*(x1 // 2) + 35*((x0 % 2)) + 70*((x1 % 2)) + 140*x2 + (x0 // 2)), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1], 1.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x3), tmp2, xmask)

META['triton_poi_fused_add_pixel_shuffle_0'] = {'graph': 'pixel_shuffle', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [2, 1, 1], 'launch': [['tensor', [1, 8, 5, 7], [280, 35, 7, 1], 'float32', 0], ['tensor', [1, 2, 10, 14], [280, 140, 14, 1], 'float32', 0], 280]}


# ---- graph 'unfold_sum': x.unfold(1, 4, 3).sum(-1)  (overlapping windows of 4 with step 3)
#      inputs: x: float32[5, 40]
#      Inductor autotune configs: [{'XBLOCK': 128}]; chosen: {'XBLOCK': 128}

@triton.jit
def triton_poi_fused_sum_unfold_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 13)
    x1 = xindex // 13
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (3*x0 + 40*x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + (1 + 3*x0 + 40*x1), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr0 + (2 + 3*x0 + 40*x1), xmask, eviction_policy='evict_last')
    tmp5 = tl.load(in_ptr0 + (3 + 3*x0 + 40*x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tl.store(out_ptr0 + (x2), tmp6, xmask)

META['triton_poi_fused_sum_unfold_0'] = {'graph': 'unfold_sum', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 128}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [1, 1, 1], 'launch': [['tensor', [5, 40], [40, 1], 'float32', 0], ['tensor', [5, 13], [13, 1], 'float32', 0], 65]}


# ---- graph 'dyn_bias_silu': silu(x * 2 + b) compiled with dynamic=True  (x0 = xindex % ks0, ks0 a runtime argument)
#      inputs: x: float32[37, 45], b: float32[45]
#      Inductor autotune configs: [{'XBLOCK': 256}, {'XBLOCK': 128}]; chosen: {'XBLOCK': 256}

@triton.jit
def triton_poi_fused_add_mul_silu_0(in_ptr0, in_ptr1, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % ks0)
    tmp0 = tl.load(in_ptr0 + (x2), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = -tmp4
    tmp6 = libdevice.exp(tmp5)
    tmp7 = tl.full([1], 1.0, tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = (tmp4 / tmp8)
    tl.store(out_ptr0 + (x2), tmp9, xmask)

META['triton_poi_fused_add_mul_silu_0'] = {'graph': 'dyn_bias_silu', 'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 256}, 'attrs': {(2,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [7, 1, 1], 'launch': [['tensor', [37, 45], [45, 1], 'float32', 0], ['tensor', [45], [1], 'float32', 0], ['tensor', [37, 45], [45, 1], 'float32', 0], 45, 1665]}


# ---- graph 'dyn_softmax': torch.softmax(x * 0.5, -1) compiled with dynamic=True  (looped, runtime row length and stride)
#      inputs: x: float32[13, 100]
#      Inductor autotune configs: [{'XBLOCK': 2, 'R0_BLOCK': 128}]; chosen: {'XBLOCK': 2, 'R0_BLOCK': 128}

@triton.jit
def triton_red_fused__softmax_abs_all_amax_eq_mul_ne_sub_0(in_out_ptr0, in_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    _tmp19 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.full([1, 1], 0.5, tl.float32)
        tmp2 = tmp0 * tmp1
        tmp3 = tmp2 == tmp2
        tmp4 = tl_math.abs(tmp2)
        tmp5 = tl.full([1, 1], float("inf"), tl.float32)
        tmp6 = tmp4 != tmp5
        tmp7 = tmp3 & tmp6
        tmp8 = tmp7 == 0
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 | tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
        tmp13 = tl.full([1, 1], 1.0, tl.float32)
        tmp14 = tmp0 * tmp13
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = triton_helpers.maximum(_tmp16, tmp15)
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tmp18 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp20 = triton_helpers.maximum(_tmp19, tmp18)
        _tmp19 = tl.where(r0_mask & xmask, tmp20, _tmp19)
    tmp12 = _tmp10.to(tl.int8)
    tmp10 = triton_helpers.any(tmp12, 1)[:, None]
    tmp16 = triton_helpers.max2(_tmp16, 1)[:, None]
    tmp19 = triton_helpers.max2(_tmp19, 1)[:, None]
    _tmp33 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp22 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp21 = tmp10 == 0
        tmp23 = tl.full([1, 1], 1.0, tl.float32)
        tmp24 = tmp22 * tmp23
        tmp25 = tmp24 - tmp16
        tmp26 = tl.full([1, 1], 0.5, tl.float32)
        tmp27 = tmp25 * tmp26
        tmp28 = tmp22 * tmp26
        tmp29 = tmp28 - tmp19
        tmp30 = tl.where(tmp21, tmp27, tmp29)
        tmp31 = libdevice.exp(tmp30)
        tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
        tmp34 = _tmp33 + tmp32
        _tmp33 = tl.where(r0_mask & xmask, tmp34, _tmp33)
        tl.store(in_out_ptr0 + (r0_1 + ks0*x0), tmp31, r0_mask & xmask)
    tmp33 = tl.sum(_tmp33, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp35 = tl.load(in_out_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp36 = (tmp35 / tmp33)
        tl.store(in_out_ptr0 + (r0_1 + ks0*x0), tmp36, r0_mask & xmask)

META['triton_red_fused__softmax_abs_all_amax_eq_mul_ne_sub_0'] = {'graph': 'dyn_softmax', 'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'constants': {'XBLOCK': 2, 'R0_BLOCK': 128}, 'attrs': {(0,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 2, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid1D', 'grid': [7, 1, 1], 'launch': [['tensor', [13, 100], [100, 1], 'float32', 0], ['tensor', [13, 100], [100, 1], 'float32', 0], 100, 13, 100]}


# ---- graph 'dyn_permute': x.permute(0, 2, 1).contiguous() * 2 compiled with dynamic=True  (2-D tiles, runtime sizes in the index math)
#      inputs: x: float32[3, 33, 45]
#      Inductor autotune configs: [{'XBLOCK': 32, 'YBLOCK': 32}, {'XBLOCK': 64, 'YBLOCK': 64}, {'XBLOCK': 16, 'YBLOCK': 256}, {'XBLOCK': 64, 'YBLOCK': 4}, {'XBLOCK': 1, 'YBLOCK': 256}]; chosen: {'XBLOCK': 32, 'YBLOCK': 32}

@triton.jit
def triton_poi_fused_clone_mul_permute_0(in_ptr0, out_ptr0, ks0, ks1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % ks0)
    y1 = yindex // ks0
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + ks0*x2 + ks0*ks1*y1), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tl.full([1, 1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x2 + ks1*y3), tmp2, xmask & ymask)

META['triton_poi_fused_clone_mul_permute_0'] = {'graph': 'dyn_permute', 'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'ks1': 'i64', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'constants': {'XBLOCK': 32, 'YBLOCK': 32}, 'attrs': {(1,): [['tt.divisibility', 16]]}, 'options': {'num_warps': 4, 'num_stages': 1, 'debug': True, 'sanitize_overflow': False, 'enable_fp_fusion': True}, 'grid_type': 'Grid2DWithYZOverflow', 'grid': [2, 5, 1], 'launch': [['tensor', [3, 33, 45], [1485, 45, 1], 'float32', 0], ['tensor', [3, 45, 33], [1485, 33, 1], 'float32', 0], 45, 33, 135, 33]}
