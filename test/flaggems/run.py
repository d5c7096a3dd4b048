"""Runs FlagGems 5.0.2's own tests on the MTIA backend and reports the results
(`scripts/flaggems.sh` is the entry point: it makes the environment and
fetches the tests).

    python test/flaggems/run.py [--tests DIR] [--files test_add.py ...] [-k EXPR]
                                [--sample N] [--timeout S] [--full] [--out DIR] [--fresh]

FlagGems' `tests/` folder (`--tests`, from its source at tag v5.0.2) is copied
to `--out` (by default `build/flaggems-run`, outside the sources) and run with
pytest in the calling interpreter, which must have `flag-gems==5.0.2`
installed. `flaggems_plugin.py` makes the library-side CPU-device conditions
hold (no launcher shim), samples `--sample N` parametrisations per test
function, and records outcomes as JSON lines in `<out>/results.jsonl`. Tests
run in FlagGems' quick mode (its `--quick`: its small shapes) unless `--full`
is given. A run goes on after a test that kills its process or exceeds
`--timeout` seconds, which is recorded as a failure; a second run with the same
`--out` runs only the tests without a result (`--fresh` forgets them).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import third_party_suite  # noqa: E402 (after its folder is on the path)

ROOT = HERE.parents[1]
DEFAULT_TESTS = ROOT / "build" / "flaggems-src" / "tests"
DEFAULT_OUT = ROOT / "build" / "flaggems-run"
#: The tests of a few ops of each kind: pointwise, reductions, normalisations,
#: a permutation and a matmul.
DEFAULT_FILES = ("test_add.py", "test_mul.py", "test_sum.py", "test_prod.py", "test_softmax.py",
                 "test_flip.py", "test_layer_norm.py", "test_mm.py")


def stage_tests(source: Path, out: Path) -> Path:
    """Copies FlagGems' tests package to `out/tests`, with a pytest.ini of our
    own at `out` (FlagGems' would put its `src/` before the installed
    package), and returns `out/tests`."""
    tests = out / "tests"
    if tests.exists():
        shutil.rmtree(tests)
    shutil.copytree(source, tests, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "pytest.ini").write_text(
        "[pytest]\nfilterwarnings = ignore::pytest.PytestUnknownMarkWarning\n")
    return tests


def run_tests(tests: Path, files: list[str], sample: int, timeout: int, quick: bool,
              results: Path, keyword: str | None = None) -> dict[str, dict[str, Any]]:
    """Runs the tests until every one has an outcome, resuming after a test
    that took the process down; `keyword` selects tests as pytest's `-k`
    does."""
    out = tests.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parent),
                                         env.get("PYTHONPATH", "")])
    env["TRITON_CACHE_DIR"] = str(out / "triton-cache")
    env["FLAGGEMS_CACHE_DIR"] = str(out / "flaggems-cache")
    env.pop("TRITON_INTERPRET", None)

    def command(done_file: Path) -> list[str]:
        return [sys.executable, "-m", "pytest", "-q", "-p", "flaggems_plugin",
                "-p", "no:cacheprovider", f"--flaggems-results={results}",
                f"--flaggems-sample={sample}", f"--flaggems-skip-file={done_file}",
                f"--timeout={timeout}", "--timeout-method=thread", f"--rootdir={out}",
                "-c", str(out / "pytest.ini"), "--ref", "cpu",
                *(["--quick"] if quick else []),
                *(["-k", keyword] if keyword else []),
                *(str(tests / name) for name in files)]

    return third_party_suite.run_until_recorded(command, out, env, results, {"launches": 0})


def summarise(records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    counts: collections.Counter[str] = collections.Counter()
    failures = []
    excluded = []
    for test, record in sorted(records.items()):
        outcome = record["outcome"]
        message = record.get("message", "")
        if outcome == "excluded":
            counts["excluded (listed)"] += 1
            excluded.append((test, message))
        elif outcome == "skipped":
            counts["excluded (skipped by FlagGems' own test code)"] += 1
            excluded.append((test, "skipped by the test's own code: " + message))
        elif outcome == "passed":
            counts["passed"] += 1
            if not record.get("launches"):
                counts["of which made no MTIA launch"] += 1
        else:
            counts["failed"] += 1
            failures.append((test, message))
    return {"collected": len(records), "counts": dict(counts), "failures": failures,
            "excluded": excluded}


def report(summary: dict[str, Any]) -> list[str]:
    """The summary's lines, ending with `flaggems: N passed, M failed`."""
    lines = [f"EXCLUDED {test}: {reason}" for test, reason in summary["excluded"]]
    lines += [f"FAILED {test}: {message}" for test, message in summary["failures"]]
    lines.append(f"collected {summary['collected']}: " +
                 ", ".join(f"{name} {count}" for name, count in sorted(summary["counts"].items())))
    passed = summary["counts"].get("passed", 0)
    failed = summary["counts"].get("failed", 0)
    lines.append(f"flaggems: {passed} passed, {failed} failed")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", type=Path, default=DEFAULT_TESTS,
                        help="FlagGems' tests/ folder (its source at tag v5.0.2)")
    parser.add_argument("--files", nargs="*", default=list(DEFAULT_FILES),
                        help="test files of that folder to run")
    parser.add_argument("-k", "--keyword", help="select tests as pytest's -k does")
    parser.add_argument("--sample", type=int, default=5,
                        help="parametrisations per test function (0: all)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per test")
    parser.add_argument("--full", action="store_true",
                        help="FlagGems' full shapes instead of its quick mode")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    args = parser.parse_args()
    # pytest runs in `--out`: the paths it is given must not be relative.
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "results.jsonl"
    if args.fresh:
        for stale in args.out.glob("results.jsonl*"):
            stale.unlink()
    tests = stage_tests(args.tests.resolve(), args.out)
    records = run_tests(tests, args.files, args.sample, args.timeout, not args.full, results,
                        args.keyword)
    summary = summarise(records)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print("\n".join(report(summary)))
    return 1 if summary["counts"].get("failed", 0) else 0


if __name__ == "__main__":
    sys.exit(main())
