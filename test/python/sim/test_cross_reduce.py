"""Cross-PE reductions (re.xreduce) against numpy: every combiner, the fixed
combine order, argmax/argmin pairs, root delivery, and the launch and
synchronisation errors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from conftest import page_bytes

from mtia_compiler.program import DTYPE_BYTES, ProgramBuilder, Reg, Unit
from mtia_compiler.sim import Result, SimulationError, Simulator

N = 48


def linear_id(b: ProgramBuilder) -> Reg:
    x, y, z = (b.program_id(a) for a in range(3))
    return b.add(b.mul(b.add(b.mul(z, b.num_programs(1)), y), b.num_programs(0)), x)


def xreduce_program(fn: str, dtype: str, axes: Sequence[int], n: int = N,
                    root: int | None = None, skip_pid: int | None = None) -> bytes:
    """Program ``l`` loads ``x[l]`` (and for argmax/argmin the i32 indices
    ``i[l]``), cross-reduces it over ``axes`` and stores the result to
    ``out[l]`` (``out_i[l]``). Program ``skip_pid`` (axis 0) skips the
    reduction."""
    arg = fn.startswith("arg")
    esize = DTYPE_BYTES[dtype]
    b = ProgramBuilder("xreduce")
    px, po = b.param_ptr("x", dtype), b.param_ptr("out", dtype)
    pi, poi = (b.param_ptr("i", "i32"), b.param_ptr("out_i", "i32")) if arg else (0, 0)
    cx, co = b.cb("x", page_bytes(n, dtype), 1), b.cb("out", page_bytes(n, dtype), 1)
    ci, coi = b.cb("i", page_bytes(n, "i32"), 1), b.cb("out_i", page_bytes(n, "i32"), 1)
    pairs = [(cx, px, co, po, esize, dtype)]
    if arg:
        pairs.append((ci, pi, coi, poi, 4, "i32"))
    linear = linear_id(b)
    for cb, param, _, _, size, t in pairs:
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.add(b.param(param), b.mul(linear, n * size)), t, [n], [1])
        b.push(Unit.DMA_IN, cb)
    done = b.label()
    if skip_pid is not None:
        b.branch_if_nonzero(b.icmp("eq", b.program_id(0), skip_pid), done)
    for cb, _, out_cb, _, _, _ in pairs:
        b.wait(Unit.RE, cb)
        b.reserve(Unit.RE, out_cb)
    b.cross_reduce(fn, dtype, cx.front(), n, axes, d=co.back(),
                   src_idx=ci.front() if arg else None, idx=coi.back() if arg else None,
                   root=root)
    for cb, _, out_cb, out_param, size, t in pairs:
        b.push(Unit.RE, out_cb)
        b.pop(Unit.RE, cb)
        b.wait(Unit.DMA_OUT, out_cb)
        b.dma_store(out_cb.front(), b.add(b.param(out_param), b.mul(linear, n * size)), t,
                    [n], [1])
        b.pop(Unit.DMA_OUT, out_cb)
    b.bind(done)
    return b.build()


def groups(grid: Sequence[int], axes: Sequence[int]) -> list[list[int]]:
    """The linear program ids of each reduce group, members in rank order."""
    gx, gy, gz = grid
    members: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for linear in range(gx * gy * gz):
        pid = (linear % gx, linear // gx % gy, linear // (gx * gy))
        key = tuple(pid[a] for a in range(3) if a not in axes)
        rank, scale = 0, 1
        for a in sorted(axes):
            rank += pid[a] * scale
            scale *= grid[a]
        members.setdefault(key, []).append((rank, linear))
    return [[linear for _, linear in sorted(group)] for group in members.values()]


def run_xreduce(fn: str, x: np.ndarray, dtype: str, grid: Sequence[int],
                axes: Sequence[int], idx: np.ndarray | None = None,
                **kwargs: int) -> tuple[np.ndarray, np.ndarray | None, Result]:
    out = np.zeros_like(x)
    args: list[np.ndarray] = [x, out]
    out_i = None
    if idx is not None:
        out_i = np.zeros_like(idx)
        args += [idx, out_i]
    result = Simulator().run(xreduce_program(fn, dtype, axes, x.shape[1], **kwargs), args, grid)
    return out, out_i, result


INT_FNS = {
    "sum": lambda v: np.sum(v, axis=0, dtype=v.dtype),
    "prod": lambda v: np.prod(v, axis=0, dtype=v.dtype),
    "max": lambda v: v.max(axis=0), "min": lambda v: v.min(axis=0),
    "maxu": lambda v: v.view(np.uint32).max(axis=0).view(np.int32),
    "minu": lambda v: v.view(np.uint32).min(axis=0).view(np.int32),
    "and": lambda v: np.bitwise_and.reduce(v, axis=0),
    "or": lambda v: np.bitwise_or.reduce(v, axis=0),
    "xor": lambda v: np.bitwise_xor.reduce(v, axis=0),
}


@pytest.mark.parametrize(("grid", "axes"), [
    ((4, 3, 2), [0]), ((4, 3, 2), [0, 2]), ((4, 3, 2), [0, 1, 2]), ((2, 8, 1), [1]),
])
@pytest.mark.parametrize("fn", sorted(INT_FNS))
def test_integer_combiners_exact(fn: str, grid: tuple[int, int, int], axes: list[int],
                                 rng: np.random.Generator) -> None:
    programs = grid[0] * grid[1] * grid[2]
    x = rng.integers(-2**31, 2**31, (programs, N), dtype=np.int64).astype(np.int32)
    out, _, result = run_xreduce(fn, x, "i32", grid, axes)
    for members in groups(grid, axes):
        expected = INT_FNS[fn](x[members])
        for linear in members:
            np.testing.assert_array_equal(out[linear], expected, err_msg=f"program {linear}")
    assert result.bytes["reduce_network"] == programs * N * 4


def test_float_sum_folds_in_rank_order(rng: np.random.Generator) -> None:
    """Sums of values of mixed magnitude depend on the order; the result is
    the left fold in increasing rank, bit for bit, for every member."""
    grid, axes = (3, 5, 1), [0, 1]
    x = (rng.standard_normal((15, N)) * 10.0 ** rng.integers(-6, 7, (15, N))).astype(np.float32)
    out, _, _ = run_xreduce("sum", x, "f32", grid, axes)
    expected = x[0].copy()
    for row in x[1:]:
        expected = expected + row
    np.testing.assert_array_equal(out, np.broadcast_to(expected, out.shape))
    x16 = (rng.standard_normal((15, N)) * 10.0 ** rng.integers(-3, 3, (15, N))).astype(np.float16)
    out16, _, _ = run_xreduce("sum", x16, "f16", grid, axes)
    wide = x16[0].astype(np.float32)
    for row in x16[1:]:
        wide = wide + row.astype(np.float32)
    np.testing.assert_array_equal(out16[7].view(np.uint16), wide.astype(np.float16).view(np.uint16))
    x[4, 3] = np.nan
    out, _, _ = run_xreduce("max", x, "f32", grid, axes)
    assert np.isnan(out[0, 3]) and not np.isnan(out[0, 4])
    np.testing.assert_array_equal(out[2, 4:], x[:, 4:].max(axis=0))


@pytest.mark.parametrize("fn", ["argmax", "argmin"])
def test_argmax_argmin_pairs(fn: str, rng: np.random.Generator) -> None:
    """Members send (value, index) pairs: the best value wins, ties go to the
    lowest rank, and the winner's index comes with it."""
    grid, axes = (8, 2, 1), [0]
    x = rng.integers(-5, 5, (16, N)).astype(np.float32)  # Many ties.
    idx = rng.integers(0, 1 << 30, (16, N)).astype(np.int32)
    out, out_i, _ = run_xreduce(fn, x, "f32", grid, axes, idx)
    assert out_i is not None
    for members in groups(grid, axes):
        values = x[members]
        winner = values.argmax(axis=0) if fn == "argmax" else values.argmin(axis=0)
        columns = np.arange(N)
        for linear in members:
            np.testing.assert_array_equal(out[linear], values[winner, columns])
            np.testing.assert_array_equal(out_i[linear], idx[members][winner, columns])


def test_root_receives_and_others_do_not_wait(rng: np.random.Generator) -> None:
    grid, axes = (8, 1, 1), [0]
    x = rng.integers(-1000, 1000, (8, N)).astype(np.int32)
    out, _, result = run_xreduce("sum", x, "i32", grid, axes, root=5)
    np.testing.assert_array_equal(out[5], x.sum(axis=0))
    assert not out[[0, 1, 2, 3, 4, 6, 7]].any()
    re_busy = [pe["re"] for pe in result.pe_busy_cycles[:8]]
    assert max(re_busy[:5] + re_busy[6:]) < re_busy[5]


def test_cycles_follow_the_combining_tree() -> None:
    """Members that start together: an all-reduce holds the RE for one
    binary tree up (hop, tile transfer and combine per level) and one down,
    levels = ceil(log2(members)); a reduce to a root only goes up."""
    target = Simulator().target.to_dict()
    hop, link = target["reduce_network_hop_cycles"], target["reduce_network_bytes_per_cycle"]

    def re_cycles(members: int, n: int, root: int | None = None) -> int:
        b = ProgramBuilder("tree")
        cb = b.cb("t", n * 4, 1)
        b.reserve(Unit.RE, cb)
        b.cross_reduce("sum", "i32", cb.back(), n, [0], d=cb.back(), root=root)
        result = Simulator().run(b.build(), [], (members,))
        return int(result.pe_busy_cycles[0]["re"])

    for members, n in ((2, 64), (5, 64), (16, 64), (16, 1024)):
        levels = (members - 1).bit_length()
        transfer = hop + -(-n * 4 // link)
        combine = -(-n // target["reduce_elements_per_cycle"])
        assert re_cycles(members, n) == levels * (2 * transfer + combine)
        assert re_cycles(members, n, root=0) == levels * (transfer + combine)


def test_member_that_skips_deadlocks_with_who_waits() -> None:
    data = xreduce_program("sum", "i32", [0], skip_pid=2)
    x = np.zeros((4, N), np.int32)
    with pytest.raises(SimulationError) as info:
        Simulator().run(data, [x, x.copy()], (4,))
    assert info.value.kind == "deadlock"
    message = str(info.value)
    assert ("re: re.xreduce #0 of reduce group (*, 0, 0): 3 of 4 programs contributed; "
            "waits for (2, 0, 0)") in message, message


@pytest.mark.parametrize(("grid", "axes", "needle"), [
    ((128, 1, 1), [0], "spans the 128 programs along grid axes {0}"),
    ((64, 2, 1), [1],
     "programs (0, 0, 0) and (0, 1, 0) of reduce group (0, *, 0) both run on PE 0"),
    ((1, 65, 2), [2], "form a cycle"),
])
def test_groups_that_cannot_be_resident_are_rejected(grid: tuple[int, int, int],
                                                     axes: list[int], needle: str) -> None:
    programs = grid[0] * grid[1] * grid[2]
    x = np.zeros((programs, 8), np.int32)
    with pytest.raises(SimulationError) as info:
        Simulator().run(xreduce_program("sum", "i32", axes, 8), [x, x.copy()], grid)
    assert info.value.kind == "invalid_launch"
    assert needle in str(info.value), str(info.value)


def test_groups_of_consecutive_launch_waves_are_accepted(rng: np.random.Generator) -> None:
    """128 programs on 64 PEs: the groups along axes 0 and 1 of a 32 x 2 x 2
    grid run in two waves."""
    grid, axes = (32, 2, 2), [0, 1]
    x = rng.integers(-50, 50, (128, N)).astype(np.int32)
    out, _, _ = run_xreduce("sum", x, "i32", grid, axes)
    np.testing.assert_array_equal(out[:64], np.broadcast_to(x[:64].sum(axis=0), (64, N)))
    np.testing.assert_array_equal(out[64:], np.broadcast_to(x[64:].sum(axis=0), (64, N)))


def test_root_outside_the_group_and_mismatches() -> None:
    x = np.zeros((4, N), np.int32)
    with pytest.raises(SimulationError) as info:
        Simulator().run(xreduce_program("sum", "i32", [0], root=4), [x, x.copy()], (4,))
    assert info.value.kind == "invalid_launch" and "root 4" in str(info.value)

    b = ProgramBuilder("mismatch")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    odd, done = b.label(), b.label()
    b.branch_if_nonzero(b.icmp("eq", b.program_id(0), 1), odd)
    b.cross_reduce("sum", "i32", cb.back(), 16, [0], d=cb.back())
    b.jump(done)
    b.bind(odd)
    b.cross_reduce("max", "i32", cb.back(), 16, [0], d=cb.back())
    b.bind(done)
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (2,))
    assert info.value.kind == "collective_mismatch"
    assert "contributes max of 16 x i32" in str(info.value)
    assert "program (0, 0, 0) contributed sum of 16 x i32" in str(info.value)


def test_repeated_reductions_in_one_program_are_matched_in_order(
        rng: np.random.Generator) -> None:
    """Each program runs three all-reduces in a loop, accumulating into the
    tile: the k-th reduction of every member is combined with the k-th."""
    b = ProgramBuilder("loop")
    px, po = b.param_ptr("x", "i32"), b.param_ptr("out", "i32")
    cx, co = b.cb("x", page_bytes(N, "i32"), 1), b.cb("out", page_bytes(N, "i32"), 1)
    offset = b.mul(b.program_id(0), N * 4)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.add(b.param(px), offset), "i32", [N], [1])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.RE, cx)
    b.reserve(Unit.RE, co)
    b.cross_reduce("sum", "i32", cx.front(), N, [0], d=co.back())
    with b.for_range(0, 2):
        b.cross_reduce("sum", "i32", co.back(), N, [0], d=co.back())
    b.push(Unit.RE, co)
    b.pop(Unit.RE, cx)
    b.wait(Unit.DMA_OUT, co)
    b.dma_store(co.front(), b.add(b.param(po), offset), "i32", [N], [1])
    b.pop(Unit.DMA_OUT, co)
    x = rng.integers(-100, 100, (6, N)).astype(np.int32)
    out = np.zeros_like(x)
    first = Simulator().run(b.build(), [x, out], (6,))
    np.testing.assert_array_equal(out, np.broadcast_to(x.sum(axis=0) * 36, x.shape))
    again = np.zeros_like(x)
    second = Simulator().run(b.build(), [x, again], (6,))
    assert second.cycles == first.cycles and again.tobytes() == out.tobytes()
