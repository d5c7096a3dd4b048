# ruff: noqa: ANN001, ANN201
# (@triton.jit kernels: annotating their parameters would change how Triton specialises them.)
"""`mtia-subtile-epilogues` runs the epilogue of a dot's accumulator in
strips of 32 rows (mtia-2i's DPE output tile), each read in place from the
accumulator (`tile.subview`): the numbers stay those of torch whatever the
epilogue (a conversion under row and column masks at sizes that are not
multiples of the block, a bias and the exact GELU, a residual loaded whole,
a descriptor store), and a 128 x 256 accumulator, whose whole-block
hand-offs once left no room for its loads' prefetch, runs whole with its
loads in several pages."""

from __future__ import annotations

import math

import pytest
import torch
import triton
import triton.language as tl

from mtia_compiler.backend import launches
from mtia_compiler.program import decode


@triton.jit
def matmul_epilogue_kernel(a_ptr, b_ptr, bias_ptr, r_ptr, c_ptr, M, N, K,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           EPILOGUE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptr + rows[:, None] * K + (k * BLOCK_K + ks)[None, :],
                    mask=(rows[:, None] < M) & ((k * BLOCK_K + ks)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k * BLOCK_K + ks)[:, None] * N + cols[None, :],
                    mask=((k * BLOCK_K + ks)[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    if EPILOGUE == "gelu":
        bias = tl.load(bias_ptr + cols, mask=cols < N, other=0.0)
        x = acc + bias[None, :]
        acc = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    if EPILOGUE == "residual":
        acc += tl.load(r_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def descriptor_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BLOCK_M, BLOCK_N])
    row = tl.program_id(0) * BLOCK_M
    col = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc = tl.dot(a_desc.load([row, k]), b_desc.load([k, col]), acc)
    c_desc.store([row, col], acc.to(tl.float16))


def _inputs(m: int, n: int, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(0)
    return (torch.randn(m, k, generator=generator).half(),
            torch.randn(k, n, generator=generator).half())


@pytest.mark.parametrize("epilogue", ["plain", "gelu", "residual"])
def test_epilogues_in_strips_match_torch(epilogue: str) -> None:
    # 200 x 300 in blocks of 128 x 128: partial blocks in both dimensions,
    # so every strip's row mask and the column mask matter.
    m, n, k = 200, 300, 96
    a, b = _inputs(m, n, k)
    generator = torch.Generator().manual_seed(1)
    bias = torch.randn(n, generator=generator)
    residual = torch.randn(m, n, generator=generator)
    c = torch.full((m, n), float("nan"))
    compiled = matmul_epilogue_kernel[(triton.cdiv(m, 128), triton.cdiv(n, 128))](
        a, b, bias, residual, c, m, n, k, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
        EPILOGUE=epilogue)
    expected = a.float() @ b.float()
    if epilogue == "gelu":
        expected = torch.nn.functional.gelu(expected + bias)
    if epilogue == "residual":
        expected += residual
    torch.testing.assert_close(c, expected, rtol=1e-4, atol=1e-4)
    # Four strips of the accumulator's rows, read in place.
    for row in range(0, 128, 32):
        assert f"[{row}, 0] : !tile.tile<128x128xf32> -> !tile.tile<32x128xf32>" in \
            compiled.asm["tile"]


def test_descriptor_store_in_strips_matches_torch() -> None:
    m, n, k = 256, 256, 128
    a, b = _inputs(m, n, k)
    c = torch.full((m, n), float("nan")).half()
    compiled = descriptor_matmul_kernel[(m // 128, n // 256)](
        a, b, c, m, n, k, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=1e-2, atol=1e-2)
    assert "!tt.tensordesc<32x256xf16>" in compiled.asm["tile"]


def test_a_128_by_256_accumulator_keeps_its_prefetch() -> None:
    # Whole-block hand-offs (a 128 KB page to the SIMD engine, two 64 KB
    # pages to the DMA engine) next to the 128 KB accumulator left one page
    # per load; in strips, the loads keep their pages and the kernel its
    # pinned cycles.
    m, n, k = 128, 256, 1024
    a, b = _inputs(m, n, k)
    c = torch.full((m, n), float("nan")).half()
    with launches() as records:
        compiled = descriptor_matmul_kernel[(1, 1)](a, b, c, m, n, k, BLOCK_M=128,
                                                    BLOCK_N=256, BLOCK_K=64, num_stages=3)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=1e-2, atol=1e-2)
    pages = {buffer["name"]: buffer["pages"] for buffer in decode(compiled.asm["bin"])["cbs"]}
    # The A and B pages of the K loop keep the prefetch the data-movement
    # stage gave them.
    assert pages["load0"] == 4 and pages["load1"] == 3, pages
    cycles = records[0].cycles
    assert math.isclose(cycles, PINNED_CYCLES, rel_tol=0.03), cycles


#: The simulated cycles of the last test's launch (a regression guard).
PINNED_CYCLES = 40_229
