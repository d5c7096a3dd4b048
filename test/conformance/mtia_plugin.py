"""pytest plugin that runs Triton's language tests against the MTIA backend.

Loaded by `test/conformance/run.py` (`-p mtia_plugin`) on a copy of the pinned
tests in `../shared/conformance/` that lies outside the project. It adapts only
what is CUDA-specific and says so:

* the tests' `device` is `cpu` (`--device cpu`): torch CPU tensors, which the
  MTIA backend binds zero-copy;
* `--mtia-sample N` keeps N evenly spaced parametrisations of each test
  function (all of them without it);
* `EXCLUDED` lists tests that cannot run on any backend but CUDA's, each with
  its reason; they are reported as excluded, not run;
* `TOLERANCES` lists tests that run with the tolerance the test itself
  gives Triton's CPU interpreter, each with its reason;
* every outcome is appended to `--mtia-results` as one JSON line, and the test
  about to run is named in `<results>.current`, so that the runner can resume
  after a test that takes the process down or exceeds its time limit.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

#: Tests excluded by name (the function name, before any parametrisation),
#: with the reason. Tests that fail on Triton's interpreter need no entry: the
#: runner does not count them against the backend.
EXCLUDED: dict[str, str] = {}


@dataclass(frozen=True)
class Tolerance:
    """The tolerance a test's `torch.testing.assert_close` calls get at
    least, in the parametrisations whose id holds `parameters`."""

    parameters: str
    atol: float
    rtol: float
    reason: str


#: Tests adapted by function name: they run with the tolerance the test
#: gives Triton's CPU interpreter, the other CPU implementation.
TOLERANCES: dict[str, Tolerance] = {
    "test_scaled_dot": Tolerance(
        "e4m3", 2e-4, 2e-2,
        "the test's tolerance for the CPU interpreter with e4m3 operands (atol 2e-4, rtol 2e-2): "
        "the reference is torch's CPU fp16 matmul, while the MTIA returns the correctly rounded "
        "exact product, as the interpreter, the other CPU implementation, does"),
}


def _tolerance(item: pytest.Item) -> Tolerance | None:
    tolerance = TOLERANCES.get(getattr(item, "originalname", item.name))
    if tolerance is None or tolerance.parameters not in item.name:
        return None
    return tolerance


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    tolerance = _tolerance(item)
    if tolerance is None:
        yield
        return
    import torch

    assert_close = torch.testing.assert_close

    def adapted(actual: Any, expected: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["atol"] = max(kwargs.get("atol") or 0.0, tolerance.atol)
        kwargs["rtol"] = max(kwargs.get("rtol") or 0.0, tolerance.rtol)
        assert_close(actual, expected, *args, **kwargs)

    torch.testing.assert_close = adapted  # type: ignore[assignment]
    try:
        yield
    finally:
        torch.testing.assert_close = assert_close


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mtia")
    group.addoption("--mtia-results", default=None, help="append outcomes to this JSON-lines file")
    group.addoption("--mtia-sample", type=int, default=0,
                    help="parametrisations kept per test function (0: all)")
    group.addoption("--mtia-skip-file", default=None,
                    help="a file of node ids not to run again (already recorded)")


def _evenly_spaced(items: list[pytest.Item], count: int) -> list[pytest.Item]:
    if count <= 0 or len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    sample = int(config.getoption("--mtia-sample"))
    by_function: dict[tuple[str, str], list[pytest.Item]] = defaultdict(list)
    for item in items:
        by_function[(str(item.path), getattr(item, "originalname", item.name))].append(item)
    kept = [item for group in by_function.values() for item in _evenly_spaced(group, sample)]
    skip_file = config.getoption("--mtia-skip-file")
    if skip_file and Path(skip_file).exists():
        done = set(Path(skip_file).read_text().split())
        kept = [item for item in kept if item.nodeid not in done]
    deselected = [item for item in items if item not in set(kept)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = kept
    _ITEMS.update((item.nodeid, item) for item in kept)
    for item in items:
        reason = EXCLUDED.get(getattr(item, "originalname", item.name))
        if reason:
            item.add_marker(pytest.mark.skip(reason=f"MTIA-EXCLUDED: {reason}"))


def _results_path(config: pytest.Config) -> Path | None:
    path = config.getoption("--mtia-results")
    return Path(path) if path else None


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    config = _CONFIG[0]
    path = _results_path(config)
    if path is not None:
        Path(f"{path}.current").write_text(nodeid)


_CONFIG: list[pytest.Config] = []
#: The collected tests by node id.
_ITEMS: dict[str, pytest.Item] = {}


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG.append(config)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        path = _results_path(_CONFIG[0])
        if path is None:
            return
        outcome: str = report.outcome
        message = ""
        if report.skipped and isinstance(report.longrepr, tuple):
            message = str(report.longrepr[2])
            if message.startswith("Skipped: MTIA-EXCLUDED"):
                outcome = "excluded"
        elif report.passed and (tolerance := _tolerance(_ITEMS[report.nodeid])) is not None:
            outcome = "adapted"
            message = tolerance.reason
        elif report.failed:
            errors = [line[1:].strip() for line in report.longreprtext.splitlines()
                      if line.startswith("E ")]
            message = " ".join(errors)[:400]
        with path.open("a") as f:
            f.write(json.dumps({"test": report.nodeid, "outcome": outcome,
                                "message": message}) + "\n")
