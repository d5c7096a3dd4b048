"""Every figure of a target description says where it comes from, and
docs/calibration.md lists mtia-2i's figures as the target file holds them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
KINDS = ("public:", "standard:", "assumed")


def figures(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """The numbers of a target description, by dotted path."""
    for key, value in data.items():
        if key in ("name", "description", "sources"):
            continue
        if isinstance(value, dict):
            yield from figures(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


@pytest.mark.parametrize("name", ["mtia-2i", "mtia-v1"])
def test_every_figure_has_a_source(name: str) -> None:
    data = json.loads((ROOT / "targets" / f"{name}.json").read_text())
    paths = {path for path, _ in figures(data)}
    sources: dict[str, str] = data["sources"]
    assert set(sources) == paths
    for path, source in sources.items():
        assert source.startswith(KINDS), (path, source)


def test_the_calibration_table_lists_every_figure_of_mtia_2i() -> None:
    """Each row of docs/calibration.md's figure table is `| path | value |
    kind | ...`: the value is the target file's and the kind is the first
    word of its source."""
    data = json.loads((ROOT / "targets" / "mtia-2i.json").read_text())
    text = (ROOT / "docs" / "calibration.md").read_text()
    rows = {match[1]: (match[2], match[3]) for match in
            re.finditer(r"^\| `([a-z_0-9.]+)` \| ([^|]+?) \| (public|standard|assumed) \|",
                        text, re.MULTILINE)}
    for path, value in figures(data):
        assert path in rows, path
        shown, kind = rows[path]
        assert float(shown.replace(",", "")) == float(value), path
        assert data["sources"][path].startswith(kind), path
    assert set(rows) == {path for path, _ in figures(data)}
