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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import third_party_suite

#: Tests excluded by name (the function name, before any parametrisation),
#: with the reason. Tests that fail on Triton's interpreter need no entry: the
#: runner does not count them against the backend.
EXCLUDED: dict[str, str] = {}
#: The start of the skip reason of an excluded test.
EXCLUDED_MARKER = "MTIA-EXCLUDED"
#: The prefix of the plugin's options (`--mtia-results`, ...).
PREFIX = "mtia"


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
    third_party_suite.add_options(parser, PREFIX)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    third_party_suite.keep_sampled(config, items, PREFIX, EXCLUDED, EXCLUDED_MARKER)
    _ITEMS.update((item.nodeid, item) for item in items)


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    third_party_suite.name_current_test(_CONFIG[0], PREFIX, nodeid)


_CONFIG: list[pytest.Config] = []
#: The collected tests by node id.
_ITEMS: dict[str, pytest.Item] = {}


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG.append(config)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = third_party_suite.results_path(_CONFIG[0], PREFIX)
    if path is None or not third_party_suite.is_recorded(report):
        return
    outcome, message = third_party_suite.outcome(report, EXCLUDED_MARKER, 400)
    if outcome == "passed" and (tolerance := _tolerance(_ITEMS[report.nodeid])) is not None:
        outcome, message = "adapted", tolerance.reason
    third_party_suite.record(path, {"test": report.nodeid, "outcome": outcome,
                                    "message": message})
