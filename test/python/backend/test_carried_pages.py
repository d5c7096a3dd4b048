"""A tile a loop carries for the SIMD engine, which also pushes each
iteration's to the reduction engine, is read in the next iteration in the
page it pushed (`mtia-carry-in-pushed-pages`), not computed twice: the
numbers are torch's for any number of iterations, none included (the path
that pushes the initial tile itself)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
import torch

import mtia_compiler
from mtia_compiler.sim import TARGETS_DIR

from . import kernels

TARGET = TARGETS_DIR / "mtia-2i.json"

ROWS, COLS = 16, 64


@pytest.mark.parametrize("steps", [0, 1, 5])
def test_carried_tile_read_in_its_pushed_page(steps: int) -> None:
    x = torch.randn(ROWS, COLS)
    maxima = torch.full((ROWS,), float("nan"))
    last = torch.full((ROWS, COLS), float("nan"))
    compiled = kernels.decaying_row_maxima_kernel[(1,)](x, maxima, last, steps, 0.75,
                                                        ROWS=ROWS, COLS=COLS)
    y = x * 2.0
    total = torch.zeros(ROWS)
    for _ in range(steps):
        y = y * 0.75 + 1.0
        total += y.amax(dim=1)
    torch.testing.assert_close(maxima, total, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(last, y, rtol=1e-5, atol=1e-5)
    # The loop no longer carries the tile: the body and the store after the
    # loop read it in the pages the SIMD engine pushed, and the SIMD engine
    # computes each step's tile once.
    loop = compiled.asm["dma"].split("scf.for", 1)[1]
    assert "cb.read_pushed" in loop.split("scf.yield", 1)[0]
    # (`y * decay + 1` is one fused multiply-add.)
    steps_computed = [line for line in compiled.asm["dma"].splitlines()
                      if "tile.fma" in line and f"tile<{ROWS}x{COLS}xf32>" in line]
    assert len(steps_computed) == 1


@pytest.mark.parametrize("circular_buffers", [6, 32])
def test_carried_pages_within_the_buffer_budget(circular_buffers: int,
                                                tmp_path: pathlib.Path) -> None:
    # Each tile a loop carries in pages keeps a buffer of its own, which the
    # buffers of one producer and consumer cannot share: with few buffers
    # (6, five of which later stages reserve) the loop carries none in pages
    # and the kernel compiles as it did before; with the target's 32 it
    # carries all four.
    x = torch.randn(8, 64)
    compiled = kernels.four_decaying_row_maxima_kernel[(1,)](x, torch.zeros(8), 3, ROWS=8,
                                                             COLS=64)
    target = json.loads(TARGET.read_text())
    target["command_processor"]["circular_buffers"] = circular_buffers
    target_path = tmp_path / "target.json"
    target_path.write_text(json.dumps(target))
    kernel = mtia_compiler.compile(compiled.asm["ttir"], target=str(target_path))
    maxima = np.zeros(8, np.float32)
    kernel.run(x.numpy(), maxima, 3)
    tiles = [x * scale for scale in (1.5, 2.0, 2.5, 3.0)]
    total = torch.zeros(8)
    for _ in range(3):
        tiles = [tile * 0.5 + 1.0 for tile in tiles]
        total += sum(tile.amax(dim=1) for tile in tiles)
    np.testing.assert_allclose(maxima, total.numpy(), rtol=1e-5, atol=1e-5)
    assert kernel.asm["dma"].count("cb.read_pushed") == (0 if circular_buffers == 6 else 4)
