"""A damaged program never runs: the header holds the body's length and
CRC-32, which the simulator's parser (`parse_program`, `mtia-sim`) and
`decode` check before reading the body. Before, a cached program whose JSON
still parsed after one byte changed (a SIMD `mul` become `add`) ran and gave
wrong numbers, and a truncated one made `decode` raise a bare
JSONDecodeError."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mtia_compiler
from mtia_compiler.program import ProgramFormatError, decode, seal
from mtia_compiler.sim import SimulationError, parse_program, run

MULTIPLY = """
module {
  tt.func public @multiply(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %px2 = tt.addptr %px, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %py2 = tt.addptr %py, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %a = tt.load %px2 : tensor<64x!tt.ptr<f32>>
    %b = tt.load %py2 : tensor<64x!tt.ptr<f32>>
    %m = arith.mulf %a, %b : tensor<64xf32>
    %pz = tt.splat %z : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %pz2 = tt.addptr %pz, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %pz2, %m : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
"""

MUL = b'"op":"simd.binary","fn":"mul"'


@pytest.fixture(scope="module")
def program() -> bytes:
    data: bytes = mtia_compiler.compile(MULTIPLY).asm["bin"]
    assert data.count(MUL) == 1
    return data


def damaged(program: bytes) -> bytes:
    """The program with its SIMD multiply made an add: three bytes changed,
    and the body still a valid program."""
    at = program.index(MUL) + len(MUL) - len(b'mul"')
    changed = program[:at] + b"add" + program[at + 3:]
    assert sum(a != b for a, b in zip(program, changed, strict=True)) <= 3
    return changed


def test_the_intact_program_multiplies(program: bytes) -> None:
    x, y = np.linspace(-2, 2, 64, dtype=np.float32), np.linspace(1, 3, 64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    run(program, [x, y, z])
    np.testing.assert_array_equal(z, x * y)


def test_a_changed_byte_is_refused(program: bytes) -> None:
    bad = damaged(program)
    # The changed body is still a valid program, which is what made the
    # damage silent: only the digest tells it apart.
    parse_program(seal(bad[28:]))
    with pytest.raises(SimulationError, match="the program is damaged: its digest does not "
                       "match its body") as info:
        parse_program(bad)
    assert info.value.kind == "invalid_program"
    with pytest.raises(ProgramFormatError, match="the program is damaged: its digest does not "
                       r"match its body \(CRC-32 [0-9a-f]{8} in the header"):
        decode(bad)


def test_every_flipped_bit_is_refused(program: bytes) -> None:
    rng = np.random.default_rng(3)
    for position in rng.integers(28, len(program), 20):
        bad = bytearray(program)
        bad[position] ^= 1 << int(rng.integers(0, 8))
        with pytest.raises(ProgramFormatError, match="damaged"):
            decode(bytes(bad))
        with pytest.raises(SimulationError, match="damaged"):
            parse_program(bytes(bad))


def test_a_truncated_program_is_refused(program: bytes) -> None:
    cut = program[:-10]
    message = (f"the program is truncated: the header says {len(program) - 28} bytes of body, "
               f"{len(program) - 38} present")
    with pytest.raises(SimulationError, match=message):
        parse_program(cut)
    with pytest.raises(ProgramFormatError, match=message):
        decode(cut)
    with pytest.raises(ProgramFormatError, match="shorter than the 28-byte header"):
        decode(program[:20])
    with pytest.raises(ProgramFormatError, match="padded"):
        decode(program + b" ")
    # ProgramFormatError is a ValueError, which callers that caught the
    # errors of decode before still catch.
    assert issubclass(ProgramFormatError, ValueError)


def test_a_sealed_body_that_is_not_an_object_is_refused() -> None:
    for body, message in ((b"{]", "not JSON"), (b"[1]", "not a JSON object"),
                          (b"\xff", "not JSON")):
        with pytest.raises(ProgramFormatError, match=message):
            decode(seal(body))


@pytest.mark.parametrize("how", ["damaged", "truncated"])
def test_mtia_sim_refuses_a_damaged_program(program: bytes, tmp_path: Path, how: str) -> None:
    path = tmp_path / "kernel.mtia"
    path.write_bytes(damaged(program) if how == "damaged" else program[:-10])
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.ones(64, np.float32), y=np.ones(64, np.float32),
             z=np.zeros(64, np.float32))
    done = subprocess.run([sys.executable, "-m", "mtia_compiler.sim.cli", str(path),
                           "--inputs", str(inputs)], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert f"the program is {how}" in done.stderr
    assert "Traceback" not in done.stderr and "cycles" not in done.stdout
