"""The stubs of the native extensions (`python/mtia_compiler/_mtia.pyi` and
`_sim.pyi`), which the type checker reads, are what nanobind's stub generator
makes of the built extensions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "mtia_compiler"


@pytest.mark.parametrize("module", ["_mtia", "_sim"])
def test_native_stub_is_current(module: str, tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m",
                    f"mtia_compiler.{module}", "-O", str(tmp_path)], check=True)
    generated = (tmp_path / f"{module}.pyi").read_text()
    assert generated == (PACKAGE / f"{module}.pyi").read_text(), (
        f"python/mtia_compiler/{module}.pyi is stale; regenerate it with `python -m "
        f"nanobind.stubgen -m mtia_compiler.{module} -O python/mtia_compiler`")
