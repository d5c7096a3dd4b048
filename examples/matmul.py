"""Matrix multiplication `C = A @ B` (fp16 in, fp32 accumulation, fp16 out),
with an optional leaky-ReLU epilogue and grouped ordering of the output
blocks. `@triton.autotune` picks the block sizes by simulated time.

    python examples/matmul.py [--m M] [--n N] [--k K]
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate

CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8})
    for bm, bn, bk in ((64, 64, 32), (128, 64, 32), (64, 128, 32), (128, 128, 64))
]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, ACTIVATION: tl.constexpr,
                  ACC_TYPE: tl.constexpr = tl.float32):
    # The accumulator is ACC_TYPE (f32 here; the benchmark suite's bf16, int8
    # and fp8 GEMMs pass their own) and the output C's element type.
    # Consecutive programs take the blocks of GROUP_M rows of blocks column by
    # column, so that the rows of A they read stay in the SRAM cache.
    pid = tl.program_id(axis=0)
    blocks_m = tl.cdiv(M, BLOCK_M)
    blocks_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * blocks_n
    first_m = (pid // in_group) * GROUP_M
    group_rows = min(blocks_m - first_m, GROUP_M)
    block_m = first_m + ((pid % in_group) % group_rows)
    block_n = (pid % in_group) // group_rows

    rows = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = block_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rows[:, None] < M) & (ks[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(ks[:, None] < k_left) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c_ptrs = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor, activation: str = "") -> torch.Tensor:
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), dtype=torch.float16)

    def grid(meta: dict) -> tuple[int]:
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)

    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), ACTIVATION=activation)
    return c


def main() -> None:
    args = parse_args(__doc__, m=1024, n=1024, k=1024)
    m, n, k = (200, 136, 72) if args.small else (args.m, args.n, args.k)
    torch.manual_seed(0)
    a = torch.randn(m, k, dtype=torch.float16)
    b = torch.randn(k, n, dtype=torch.float16)
    reference = torch.nn.functional.leaky_relu(a.float() @ b.float(), 0.01).half()
    matmul(a, b, "leaky_relu")  # autotunes once
    print(f"matmul: best config {matmul_kernel.best_config}")
    c = simulate(f"matmul {m}x{n}x{k}", lambda: matmul(a, b, "leaky_relu"))
    torch.testing.assert_close(c, reference, rtol=1e-2, atol=1e-2)
    print("matmul: matches torch")


if __name__ == "__main__":
    main()
