"""The collectives of the reduction network beside re.xreduce: the PE
identity (``pe``), barriers, broadcasts (re.xbroadcast), groups named per
instruction, and their deadlock and validation errors."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from conftest import page_bytes

from mtia_compiler.program import CB, DTYPE_BYTES, ProgramBuilder, Reg, Slot, Unit
from mtia_compiler.sim import SimulationError, Simulator

N = 64
QUERIES = ("row", "col", "rows", "cols", "index")


def target() -> dict[str, int]:
    data = Simulator().target.to_dict()
    return {key: data[key] for key in ("pe_rows", "pe_cols", "num_pes",
                                       "reduce_network_hop_cycles",
                                       "reduce_network_bytes_per_cycle")}


def members(grid: Sequence[int], axes: Sequence[int]) -> dict[int, list[int]]:
    """For every linear program id, the linear ids of its group over ``axes``
    in rank order (the rank linearises the ids along ``axes``, lowest axis
    fastest)."""
    gx, gy, gz = grid
    by_key: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for linear in range(gx * gy * gz):
        pid = (linear % gx, linear // gx % gy, linear // (gx * gy))
        rank, scale = 0, 1
        for a in sorted(axes):
            rank += pid[a] * scale
            scale *= grid[a]
        by_key.setdefault(tuple(pid[a] for a in range(3) if a not in axes), []).append(
            (rank, linear))
    result: dict[int, list[int]] = {}
    for group in by_key.values():
        ranked = [linear for _, linear in sorted(group)]
        for linear in ranked:
            result[linear] = ranked
    return result


def linear_id(b: ProgramBuilder) -> Reg:
    x, y, z = (b.program_id(a) for a in range(3))
    return b.add(b.mul(b.add(b.mul(z, b.num_programs(1)), y), b.num_programs(0)), x)


# -- pe ------------------------------------------------------------------------


def pe_of(programs: int, num_pes: int, order: str, period: int = 0) -> np.ndarray:
    """The PE of each program, by linear index, of a launch of `programs`
    in `order` (docs/program-format.md, `program_order`); a staggered order
    shifts by half of `period` (default: the whole launch, a 1-D grid)."""
    slot, round_ = np.arange(programs) % num_pes, np.arange(programs) // num_pes
    reversed_slot = num_pes - 1 - slot
    serpentine = np.where(round_ % 2 == 1, reversed_slot, slot)
    if order == "round_robin":
        return slot
    if order == "serpentine":
        return serpentine
    # Staggered: pairs of complementary rounds, each pair's second round two
    # rounds after its first (A0, A1, D0, A2, D1, ..., A(K-1), D(K-2),
    # D(K-1)); in Aj PE p takes slot (p + s) mod P, in Dj P-1-((p + s) mod P),
    # s = 0 for even j and half the grid's period for odd j; a last round
    # without a partner goes round-robin.
    pairs = -(-programs // num_pes) // 2
    half = (period or programs) // 2 % num_pes
    first, last = round_ == 0, round_ == 2 * pairs - 1
    complement = ~first & (last | (round_ % 2 == 0))
    pair = np.where(first, 0, np.where(last, pairs - 1,
                                       np.where(round_ % 2 == 0, round_ // 2 - 1,
                                                (round_ + 1) // 2)))
    shift = np.where(pair % 2 == 1, half, 0)
    staggered = (np.where(complement, reversed_slot, slot) - shift) % num_pes
    return np.where(round_ < 2 * pairs, staggered, slot)


@pytest.mark.parametrize("programs", [64, 128, 200, 520])
@pytest.mark.parametrize("order", ["round_robin", "serpentine", "staggered"])
def test_pe_reads_the_identity_of_the_pe_that_runs_the_program(programs: int,
                                                                order: str) -> None:
    """Program ``l`` runs on PE ``l mod #PEs`` (in odd rounds of a
    serpentine order, on PE ``#PEs - 1 - l mod #PEs``; in a staggered order,
    see `pe_of`), whose row and column are its index divided by and modulo
    the grid's column count."""
    b = ProgramBuilder("whoami")
    b.program_order = order
    out = b.param_ptr("out", "i64")
    base = b.add(b.param(out), b.mul(b.program_id(0), 8 * len(QUERIES)))
    for k, query in enumerate(QUERIES):
        b.store_scalar(b.add(base, 8 * k), b.pe(query), "i64")
    got = np.full((programs, len(QUERIES)), -1, np.int64)
    result = Simulator().run(b.build(), [got], (programs,))
    t = target()
    pe = pe_of(programs, t["num_pes"], order)
    # Every whole round gives one program to each PE.
    whole = programs // t["num_pes"] * t["num_pes"]
    for round_pes in pe[:whole].reshape(-1, t["num_pes"]):
        assert sorted(round_pes) == list(range(t["num_pes"]))
    expected = np.stack([pe // t["pe_cols"], pe % t["pe_cols"],
                         np.full(programs, t["pe_rows"]), np.full(programs, t["pe_cols"]), pe],
                        axis=1)
    np.testing.assert_array_equal(got, expected)
    # One control instruction each, like pid.
    assert result.units["ctl"]["instructions"] == programs * (4 + 3 * len(QUERIES))


def test_a_staggered_order_balances_a_triangle_without_ending_rounds_together() -> None:
    """Over 8 rounds of programs whose work grows with their slot (a causal
    attention's query blocks), every PE does the same work; after 4 rounds
    the PEs have done different amounts, so they do not all start round 4
    together (in groups of four rounds they would)."""
    num_pes = target()["num_pes"]
    programs = 8 * num_pes
    pe = pe_of(programs, num_pes, "staggered", num_pes)
    work = np.arange(programs) % num_pes + 1
    totals = np.bincount(pe, weights=work, minlength=num_pes)
    assert np.all(totals == totals[0])
    half = np.bincount(pe[:programs // 2], weights=work[:programs // 2], minlength=num_pes)
    assert len(set(half)) >= num_pes // 2


@pytest.mark.parametrize("axis", [0, 1])
def test_a_staggered_order_shifts_by_half_the_period_of_its_axis(axis: int) -> None:
    """In a launch over (16, 20), the staggered order of axis 0 shifts its
    second rounds by 8 PEs (half of 16), that of axis 1 by 160 mod 64."""
    grid = (16, 20)
    b = ProgramBuilder("whereami")
    b.program_order = "staggered"
    b.program_order_axis = axis
    out = b.param_ptr("out", "i64")
    linear = b.add(b.program_id(0), b.mul(b.program_id(1), grid[0]))
    b.store_scalar(b.add(b.param(out), b.mul(linear, 8)), b.pe("index"), "i64")
    programs = grid[0] * grid[1]
    got = np.full(programs, -1, np.int64)
    Simulator().run(b.build(), [got], grid)
    period = grid[0] if axis == 0 else programs
    np.testing.assert_array_equal(got, pe_of(programs, target()["num_pes"], "staggered", period))


# -- barrier -----------------------------------------------------------------


def handoff_program(programs: int, with_barrier: bool) -> bytes:
    """Program ``l`` stores ``x[l]`` into ``buf[l]`` by DMA and then (after
    the barrier) copies ``buf[(l + 1) mod programs]`` into ``out[l]``: the
    tile another PE wrote."""
    b = ProgramBuilder("handoff")
    px, pbuf, pout = (b.param_ptr(name, "f32") for name in ("x", "buf", "out"))
    cin, cout = b.cb("in", page_bytes(N, "f32"), 1), b.cb("out", page_bytes(N, "f32"), 1)
    linear = b.program_id(0)
    row = N * 4
    b.reserve(Unit.DMA_IN, cin)
    b.dma_load(cin.back(), b.add(b.param(px), b.mul(linear, row)), "f32", [N], [1])
    b.push(Unit.DMA_IN, cin)
    b.wait(Unit.DMA_OUT, cin)
    b.dma_store(cin.front(), b.add(b.param(pbuf), b.mul(linear, row)), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, cin)
    if with_barrier:
        b.barrier([0])
    neighbour = b.iop("remu", b.add(linear, 1), programs)
    b.reserve(Unit.DMA_IN, cout)
    b.dma_load(cout.back(), b.add(b.param(pbuf), b.mul(neighbour, row)), "f32", [N], [1])
    b.push(Unit.DMA_IN, cout)
    b.wait(Unit.DMA_OUT, cout)
    b.dma_store(cout.front(), b.add(b.param(pout), b.mul(linear, row)), "f32", [N], [1])
    b.pop(Unit.DMA_OUT, cout)
    return b.build()


def test_barrier_orders_a_dram_handoff_between_pes(rng: np.random.Generator) -> None:
    programs = 8
    x = rng.standard_normal((programs, N)).astype(np.float32)
    expected = np.roll(x, -1, axis=0)
    outs = {}
    for with_barrier in (False, True):
        buf, out = np.zeros_like(x), np.zeros_like(x)
        Simulator().run(handoff_program(programs, with_barrier), [x, buf, out], (programs,))
        np.testing.assert_array_equal(buf, x)
        outs[with_barrier] = out
    np.testing.assert_array_equal(outs[True], expected)
    # Without the barrier a PE reads its neighbour's tile before the
    # neighbour has stored it: the handoff needs the barrier.
    stale = [row for row in range(programs) if not np.array_equal(outs[False][row], expected[row])]
    assert stale, "the program without a barrier read no stale data"
    assert not outs[False][stale].any()


def test_barrier_releases_every_member_together_after_the_slowest() -> None:
    """Members arrive at different times (a loop of 40·l control
    instructions, and a DMA store the barrier first waits for, like a
    fence); all continue at the latest arrival plus a tree of
    ceil(log2 members) levels up and down, a hop each."""
    def program(sync: Callable[[ProgramBuilder], None]) -> bytes:
        b = ProgramBuilder("arrivals")
        out = b.param_ptr("out", "f32")
        cb = b.cb("t", page_bytes(N, "f32"), 1)
        linear = b.program_id(0)
        with b.for_range(0, b.mul(linear, 40)):
            pass
        b.reserve(Unit.SIMD, cb)
        b.simd_fill("f32", cb.back(), N, 1.0)
        b.push(Unit.SIMD, cb)
        b.wait(Unit.DMA_OUT, cb)
        b.dma_store(cb.front(), b.add(b.param(out), b.mul(linear, N * 4)), "f32", [N], [1])
        b.pop(Unit.DMA_OUT, cb)
        sync(b)
        return b.build()

    hop = target()["reduce_network_hop_cycles"]
    for programs in (2, 5, 8):
        out = np.zeros((programs, N), np.float32)
        fenced = Simulator().run(program(ProgramBuilder.fence), [out], (programs,))
        barred = Simulator().run(program(lambda b: b.barrier([0])), [out], (programs,))
        arrivals = [pe["ctl"] for pe in fenced.pe_busy_cycles[:programs]]
        releases = {pe["ctl"] for pe in barred.pe_busy_cycles[:programs]}
        assert len(set(arrivals)) == programs  # The members arrive apart.
        levels = (programs - 1).bit_length()
        assert releases == {max(arrivals) + 2 * levels * hop}, (arrivals, releases)


def test_groups_of_different_axes_in_one_program(rng: np.random.Generator) -> None:
    """One program synchronises over axes [0] and [1] with barriers and
    reduces over [0], [0, 1] and [1]: each collective is matched within the
    groups of its own axes."""
    grid = (4, 2, 1)
    programs = 8
    b = ProgramBuilder("mixed")
    px = b.param_ptr("x", "i32")
    outs = [b.param_ptr(f"out{k}", "i32") for k in range(3)]
    cx = b.cb("x", page_bytes(N, "i32"), 1)
    cos = [b.cb(f"out{k}", page_bytes(N, "i32"), 1) for k in range(3)]
    linear = linear_id(b)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.add(b.param(px), b.mul(linear, N * 4)), "i32", [N], [1])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.RE, cx)
    for cb in cos:
        b.reserve(Unit.RE, cb)
    b.barrier([0])
    b.cross_reduce("sum", "i32", cx.front(), N, [0], d=cos[0].back())
    b.barrier([1])
    b.cross_reduce("sum", "i32", cx.front(), N, [0, 1], d=cos[1].back())
    b.barrier([0])
    b.cross_reduce("max", "i32", cx.front(), N, [1], d=cos[2].back())
    b.pop(Unit.RE, cx)
    for cb, param in zip(cos, outs, strict=True):
        b.push(Unit.RE, cb)
        b.wait(Unit.DMA_OUT, cb)
        b.dma_store(cb.front(), b.add(b.param(param), b.mul(linear, N * 4)), "i32", [N], [1])
        b.pop(Unit.DMA_OUT, cb)
    x = rng.integers(-1000, 1000, (programs, N)).astype(np.int32)
    results = [np.zeros_like(x) for _ in range(3)]
    Simulator().run(b.build(), [x, *results], grid)
    for linear_index in range(programs):
        rows = members(grid, [0])[linear_index]
        np.testing.assert_array_equal(results[0][linear_index], x[rows].sum(axis=0))
        np.testing.assert_array_equal(results[1][linear_index], x.sum(axis=0))
        cols = members(grid, [1])[linear_index]
        np.testing.assert_array_equal(results[2][linear_index], x[cols].max(axis=0))


def test_different_collectives_at_one_position_mismatch() -> None:
    b = ProgramBuilder("mismatch")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    odd, done = b.label(), b.label()
    b.branch_if_nonzero(b.icmp("eq", b.program_id(0), 1), odd)
    b.barrier([0])
    b.jump(done)
    b.bind(odd)
    b.cross_broadcast("i32", cb.back(), 16, [0], 0, cb.back())
    b.bind(done)
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (2,))
    assert info.value.kind == "collective_mismatch", str(info.value)
    message = str(info.value)
    assert "re.xbroadcast #0 of reduce group (*, 0, 0)" in message, message
    assert "program (0, 0, 0) contributed a barrier" in message, message


# -- re.xbroadcast ---------------------------------------------------------------


def exchange_program(name: str, dtype: str,
                     exchange: Callable[[ProgramBuilder, Slot, Slot], None]) -> bytes:
    """Program ``l`` loads the ``N`` elements ``x[l]``, lets ``exchange(b,
    src, d)`` write the RE's exchange of them into ``d`` and stores that to
    ``out[l]``."""
    esize = DTYPE_BYTES[dtype]
    b = ProgramBuilder(name)
    px, po = b.param_ptr("x", dtype), b.param_ptr("out", dtype)
    cx, co = b.cb("x", page_bytes(N, dtype), 1), b.cb("out", page_bytes(N, dtype), 1)
    offset = b.mul(linear_id(b), N * esize)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.add(b.param(px), offset), dtype, [N], [1])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.RE, cx)
    b.reserve(Unit.RE, co)
    exchange(b, cx.front(), co.back())
    b.push(Unit.RE, co)
    b.pop(Unit.RE, cx)
    b.wait(Unit.DMA_OUT, co)
    b.dma_store(co.front(), b.add(b.param(po), offset), dtype, [N], [1])
    b.pop(Unit.DMA_OUT, co)
    return b.build()


def broadcast_program(dtype: str, axes: Sequence[int], root: int) -> bytes:
    """Program ``l`` loads ``x[l]``, receives the tile of the root of its
    group over ``axes`` and stores it to ``out[l]``."""
    return exchange_program("xbroadcast", dtype, lambda b, src, d: b.cross_broadcast(
        dtype, src, N, axes, root, d))


@pytest.mark.parametrize(("dtype", "bits"), [("f32", np.uint32), ("i8", np.uint8),
                                             ("f16", np.uint16)])
@pytest.mark.parametrize("axes", [[0], [0, 1]])
def test_broadcast_delivers_the_roots_tile_bit_exactly(
        dtype: str, bits: type[np.unsignedinteger], axes: list[int],
        rng: np.random.Generator) -> None:
    """Random bit patterns (NaNs with payloads, negative zeros, subnormals)
    arrive unchanged from every possible root."""
    grid = (4, 2, 1)
    programs = 8
    size = int(np.prod([grid[a] for a in axes]))
    x = rng.integers(0, np.iinfo(bits).max, (programs, N), dtype=bits, endpoint=True)
    for root in range(size):
        out = np.zeros_like(x)
        result = Simulator().run(broadcast_program(dtype, axes, root), [x, out], grid)
        for linear in range(programs):
            source = members(grid, axes)[linear][root]
            np.testing.assert_array_equal(out[linear], x[source],
                                          err_msg=f"root {root}, program {linear}")
        # Every member but the root receives the tile once.
        assert result.bytes["reduce_network"] == (programs - programs // size) * N * x.itemsize


def test_broadcast_cycles_follow_the_tree() -> None:
    """Members that start together hold their RE until the tile has gone
    down ceil(log2 members) levels of hops from the root."""
    t = target()

    def re_cycles(members: int, n: int, pe: int) -> int:
        b = ProgramBuilder("tree")
        cb = b.cb("t", n * 4, 1)
        b.reserve(Unit.RE, cb)
        b.cross_broadcast("f32", cb.back(), n, [0], members - 1, cb.back())
        result = Simulator().run(b.build(), [], (members,))
        return int(result.pe_busy_cycles[pe]["re"])

    for members, n in ((1, 64), (2, 64), (5, 64), (16, 1024)):
        levels = (members - 1).bit_length()
        hop = t["reduce_network_hop_cycles"] + -(-n * 4 // t["reduce_network_bytes_per_cycle"])
        for pe in (0, members - 1):
            assert re_cycles(members, n, pe) == max(1, levels * hop), (members, pe)


# -- deadlocks -------------------------------------------------------------------


def skipping_program(emit: Callable[[ProgramBuilder, CB], object], skipper: int,
                     then_wait: bool, at: str = "kernel.py:7:3",
                     wait_at: str = "kernel.py:9:5") -> bytes:
    """Every program but ``skipper`` runs the collective ``emit`` writes (at
    location ``at``); the skipper finishes its program or, with
    ``then_wait``, waits elsewhere (at ``wait_at``): for pages nobody
    pushes."""
    b = ProgramBuilder("skip")
    cb = b.cb("t", 256, 1)
    done = b.label()
    skips = b.icmp("eq", b.program_id(0), skipper)
    skip = b.label()
    b.branch_if_nonzero(skips, skip)
    with b.location(at):
        emit(b, cb)
    b.jump(done)
    b.bind(skip)
    if then_wait:
        with b.location(wait_at):
            b.wait(Unit.CTL, cb)
    b.bind(done)
    return b.build()


def barrier_over_rows(b: ProgramBuilder, cb: CB) -> None:
    b.barrier([0])


def broadcast_from(root: int) -> Callable[[ProgramBuilder, CB], None]:
    """A broadcast over axis 0 from rank ``root``."""
    def emit(b: ProgramBuilder, cb: CB) -> None:
        b.reserve(Unit.RE, cb)
        b.cross_broadcast("f32", cb.back(), 16, [0], root, cb.back())
    return emit


@pytest.mark.parametrize("then_wait", [False, True])
def test_barrier_only_some_programs_reach_deadlocks(then_wait: bool) -> None:
    started = time.monotonic()
    with pytest.raises(SimulationError) as info:
        Simulator().run(skipping_program(barrier_over_rows, 2, then_wait), [], (4,),
                        max_seconds=30)
    assert time.monotonic() - started < 5
    error = info.value
    assert error.kind == "deadlock", str(error)
    assert error.pe == 0 and error.program_id == (0, 0, 0)
    assert error.location == "kernel.py:7:3"
    message = str(error)
    for pe in (0, 1, 3):
        assert (f"PE {pe} (row 0, col {pe}) program ({pe}, 0, 0) ctl: barrier #0 of reduce "
                "group (*, 0, 0): 3 of 4 programs arrived; waits for (2, 0, 0) (at instruction"
                ) in message, message
    assert message.count("at kernel.py:7:3") == 3, message
    elsewhere = ("PE 2 (row 0, col 2) program (2, 0, 0) ctl: wait(1) on CB 't': 0 pages "
                 "available (at instruction 5 at kernel.py:9:5)")
    assert (elsewhere in message) == then_wait, message


def test_broadcast_whose_root_skips_deadlocks() -> None:
    with pytest.raises(SimulationError) as info:
        Simulator().run(skipping_program(broadcast_from(1), 1, False), [], (3,),
                        max_seconds=30)
    error = info.value
    assert error.kind == "deadlock", str(error)
    message = str(error)
    for pe in (0, 2):
        assert (f"PE {pe} (row 0, col {pe}) program ({pe}, 0, 0) re: re.xbroadcast #0 of "
                "reduce group (*, 0, 0): waits for its root, program (1, 0, 0) (instruction"
                ) in message, message
    assert error.location == "kernel.py:7:3"


# -- validation ------------------------------------------------------------------


def one_instruction(emit: Callable[[ProgramBuilder, CB], object]) -> bytes:
    b = ProgramBuilder("invalid")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    emit(b, cb)
    return b.build()


@pytest.mark.parametrize(("emit", "needle"), [
    (lambda b, cb: b.pe("lane"), "instruction 1: field 'q' has unknown value 'lane'"),
    (lambda b, cb: b.barrier([3]), "instruction 1: field 'axes' = 3 is out of range [0, 2]"),
    (lambda b, cb: b.barrier([1, 1]), "instruction 1: field 'axes' lists an axis twice"),
    (lambda b, cb: b.barrier([]), "instruction 1: field 'axes' must list 1 to 3 grid axes"),
    (lambda b, cb: b.cross_broadcast("f32", cb.back(), 16, [0, 0], 0, cb.back()),
     "instruction 1: field 'axes' lists an axis twice"),
    (lambda b, cb: b.cross_broadcast("f32", cb.back(), 16, [0], -1, cb.back()),
     "instruction 1: field 'root' = -1 is out of range"),
    (lambda b, cb: b.cross_broadcast("f32", cb.back(), 65, [0], 0, cb.back()),
     "instruction 1: the source needs 260 bytes"),
])
def test_invalid_fields_are_rejected_at_load(emit: Callable[[ProgramBuilder, CB], object],
                                             needle: str) -> None:
    with pytest.raises(SimulationError) as info:
        Simulator().run(one_instruction(emit), [], (2,))
    assert info.value.kind == "invalid_program"
    assert needle in str(info.value), str(info.value)


def test_broadcast_root_outside_the_group_is_rejected_at_launch() -> None:
    b = ProgramBuilder("root")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    with b.location("kernel.py:3:1"):
        b.cross_broadcast("f32", cb.back(), 16, [0], 4, cb.back())
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (4, 2))
    assert info.value.kind == "invalid_launch"
    assert ("re.xbroadcast (instruction 1 at kernel.py:3:1) names root 4 but its reduce groups "
            "have 4 programs") \
        in str(info.value)
    assert info.value.location == "kernel.py:3:1"
    # The same program is valid where the groups are larger.
    Simulator().run(b.build(), [], (8,))


@pytest.mark.parametrize(("order", "explanation"), [
    ("round_robin", "programs (0, 0, 0) and (0, 1, 0) of reduce group (0, *, 0) both run on "
                    "PE 0"),
    ("serpentine", "reduce group (0, *, 0) can never complete with the grid (64, 2, 1) on the 64 "
                   "PEs of mtia-2i: its program (0, 1, 0) runs on PE 63 after program (63, 0, 0)"),
])
def test_residency_is_checked_for_every_axes_set(order: str, explanation: str) -> None:
    """A barrier over axis 0 alone fits 64 PEs with a 64 x 2 grid, but the
    broadcast over axis 1 of the same program puts two members of a group
    on PE 0 (round-robin), or (serpentine) member (0, 1, 0) on PE 63 behind
    a program whose own group waits for a member behind (0, 0, 0)."""
    b = ProgramBuilder("resident")
    b.program_order = order
    cb = b.cb("t", 256, 1)
    b.barrier([0])
    b.reserve(Unit.RE, cb)
    b.cross_broadcast("f32", cb.back(), 16, [1], 0, cb.back())
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (64, 2))
    assert info.value.kind == "invalid_launch"
    assert explanation in str(info.value), str(info.value)
    only_barrier = ProgramBuilder("resident")
    only_barrier.program_order = order
    only_barrier.barrier([0])
    Simulator().run(only_barrier.build(), [], (64, 2))
