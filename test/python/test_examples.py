"""The example scripts (`examples/`) run on the simulated MTIA at small sizes
and agree with torch (each script checks its own numbers and exits non-zero
when they differ)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"
SCRIPTS = ("vector_add", "fused_softmax", "matmul", "layer_norm", "fused_attention",
           "grouped_gemm", "cross_pe_sum", "split_k_gemm", "row_split_softmax")


@pytest.mark.parametrize("name", SCRIPTS)
def test_example(name: str, tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), "--small"],
                            capture_output=True, text=True, timeout=600, check=False,
                            env=dict(os.environ, TRITON_CACHE_DIR=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "simulated" in result.stdout and "match" in result.stdout


def test_every_example_is_tested() -> None:
    scripts = {path.stem for path in EXAMPLES.glob("*.py")} - {"common"}
    assert scripts == set(SCRIPTS)
