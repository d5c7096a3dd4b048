"""`mtia_compiler.torch.compile` on small functions: the report's records,
table and trace, the host fallback of a kernel that does not compile, and
that a call leaves Triton and Inductor as it found them."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F  # noqa: N812
import triton
from torch._inductor.runtime.benchmarking import benchmarker

import mtia_compiler.torch
from mtia_compiler.sim import load_target
from mtia_compiler.torch import MTIAFallbackWarning

TARGETS = Path(__file__).resolve().parents[3] / "targets"


def linear_gelu_softmax(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x @ w + b).softmax(-1)


def test_report_accounts_for_every_launch(tmp_path: Path) -> None:
    x, w, b = torch.randn(48, 32), torch.randn(32, 64), torch.randn(64)
    compiled = mtia_compiler.torch.compile(linear_gelu_softmax)
    torch.testing.assert_close(compiled(x, w, b), linear_gelu_softmax(x, w, b))
    report = compiled.report()

    assert report.target == "mtia-2i"
    assert report.coverage.generated == report.coverage.on_mtia == len(report.kernels) >= 2
    target = load_target("mtia-2i").to_dict()
    matmuls = [kernel for kernel in report.kernels if kernel.macs]
    assert [kernel.macs for kernel in matmuls] == [48 * 32 * 64]
    assert "aten.addmm" in matmuls[0].ops
    for kernel in report.kernels:
        assert kernel.on_mtia and kernel.fallback_reason is None
        assert kernel.cycles > 0 and kernel.seconds == pytest.approx(
            kernel.cycles / (target["clock_ghz"] * 1e9))
        assert 0 < kernel.compulsory_bytes <= kernel.dram_bytes <= kernel.bytes_moved
        fraction = kernel.roofline_fraction
        assert fraction is not None and 0 < fraction <= 1
        assert kernel.ops and kernel.graph == "inference"
        assert kernel.unit_busy_cycles["ctl"] > 0
    assert report.share(report.kernels[0]) == pytest.approx(
        report.kernels[0].cycles / report.total_cycles)
    assert report.cycles_below(1.01) == report.total_cycles
    assert report.cycles_below(0.0) == 0

    table = str(report)
    header = f"MTIA report (mtia-2i): {len(report.kernels)} launches"
    assert table.splitlines()[0].startswith(header)
    for kernel in report.kernels:
        assert kernel.name[:57] in table and str(kernel.cycles) in table

    trace = json.loads(report.chrome_trace(tmp_path / "trace.json").read_text())
    slices = [event for event in trace["traceEvents"] if event["ph"] == "X"]
    assert [event["name"] for event in slices] == [kernel.name for kernel in report.kernels]
    assert sum(event["dur"] for event in slices) == pytest.approx(report.total_seconds * 1e6)
    assert all(later["ts"] >= earlier["ts"] + earlier["dur"] - 1e-9
               for earlier, later in zip(slices, slices[1:], strict=False))

    # The report is of the last call only.
    compiled(x, w, b)
    assert len(compiled.report().kernels) == len(report.kernels)


def test_a_call_restores_triton_and_inductor() -> None:
    from triton.backends import backends

    before_backends = dict(backends)
    before_driver = triton.runtime.driver._active
    compiled = mtia_compiler.torch.compile(lambda x: torch.relu(x) * 3)
    x = torch.randn(100)
    torch.testing.assert_close(compiled(x), torch.relu(x) * 3)
    assert compiled.report().coverage.on_mtia == 1
    assert backends == before_backends
    assert triton.runtime.driver._active is before_driver
    assert "benchmark_cpu" not in vars(benchmarker)


@pytest.fixture(scope="module")
def tiny_target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mtia-2i with 256 bytes of local memory per PE: a gather's block cannot
    run in strips, and the smallest does not fit."""
    description = json.loads((TARGETS / "mtia-2i.json").read_text())
    description["name"] = "mtia-2i-256b"
    description["local_memory"]["bytes_per_pe"] = 256
    path = tmp_path_factory.mktemp("targets") / "mtia-2i-256b.json"
    path.write_text(json.dumps(description))
    return path


def embedding_gelu(indices: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    return F.gelu(F.embedding(indices, table)) * 2


def test_a_kernel_that_does_not_compile_runs_on_the_host(tiny_target: Path) -> None:
    indices, table = torch.randint(0, 100, (16,)), torch.randn(100, 64)
    compiled = mtia_compiler.torch.compile(embedding_gelu, target=tiny_target)
    with pytest.warns(MTIAFallbackWarning) as caught:
        out = compiled(indices, table)
    # The interpreter computes libdevice's erf with torch's.
    torch.testing.assert_close(out, embedding_gelu(indices, table))
    fallback_warnings = [w for w in caught if issubclass(w.category, MTIAFallbackWarning)]
    assert len(fallback_warnings) == 1
    message = str(fallback_warnings[0].message)
    report = compiled.report()
    (name, reason), = report.fallbacks.items()
    assert message.startswith(f"MTIA: kernel '{name}' (inference) does not compile for "
                              f"{tiny_target} and runs on the host: ")
    assert "embedding_gelu" in name
    assert re.search(r"\.py:\d+:\d+: error: the local-memory plan needs \d+ bytes but a PE of "
                     r"mtia-2i-256b has 256", reason)
    assert reason in message
    coverage = report.coverage
    assert (coverage.generated, coverage.on_mtia, coverage.fallback) == (1, 0, 1)
    kernel, = report.kernels
    assert not kernel.on_mtia and kernel.cycles == 0 and kernel.roofline_fraction is None
    assert f"on the host: {name}" in str(report)

    # The warning is given once per kernel.
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        torch.testing.assert_close(compiled(indices, table), embedding_gelu(indices, table))
    assert not [w for w in again if issubclass(w.category, MTIAFallbackWarning)]
    assert compiled.report().coverage == coverage

    # Running a kernel in the interpreter leaves Triton's language as it was:
    # the next kernels still compile for MTIA.
    def absmax_fp8(x: torch.Tensor) -> torch.Tensor:
        return x.abs().amax().to(torch.float8_e4m3fn)

    x = torch.randn(4, 256)
    scaled = mtia_compiler.torch.compile(absmax_fp8)
    assert torch.equal(scaled(x).float(), absmax_fp8(x).float())
    assert scaled.report().coverage.on_mtia == 1


def test_the_roofline_counts_only_bytes_that_crossed_dram() -> None:
    # A kernel that reads a third of a fused QKV buffer: its argument is
    # three times what it must move, and some of its reads hit the SRAM
    # cache; the roofline takes the DRAM traffic, so it stays below 100%.
    from types import SimpleNamespace

    from mtia_compiler.backend.driver import KernelLaunch, LaunchRecord, TensorArgument
    from mtia_compiler.torch.report import make_record

    target = load_target("mtia-2i").to_dict()
    cycles = 1000
    dram = 2 * int(cycles * target["dram_bytes_per_cycle"] / 2)
    result = SimpleNamespace(cycles=cycles, seconds=cycles / 1.35e9, units={},
                             bytes={"dram_read": dram // 2, "dram_write": dram // 2,
                                    "cache_read": dram})
    launch = KernelLaunch("split", "kernel.py", (64, 1, 1),
                          (TensorArgument("in_ptr0", (3 * dram // 8,), "float32", 3 * dram // 2),
                           TensorArgument("out_ptr0", (dram // 8,), "float32", dram // 2)),
                          LaunchRecord("split", (64, 1, 1), result), None)
    record = make_record(launch, "inference", ("split",), target)
    assert record.compulsory_bytes == dram
    assert record.roofline_fraction == pytest.approx(1.0, rel=1e-3)


def test_a_graph_whose_code_inductor_cannot_generate_runs_on_the_host() -> None:
    # Inductor's Triton code for the CPU device fails on a sort followed by
    # a scan of 65,536 elements (torch 2.13: its wrapper's memory planning
    # reads a name a split scan's workspace lacks); its C++ backend, which
    # eager torch.compile uses, does not. The graph runs as PyTorch runs it.
    def sorted_cumsum(x: torch.Tensor) -> torch.Tensor:
        return torch.sort(x).values.cumsum(0)

    x = torch.randn(1 << 16, generator=torch.Generator().manual_seed(0))
    compiled = mtia_compiler.torch.compile(sorted_cumsum)
    with pytest.warns(MTIAFallbackWarning, match="a graph runs on the host: Inductor cannot "
                      r"generate this graph's code \(AttributeError: 'WorkspaceArg'"):
        out = compiled(x)
    torch.testing.assert_close(out, sorted_cumsum(x), rtol=0, atol=0)
    report = compiled.report()
    reason, = report.host_graphs
    assert reason.startswith("Inductor cannot generate this graph's code")
    assert f"graph on the host: {reason}" in str(report)
    assert report.coverage.generated == 0
