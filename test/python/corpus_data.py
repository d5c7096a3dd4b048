"""Where the copy of the Triton corpus lives, for the tests that use it."""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "cases"
CORPUS_FILES = sorted(CORPUS.glob("*/kernel*.ttir"))
