"""The MTIA heuristics for Inductor: block sizes from the target's facts,
matmul configs that fit local memory, and a matmul they make faster than
Inductor's own configs do."""

from __future__ import annotations

import math

import pytest
import torch

import mtia_compiler.torch
from mtia_compiler.sim import load_target
from mtia_compiler.torch.heuristics import (
    Machine,
    describe,
    gemm_configs,
    persistent_fits,
    pointwise_block,
    reduction_blocks,
    split_factor,
)

MACHINE = Machine.of("mtia-2i")


def test_machine_reads_the_target_description() -> None:
    description = load_target("mtia-2i").to_dict()
    assert MACHINE.num_pes == description["num_pes"] == 64
    assert MACHINE.local_memory_bytes == description["local_memory_bytes"] == 384 * 1024
    assert MACHINE.dpe_tile == tuple(description["dpe_tile"])
    assert MACHINE.dma_alignment_bytes == description["dma_alignment_bytes"]


@pytest.mark.parametrize(("numel", "block"), [(4096, 64), (100, 16), (65536, 1024),
                                              (1 << 24, 4096)])
def test_pointwise_blocks_give_every_pe_a_program(numel: int, block: int) -> None:
    assert pointwise_block(numel, 16, MACHINE) == block


def test_pointwise_blocks_fit_the_budget() -> None:
    # 8 KiB per element (a kernel with many buffers) leaves room for 16.
    assert pointwise_block(1 << 24, 8192, MACHINE) == 16


@pytest.mark.parametrize(("xnumel", "rnumel", "element_size", "outer", "rows"), [
    (256, 100, 4, False, 1),      # rows of 400 bytes: one per program
    (256, 1024, 4, False, 1),     # long rows: one per program
    (512, 256, 4, False, 4),      # 1024 elements per program
    (16384, 16, 4, False, 128),   # half of a PE's share per program
    (256, 40, 2, False, 1),       # rows of 80 bytes
    (37, 3000, 4, True, 1),       # column sums: spread over the PEs
    (1024, 512, 4, True, 16),
])
def test_reduction_rows_per_program(xnumel: int, rnumel: int, element_size: int, outer: bool,
                                    rows: int) -> None:
    x_block, r_block = reduction_blocks(xnumel, rnumel, 24, element_size, True, outer, MACHINE)
    assert (x_block, r_block) == (rows, 1 << (rnumel - 1).bit_length())


def test_long_rows_loop_within_the_budget() -> None:
    assert not persistent_fits(1 << 16, 24, MACHINE)
    x_block, r_block = reduction_blocks(32, 1 << 16, 24, 4, False, False, MACHINE)
    assert (x_block, r_block) == (1, 4096)


def test_split_reductions_give_every_pe_a_part() -> None:
    assert split_factor(1, 1 << 20, MACHINE) == 64
    assert split_factor(4, 1 << 20, MACHINE) == 16
    assert split_factor(64, 1 << 20, MACHINE) == 1
    assert split_factor(1, 4096, MACHINE) == 1


@pytest.mark.parametrize("shape", [(32, 128, 64), (32, 64, 256), (256, 256, 256),
                                   (1024, 512, 256), (4096, 4096, 4096), (8, 1, 4)])
@pytest.mark.parametrize("dtype_size", [2, 4])
def test_gemm_configs_fit_half_of_local_memory(shape: tuple[int, int, int],
                                               dtype_size: int) -> None:
    m, n, k = shape
    configs = gemm_configs(m, n, k, dtype_size, MACHINE)
    assert 1 <= len(configs) <= 3
    for config in configs:
        operands = 2 * (config.block_m + config.block_n) * config.block_k * dtype_size
        assert operands + 2 * config.block_m * config.block_n * 4 <= 192 * 1024
        assert min(config.block_m, config.block_n, config.block_k) >= 16
    programs = max(math.ceil(m / c.block_m) * math.ceil(n / c.block_n) for c in configs)
    assert programs >= min(64, math.ceil(m / 16) * math.ceil(n / 16))


def test_gemm_configs_of_the_measured_shapes() -> None:
    assert describe(gemm_configs(32, 64, 256, 4, MACHINE)) == ["16x16x128", "32x32x128"]
    assert describe(gemm_configs(256, 256, 256, 4, MACHINE)) == ["32x32x128", "16x64x128"]
    assert describe(gemm_configs(1024, 512, 256, 4, MACHINE)) == [
        "64x128x64", "128x64x64", "32x32x128"]


def test_the_heuristics_make_a_matmul_faster_than_inductors_configs() -> None:
    x, w = torch.randn(32, 256), torch.randn(256, 64)
    cycles = {}
    for heuristics in (True, False):
        torch._dynamo.reset()
        compiled = mtia_compiler.torch.compile(torch.mm, heuristics=heuristics)
        torch.testing.assert_close(compiled(x, w), x @ w, rtol=1e-4, atol=1e-4)
        kernel, = compiled.report().kernels
        assert kernel.macs == 32 * 256 * 64
        cycles[heuristics] = kernel.cycles
    # The heuristics' tiles, spread over the PEs in K steps of 128 that
    # overlap the next step's loads with this step's products, beat the best
    # of Inductor's configs for the CPU.
    assert cycles[True] < 0.95 * cycles[False], cycles
