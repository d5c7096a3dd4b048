"""The MTIA language extensions (`mtia_compiler.language`, docs/language.md)
end to end: `@triton.jit` kernels launched through the backend, checked
against numpy."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

import mtia_compiler
import mtia_compiler.language as mtia
from mtia_compiler.backend import launches

PES = 64


@triton.jit
def identity_kernel(out_ptr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    tl.store(out_ptr + pid * 5 + 0, mtia.pe_row())
    tl.store(out_ptr + pid * 5 + 1, mtia.pe_column())
    tl.store(out_ptr + pid * 5 + 2, mtia.pe_index())
    tl.store(out_ptr + pid * 5 + 3, mtia.num_pe_rows())
    tl.store(out_ptr + pid * 5 + 4, mtia.num_pe_columns())


@pytest.mark.parametrize("grid", [(8, 8), (130,)])
def test_pe_identity_follows_the_documented_mapping(grid: tuple[int, ...]) -> None:
    programs = int(np.prod(grid))
    out = torch.full((programs, 5), -1, dtype=torch.int32)
    identity_kernel[grid](out)
    pe = np.arange(programs) % PES
    expected = np.stack([pe // 8, pe % 8, pe, np.full(programs, 8), np.full(programs, 8)], 1)
    np.testing.assert_array_equal(out.numpy(), expected)


@triton.jit
def all_reduce_kernel(x_ptr, out_ptr, OP: tl.constexpr, AXIS: tl.constexpr,
                      BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + offsets, mtia.all_reduce(x, OP, AXIS))


NUMPY_REDUCTIONS: dict[str, Callable[..., np.ndarray]] = {"sum": np.sum, "max": np.max,
                                                          "min": np.min}


@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("op", ["sum", "max", "min"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.uint32, torch.float16])
def test_all_reduce_combines_every_member(op: str, axis: int | None, dtype: torch.dtype) -> None:
    grid, block = (8, 4), 16
    generator = torch.Generator().manual_seed(7)
    if dtype.is_floating_point:
        x = torch.randn((grid[1], grid[0], block), generator=generator).to(dtype)
    else:
        x = torch.randint(-1000, 1000, (grid[1], grid[0], block), generator=generator,
                          dtype=torch.int64)
        x = (x if dtype == torch.int32 else x % 2**32).to(dtype)
    out = torch.zeros_like(x)
    all_reduce_kernel[grid](x, out, OP=op, AXIS=axis, BLOCK=block)
    # x is indexed [pid1, pid0, element]: axis 0 of the grid is numpy axis 1.
    values = x.to(torch.float32 if dtype.is_floating_point else torch.int64).numpy()
    numpy_axis = {0: (1,), 1: (0,), None: (0, 1)}[axis]
    expected = NUMPY_REDUCTIONS[op](values, axis=numpy_axis, keepdims=True)
    expected = np.broadcast_to(expected, values.shape)
    got = out.to(torch.float32 if dtype.is_floating_point else torch.int64).numpy()
    if dtype == torch.float16:
        np.testing.assert_allclose(got, expected.astype(np.float16), rtol=1e-3, atol=1e-3)
    elif dtype == torch.float32:
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    else:
        if op == "sum" and dtype == torch.uint32:
            expected = expected % 2**32
        np.testing.assert_array_equal(got, expected)


@triton.jit
def scalar_total_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    partial = tl.sum(tl.load(x_ptr + offsets, mask=offsets < n, other=0), axis=0)
    total = mtia.all_reduce(partial, "sum")
    tl.store(out_ptr + pid, total)


def test_all_reduce_of_a_scalar_reaches_every_program() -> None:
    x = torch.randint(-50, 50, (64 * 100 - 3,), dtype=torch.int32)
    out = torch.zeros(64, dtype=torch.int32)
    with launches() as records:
        scalar_total_kernel[(64,)](x, out, x.numel(), BLOCK=128)
    assert out.tolist() == [int(x.sum())] * 64
    assert records[0].result.bytes["reduce_network"] > 0


@triton.jit
def broadcast_kernel(x_ptr, out_ptr, ROOT: tl.constexpr, AXIS: tl.constexpr,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + offsets, mtia.broadcast(x, ROOT, AXIS))


@pytest.mark.parametrize("axis, root", [(0, 5), (1, 2), (None, 17)])
def test_broadcast_gives_the_roots_bits(axis: int | None, root: int) -> None:
    grid, block = (8, 4), 8
    # Bits that arithmetic would change: -0.0 and a NaN payload.
    x = torch.randn((grid[1], grid[0], block))
    x[..., 0] = -0.0
    x.view(torch.int32)[..., 1] = 0x7FC00123
    out = torch.zeros_like(x)
    broadcast_kernel[grid](x, out, ROOT=root, AXIS=axis, BLOCK=block)
    bits = x.view(torch.int32).numpy()
    if axis == 0:
        expected = np.broadcast_to(bits[:, root:root + 1], bits.shape)
    elif axis == 1:
        expected = np.broadcast_to(bits[root:root + 1], bits.shape)
    else:
        expected = np.broadcast_to(bits.reshape(-1, block)[root], bits.shape)
    np.testing.assert_array_equal(out.view(torch.int32).numpy(), expected)


def test_a_broadcast_root_outside_the_group_is_refused_at_launch() -> None:
    x = torch.zeros((4, 8, 8))
    with pytest.raises(mtia_compiler.SimulationError) as caught:
        broadcast_kernel[(8, 4)](x, torch.zeros_like(x), ROOT=8, AXIS=0, BLOCK=8)
    assert caught.value.kind == "invalid_launch"
    lines, first = inspect.getsourcelines(broadcast_kernel.fn)
    line = first + next(i for i, text in enumerate(lines) if "mtia.broadcast" in text)
    assert f"{__file__}:{line}:" in str(caught.value)


@triton.jit
def argmax_kernel(x_ptr, out_ptr, ARGMIN: tl.constexpr, AXIS: tl.constexpr,
                  BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    # Each program offers its own linear id as the index of its values.
    index = tl.full((BLOCK,), 0, tl.int32) + pid
    if ARGMIN:
        winner = mtia.all_argmin(x, index, AXIS)
    else:
        winner = mtia.all_argmax(x, index, AXIS)
    tl.store(out_ptr + offsets, winner)


@pytest.mark.parametrize("argmin", [False, True])
@pytest.mark.parametrize("axis", [0, 1, None])
def test_all_argmax_names_the_member_with_the_extreme(argmin: bool, axis: int | None) -> None:
    grid, block = (8, 4), 16
    # Few distinct values, so that ties are common: the lowest rank wins.
    x = torch.randint(0, 4, (grid[1], grid[0], block), dtype=torch.int32).to(torch.float32)
    x[0, 0, 0] = math.nan
    out = torch.zeros_like(x, dtype=torch.int32)
    argmax_kernel[grid](x, out, ARGMIN=argmin, AXIS=axis, BLOCK=block)
    values = x.numpy()
    ids = np.arange(grid[0] * grid[1]).reshape(grid[1], grid[0])
    # NaN never displaces a number: rank it below (argmax) or above (argmin)
    # everything.
    ranked = np.nan_to_num(values, nan=np.inf if argmin else -np.inf)
    pick = np.argmin if argmin else np.argmax
    expected = np.empty_like(values, dtype=np.int64)
    for y in range(grid[1]):
        for x0 in range(grid[0]):
            if axis == 0:
                members = [(y, m) for m in range(grid[0])]
            elif axis == 1:
                members = [(m, x0) for m in range(grid[1])]
            else:
                members = [(m // grid[0], m % grid[0]) for m in range(grid[0] * grid[1])]
            stacked = np.stack([ranked[member] for member in members])
            winners = pick(stacked, axis=0)  # numpy: the first extreme wins
            expected[y, x0] = [ids[members[w]] for w in winners]
    np.testing.assert_array_equal(out.numpy(), expected)


@triton.jit
def shift_kernel(x_ptr, out_ptr, DIRECTION: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.num_programs(0) * tl.program_id(1)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, mtia.shift(tl.load(x_ptr + offsets), DIRECTION))


@pytest.mark.parametrize("direction", ["east", "west", "south", "north"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int8])
def test_shift_passes_tiles_to_the_neighbour(direction: str, dtype: torch.dtype) -> None:
    grid, block = (8, 3), 32
    x = (torch.arange(grid[0] * grid[1] * block) % 100 + 1).to(dtype)
    x = x.reshape(grid[1], grid[0], block)
    out = torch.full_like(x, 77)
    shift_kernel[grid](x, out, DIRECTION=direction, BLOCK=block)
    # x is [pid1, pid0]: east moves along pid0 (numpy axis 1), south along
    # pid1 (axis 0); the program at the edge the tiles come from gets 0.
    expected = torch.zeros_like(x)
    if direction == "east":
        expected[:, 1:] = x[:, :-1]
    elif direction == "west":
        expected[:, :-1] = x[:, 1:]
    elif direction == "south":
        expected[1:] = x[:-1]
    else:
        expected[:-1] = x[1:]
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@triton.jit
def handoff_kernel(x_ptr, out_ptr, BARRIER: tl.constexpr, BLOCK: tl.constexpr):
    # Each program writes its block, then reads its neighbour's.
    pid = tl.program_id(0)
    n = tl.num_programs(0)
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + pid * BLOCK + offsets, tl.full((BLOCK,), 1, tl.int32) * (pid + 1))
    if BARRIER:
        mtia.barrier()
    tl.store(out_ptr + pid * BLOCK + offsets, tl.load(x_ptr + ((pid + 1) % n) * BLOCK + offsets))


def test_barrier_orders_a_handoff_through_dram() -> None:
    block, programs = 1024, 64
    expected = np.repeat((np.arange(programs) + 1) % programs + 1, block)
    x, out = torch.zeros(programs * block, dtype=torch.int32), torch.zeros(
        programs * block, dtype=torch.int32)
    handoff_kernel[(programs,)](x, out, BARRIER=True, BLOCK=block)
    np.testing.assert_array_equal(out.numpy(), expected)
    # Without the barrier a program reads its neighbour's block before the
    # neighbour has written it: the barrier is what makes the test pass.
    x.zero_()
    handoff_kernel[(programs,)](x, out, BARRIER=False, BLOCK=block)
    assert not np.array_equal(out.numpy(), expected)


@triton.jit
def partial_barrier_kernel(out_ptr):
    pid = tl.program_id(0)
    if pid < 3:
        mtia.barrier()
    tl.store(out_ptr + pid, pid)


def test_a_barrier_some_programs_never_reach_is_a_located_deadlock() -> None:
    with pytest.raises(mtia_compiler.SimulationError) as caught:
        partial_barrier_kernel[(8,)](torch.zeros(8, dtype=torch.int32))
    assert caught.value.kind == "deadlock"
    lines, first = inspect.getsourcelines(partial_barrier_kernel.fn)
    line = first + next(i for i, text in enumerate(lines) if "mtia.barrier()" in text)
    assert f"{__file__}:{line}:" in str(caught.value)


@triton.jit
def bad_op_kernel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 8), mtia.all_reduce(x, "prod"))


@triton.jit
def bad_axis_kernel(x_ptr):
    mtia.barrier(axis=2)
    tl.store(x_ptr, 0.0)


@triton.jit
def bad_direction_kernel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 8), mtia.shift(x, "up"))


@triton.jit
def bad_index_kernel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 8), mtia.all_argmax(x, tl.arange(0, 8).to(tl.int64)))


@pytest.mark.parametrize("kernel, message", [
    (bad_op_kernel, "op must be one of"), (bad_axis_kernel, "axis must be 0, 1 or None"),
    (bad_direction_kernel, "direction must be one of east, west, south, north"),
    (bad_index_kernel, "index must be int32")])
def test_misuse_is_a_compile_error_at_the_call(kernel: triton.JITFunction, message: str) -> None:
    with pytest.raises(triton.CompilationError) as caught:
        kernel[(1,)](torch.zeros(8))
    assert message in str(caught.value)
    # Triton's frontend numbers the lines of the kernel from its `def`.
    lines, _ = inspect.getsourcelines(kernel.fn)
    line = next(i for i, text in enumerate(lines) if "mtia." in text)
    assert str(caught.value).startswith(f"at {line}:")


def test_the_extensions_reach_the_ttir_as_mtia_library_calls() -> None:
    compiled = all_reduce_kernel.warmup(torch.zeros(16), torch.zeros(16), OP="max", AXIS=1,
                                        BLOCK=16, grid=(1,))
    assert 'libname = "mtia"' in compiled.asm["ttir"]
    assert 'symbol = "mtia.all_reduce.max.column"' in compiled.asm["ttir"]
    assert "tile.cross_pe_reduce maxnumf" in compiled.asm["tile"]


@triton.jit
def row_sums_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(x_ptr + row * n_cols + start + tl.arange(0, BLOCK))
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def test_cb_multiplier_deepens_the_buffers_of_loads() -> None:
    x = torch.randn(64, 4096)
    pages = {}
    for multiplier in (1, 3):
        out = torch.zeros(64)
        compiled = row_sums_kernel[(64,)](x, out, 4096, BLOCK=256, cb_multiplier=multiplier)
        torch.testing.assert_close(out, x.sum(1), rtol=1e-5, atol=1e-4)
        pages[multiplier] = compiled.asm["dma"].count("pages = 24")
    # The loop's load buffer: 8 pages of 1 KB, three times as many with 3.
    assert pages[1] == 0 and pages[3] > 0
    with pytest.raises(ValueError, match="cb_multiplier must be at least 1"):
        row_sums_kernel[(64,)](x, torch.zeros(64), 4096, BLOCK=256, cb_multiplier=0)


def test_cb_multiplier_is_an_option_of_autotune_configs() -> None:
    tuned = triton.autotune(configs=[triton.Config({"BLOCK": 256, "cb_multiplier": 3})],
                            key=[])(row_sums_kernel)
    x, out = torch.randn(64, 4096), torch.zeros(64)
    tuned[(64,)](x, out, 4096)
    torch.testing.assert_close(out, x.sum(1), rtol=1e-5, atol=1e-4)
    compiled = row_sums_kernel.device_caches[0][0].values()
    assert any(kernel.metadata.cb_multiplier == 3 for kernel in compiled)
