"""The FlagGems runner's command line and summary (the runs themselves need
FlagGems from PyPI and its tests from its source; `scripts/flaggems.sh` runs
them, never the test suite)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).resolve().parents[1] / "flaggems" / "run.py"


def _runner_module() -> Any:
    """The runner as a module of its own name (the conformance runner, which
    its tests import, is also a `run.py`)."""
    spec = importlib.util.spec_from_file_location("flaggems_run", RUNNER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_runner_parses_its_options() -> None:
    result = subprocess.run([sys.executable, str(RUNNER), "--help"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for option in ("--tests", "--files", "-k KEYWORD", "--sample", "--timeout", "--full",
                   "--out", "--fresh"):
        assert option in result.stdout


def test_the_summary_counts_and_lists_each_outcome() -> None:
    run = _runner_module()
    records = {
        "tests/test_add.py::test_add[a]": {"outcome": "passed", "message": "", "launches": 1},
        "tests/test_add.py::test_add_scalar_scalar[a]": {"outcome": "passed", "message": "",
                                                         "launches": 0},
        "tests/test_mm.py::test_mm[a]": {"outcome": "failed", "message": "TypeError: bad",
                                         "launches": 0},
        "tests/test_mm.py::test_mm_cuda[a]": {"outcome": "excluded",
                                              "message": "Skipped: FLAGGEMS-EXCLUDED: needs CUDA"},
        "tests/test_sum.py::test_sum[a]": {"outcome": "skipped", "message": "Skipped: fp64"},
    }
    summary = run.summarise(records)
    assert summary["counts"] == {
        "passed": 2, "of which made no MTIA launch": 1, "failed": 1, "excluded (listed)": 1,
        "excluded (skipped by FlagGems' own test code)": 1}
    assert summary["failures"] == [("tests/test_mm.py::test_mm[a]", "TypeError: bad")]
    assert [test for test, _ in summary["excluded"]] == [
        "tests/test_mm.py::test_mm_cuda[a]", "tests/test_sum.py::test_sum[a]"]
    lines = run.report(summary)
    assert lines[-1] == "flaggems: 2 passed, 1 failed"
    assert "FAILED tests/test_mm.py::test_mm[a]: TypeError: bad" in lines
    assert lines[-2].startswith("collected 5: ")
