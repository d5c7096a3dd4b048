"""What the runners of third-party test suites share (Triton's language tests,
`conformance/`; FlagGems' tests, `flaggems/`): their pytest plugins sample
parametrisations, mark excluded tests, name the test about to run and record
each outcome as a JSON line; their runners start pytest again after a test
that took its process down, until every test has an outcome.

The options of a plugin carry its prefix: `--<prefix>-results` (the JSON-lines
file), `--<prefix>-sample` (parametrisations kept per test function, 0 for
all) and `--<prefix>-skip-file` (node ids not to run again).
"""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def add_options(parser: pytest.Parser, prefix: str) -> None:
    group = parser.getgroup(prefix)
    group.addoption(f"--{prefix}-results", default=None,
                    help="append outcomes to this JSON-lines file")
    group.addoption(f"--{prefix}-sample", type=int, default=0,
                    help="parametrisations kept per test function (0: all)")
    group.addoption(f"--{prefix}-skip-file", default=None,
                    help="a file of node ids not to run again (already recorded)")


def function_name(item: pytest.Item) -> str:
    """The name of a test's function, before any parametrisation."""
    return str(getattr(item, "originalname", item.name))


def _evenly_spaced(items: list[pytest.Item], count: int) -> list[pytest.Item]:
    if count <= 0 or len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def keep_sampled(config: pytest.Config, items: list[pytest.Item], prefix: str,
                 excluded: dict[str, str], marker: str) -> None:
    """Keeps `--<prefix>-sample` evenly spaced parametrisations of each test
    function that are not in the skip file, deselects the others, and marks
    the tests `excluded` names for a skip whose reason starts with
    `marker`."""
    by_function: dict[tuple[str, str], list[pytest.Item]] = defaultdict(list)
    for item in items:
        by_function[(str(item.path), function_name(item))].append(item)
    sample = int(config.getoption(f"--{prefix}-sample"))
    kept = [item for group in by_function.values() for item in _evenly_spaced(group, sample)]
    skip_file = config.getoption(f"--{prefix}-skip-file")
    if skip_file and Path(skip_file).exists():
        done = set(Path(skip_file).read_text().split())
        kept = [item for item in kept if item.nodeid not in done]
    kept_ids = {id(item) for item in kept}
    deselected = [item for item in items if id(item) not in kept_ids]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept
    for item in items:
        reason = excluded.get(function_name(item))
        if reason:
            item.add_marker(pytest.mark.skip(reason=f"{marker}: {reason}"))


def results_path(config: pytest.Config, prefix: str) -> Path | None:
    path = config.getoption(f"--{prefix}-results")
    return Path(path) if path else None


def name_current_test(config: pytest.Config, prefix: str, nodeid: str) -> None:
    """Names the test about to run in `<results>.current`."""
    path = results_path(config, prefix)
    if path is not None:
        Path(f"{path}.current").write_text(nodeid)


def is_recorded(report: pytest.TestReport) -> bool:
    """Whether a report gives its test's outcome: the call, or a setup that
    did not pass (a skip or an error)."""
    return report.when == "call" or (report.when == "setup" and report.outcome != "passed")


def outcome(report: pytest.TestReport, marker: str, length: int) -> tuple[str, str]:
    """The outcome of a test ("excluded" for a skip marked with `marker`)
    and its message: the skip's reason or the failure's `E` lines, at most
    `length` characters."""
    if report.skipped and isinstance(report.longrepr, tuple):
        message = str(report.longrepr[2])
        return ("excluded" if message.startswith(f"Skipped: {marker}") else "skipped"), message
    if report.failed:
        errors = [line[1:].strip() for line in report.longreprtext.splitlines()
                  if line.startswith("E ")]
        return "failed", " ".join(errors)[:length]
    return report.outcome, ""


def record(path: Path, record: dict[str, Any]) -> None:
    with path.open("a") as f:
        f.write(json.dumps(record) + "\n")


def read_results(path: Path) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            results[entry["test"]] = entry
    return results


def run_until_recorded(command: Callable[[Path], list[str]], cwd: Path, env: dict[str, str],
                       results: Path, died: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Runs pytest (`command(skip_file)`) until every test has an outcome in
    `results`. A test the process ended in (a crash, or pytest-timeout ending
    it) is recorded as failed, with the fields of `died`, and the run goes on
    after it."""
    current = Path(f"{results}.current")
    done_file = Path(f"{results}.done")
    while True:
        recorded = read_results(results)
        done_file.write_text("\n".join(recorded))
        current.unlink(missing_ok=True)
        with Path(f"{results}.log").open("a") as log:
            process = subprocess.run(command(done_file), cwd=cwd, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, check=False)
        recorded = read_results(results)
        test = current.read_text() if current.exists() else None
        if test is None or test in recorded:
            if process.returncode not in (0, 1, 5):
                raise SystemExit(f"pytest failed ({process.returncode}): see {results}.log")
            return recorded
        record(results, {"test": test, "outcome": "failed",
                         "message": f"the test process ended ({process.returncode}): "
                                    "crash or time-out", **died})
