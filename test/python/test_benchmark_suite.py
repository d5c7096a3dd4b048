"""The benchmark suite (`benchmarks/suite.py --quick`): every kernel family
runs at its smallest size, agrees with torch and reports a positive share of
its roofline, and the memory-bound ones a share of the streaming copy's time."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).parents[2] / "benchmarks" / "suite.py"
KERNELS = ("gemm_fp16", "gemm_bf16", "gemm_int8", "gemm_fp8", "attention_d64",
           "attention_d64_causal", "attention_d128", "attention_d128_causal", "softmax",
           "layernorm", "rmsnorm", "cross_entropy", "row_sum", "column_sum", "embedding")
SIZED_LINE = re.compile(r"(?P<kernel>\w+)\[[\dx]+\]: (?P<percent>[\d.]+)% of roofline")
KERNEL_LINE = re.compile(r"(?P<kernel>\w+): (?P<percent>[\d.]+)% of roofline")
COPY_LINE = re.compile(r"streaming copy: [\d.]+ B/cycle, (?P<percent>[\d.]+)% of the DRAM peak")
AGAINST_COPY = re.compile(r"(?P<kernel>\w+)\[[\dx]+\]: [\d.]+% of the streaming copy")


def test_quick_suite_reports_every_kernel(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(SUITE), "--quick"], capture_output=True,
                            text=True, timeout=600, check=False,
                            env=dict(os.environ, TRITON_CACHE_DIR=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "wrong numbers" not in result.stdout, result.stdout
    sized = [match for line in lines if (match := SIZED_LINE.fullmatch(line))]
    final = [match for line in lines if (match := KERNEL_LINE.fullmatch(line))]
    # One size per kernel, then one line per kernel, in the suite's order.
    assert [match["kernel"] for match in sized] == list(KERNELS), result.stdout
    assert [match["kernel"] for match in final] == list(KERNELS), result.stdout
    assert all(float(match["percent"]) > 0 for match in sized + final), result.stdout
    assert lines[-len(KERNELS):] == [match.string for match in final]
    # The memory-bound kernels are also held against the streaming copy.
    copy = [match for line in lines if (match := COPY_LINE.fullmatch(line))]
    assert len(copy) == 1 and 0 < float(copy[0]["percent"]) < 100
    against_copy = {match["kernel"] for line in lines if (match := AGAINST_COPY.fullmatch(line))}
    assert {"softmax", "layernorm", "row_sum"} <= against_copy, result.stdout
