"""The simulated MTIA chips as PyTorch's mtia device."""



def configure(count: int, target: str, arch: str, dram_bytes: int, sram_bytes: int, processing_elements: int, local_memory_bytes: int, clock_ghz: float) -> None:
    """Sets how many simulated chips the process has and what they are."""

def advance_clock(device: int, seconds: float) -> None:
    """Advances the simulated clock of a device by a launch's time."""

def device_clock(device: int) -> float:
    """The simulated seconds of the work issued to a device so far."""

def host_operations() -> dict[str, int]:
    """How often each ATen operation ran on the host for mtia tensors."""

def count_host_operation(name: str) -> None:
    """Counts one run of an ATen operation on the host for mtia tensors."""

def reset_host_operations() -> None: ...
