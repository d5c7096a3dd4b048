"""The stubs of the native extensions (`python/mtia_compiler/_mtia.pyi`,
`_sim.pyi` and the MTIA runtime's `python/mtia/host_runtime/torch_mtia/_runtime.pyi`),
which the type checker reads, are what nanobind's stub generator makes of the
built extensions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PYTHON = Path(__file__).resolve().parents[2] / "python"


@pytest.mark.parametrize("module", ["mtia_compiler._mtia", "mtia_compiler._sim",
                                    "mtia.host_runtime.torch_mtia._runtime"])
def test_native_stub_is_current(module: str, tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m", module, "-O",
                    str(tmp_path)], check=True)
    package, name = module.rsplit(".", 1)
    directory = PYTHON.joinpath(*package.split("."))
    generated = (tmp_path / f"{name}.pyi").read_text()
    assert generated == (directory / f"{name}.pyi").read_text(), (
        f"{directory.relative_to(PYTHON.parent)}/{name}.pyi is stale; regenerate it with "
        f"`python -m nanobind.stubgen -m {module} -O {directory.relative_to(PYTHON.parent)}`")
