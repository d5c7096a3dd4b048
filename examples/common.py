"""What the example scripts share: the command line and the report of the
simulated time of their launches."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from mtia_compiler.backend import launches


def parse_args(description: str, **sizes: int) -> argparse.Namespace:
    """The sizes of an example (`--name value` for each), and `--small`,
    which the test suite uses to run every example quickly."""
    parser = argparse.ArgumentParser(description=description)
    for name, default in sizes.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=default)
    parser.add_argument("--small", action="store_true", help="small sizes, for tests")
    return parser.parse_args()


def simulate(label: str, launch: Callable[[], Any]) -> Any:
    """Runs `launch` and prints the simulated time of its kernel launches."""
    return simulate_cycles(label, launch)[0]


def simulate_cycles(label: str, launch: Callable[[], Any]) -> tuple[Any, int]:
    """Runs `launch`, prints the simulated time of its kernel launches and
    returns its value and their cycles."""
    with launches() as records:
        value = launch()
    cycles = sum(record.cycles for record in records)
    microseconds = sum(record.seconds for record in records) * 1e6
    print(f"{label}: {len(records)} launch(es), {cycles:,} cycles, "
          f"{microseconds:.1f} us simulated")
    return value, cycles
