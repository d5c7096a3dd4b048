"""A launch's host memory does not grow with its grid: every PE computes its
next program when it finishes one, so a grid of 2^62 programs stops at its
budget at once instead of listing its programs first (about 8 bytes each,
which the OOM killer ended). Grids beyond what the simulator takes are
refused with the grid and the limit named."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mtia_compiler.program import ProgramBuilder
from mtia_compiler.sim import SimulationError, Simulator, grid_dims

#: Runs one launch of a trivial kernel over a huge grid with a small step
#: budget, its address space limited to 1 GiB more than a launch needs, and
#: prints the error's kind and the growth of its peak resident memory in MiB.
SCRIPT = textwrap.dedent("""
    import resource
    from mtia_compiler.program import ProgramBuilder
    from mtia_compiler.sim import SimulationError, Simulator

    b = ProgramBuilder("trivial")
    if {instructions}:
        b.program_id(0)
    program = b.build()
    Simulator().run(program, [], (64,))
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + (1 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        Simulator().run(program, [], (1, 2**31 - 1, 2**31 - 1), max_steps=100_000)
    except SimulationError as error:
        print(error.kind)
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
""")


@pytest.mark.parametrize("instructions", [True, False])
def test_a_huge_grid_stops_at_its_budget_without_listing_its_programs(
        instructions: bool) -> None:
    # An empty kernel executes no instruction: its program starts count
    # towards the step budget, or it would run for years.
    script = SCRIPT.format(instructions=instructions)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    kind, growth = done.stdout.split()
    assert kind == "timeout"
    assert int(growth) < 64


def test_a_grid_of_more_than_2_62_programs_is_refused() -> None:
    with pytest.raises(SimulationError, match=r"the grid \(2147483648, 2147483648, 2\) "
                       r"has more than 2\^62 programs") as info:
        Simulator().run(ProgramBuilder("empty").build(), [], (2**31, 2**31, 2))
    assert info.value.kind == "invalid_launch"


@pytest.mark.parametrize("grid", [(-1,), (4, -2), 2**64 + 1, (1, 1, 2**63)])
def test_grid_dims_refuses_dimensions_that_do_not_fit_the_simulator(grid: object) -> None:
    with pytest.raises(ValueError, match=r"grid .* must be in \[0, 2\*\*63\)"):
        grid_dims(grid)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="grid"):
        Simulator().run(ProgramBuilder("empty").build(), [], grid)  # type: ignore[arg-type]


def test_grid_dims_takes_numpy_integers() -> None:
    assert grid_dims((np.int64(3), 2)) == (3, 2, 1)
