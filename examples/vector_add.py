"""Vector addition on the simulated MTIA: `out = x + y`, one block per program.

    python examples/vector_add.py [--size N]
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from common import parse_args, simulate


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    total = tl.load(x_ptr + offsets, mask=in_bounds) + tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(out_ptr + offsets, total, mask=in_bounds)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = out.numel()

    def grid(meta: dict) -> tuple[int]:
        return (triton.cdiv(n, meta["BLOCK_SIZE"]),)

    add_kernel[grid](x, y, out, n, BLOCK_SIZE=4096)
    return out


def main() -> None:
    args = parse_args(__doc__, size=1 << 20)
    size = 10_000 if args.small else args.size
    torch.manual_seed(0)
    x, y = torch.rand(size), torch.rand(size)
    out = simulate(f"vector_add n={size}", lambda: add(x, y))
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    print("vector_add: matches torch")


if __name__ == "__main__":
    main()
