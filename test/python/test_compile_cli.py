"""`mtia-compile` writes a program that `mtia-sim` runs; a kernel it cannot
compile gives a located error and exit status 1."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
from corpus_data import CORPUS


def tool(name: str) -> str:
    executable = shutil.which(name)
    assert executable, f"{name} is not installed"
    return executable


def test_compile_then_simulate(tmp_path: Path) -> None:
    program = tmp_path / "vector_add.mtia"
    compiled = subprocess.run(
        [tool("mtia-compile"), str(CORPUS / "01_vector_add" / "kernel.ttir"), "-o", str(program),
         "--dump-dir", str(tmp_path / "ir")],
        capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    assert "vector_add(x_ptr: pointer, y_ptr: pointer, out_ptr: pointer, n_elements: int)" \
        in compiled.stdout
    assert "dma.load" in (tmp_path / "ir" / "dma.mlir").read_text()
    n = 3000
    rng = np.random.default_rng(0)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    np.savez(tmp_path / "inputs.npz", x_ptr=x, y_ptr=y, out_ptr=np.zeros(n, np.float32),
             n_elements=np.int64(n))
    simulated = subprocess.run(
        [tool("mtia-sim"), str(program), "--inputs", str(tmp_path / "inputs.npz"),
         "--grid", "3", "1", "1", "--out", str(tmp_path / "out.npz")],
        capture_output=True, text=True)
    assert simulated.returncode == 0, simulated.stderr
    with np.load(tmp_path / "out.npz") as outputs:
        np.testing.assert_array_equal(outputs["out_ptr"].view(np.float32), x + y)


def test_unsupported_kernel_is_located(tmp_path: Path) -> None:
    source = Path(__file__).parent / "data" / "bessel.ttir"
    result = subprocess.run(
        [tool("mtia-compile"), str(source), "-o", str(tmp_path / "bessel.mtia")],
        capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.startswith("bessel.py:6:16: error: ")
    assert "__nv_j0f" in result.stderr
    assert ": error: " in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "bessel.mtia").exists()
