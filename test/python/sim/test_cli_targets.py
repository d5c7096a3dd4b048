"""The mtia-sim CLI and the target descriptions: inputs from .npz/.npy and
--scalar, outputs, the trace, exit codes; the second target's data changes
the cycles; invalid target files name the offending field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import copy_program

from mtia_compiler.program import ProgramBuilder, Unit
from mtia_compiler.sim import SimulationError, Simulator, Target, load_target

TARGETS = Path(__file__).resolve().parents[3] / "targets"


def mtia_sim(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mtia_compiler.sim.cli", *map(str, args)],
                          capture_output=True, text=True, check=False)


def scaled_copy_program() -> bytes:
    """dst[i] = src[i] * scale for i < n, one 256-element block per program,
    printing n and scale from program 0."""
    b = ProgramBuilder("scaled_copy")
    src, dst = b.param_ptr("src", "f32"), b.param_ptr("dst", "f32")
    n, scale = b.param_int("n"), b.param_float("scale")
    cx, cy = b.cb("x", 1024, 2), b.cb("y", 1024, 2)
    start = b.mul(b.program_id(0), 256)
    offset, limit = b.mul(start, 4), b.sub(b.param(n), start)
    skip = b.label()
    b.branch_if_nonzero(b.program_id(0), skip)
    b.print(" n, scale:", b.param(n), b.fparam(scale))
    b.bind(skip)
    b.reserve(Unit.DMA_IN, cx)
    b.dma_load(cx.back(), b.add(b.param(src), offset), "f32", [256], [1], lo=[0], hi=[limit])
    b.push(Unit.DMA_IN, cx)
    b.wait(Unit.SIMD, cx)
    b.reserve(Unit.SIMD, cy)
    b.simd_binary("mul", "f32", cy.back(), cx.front(), b.fparam(scale), 256)
    b.push(Unit.SIMD, cy)
    b.pop(Unit.SIMD, cx)
    b.wait(Unit.DMA_OUT, cy)
    b.dma_store(cy.front(), b.add(b.param(dst), offset), "f32", [256], [1], lo=[0], hi=[limit])
    b.pop(Unit.DMA_OUT, cy)
    return b.build()


def test_cli_runs_with_npz_npy_scalars_out_and_trace(tmp_path: Path) -> None:
    program = tmp_path / "kernel.mtia"
    program.write_bytes(scaled_copy_program())
    src = np.arange(1000, dtype=np.float32)
    np.savez(tmp_path / "in.npz", src=src, n=np.array(1000))
    np.save(tmp_path / "dst.npy", np.full(1024, -1, np.float32))
    out, trace = tmp_path / "out.npz", tmp_path / "trace.json"
    done = mtia_sim(program, "--inputs", tmp_path / "in.npz", "--buffer",
                    f"dst={tmp_path / 'dst.npy'}", "--scalar", "scale=2.5", "--grid", "4", "1",
                    "1", "--out", out, "--trace", trace)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pid (0, 0, 0) idx () n, scale: 1000 2.5\n")
    assert "cycles:" in done.stdout and "dma.in" in done.stdout
    with np.load(out) as result:
        np.testing.assert_array_equal(result["src"], src)
        np.testing.assert_array_equal(result["dst"][:1000], src * np.float32(2.5))
        np.testing.assert_array_equal(result["dst"][1000:], -1)
    events = json.loads(trace.read_text())["traceEvents"]
    tracks = {(e["pid"], e["args"]["name"]) for e in events if e["name"] == "thread_name"}
    units = ("dma.in", "dma.out", "dpe", "simd", "re", "mlu")
    assert tracks == {(pe, unit) for pe in range(64) for unit in units}
    spans = [e for e in events if e["ph"] == "X"]
    assert {(e["pid"], e["name"]) for e in spans} == {
        (pe, op) for pe in range(4) for op in ("dma.load", "simd.binary", "dma.store")}


def test_cli_json_stats_and_other_target(tmp_path: Path) -> None:
    program = tmp_path / "copy.mtia"
    program.write_bytes(copy_program(1024))
    np.savez(tmp_path / "in.npz", src=np.ones(4096, np.float32), dst=np.zeros(4096, np.float32))
    stats: dict[str, dict[str, Any]] = {}
    for target in ("mtia-2i", str(TARGETS / "mtia-v1.json")):
        done = mtia_sim(program, "--inputs", tmp_path / "in.npz", "--scalar", "n=0x1000",
                        "--grid", "4", "1", "1", "--target", target, "--json")
        assert done.returncode == 0, done.stderr
        stats[target] = json.loads(done.stdout)
    first, second = stats.values()
    assert first["bytes"]["dram_read"] == second["bytes"]["dram_read"] == 4096 * 4
    assert first["cycles"] != second["cycles"]


def test_cli_simulation_error_exits_1_with_the_message(tmp_path: Path) -> None:
    program = tmp_path / "copy.mtia"
    program.write_bytes(copy_program(1024))
    np.savez(tmp_path / "in.npz", src=np.ones(100, np.float32), dst=np.zeros(4096, np.float32),
             n=np.array(4096))
    done = mtia_sim(program, "--inputs", tmp_path / "in.npz")
    assert done.returncode == 1
    assert done.stderr.startswith("mtia-sim: out_of_bounds: out-of-bounds DMA read")
    assert "'src'" in done.stderr and "program (0, 0, 0)" in done.stderr

    missing = mtia_sim(program, "--buffer", f"src={tmp_path / 'none.npy'}")
    assert missing.returncode == 1 and "cannot read an input" in missing.stderr
    assert "Traceback" not in missing.stderr
    unbound = mtia_sim(program, "--scalar", "n=4")
    assert unbound.returncode == 1 and "no value for parameter 'src' (ptr)" in unbound.stderr
    program.write_bytes(b"MTIAPROG" + bytes(4))
    corrupt = mtia_sim(program)
    assert corrupt.returncode == 1 and "the program is truncated" in corrupt.stderr


def test_same_program_different_cycles_from_target_data() -> None:
    """A DRAM-bound copy sustains 75-92% of the DRAM peak on either
    target, and a DPE-bound matmul takes MACs / (MACs per cycle per PE)."""
    n = 1 << 20
    program = copy_program(4096)
    cycles = {}
    for name in ("mtia-2i", "mtia-v1"):
        target = load_target(name).to_dict()
        src, dst = np.arange(n, dtype=np.float32), np.zeros(n, np.float32)
        result = Simulator(name).run(program, [src, dst, n], (n // 4096,))
        np.testing.assert_array_equal(dst, src)
        roofline = 2 * src.nbytes / target["dram_bytes_per_cycle"]
        assert 0.75 <= roofline / result.cycles <= 0.92, name
        cycles[name] = result.cycles
    assert cycles["mtia-v1"] != cycles["mtia-2i"]

    b = ProgramBuilder("mma")
    ca, cb_ = b.cb("a", 64 * 256 * 2, 1), b.cb("b", 256 * 64 * 2, 1)
    cc = b.cb("c", 64 * 64 * 4, 1)
    for cb in (ca, cb_):
        b.reserve(Unit.MLU, cb)
        b.push(Unit.MLU, cb)
        b.wait(Unit.DPE, cb)
    b.reserve(Unit.DPE, cc)
    b.mma(ca.front(), cb_.front(), cc.back(), 64, 64, 256, "bf16")
    mma = b.build()
    busy = {}
    for name in ("mtia-2i", "mtia-v1"):
        rate = load_target(name).to_dict()["dpe_macs_per_cycle_per_pe"]["bf16"]
        busy[name] = Simulator(name).run(mma, []).units["dpe"]["busy_cycles"]
        assert abs(busy[name] - 64 * 64 * 256 / rate) <= 1
    assert busy["mtia-v1"] != busy["mtia-2i"]


def test_cb_alignment_comes_from_the_target() -> None:
    """Every CB starts at a multiple of local_memory.cb_alignment_bytes: a
    100-byte and a 300,000-byte CB fit mtia-2i's local memory at its 64-byte
    alignment and overflow it at an alignment of 128 KiB."""
    b = ProgramBuilder("two_buffers")
    b.cb("small", 100, 1)
    b.cb("large", 300_000, 1)
    program = b.build()
    assert load_target().to_dict()["cb_alignment_bytes"] == 64
    Simulator("mtia-2i").run(program, [])
    data = json.loads((TARGETS / "mtia-2i.json").read_text())
    data["local_memory"]["cb_alignment_bytes"] = 128 << 10
    target = Target.from_json(json.dumps(data))
    assert target.to_dict()["cb_alignment_bytes"] == 128 << 10
    with pytest.raises(SimulationError) as info:
        Simulator(target).run(program, [])
    assert info.value.kind == "local_memory_overflow"
    assert "need 524288 bytes" in str(info.value)


def broken_target(tmp_path: Path, edit: str) -> Path:
    data = json.loads((TARGETS / "mtia-2i.json").read_text())
    section, _, key = edit.partition(".")
    if edit in ("reduce.network_hop_cycles", "launch.launch_ns"):
        data[section][key] = -5
    elif key:
        del data[section][key]
    else:
        data[section] = "fast"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("edit", "message"), [
    ("dram.bandwidth_gbps", "field 'dram.bandwidth_gbps' is missing"),
    ("reduce.network_bytes_per_cycle", "field 'reduce.network_bytes_per_cycle' is missing"),
    ("reduce.network_hop_cycles", "field 'reduce.network_hop_cycles' must be a non-negative"),
    ("clock_ghz", "field 'clock_ghz' must be a positive number"),
    ("dpe", "missing object field 'dpe'"),
    ("local_memory.cb_alignment_bytes", "field 'local_memory.cb_alignment_bytes' is missing"),
    ("simd.tops_f64", "field 'simd.tops_f64' is missing"),
    ("mlu.transpose_bytes_per_cycle", "field 'mlu.transpose_bytes_per_cycle' is missing"),
    ("command_processor.handoff_cycles", "field 'command_processor.handoff_cycles' is missing"),
    ("launch", "missing object field 'launch'"),
    ("launch.launch_ns", "field 'launch.launch_ns' must be a non-negative number"),
])
def test_invalid_target_names_the_field(edit: str, message: str, tmp_path: Path) -> None:
    path = broken_target(tmp_path, edit)
    with pytest.raises(ValueError, match="broken.json") as info:
        load_target(path)
    assert message in str(info.value)
    with pytest.raises(ValueError, match=message):
        Simulator(path)
    program = tmp_path / "copy.mtia"
    program.write_bytes(copy_program(64))
    done = mtia_sim(program, "--target", path)
    assert done.returncode == 1 and message in done.stderr


def test_invalid_target_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"name\": ")
    with pytest.raises(ValueError, match="invalid JSON"):
        load_target(bad)
    with pytest.raises(ValueError, match="cannot read"):
        load_target(tmp_path / "absent.json")
    with pytest.raises(ValueError, match="cannot read"):
        load_target("no-such-target")
