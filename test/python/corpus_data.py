"""Where the copies of the TTIR corpora live, for the tests that use them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "cases"
CORPUS_FILES = sorted(CORPUS.glob("*/kernel*.ttir"))
#: The second corpus: hand-written and TorchInductor kernels (test/kernels/README.md).
KERNEL_CASES = Path(__file__).resolve().parents[1] / "kernels" / "cases"

#: A CompilationError message must hold at least one `file:line:col: error: ` diagnostic.
LOCATED = re.compile(r"^[^\s:]+:\d+:\d+: error: ", re.M)


def load_run_case() -> ModuleType:
    """test/corpus/run_case.py (load_case, build_args, check), which both corpora share."""
    spec = importlib.util.spec_from_file_location("run_case", CORPUS.parent / "run_case.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
