"""Performance regression guards. Simulated cycles are deterministic, so
the kernels of `benchmarks/suite.py` and `benchmarks/variants.py`, at small
sizes and with one config each, have their cycles pinned: a change of the
compiler or of the timing model that moves one by more than PIN_TOLERANCE
fails here, a slowdown as a regression and a speedup as a pin to update
(with the new figure in the commit that earns it). Each launch is also
checked against torch, as the benchmarks check it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from mtia_compiler.backend import launches

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import suite  # noqa: E402 (after its folder is on the path)
import variants  # noqa: E402

#: How far a kernel's cycles may move from its pin.
PIN_TOLERANCE = 0.03


class Pin(NamedTuple):
    family: str
    size: suite.Size
    config: str
    cycles: int


#: Kernels of both benchmarks in the forms users write: GEMM, attention,
#: row-wise and reduction kernels, memory-bound and DPE-bound.
PINS = [
    Pin("gemm_fp16", (512, 512, 512), "BLOCK_M=128 BLOCK_N=128 BLOCK_K=64 GROUP_M=8", 18_279),
    Pin("attention_d64", (512,), "BLOCK_M=64 BLOCK_N=64 num_stages=3", 19_227),
    Pin("attention_d128_causal", (512,), "BLOCK_M=64 BLOCK_N=64 num_stages=3", 34_272),
    Pin("softmax", (512, 1024), "programs=64", 36_225),
    Pin("layernorm", (512, 1024), "tutorial loop BLOCK_SIZE=1024", 35_587),
    Pin("gemm/tutorial", (512, 512, 512),
        "BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32 GROUP_SIZE_M=8 num_warps=4 "
        "num_stages=4", 20_439),
    # The tutorial's largest block, whose 128 KiB accumulator the kernel
    # keeps whole beside the loads' prefetch pages (not in strips of rows;
    # the `% M` fallback gathers in strips instead of holding 120 KB of
    # offsets and masks).
    Pin("gemm/tutorial", (512, 512, 512),
        "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 num_warps=8 "
        "num_stages=3", 25_205),
    Pin("gemm/transposed_b", (512, 512, 512),
        "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 GROUP_M=8 num_warps=8 num_stages=3", 28_370),
    Pin("gemm/plain_grid", (512, 512, 512),
        "BLOCK_M=128 BLOCK_N=128 BLOCK_K=32 num_warps=4 num_stages=4", 20_439),
    Pin("gemm/linear_gelu", (512, 512, 512),
        "BLOCK_M=128 BLOCK_N=128 BLOCK_K=32 GROUP_M=8 num_warps=4 num_stages=4", 21_455),
    Pin("attention/exp_causal", (1, 4, 512, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 20_535),
    Pin("attention/gqa_causal", (1, 4, 2, 512, 128),
        "BLOCK_M=64 BLOCK_N=64 num_warps=4 num_stages=3", 21_790),
    # The 128 columns of the block narrowed to the head's 80 (18,493
    # cycles before).
    Pin("attention/head_dim_80", (1, 4, 512, 80),
        "BLOCK_M=64 BLOCK_N=32 num_warps=4 num_stages=4", 17_981),
    Pin("attention/exp2", (1, 4, 512, 64), "BLOCK_M=128 BLOCK_N=128 num_warps=8 num_stages=2",
        20_165),
    # K^T and V through pointers the loop advances: pipelined once the
    # pointers are functions of the induction variable (28,381 cycles
    # before).
    Pin("attention/advanced_pointers", (1, 4, 512, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 17_627),
    # Triton 3.9's tutorial form, blocks through tensor descriptors: dots
    # computed ahead as for loads through pointers (28,460 cycles before).
    Pin("attention/tensor_descriptor", (1, 4, 512, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 17_627),
    Pin("memory/softmax_looped", (64, 4096), "BLOCK_SIZE=1024 num_warps=4 num_stages=3", 17_881),
    Pin("memory/row_sum", (512, 1024), "XBLOCK=8 RBLOCK=512 num_warps=4 num_stages=3", 18_721),
    # Every other family of both benchmarks, at small sizes (the first
    # config of each; gemm/block_ptr is left out: Triton 3.9's frontend
    # refuses block pointers).
    Pin("gemm_bf16", (512, 512, 512), "BLOCK_M=64 BLOCK_N=64 BLOCK_K=32 GROUP_M=8", 16_995),
    Pin("gemm_int8", (512, 512, 512), "BLOCK_M=64 BLOCK_N=64 BLOCK_K=32 GROUP_M=8", 17_546),
    Pin("gemm_fp8", (512, 512, 512), "BLOCK_M=64 BLOCK_N=64 BLOCK_K=32 GROUP_M=8", 13_199),
    Pin("attention_d64_causal", (512,), "BLOCK_M=64 BLOCK_N=64 num_stages=2", 18_183),
    Pin("attention_d128", (512,), "BLOCK_M=64 BLOCK_N=64 num_stages=2", 33_351),
    Pin("rmsnorm", (512, 1024), "programs=64", 18_738),
    Pin("cross_entropy", (32, 8192), "BLOCK_SIZE=2048", 11_929),
    Pin("row_sum", (512, 1024), "BLOCK_M=4 BLOCK_N=1024", 18_173),
    Pin("column_sum", (512, 1024), "BLOCK_PARTS=32 BLOCK_COLS=128", 24_381),
    Pin("embedding", (512, 1024), "BLOCK_T=16 BLOCK_D=2048", 24_082),
    Pin("gemm/tensor_descriptor", (512, 512, 512),
        "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 GROUP_M=8 num_warps=8 num_stages=3", 25_205),
    Pin("gemm/split_k_atomic", (256, 256, 4096),
        "BLOCK_M=128 BLOCK_N=128 BLOCK_K=64 SPLIT_K=4 num_warps=8 num_stages=3", 96_775),
    Pin("gemm/split_k_two_pass", (256, 256, 4096),
        "BLOCK_M=128 BLOCK_N=128 BLOCK_K=64 SPLIT_K=4 num_warps=8 num_stages=3", 61_048),
    Pin("gemm/persistent", (512, 512, 512),
        "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 GROUP_M=8 num_warps=8 num_stages=3", 25_897),
    Pin("attention/exp2_causal", (1, 4, 512, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 19_436),
    Pin("attention/exp", (1, 4, 512, 64), "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3",
        18_489),
    Pin("attention/ragged_seq", (1, 4, 500, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 18_856),
    Pin("attention/short_seq", (2, 8, 128, 64),
        "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3", 12_199),
    Pin("memory/softmax_row", (512, 1024), "num_warps=4 num_stages=2", 35_048),
    Pin("memory/layernorm", (512, 1024), "BLOCK_M=1 num_warps=4 num_stages=3", 18_569),
    Pin("memory/silu_add", (262144,), "BLOCK_SIZE=1024 num_warps=4 num_stages=3", 17_127),
]


def find_family(name: str) -> suite.Family:
    every = suite.families() + variants.families()
    return next(family for family in every if family.kernel == name)


@pytest.mark.parametrize("pin", PINS, ids=lambda pin: f"{pin.family}{list(pin.size)}")
def test_cycles_stay_pinned(pin: Pin) -> None:
    suite.activate("mtia-2i")
    case = find_family(pin.family).make(pin.size)
    labels = [config.label for config in case.configs]
    assert pin.config in labels, labels
    config = case.configs[labels.index(pin.config)]
    with launches() as records:
        output = config.run()
    case.check(output)
    cycles = sum(record.cycles for record in records)
    assert abs(cycles - pin.cycles) <= PIN_TOLERANCE * pin.cycles, (
        f"{pin.family}{list(pin.size)} {pin.config}: {cycles:,} cycles, pinned at "
        f"{pin.cycles:,} (+-{PIN_TOLERANCE:.0%})")
