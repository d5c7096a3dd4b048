"""The calibration microbenchmarks (`benchmarks/calibration.py --quick`):
every benchmark runs at small sizes, agrees with torch and prints its rows of
the table with a verdict; the sensitivity run reaches a copy of the target
(the SFU rate follows `simd.sfu_fraction`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

CALIBRATION = Path(__file__).parents[2] / "benchmarks" / "calibration.py"
ROWS = ("stream_copy", "stream_read", "mixed_axpy", "strided_sector", "strided_column",
        "random_gather", "dpe_gemm_f16", "dpe_gemm_bf16", "simd_fma_f32", "simd_fma_f16",
        "simd_fma_bf16", "sfu_exp_log", "sram_cache_reread", "launch_empty", "launch_one_element")
ROW = re.compile(r"(?P<name>\w+) \(.*\) +\| .* \| (?P<inside>yes|NO|n/a) +\| .+")
SENSITIVITY_ROW = re.compile(r"(?P<figure>[\w.]+) \([\d.]+\) +\| (?P<name>\w+) +\| [^|]+\| "
                             r"(?P<half>[\d.e+-]+) +\| (?P<one>[\d.e+-]+) +\| "
                             r"(?P<double>[\d.e+-]+) +\| .*")


def run(tmp_path: Path, *args: str) -> str:
    result = subprocess.run([sys.executable, str(CALIBRATION), "--quick", *args],
                            capture_output=True, text=True, timeout=600, check=False,
                            env=dict(os.environ, TRITON_CACHE_DIR=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_quick_calibration_reports_every_figure(tmp_path: Path) -> None:
    stdout = run(tmp_path)
    rows = [match for line in stdout.splitlines() if (match := ROW.fullmatch(line))]
    assert [match["name"] for match in rows] == list(ROWS), stdout
    assert re.search(rf"^{len(ROWS)} figures, \d+ outside their range", stdout, re.M), stdout


def test_sensitivity_reaches_the_copied_target(tmp_path: Path) -> None:
    stdout = run(tmp_path, "--only", "sfu", "--sensitivity", "--sensitivity-set", "sfu",
                 "--figures", "simd.sfu_fraction,mlu.bytes_per_cycle")
    rows = {(match["figure"], match["name"]): match for line in stdout.splitlines()
            if (match := SENSITIVITY_ROW.fullmatch(line))}
    sfu = rows[("simd.sfu_fraction", "sfu_exp_log")]
    assert float(sfu["half"]) < float(sfu["one"]) < float(sfu["double"]), stdout
    # A figure the exp/log chain does not use leaves it where it is.
    assert ("mlu.bytes_per_cycle", "sfu_exp_log") not in rows, stdout
    assert re.search(r"^No measured effect at x0.5 or x2: mlu.bytes_per_cycle$", stdout,
                     re.M), stdout


def test_only_assumed_figures_are_varied(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(CALIBRATION), "--quick", "--only", "launch",
                             "--sensitivity", "--figures", "clock_ghz"],
                            capture_output=True, text=True, timeout=600, check=False,
                            env=dict(os.environ, TRITON_CACHE_DIR=str(tmp_path)))
    assert result.returncode != 0
    assert "not assumed figures of mtia-2i: clock_ghz" in result.stderr
