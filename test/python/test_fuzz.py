"""A short deterministic run of the mutation fuzzer (fuzz_ttir.py): a few
hundred mutated kernels through `mtia-opt --stage all` and through
`compile` + `run` end without a signal, a traceback, an unlocated error or a
write outside a buffer. scripts/fuzz.sh runs it at length."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_launch import launches
from fuzz_ttir import fuzz_launch, fuzz_opt, fuzz_run, mutants, unlocated_errors

import mtia_compiler
from mtia_compiler.errors import CompilationError


def test_mutants_are_deterministic() -> None:
    assert mutants(20, seed=3) == mutants(20, seed=3)
    assert mutants(20, seed=3) != mutants(20, seed=4)


def test_unlocated_errors_are_recognised() -> None:
    assert unlocated_errors("k.ttir:3:4: error: bad\n") == []
    assert unlocated_errors("kernels.py:3:4: error: bad\n") == []
    assert unlocated_errors("  %0 = arith.addf %x, %y  // error: in the source\n") == []
    assert unlocated_errors("error: bad\n")
    assert unlocated_errors("loc(unknown): error: bad\n")
    assert unlocated_errors("k.ttir:0:0: error: bad\n")


def test_mtia_opt_survives_mutants(tmp_path: Path) -> None:
    report = fuzz_opt(300, seed=0, directory=tmp_path)
    assert not report.failures, report.failures
    assert report.counts["chunks"] + report.counts["rejected"] + \
        report.counts["accepted"] >= 300


def test_compile_and_run_survive_mutants(tmp_path: Path) -> None:
    report = fuzz_run(60, seed=0, directory=tmp_path)
    assert not report.failures, report.failures
    # The mutants reach every outcome the fuzzer tells apart.
    assert report.counts["rejected"] > 0 and report.counts["ran"] > 0, report.counts


def test_module_without_a_kernel_is_a_located_error() -> None:
    """Found by the fuzzer: a module whose only function is private."""
    with pytest.raises(CompilationError) as caught:
        mtia_compiler.compile("tt.func private @f() {\n  tt.return\n}\n")
    assert str(caught.value) == "<ttir>:1:1: error: the module has no public tt.func kernel"
    assert not unlocated_errors(str(caught.value))


def test_launches_are_deterministic() -> None:
    assert launches(20, seed=3) == launches(20, seed=3)
    assert launches(20, seed=3) != launches(20, seed=4)


def test_launches_survive_mutated_arguments_and_grids(tmp_path: Path) -> None:
    report = fuzz_launch(60, seed=0, directory=tmp_path)
    assert not report.failures, report.failures
    # The mutants reach the simulator, not only Triton's frontend.
    assert report.counts["ran"] + sum(count for kind, count in report.counts.items()
                                      if kind.startswith("fault-")) >= 10
