"""A launch running in a Python thread never aborts the process when the
interpreter exits under it: the main thread returning, or stopping on
Ctrl-C, while another thread simulates ends the process normally (the
launch is abandoned). Each case runs in a subprocess, so that an abort fails
the test instead of killing pytest."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: A script that starts an endless launch in a daemon thread, waits until
#: it simulates and then does `{ending}` in the main thread.
SCRIPT = textwrap.dedent("""
    import signal, sys, threading, time
    sys.path.insert(0, {tests!r})
    from test_budget import endless_loop
    from mtia_compiler.sim import Simulator

    program = endless_loop()
    started = threading.Event()

    def launch() -> None:
        started.set()
        Simulator().run(program, [], (4,), max_seconds=60)

    threading.Thread(target=launch, daemon=True).start()
    started.wait()
    time.sleep(0.2)
    {ending}
""")


def run_script(ending: str) -> subprocess.CompletedProcess[str]:
    script = SCRIPT.format(tests=str(Path(__file__).parent), ending=ending)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("ending", ["pass", "sys.exit(3)"])
def test_the_main_thread_returning_during_a_launch_exits_normally(ending: str) -> None:
    # Before, the launch's thread asked for the GIL of the finalizing
    # interpreter, which ended it with a forced unwinding through the
    # simulator and nanobind: "terminate called without an active exception"
    # (SIGABRT) or SIGSEGV.
    for _ in range(3):
        done = run_script(ending)
        assert "terminate called" not in done.stderr
        assert done.returncode == (3 if ending != "pass" else 0), done.stderr


def test_ctrl_c_during_a_launch_in_a_thread_exits_normally() -> None:
    for _ in range(3):
        done = run_script("signal.raise_signal(signal.SIGINT)")
        assert "terminate called" not in done.stderr
        assert "KeyboardInterrupt" in done.stderr
        assert done.returncode == -signal.SIGINT, done.stderr
