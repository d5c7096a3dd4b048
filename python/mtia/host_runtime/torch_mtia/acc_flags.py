"""The architecture of the simulated chips, as Inductor asks it when it
compiles a Triton kernel for an `mtia` tensor."""

from __future__ import annotations

import os

#: The environment variable naming the target the chips simulate
#: (a description of `mtia_compiler/targets`, default `mtia-2i`).
TARGET_VARIABLE = "MTIA_TARGET"
#: The environment variable giving the number of chips (default 1).
DEVICE_COUNT_VARIABLE = "MTIA_DEVICE_COUNT"


def target_name() -> str:
    """The target description the process's chips simulate."""
    return os.environ.get(TARGET_VARIABLE, "").strip() or "mtia-2i"


def build_codename() -> str:
    """The architecture of Triton's target for the chips (`2i` for `mtia-2i`),
    which selects the target description the backend compiles for."""
    return target_name().removeprefix("mtia-")


def device_count() -> int:
    """The number of simulated chips of the process."""
    text = os.environ.get(DEVICE_COUNT_VARIABLE, "").strip() or "1"
    try:
        count = int(text)
    except ValueError:
        raise ValueError(f"{DEVICE_COUNT_VARIABLE}={text!r}: expected a number of "
                         f"devices") from None
    if count < 1:
        raise ValueError(f"{DEVICE_COUNT_VARIABLE}={count}: at least one device is needed")
    return count
