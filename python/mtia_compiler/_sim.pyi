"""Native MTIA machine model (see mtia_compiler.sim)"""

from collections.abc import Sequence


class Target:
    @staticmethod
    def from_json(text: str) -> Target:
        """Parses a target description (JSON text)."""

    @staticmethod
    def from_file(path: str) -> Target:
        """Reads a target description file."""

    @property
    def name(self) -> str: ...

    @property
    def num_pes(self) -> int: ...

    @property
    def clock_ghz(self) -> float: ...

    def to_dict(self) -> dict:
        """The description with derived per-cycle rates."""

class Program:
    @staticmethod
    def parse(data: bytes) -> Program:
        """Parses and validates program bytes."""

    @property
    def kernel(self) -> str: ...

    @property
    def param_names(self) -> list[str]: ...

    @property
    def param_kinds(self) -> list[str]: ...

    @property
    def num_instructions(self) -> int: ...

def program_format() -> dict:
    """
    The vocabulary of the program format: version, magic, header size, ranks, slot alignment, dtypes and their sizes, units, ops and their units, function names.
    """

def run(target: Target, program: Program, args: list, grid: Sequence[int], trace: bool = False, max_steps: int = 17179869184, max_cycles: int = 0, max_seconds: float = 0.0, kernel_thread: bool = True) -> dict:
    """Simulates one launch; returns a result dictionary."""
