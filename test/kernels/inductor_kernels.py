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
