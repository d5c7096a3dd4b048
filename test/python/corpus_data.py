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


def load_module(name: str, path: Path) -> ModuleType:
    """The Python file at `path`, imported as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_run_case() -> ModuleType:
    """test/corpus/run_case.py (load_case, build_args, check), which both corpora share."""
    return load_module("run_case", CORPUS.parent / "run_case.py")


def load_hand_written_kernels() -> ModuleType:
    """test/kernels/kernels.py: the @triton.jit kernels of the second corpus."""
    return load_module("hand_written_kernels", KERNEL_CASES.parent / "kernels.py")
