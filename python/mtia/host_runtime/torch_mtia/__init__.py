"""PyTorch's MTIA runtime over the simulated chips of mtia-compiler.

`dynamic_library` is the module PyTorch names when it finds no MTIA runtime;
importing it registers the device with PyTorch. PyTorch's device-extension
autoload calls `autoload` at `import torch`. `acc_flags` answers Inductor's
question for the chip's architecture.
"""

from __future__ import annotations

import warnings


class MTIARuntimeWarning(UserWarning):
    """The MTIA runtime did not load at `import torch`; the message says why."""


def autoload() -> None:
    """PyTorch's device-extension entry point: loads the runtime. It never
    raises, since PyTorch would fail `import torch` with it: a runtime that
    does not load leaves a warning with the reason, and `mtia` unavailable."""
    try:
        import mtia.host_runtime.torch_mtia.dynamic_library  # noqa: F401
    except Exception as error:  # noqa: BLE001 (any failure must leave torch importable)
        warnings.warn(MTIARuntimeWarning(
            f"the simulated MTIA device is unavailable: its runtime did not load "
            f"({type(error).__name__}: {error})"), stacklevel=2)
