"""Every case of the second corpus (test/kernels: hand-written and TorchInductor kernels) through
`compile` -> `run`, checked like the shared corpus (test_corpus_cases.py).

A case must pass unless it is listed in KNOWN_FAILING with how it fails today:

* "compile": `compile` raises a CompilationError located at a TTIR operation
  (`file:line:col: error: `);
* "compile-unlocated": the same, except that for kernel.ttir the diagnostic has no location
  (`<unknown>: error: `: it points at an operation whose TTIR location is `loc(unknown)`);
* "runtime": `run` raises a SimulationError;
* "wrong": it runs, but an output is outside the case's tolerance;
* "crash": `compile` kills the process (a failed assertion in a C++ pass: SIGABRT). These cases
  are compiled in a child process, so that the test run survives, and must still die there.

The list is exact: a listed case that passes, or fails in another way, is an error too, so that a
fix or a regression shows; remove or update its entry.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus_data import KERNEL_CASES, LOCATED, load_run_case

import mtia_compiler

run_case = load_run_case()

CASES = sorted(path for path in KERNEL_CASES.iterdir() if (path / "case.json").exists())

#: case -> (how it fails, why). Keep one line per case.
KNOWN_FAILING: dict[str, tuple[str, str]] = {}


def test_known_failing_names() -> None:
    names = {path.name for path in CASES}
    assert len(CASES) >= 40
    assert set(KNOWN_FAILING) <= names, sorted(set(KNOWN_FAILING) - names)
    kinds = ("compile", "compile-unlocated", "runtime", "wrong", "crash")
    assert all(kind in kinds for kind, _ in KNOWN_FAILING.values())


def _compile_in_child(path: Path) -> subprocess.CompletedProcess[str]:
    """`mtia_compiler.compile(path)` in a child Python process."""
    code = "import sys, mtia_compiler; mtia_compiler.compile(sys.argv[1])"
    return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=600)


def _expect(name: str, kind: str, detail: str) -> None:
    known = KNOWN_FAILING.get(name)
    if known is None:
        pytest.fail(f"{name} fails ({kind}): {detail}")
    if known[0] != kind and (known[0], kind) != ("compile-unlocated", "compile"):
        pytest.fail(f"{name} is listed as failing with {known[0]!r}, fails with {kind!r}: {detail}")


@pytest.mark.parametrize("variant", ["kernel.ttir", "kernel.noloc.ttir"])
@pytest.mark.parametrize("case_dir", CASES, ids=lambda path: path.name)
def test_kernel_case(case_dir: Path, variant: str) -> None:
    name = case_dir.name
    if KNOWN_FAILING.get(name, ("",))[0] == "crash":
        child = _compile_in_child(case_dir / variant)
        assert child.returncode < 0, (
            f"{name} no longer crashes the compiler (exit status {child.returncode}); run it "
            f"here and update KNOWN_FAILING: {child.stderr[-2000:]}")
        return
    case, data = run_case.load_case(str(case_dir))
    try:
        kernel = mtia_compiler.compile(case_dir / variant)
    except mtia_compiler.CompilationError as error:
        located = LOCATED.search(str(error)) is not None
        if variant == "kernel.ttir" and KNOWN_FAILING.get(name, ("",))[0] == "compile-unlocated":
            assert not located, f"{name}: the error is located now, list it as 'compile': {error}"
            return
        assert located, str(error)
        _expect(name, "compile", str(error))
        return
    args, buffers = run_case.build_args(case, data)
    try:
        result = kernel.run(*args, grid=tuple(case["grid"]))
    except mtia_compiler.SimulationError as error:
        _expect(name, "runtime", str(error))
        return
    assert result.cycles > 0
    reason = run_case.check(case, data, buffers)
    if reason is not None:
        _expect(name, "wrong", reason)
        return
    assert name not in KNOWN_FAILING, (
        f"{name} passes now: remove it from KNOWN_FAILING ({KNOWN_FAILING[name][1]})")
