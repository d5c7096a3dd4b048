"""A kernel whose loop bounds depend on the program id along one axis asks
for the staggered program order of that axis (`mtia-order-programs`): a
triangular kernel, where program x runs x + 1 times as many iterations as
program 0, then finishes in fewer cycles than in the round-robin order, which
gives each PE the same long or short programs in every round, and as fast as
in the serpentine order, whose balance the staggered one keeps."""

from __future__ import annotations

import numpy as np
import torch

from mtia_compiler.program import decode, encode
from mtia_compiler.sim import Simulator

from . import kernels

BLOCK, REPEAT = 256, 8


def triangle_reference(x: torch.Tensor, repeat: int = REPEAT) -> torch.Tensor:
    out = torch.empty_like(x)
    for block in range(x.shape[1]):
        acc = torch.zeros_like(x[:, block])
        for _ in range((block + 1) * repeat):
            acc = acc * 0.5 + x[:, block]
        out[:, block] = acc
    return out


def test_a_triangle_of_work_runs_in_the_staggered_order() -> None:
    blocks, rows = 64, 4
    x = torch.randn(rows, blocks, BLOCK)
    out = torch.empty_like(x)
    compiled = kernels.triangle_kernel[(blocks, rows)](x, out, BLOCK=BLOCK, REPEAT=REPEAT)
    torch.testing.assert_close(out, triangle_reference(x), rtol=1e-5, atol=1e-5)
    body = decode(compiled.asm["bin"])
    assert body["program_order"] == "staggered"
    assert "program_order_axis" not in body  # axis 0, the default
    # The same program, given out round-robin: PE 63 runs block 63 of every
    # row, 4 x 64 x REPEAT iterations, against 2 x 65 x REPEAT for every PE in
    # the serpentine and the staggered orders.
    cycles = {}
    for order in ("staggered", "serpentine", "round_robin"):
        body["program_order"] = order
        again = np.zeros(out.shape, np.float32)
        result = Simulator().run(encode(body), [x.numpy(), again], (blocks, rows))
        np.testing.assert_array_equal(again, out.numpy())
        cycles[order] = result.cycles
    assert cycles["serpentine"] < 0.7 * cycles["round_robin"], cycles
    assert cycles["staggered"] < 1.02 * cycles["serpentine"], cycles


def test_a_uniform_kernel_keeps_the_round_robin_order() -> None:
    x = torch.randn(8 * BLOCK)
    out = torch.empty_like(x)
    compiled = kernels.copy_blocks_kernel[(8,)](x, out, BLOCK=BLOCK)
    assert torch.equal(out, x)
    assert "program_order" not in decode(compiled.asm["bin"])
