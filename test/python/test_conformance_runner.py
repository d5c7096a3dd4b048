"""The conformance runner's command line (the runs themselves need Triton's
tests from ../shared and an hour; `scripts/conformance.sh` runs them)."""

from __future__ import annotations

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
