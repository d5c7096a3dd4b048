"""Shared fixtures of the pytest suite."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "cases"
CORPUS_FILES = sorted(CORPUS.glob("*/kernel*.ttir"))


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    assert CORPUS_FILES, f"no corpus found in {CORPUS}"
    return CORPUS_FILES
