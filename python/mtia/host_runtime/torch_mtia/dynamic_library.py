"""Loads the runtime: PyTorch's MTIA hooks, device guard, allocator and
operations for the simulated chips (`_runtime`), configured from the target
description, and PyTorch's `torch.mtia` state that a runtime provides.

PyTorch imports this module by name where it needs an MTIA runtime (Inductor's
generated wrappers do); its device-extension autoload imports it at
`import torch` (`mtia.host_runtime.torch_mtia.autoload`), so that
`torch.device("mtia")` works without importing anything else.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import torch

from mtia.host_runtime.torch_mtia import _runtime, operations  # noqa: F401 (registers)
from mtia.host_runtime.torch_mtia.acc_flags import device_count, target_name


def _configure() -> None:
    name = target_name()
    # The descriptions installed with mtia_compiler, found without importing
    # it (which loads MLIR): `import torch` stays quick.
    spec = importlib.util.find_spec("mtia_compiler")
    locations = spec.submodule_search_locations if spec is not None else None
    descriptions = [Path(location) / "targets" / f"{name}.json" for location in locations or []]
    description = next((path for path in descriptions if path.is_file()), None)
    if description is None:
        raise ValueError(f"MTIA_TARGET={name!r} names no target description of "
                         f"mtia_compiler/targets")
    target = json.loads(description.read_text())
    grid = target["pe_grid"]
    _runtime.configure(
        count=device_count(), target=name, arch=name.removeprefix("mtia-"),
        dram_bytes=int(target["dram"]["bytes"]), sram_bytes=int(target["sram"]["bytes"]),
        processing_elements=int(grid["rows"]) * int(grid["cols"]),
        local_memory_bytes=int(target["local_memory"]["bytes_per_pe"]),
        clock_ghz=float(target["clock_ghz"]))
    # Random numbers of mtia tensors come from the host's generator (the
    # runtime draws them on the host), so seeding either seeds both.
    torch.mtia.default_generators = (torch.default_generator,) * device_count()


def _empty_strided_mtia(size: tuple[int, ...], stride: tuple[int, ...],
                        dtype: torch.dtype) -> torch.Tensor:
    """Allocation in Inductor's generated wrappers, which PyTorch's open-source
    build provides for CUDA and XPU only."""
    return torch.empty_strided(size, stride, dtype=dtype, device="mtia")


_configure()
torch._C._dynamo.guards._empty_strided_mtia = _empty_strided_mtia  # type: ignore[attr-defined]


def host_operations() -> dict[str, int]:
    """How often each ATen operation ran on the host for `mtia` tensors."""
    return dict(_runtime.host_operations())


def reset_host_operations() -> None:
    _runtime.reset_host_operations()
