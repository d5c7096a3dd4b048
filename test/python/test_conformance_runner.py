"""The conformance runner's command line (the runs themselves need Triton's
tests from ../shared and an hour; `scripts/conformance.sh` runs them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1] / "conformance" / "run.py"


def test_the_runner_parses_its_options() -> None:
    result = subprocess.run([sys.executable, str(RUNNER), "--help"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for option in ("--files", "-k KEYWORD", "--sample", "--timeout", "--out", "--fresh"):
        assert option in result.stdout


ADAPTED_TESTS = """
import pytest
import torch


@pytest.mark.parametrize("mxfp_type", ["e4m3", "e2m1"])
def test_scaled_dot(mxfp_type):
    torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.0001]), atol=1e-5, rtol=1e-5)
"""


def test_listed_adaptations_apply_to_their_parametrisations_only(tmp_path: Path) -> None:
    (tmp_path / "test_core.py").write_text(ADAPTED_TESTS)
    # The tests' own conftest gives them `--device`; this stands in for it.
    (tmp_path / "conftest.py").write_text(
        "def pytest_addoption(parser):\n    parser.addoption('--device')\n")
    results = tmp_path / "results.jsonl"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(RUNNER.parent),
                                                               str(RUNNER.parents[1])]))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "mtia_plugin", "--device", "cpu",
                    f"--mtia-results={results}", "test_core.py"], cwd=tmp_path, env=environment,
                   capture_output=True, text=True, timeout=120, check=False)
    assert results.exists()
    outcomes = {record["test"]: record
                for record in map(json.loads, results.read_text().splitlines())}
    assert outcomes["test_core.py::test_scaled_dot[e4m3]"]["outcome"] == "adapted"
    assert "CPU interpreter" in outcomes["test_core.py::test_scaled_dot[e4m3]"]["message"]
    assert outcomes["test_core.py::test_scaled_dot[e2m1]"]["outcome"] == "failed"
    sys.path.insert(0, str(RUNNER.parent))
    try:
        from run import summarise  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(RUNNER.parent))
    summary = summarise(outcomes, {test: {"outcome": "passed"} for test in outcomes})
    assert summary["counts"] == {"passed": 1, "of which adapted (listed)": 1, "failed": 1}
    assert [test for test, _ in summary["adapted"]] == ["test_core.py::test_scaled_dot[e4m3]"]
