"""pytest plugin that runs FlagGems 5.0.2's own tests on the MTIA backend.

Loaded by `test/flaggems/run.py` (`-p flaggems_plugin`) on a copy of FlagGems'
`tests/` that lies outside the project, in a virtual environment where
`flag-gems==5.0.2` is installed unmodified. The launcher is not touched: this
plugin only makes the library-side conditions FlagGems needs on a machine
without a GPU hold, in process, before FlagGems' conftest imports it
(`apply_cpu_device_conditions`, described in `test/flaggems/README.md`):

* `GEMS_VENDOR=nvidia`, with the NVIDIA vendor info saying that tensors live
  on the CPU (`device_name="cpu"`) and that Triton's extra library is CUDA's
  libdevice (`triton_extra_name="cuda"`);
* `torch.cpu.device(index)` is a no-op context manager and
  `torch.cpu.current_device()` returns 0, as for a single CUDA device;
* the NVIDIA code-generation config does not prefer block pointers, which
  Triton 3.9.0 no longer has;
* the NVIDIA vendor's heuristics, which read the number of streaming
  multiprocessors from `torch.cuda.get_device_properties(
  torch.cuda.current_device())` rather than through FlagGems' device
  abstraction, find device 0 with the simulated MTIA-2i's 64 processing
  elements.

It also samples parametrisations (`--flaggems-sample N` per test function),
lists excluded tests with their reasons (`EXCLUDED`), appends every outcome to
`--flaggems-results` as one JSON line and names the test about to run in
`<results>.current`, so that the runner can resume after a test that takes the
process down or exceeds its time limit. Each record counts the MTIA launches
the test made.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import third_party_suite

#: FlagGems' `where` treats CPU tensors as host scalars beside device tensors.
_WHERE_NEEDS_A_DEVICE = (
    "FlagGems' where_self asserts that an operand is on a device other than the CPU (it takes "
    "CPU tensors for host scalars: 'CPU only. There seems a mistake to dispatch to here.'), "
    "which no operand is when the device is the CPU")

#: The start of the skip reason of an excluded test.
EXCLUDED_MARKER = "FLAGGEMS-EXCLUDED"
#: The prefix of the plugin's options (`--flaggems-results`, ...).
PREFIX = "flaggems"

#: Tests excluded by function name, with the reason.
EXCLUDED: dict[str, str] = {
    **{name: _WHERE_NEEDS_A_DEVICE
       for name in ("test_where_self", "test_where_self_out", "test_where_self_out_cross_device",
                    "test_where_self_scalar", "test_where_self_scalar_other")},
    "test_max_dim_big_shape": (
        "a reduction of 16.8 million elements, (4, 1048577, 4), kept in quick mode: it takes "
        "longer than the per-test limit on the simulator (FlagGems skips it on its own slow "
        "devices, 'Big shape run slowly.')"),
    "test_mean_dim_large_innerdim": (
        "reductions of (1024, 1024, 1024) and (1024, 2048, 1024) float32 tensors, 4 and 8 GiB, "
        "kept in quick mode: they take longer than the per-test limit on the simulator"),
}


@contextlib.contextmanager
def _no_device(index: object = None) -> Iterator[None]:
    """Stands for `torch.cuda.device(index)`: CPU tensors have one device."""
    yield


def _current_device() -> int:
    """Stands for `torch.cuda.current_device()`: the one device is 0."""
    return 0


#: The processing elements of the simulated MTIA-2i (an 8x8 grid), over which
#: a launch's programs are spread as a GPU spreads them over its SMs.
PROCESSING_ELEMENTS = 64


@dataclass(frozen=True)
class DeviceProperties:
    """What FlagGems' NVIDIA heuristics read of `torch.cuda`'s device
    properties."""

    name: str = "MTIA-2i (simulated)"
    multi_processor_count: int = PROCESSING_ELEMENTS


def _device_properties(device: object = None) -> DeviceProperties:
    return DeviceProperties()


def apply_cpu_device_conditions() -> None:
    """Makes FlagGems' NVIDIA vendor describe CPU tensors launched through
    Triton's active backend (here `mtia`), without editing installed files."""
    os.environ["GEMS_VENDOR"] = "nvidia"
    import torch

    torch.cpu.device = _no_device  # type: ignore[attr-defined]
    torch.cpu.current_device = _current_device  # type: ignore[assignment]
    torch.cuda.current_device = _current_device
    torch.cuda.get_device_properties = _device_properties  # type: ignore[assignment]
    # FlagGems imports its vendor modules as top-level modules (`_nvidia`)
    # from its `runtime/backend` folder, which it appends to `sys.path`: the
    # same module object is found in `sys.modules` when it imports it later.
    spec = importlib.util.find_spec("flag_gems")
    if spec is None or spec.origin is None:
        raise ImportError("flag_gems is not installed in this environment")
    backend = str(Path(spec.origin).parent / "runtime" / "backend")
    if backend not in sys.path:
        sys.path.append(backend)
    vendor = importlib.import_module("_nvidia")
    vendor.vendor_info.device_name = "cpu"
    vendor.vendor_info.triton_extra_name = "cuda"
    # FlagGems ships no type information: its modules are imported by name.
    common = importlib.import_module("flag_gems.runtime.common")
    codegen = importlib.import_module("flag_gems.utils.codegen_config_utils")
    codegen.CODEGEN_COFIGS[common.vendors.NVIDIA].prefer_block_pointer = False


apply_cpu_device_conditions()


def pytest_addoption(parser: pytest.Parser) -> None:
    third_party_suite.add_options(parser, PREFIX)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    third_party_suite.keep_sampled(config, items, PREFIX, EXCLUDED, EXCLUDED_MARKER)


_CONFIG: list[pytest.Config] = []
#: The number of MTIA launches each test made, by node id: a test that passes
#: without a launch did not exercise the backend.
_LAUNCHES: dict[str, int] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    from mtia_compiler.backend import launches

    with launches() as records:
        yield
    _LAUNCHES[item.nodeid] = len(records)


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG.append(config)


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    third_party_suite.name_current_test(_CONFIG[0], PREFIX, nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = third_party_suite.results_path(_CONFIG[0], PREFIX)
    if path is None or not third_party_suite.is_recorded(report):
        return
    outcome, message = third_party_suite.outcome(report, EXCLUDED_MARKER, 600)
    third_party_suite.record(path, {"test": report.nodeid, "outcome": outcome,
                                    "message": message, "seconds": round(report.duration, 2),
                                    "launches": _LAUNCHES.get(report.nodeid, 0)})
