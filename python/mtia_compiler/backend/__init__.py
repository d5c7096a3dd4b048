"""The Triton backend for the simulated MTIA chip (entry point `mtia` of the
`triton.backends` group).

With the project installed, `@triton.jit` kernels launch on the simulated MTIA
on any machine without an active GPU backend; elsewhere, select it with
`triton.runtime.driver.set_active(MTIADriver())`. The launches of a block of
code, with their simulated cycles and unit statistics::

    from mtia_compiler.backend import launches
    with launches() as records:
        add_kernel[grid](x, y, out, n, BLOCK=1024)
    records[0].cycles
"""

# Triton first: importing it discovers every backend, this one included, and
# imports this package's `compiler` and `driver` while doing so. Were the
# driver imported first, Triton's discovery would find it half imported.
import triton  # noqa: F401, I001

from mtia_compiler.backend.driver import LaunchRecord, MTIADriver, do_bench, last_launch, launches

__all__ = ["LaunchRecord", "MTIADriver", "do_bench", "last_launch", "launches"]
