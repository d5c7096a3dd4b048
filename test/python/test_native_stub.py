"""The stub of the native extension, `python/mtia_compiler/_mtia.pyi`, which
the type checker reads, is what nanobind's stub generator makes of the built
extension."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STUB = Path(__file__).resolve().parents[2] / "python" / "mtia_compiler" / "_mtia.pyi"


def test_native_stub_is_current(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "mtia_compiler._mtia",
                    "-O", str(tmp_path)], check=True)
    generated = (tmp_path / "_mtia.pyi").read_text()
    assert generated == STUB.read_text(), (
        "python/mtia_compiler/_mtia.pyi is stale; regenerate it with "
        "`python -m nanobind.stubgen -m mtia_compiler._mtia -O python/mtia_compiler`")
