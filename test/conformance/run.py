"""Runs Triton's language tests (pinned in ../shared/conformance/) on the MTIA
backend and on Triton's interpreter, and reports the backend's results against
the interpreter's (`scripts/conformance.sh` is the entry point).

    python test/conformance/run.py [--sample N] [--files test_core.py ...] [-k EXPR] [--out DIR]

The tests are copied to a folder outside the project (`--out`, by default
`$TMPDIR/mtia-conformance`) with Triton's own top-level conftest beside them,
unmodified; `mtia_plugin.py` adapts the device and records outcomes. A test
counts against the backend only if it passes on the interpreter: the oracle.
Each run goes on after a test that kills its process or exceeds the time
limit (`--timeout`), which is recorded as a failure.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import third_party_suite  # noqa: E402 (after its folder is on the path)

DEFAULT_TESTS = HERE.parents[2] / "shared" / "conformance" / "triton-language-tests"
DEFAULT_FILES = ("test_core.py", "test_standard.py", "test_random.py")


def stage_tests(source: Path, out: Path) -> Path:
    """Copies the pinned tests to `out/unit/language` (Triton's layout) with
    Triton's top-level conftest at `out/conftest.py`."""
    language = out / "unit" / "language"
    if language.exists():
        shutil.rmtree(language)
    shutil.copytree(source, language, ignore=shutil.ignore_patterns("conftest.top.py"))
    shutil.copy(source / "conftest.top.py", out / "conftest.py")
    return language


def run_mode(mode: str, language: Path, files: list[str], sample: int, timeout: int,
             results: Path, keyword: str | None = None) -> dict[str, dict[str, str]]:
    """Runs the tests in `mode` ("mtia" or "interpreter") until every one has
    an outcome, resuming after a test that took the process down; `keyword`
    selects tests as pytest's `-k` does."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parent),
                                         env.get("PYTHONPATH", "")])
    env["TRITON_CACHE_DIR"] = str(results.parent / f"cache-{mode}")
    if mode == "interpreter":
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)

    def command(done_file: Path) -> list[str]:
        return [sys.executable, "-m", "pytest", "-q", "-p", "mtia_plugin",
                "-p", "no:cacheprovider", "--device", "cpu", f"--mtia-results={results}",
                f"--mtia-sample={sample}",
                f"--mtia-skip-file={done_file}", f"--timeout={timeout}",
                "--timeout-method=thread", f"--rootdir={language.parents[1]}",
                *(["-k", keyword] if keyword else []),
                *(str(language / name) for name in files)]

    return third_party_suite.run_until_recorded(command, language.parents[1], env, results, {})


#: Failures that say the test read IR of a GPU pipeline from `compiled.asm`,
#: which the MTIA backend does not have (Triton's interpreter skips those
#: checks): excluded from the count, and listed.
GPU_IR = re.compile(r"KeyError: .Unknown key: '(ttgir|llir|ptx|cubin|amdgcn|hsaco|sass)'")


def summarise(mtia: dict[str, dict[str, str]], oracle: dict[str, dict[str, str]]) -> dict:
    counts: collections.Counter[str] = collections.Counter()
    failures = []
    excluded = []
    adapted = []
    for test, record in sorted(mtia.items()):
        reference = oracle.get(test, {"outcome": "missing"})["outcome"]
        outcome = record["outcome"]
        if outcome == "excluded":
            counts["excluded (listed)"] += 1
            excluded.append((test, record["message"]))
        elif outcome == "failed" and (gpu_ir := GPU_IR.search(record["message"])):
            counts["excluded (reads GPU IR)"] += 1
            excluded.append((test, f"reads GPU IR: asm['{gpu_ir[1]}']"))
        elif reference not in ("passed", "adapted"):
            counts[f"not counted (interpreter: {reference})"] += 1
        elif outcome == "passed":
            counts["passed"] += 1
        elif outcome == "adapted":
            counts["passed"] += 1
            counts["of which adapted (listed)"] += 1
            adapted.append((test, record["message"]))
        elif outcome == "skipped":
            # The plugin skips nothing but EXCLUDED tests ("excluded" above):
            # this skip is the test's own code taking its branch for compiled
            # GPU backends (`if not is_interpreter(): ... pytest.skip(...)`),
            # which is CUDA- or HIP-specific test code.
            counts["excluded (skipped by the test's GPU-only code)"] += 1
            excluded.append((test, "skipped by the test's own code for non-interpreter "
                                   "backends: " + record["message"]))
        else:
            counts["failed"] += 1
            failures.append((test, record["message"]))
    return {"collected": len(mtia), "counts": dict(counts), "failures": failures,
            "excluded": excluded, "adapted": adapted}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tests", type=Path, default=DEFAULT_TESTS)
    parser.add_argument("--files", nargs="*", default=list(DEFAULT_FILES))
    parser.add_argument("-k", "--keyword", help="select tests as pytest's -k does")
    parser.add_argument("--sample", type=int, default=40,
                        help="parametrisations per test function (0: all)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per test")
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "mtia-conformance")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.fresh:
        for stale in args.out.glob("results-*"):
            stale.unlink()
    language = stage_tests(args.tests, args.out)
    modes = {}
    for mode in ("interpreter", "mtia"):
        modes[mode] = run_mode(mode, language, args.files, args.sample, args.timeout,
                               args.out / f"results-{mode}.jsonl", args.keyword)
    summary = summarise(modes["mtia"], modes["interpreter"])
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    for test, reason in summary["excluded"]:
        print(f"EXCLUDED {test}: {reason}")
    for test, reason in summary["adapted"]:
        print(f"ADAPTED {test}: {reason}")
    for test, message in summary["failures"]:
        print(f"FAILED {test}: {message}")
    print(f"collected {summary['collected']}: " +
          ", ".join(f"{name} {count}" for name, count in sorted(summary["counts"].items())))
    passed = summary["counts"].get("passed", 0)
    failed = summary["counts"].get("failed", 0)
    print(f"conformance: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
