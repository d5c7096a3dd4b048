"""`mtia_compiler.torch.profile()`: the report of whatever runs on the `mtia`
device inside a block, stock `torch.compile`d models, eager operations and
`@triton.jit` launches alike (`mtia_compiler.torch.compile` reports its own
calls; this is the same report for code that does not go through it).

    with mtia_compiler.torch.profile() as profiled:
        model(x)                      # x on "mtia"
    print(profiled.report())
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mtia_compiler.backend.driver import KernelLaunch, kernel_launches
from mtia_compiler.torch.compiled import host_operations_counted
from mtia_compiler.torch.report import Report, make_record


class Profile:
    """What ran in a `profile()` block: the kernel launches on the
    simulator and the ATen operations the device runtime ran on the host."""

    def __init__(self) -> None:
        self.launches: list[KernelLaunch] = []
        self.host_operations: dict[str, int] = {}

    def report(self) -> Report:
        """The block's report, on the target the `mtia` device simulates."""
        from mtia.host_runtime.torch_mtia.acc_flags import target_name
        from mtia_compiler.sim import load_target

        target = target_name()
        description = load_target(target).to_dict()
        records = [make_record(launch, "-", (), description) for launch in self.launches]
        return Report(target, float(description["clock_ghz"]), records,
                      host_operation_counts=dict(self.host_operations))


@contextmanager
def profile() -> Iterator[Profile]:
    """Records what runs on the `mtia` device while the block runs, on any
    thread (the backward of device tensors runs on a thread of PyTorch's)."""
    profiled = Profile()
    with host_operations_counted() as host_operations, \
            kernel_launches(every_thread=True) as launches:
        yield profiled
    profiled.launches = launches
    profiled.host_operations = host_operations
