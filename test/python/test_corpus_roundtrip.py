"""Every corpus file round-trips through mtia-opt to identical text: parse,
verify, print, parse, print."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus_data import CORPUS_FILES

from mtia_compiler.opt import main


def run_opt(args: list[str], stdin: str | None = None) -> str:
    result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_corpus_is_complete() -> None:
    # 26 cases, each with and without locations.
    assert len(CORPUS_FILES) == 52


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("debuginfo", [False, True], ids=["noloc", "loc"])
def test_roundtrip(path: Path, debuginfo: bool) -> None:
    flags = ["--mlir-print-debuginfo"] if debuginfo else []
    first = run_opt([str(path), *flags])
    second = run_opt(["-", *flags], stdin=first)
    assert first == second
    assert "tt.func public" in first
    assert ("loc(" in first) == debuginfo
