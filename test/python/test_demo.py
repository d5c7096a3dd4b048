"""The README's main job: the bundled fused softmax compiles, runs on the
simulator and matches numpy."""

from __future__ import annotations

import re

from click.testing import CliRunner

from mtia_compiler.demo import main


def test_main_job() -> None:
    result = CliRunner().invoke(main, ["--rows", "9", "--cols", "300"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "stages: ttir, tile, dma, bin" in result.output
    cycles = re.search(r"simulated: (\d+) cycles", result.output)
    assert cycles and int(cycles.group(1)) > 0
    assert result.output.rstrip().endswith("PASS")
