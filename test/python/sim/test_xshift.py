"""The neighbour exchange re.xshift of the reduction network: every member of
a line of programs along one grid axis sends its tile to the next member in
the shift's direction, the member without a predecessor gets ``other``; its
bit-exactness, timing, matching, deadlock and validation errors."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import numpy as np
import pytest
from conftest import page_bytes
from test_collectives import N, exchange_program, linear_id, skipping_program, target

from mtia_compiler.program import (
    CB,
    FReg,
    ProgramBuilder,
    Scalar,
    Unit,
    decode,
    encode,
)
from mtia_compiler.sim import Result, SimulationError, Simulator

BITS: dict[str, type[np.unsignedinteger]] = {"f32": np.uint32, "i8": np.uint8,
                                             "f16": np.uint16, "i64": np.uint64}
VALUES: dict[str, type[np.generic]] = {"f32": np.float32, "i8": np.int8, "f16": np.float16,
                                       "i64": np.int64}
# Negative zeros and NaNs with payloads (quiet and signalling, both signs).
SPECIAL_BITS = {"f32": [0x80000000, 0x7FC12345, 0xFF800001, 0x7F800001],
                "f16": [0x8000, 0x7E01, 0xFD55, 0x7C01]}
# A non-zero `other` per type: 0.1 must be rounded to the type, as a fill does.
OTHERS: dict[str, int | float] = {"f32": 0.1, "i8": -7, "f16": 0.1, "i64": -(2**40) - 3}


def shift_program(dtype: str, axis: int, direction: int,
                  other: Callable[[ProgramBuilder], Scalar]) -> bytes:
    """Program ``l`` loads ``x[l]``, shifts it along ``axis`` by
    ``direction`` into ``out[l]``."""
    return exchange_program("xshift", dtype, lambda b, src, d: b.cross_shift(
        dtype, src, N, axis, direction, d, other(b)))


def expected_shift(x: np.ndarray, grid: tuple[int, ...], axis: int, direction: int,
                   edge: np.ndarray) -> np.ndarray:
    """``x`` (programs x N, linear program ids, x fastest) shifted by
    ``direction`` along grid ``axis``, with ``edge`` (N elements) where no
    member sends."""
    dims = (*grid, 1, 1)[:3]
    lines = x.reshape(dims[2], dims[1], dims[0], N)
    along = 2 - axis
    shifted = np.roll(lines, direction, axis=along)
    index: list[slice | int] = [slice(None)] * 4
    index[along] = 0 if direction > 0 else dims[axis] - 1
    shifted[tuple(index)] = edge
    return shifted.reshape(x.shape)


@pytest.mark.parametrize("dtype", sorted(BITS))
@pytest.mark.parametrize("direction", [1, -1])
@pytest.mark.parametrize(("grid", "axis"), [((8, 8), 0), ((8, 8), 1), ((8, 4), 0),
                                            ((8, 4), 1), ((5,), 0)])
@pytest.mark.parametrize("zero_other", [True, False])
def test_shift_moves_every_tile_to_its_neighbour_bit_exactly(
        dtype: str, direction: int, grid: tuple[int, ...], axis: int, zero_other: bool,
        rng: np.random.Generator) -> None:
    """Random bit patterns with negative zeros and NaN payloads arrive
    unchanged at the neighbour; the line's first member in the direction of
    the shift gets ``other`` converted to the type."""
    bits = BITS[dtype]
    programs = int(np.prod(grid))
    x = rng.integers(0, np.iinfo(bits).max, (programs, N), dtype=bits, endpoint=True)
    specials = SPECIAL_BITS.get(dtype, [])
    x[:, :len(specials)] = specials
    other = 0 if zero_other else OTHERS[dtype]
    out = np.zeros_like(x)
    result = Simulator().run(shift_program(dtype, axis, direction, lambda b: other), [x, out],
                             grid)
    edge = np.full(N, other, VALUES[dtype]).view(bits)
    expected = expected_shift(x, grid, axis, direction, edge)
    np.testing.assert_array_equal(out, expected)
    if specials:
        # The payloads travelled: every receiving member holds them.
        receivers = (out[:, :len(specials)] == specials).all(axis=1).sum()
        assert receivers == programs - programs // grid[axis]
    # Every member but the last of its line in the direction sends once.
    assert result.bytes["reduce_network"] == (programs - programs // grid[axis]) * N * x.itemsize


def test_shift_reads_other_from_a_register_at_issue(rng: np.random.Generator) -> None:
    """``other`` may be a float register, converted to the type (f16) like
    a fill; with ``src`` and ``d`` in separate CBs the rest is a shift."""
    def other(b: ProgramBuilder) -> FReg:
        return b.fop("add", b.fconst(-1.5), b.itof(b.program_id(1)), "f32")

    x = rng.standard_normal((4 * 3, N)).astype(np.float16)
    out = np.zeros_like(x)
    Simulator().run(shift_program("f16", 0, 1, other), [x, out], (4, 3))
    for y in range(3):
        np.testing.assert_array_equal(out[4 * y], np.full(N, -1.5 + y, np.float16))
        np.testing.assert_array_equal(out[4 * y + 1:4 * y + 4], x[4 * y:4 * y + 3])


# -- timing ----------------------------------------------------------------------


def delayed_shift(n: int, delays: list[int], direction: int) -> Result:
    """A line of ``len(delays)`` programs whose control cores spin
    ``delays[l]`` iterations before issuing a shift of ``n`` f32 in place."""
    b = ProgramBuilder("late")
    cb = b.cb("t", n * 4, 1)
    param = b.param_ptr("delays", "i64")
    delay = b.load_scalar(b.add(b.param(param), b.mul(b.program_id(0), 8)), "i64")
    assert not isinstance(delay, FReg)
    with b.for_range(0, delay):
        pass
    b.reserve(Unit.RE, cb)
    with b.location("kernel.py:5:1"):
        b.cross_shift("f32", cb.back(), n, 0, direction, cb.back())
    return Simulator().run(b.build(), [np.array(delays, np.int64)], (len(delays),), trace=True)


@pytest.mark.parametrize("direction", [1, -1])
@pytest.mark.parametrize("n", [16, 1024])
def test_shift_cycles_are_one_hop_after_both_ends_start(direction: int, n: int) -> None:
    """A receiver's tile is ready one hop after the later of its own start
    and its source's; it holds its RE until then, and the member receiving
    nothing only for sending. Members do not wait for the rest of the
    line."""
    t = target()
    wire = -(-n * 4 // t["reduce_network_bytes_per_cycle"])
    hop = t["reduce_network_hop_cycles"] + wire
    delays = [0, 60, 10, 200, 5, 30, 0]
    result = delayed_shift(n, delays, direction)
    assert result.trace is not None
    spans = {e["pid"]: (e["args"]["start_cycle"], e["args"]["cycles"])
             for e in json.loads(result.trace)["traceEvents"]
             if e["ph"] == "X" and e["name"] == "re.xshift"}
    assert sorted(spans) == list(range(len(delays)))
    late_senders = 0
    received: list[int] = []
    for rank, (start, cycles) in spans.items():
        assert result.pe_busy_cycles[rank]["re"] == cycles
        source = rank - direction
        if not 0 <= source < len(delays):
            assert cycles == max(1, wire), rank
            continue
        source_start = spans[source][0]
        late_senders += source_start > start
        assert start + cycles == max(start, source_start) + hop, (rank, spans)
        received.append(start + cycles)
    assert 0 < late_senders < len(delays) - 1
    # A member received its tile before another member had even started.
    assert min(received) < max(start for start, _ in spans.values())
    assert result.bytes["reduce_network"] == (len(delays) - 1) * n * 4


# -- matching, mixing and deadlocks ------------------------------------------------


def test_shift_reduce_and_barrier_over_different_axes(rng: np.random.Generator) -> None:
    """Shift along axis 0, barrier over [0], sum over [1], shift the sums
    back along axis 0: the shifts and the barrier are the collectives #0-#2
    of axes [0], the reduction #0 of [1]."""
    grid = (8, 4)
    programs = 32
    b = ProgramBuilder("mixed")
    px, po = b.param_ptr("x", "i32"), b.param_ptr("out", "i32")
    cx, cw = b.cb("x", page_bytes(N, "i32"), 1), b.cb("w", 3 * N * 4, 1)
    offset = b.mul(linear_id(b), N * 4)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.add(b.param(px), offset), "i32", [N], [1])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.RE, cx)
    b.reserve(Unit.RE, cw)
    b.cross_shift("i32", cx.front(), N, 0, 1, cw.back())
    b.barrier([0])
    b.cross_reduce("sum", "i32", cw.back(), N, [1], d=cw.back(offset=N * 4))
    b.cross_shift("i32", cw.back(offset=N * 4), N, 0, -1, cw.back(offset=2 * N * 4), 100)
    b.push(Unit.RE, cw)
    b.pop(Unit.RE, cx)
    b.wait(Unit.DMA_OUT, cw)
    b.dma_store(cw.front(offset=2 * N * 4), b.add(b.param(po), offset), "i32", [N], [1])
    b.pop(Unit.DMA_OUT, cw)
    x = rng.integers(-1000, 1000, (programs, N)).astype(np.int32)
    out = np.zeros_like(x)
    Simulator().run(b.build(), [x, out], grid)
    shifted = expected_shift(x, grid, 0, 1, np.zeros(N, np.int32))
    sums = np.broadcast_to(shifted.reshape(4, 8, N).sum(axis=0), (4, 8, N)).reshape(x.shape)
    expected = expected_shift(sums, grid, 0, -1, np.full(N, 100, np.int32))
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(("second", "described"), [
    (lambda b, cb: b.cross_shift("f32", cb.back(), 16, 0, -1, cb.back()),
     "re.xshift of 16 x f32 by -1"),
    (lambda b, cb: b.cross_shift("f32", cb.back(), 8, 0, 1, cb.back()),
     "re.xshift of 8 x f32 by +1"),
    (lambda b, cb: b.cross_shift("i32", cb.back(), 16, 0, 1, cb.back()),
     "re.xshift of 16 x i32 by +1"),
    (lambda b, cb: b.cross_broadcast("f32", cb.back(), 16, [0], 0, cb.back()),
     "re.xbroadcast of 16 x f32 from root 0"),
])
def test_members_that_disagree_mismatch(second: Callable[[ProgramBuilder, CB], None],
                                        described: str) -> None:
    """Program 1 runs a different collective at the position of program 0's
    shift by +1 of 16 f32."""
    b = ProgramBuilder("mismatch")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    odd, done = b.label(), b.label()
    b.branch_if_nonzero(b.icmp("eq", b.program_id(0), 1), odd)
    b.cross_shift("f32", cb.back(), 16, 0, 1, cb.back())
    b.jump(done)
    b.bind(odd)
    second(b, cb)
    b.bind(done)
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (2,))
    assert info.value.kind == "collective_mismatch", str(info.value)
    message = str(info.value)
    assert f"#0 of reduce group (*, 0, 0): this program contributes {described} but program " \
        "(0, 0, 0) contributed re.xshift of 16 x f32 by +1" in message, message


@pytest.mark.parametrize("then_wait", [False, True])
def test_shift_whose_source_skips_deadlocks(then_wait: bool) -> None:
    """Program 1 of a line of 4 skips the shift by +1 (it ends, or waits
    for pages nobody pushes): only program 2, its receiver, is blocked, and
    the launch ends with a deadlock naming it and the shift's location."""
    def shift_east(b: ProgramBuilder, cb: CB) -> None:
        b.reserve(Unit.RE, cb)
        b.cross_shift("f32", cb.back(), 16, 0, 1, cb.back())

    program = skipping_program(shift_east, 1, then_wait, at="kernel.py:11:2",
                               wait_at="kernel.py:13:4")
    started = time.monotonic()
    with pytest.raises(SimulationError) as info:
        Simulator().run(program, [], (4,), max_seconds=30)
    assert time.monotonic() - started < 5
    error = info.value
    assert error.kind == "deadlock", str(error)
    message = str(error)
    assert ("PE 2 (row 0, col 2) program (2, 0, 0) re: re.xshift #0 of reduce group (*, 0, 0): "
            "waits for its source, program (1, 0, 0) (instruction 4 at kernel.py:11:2)"
            ) in message, message
    assert message.count("re.xshift") == 1, message
    assert ("PE 1 (row 0, col 1) program (1, 0, 0) ctl: wait(1) on CB 't'" in message) \
        == then_wait, message
    if not then_wait:
        assert error.pe == 2 and error.location == "kernel.py:11:2"


def test_shift_groups_must_be_resident() -> None:
    """A line longer than the PE count cannot be resident at once."""
    b = ProgramBuilder("long")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    b.cross_shift("f32", cb.back(), 16, 0, 1, cb.back())
    programs = 2 * target()["num_pes"]
    with pytest.raises(SimulationError) as info:
        Simulator().run(b.build(), [], (programs,))
    assert info.value.kind == "invalid_launch"
    assert f"a cross-PE reduce group spans the {programs} programs along grid axes {{0}}" \
        in str(info.value), str(info.value)
    # Along the other axis the lines are short enough.
    Simulator().run(b.build(), [], (1, programs))


# -- validation ------------------------------------------------------------------


def shift_with(**fields: object) -> bytes:
    """A one-shift program whose shift's fields are replaced by ``fields``
    (a value of None removes the field)."""
    b = ProgramBuilder("invalid")
    cb = b.cb("t", 256, 1)
    b.reserve(Unit.RE, cb)
    b.cross_shift("f32", cb.back(), 16, 0, 1, cb.back())
    body = decode(b.build())
    inst = body["code"][-1]
    for key, value in fields.items():
        if value is None:
            del inst[key]
        else:
            inst[key] = value
    return encode(body)


@pytest.mark.parametrize(("fields", "needle"), [
    ({"axes": [0, 1]}, "field 'axes' of re.xshift must list exactly one grid axis"),
    ({"axes": [3]}, "field 'axes' = 3 is out of range [0, 2]"),
    ({"axes": []}, "field 'axes' must list 1 to 3 grid axes"),
    ({"axes": 0}, "field 'axes' must be an array"),
    ({"dir": 0}, "field 'dir' must be 1 or -1"),
    ({"dir": 2}, "field 'dir' = 2 is out of range [-1, 1]"),
    ({"dir": None}, "missing field 'dir'"),
    ({"other": "zero"}, "field 'other'"),
    ({"other": [1]}, "field 'other'"),
    ({"other": {"f": 5}}, "field 'f' = 5 is out of range"),
    ({"n": 65}, "the source needs 260 bytes"),
    ({"d": None}, "missing field 'd'"),
    ({"src": {"cb": 1, "side": "back"}}, "field 'cb' = 1 is out of range"),
    ({"root": 0}, "re.xshift has unknown field 'root'"),
])
def test_invalid_fields_are_rejected_at_load(fields: dict[str, object], needle: str) -> None:
    with pytest.raises(SimulationError) as info:
        Simulator().run(shift_with(**fields), [], (2,))
    assert info.value.kind == "invalid_program"
    assert f"instruction 1: {needle}" in str(info.value), str(info.value)
    # The unchanged program is valid.
    Simulator().run(shift_with(), [], (2,))
