"""A seeded, deterministic mutation fuzzer of the compiler and the simulator.

Mutants of the corpora's TTIR kernels (lines deleted, duplicated or swapped;
numbers, types, op names, value names and shapes replaced by others or by
boundary values; bytes inserted; the text truncated) go

- through `mtia-opt --stage all` (parser, verifiers, every pass), in batches
  of `--split-input-file` chunks, each batch in its own process: every exit
  is 0 or 1, no output holds a traceback, every error is located in the
  input file;
- through `compile` and, when that succeeds, `run` with the case's arguments
  (each argument buffer between guard bytes) under a budget, in a worker
  process: every CompilationError is located, every other failure is a
  SimulationError or the refusal of an argument, and no write lands outside
  a buffer.

- with `--launch N`, N launches of `@triton.jit` kernels through the Triton
  backend with mutated arguments and grids (fuzz_launch.py): every launch
  runs, faults with a SimulationError or is refused with an error of ours or
  of Triton's frontend, and none writes outside its tensors.

A process that dies of a signal is rerun one input at a time to name the
input. The test suite runs a few hundred inputs (test_fuzz.py); at length:

    python test/python/fuzz_ttir.py --opt 10000 --run 1000 --launch 1000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEED_DIRS = [ROOT / "test" / "corpus" / "cases", ROOT / "test" / "kernels" / "cases"]
SPLIT = "// -----"
HEADER = re.compile(r"^(?:(?P<where>\S.*?): )?error: ", re.M)
LOCATION = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+)$")

NUMBERS = ["0", "1", "-1", "2", "3", "7", "16", "31", "32", "63", "64", "127", "128", "255",
           "256", "1023", "4096", "65536", "2147483647", "2147483648", "-2147483648",
           "4294967295", "4611686018427387904", "9223372036854775807",
           "-9223372036854775808", "18446744073709551615", "1.0e+308", "-0.0", "0x7FC00000",
           "1.5", "99999999999999999999999"]
TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "f8E4M3FN", "f8E5M2",
         "index", "none", "complex<f32>", "!tt.ptr<f32>", "tensor<4xf32>", "ui32", "si8",
         "vector<4xf32>", "memref<4xf32>", "tuple<>", "!tt.ptr<none>", "f8E4M3FNUZ"]
OPS = ["arith.addf", "arith.addi", "arith.mulf", "arith.muli", "arith.divsi", "arith.remui",
       "arith.subf", "arith.maxnumf", "arith.select", "arith.cmpi", "arith.cmpf",
       "arith.extf", "arith.truncf", "arith.sitofp", "arith.fptosi", "arith.constant",
       "tt.load", "tt.store", "tt.splat", "tt.broadcast", "tt.reshape", "tt.trans",
       "tt.addptr", "tt.make_range", "tt.expand_dims", "tt.dot", "tt.reduce",
       "tt.atomic_rmw", "tt.bitcast", "tt.fp_to_fp", "tt.get_program_id", "tt.return",
       "scf.for", "scf.yield", "scf.if", "tt.join", "tt.split", "tt.cat", "tt.histogram"]
JUNK = ["{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "%", "@", "\"", "\\", "\x00", "\xff",
        "loc(", "#loc", "dense<", "x", "?", "-----", "\n", "^bb0:", "=", "->"]
NUMBER = re.compile(r"(?<![\w%#.])-?\d+(\.\d+)?(e[+-]?\d+)?(?![\w])")
TYPE = re.compile(r"\b(f16|f32|f64|bf16|i1|i8|i16|i32|i64)\b")
OP = re.compile(r"\b(arith|tt|scf|math)\.[a-z_]+\b")
VALUE = re.compile(r"%[\w#]+")
DIMS = re.compile(r"(?<=[<x])\d+(?=x)")


def seed_files() -> list[Path]:
    files = []
    for directory in SEED_DIRS:
        files += sorted(directory.glob("*/kernel*.ttir"))
    return files


def _replace_match(text: str, pattern: re.Pattern[str], rng: random.Random,
                   choices: list[str]) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    match = rng.choice(matches)
    return text[:match.start()] + rng.choice(choices) + text[match.end():]


def mutate(text: str, rng: random.Random) -> str:
    """`text` after 1 to 4 random mutations."""
    for _ in range(rng.randint(1, 4)):
        lines = text.split("\n")
        kind = rng.randrange(12)
        index = rng.randrange(len(lines))
        if kind == 0:
            del lines[index]
        elif kind == 1:
            lines.insert(rng.randrange(len(lines) + 1), lines[index])
        elif kind == 2:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == 3:
            lines[index] = _replace_match(lines[index], NUMBER, rng, NUMBERS)
        elif kind == 4:
            lines[index] = _replace_match(lines[index], TYPE, rng, TYPES)
        elif kind == 5:
            lines[index] = _replace_match(lines[index], OP, rng, OPS)
        elif kind == 6:
            values = VALUE.findall(text) or ["%0"]
            lines[index] = _replace_match(lines[index], VALUE, rng, values)
        elif kind == 7:
            lines[index] = _replace_match(lines[index], DIMS, rng,
                                          ["0", "1", "3", "7", "17", "1000", "65536"])
        elif kind == 8:
            line = lines[index]
            at = rng.randrange(len(line) + 1)
            lines[index] = line[:at] + rng.choice(JUNK) + line[at:]
        elif kind == 9:
            line = lines[index]
            if line:
                at = rng.randrange(len(line))
                lines[index] = line[:at] + line[at + rng.randint(1, 8):]
        elif kind == 10:
            text = text[:rng.randrange(len(text) + 1)]
            continue
        else:
            # The same type replaced everywhere keeps the module consistent
            # and probes the passes rather than the verifiers.
            old, new = rng.choice(TYPE.findall(text) or ["f32"]), rng.choice(TYPES[:9])
            text = re.sub(rf"\b{re.escape(old)}\b", new, text)
            continue
        text = "\n".join(lines)
    # A chunk marker would split the input differently.
    return text.replace(SPLIT, "// ----")


def mutants(count: int, seed: int) -> list[tuple[Path, str]]:
    """`count` mutants, each with the seed file it comes from."""
    rng = random.Random(seed)
    files = seed_files()
    texts = {path: path.read_text() for path in files}
    result = []
    for _ in range(count):
        path = rng.choice(files)
        result.append((path, mutate(texts[path], rng)))
    return result


@dataclass
class Report:
    """What a fuzz run found: counts by outcome and the failing inputs."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def fail(self, what: str, text: str, directory: Path) -> None:
        self.counts[what] += 1
        saved = directory / f"{what}-{len(self.failures)}.ttir"
        saved.write_text(text)
        self.failures.append(f"{what}: {saved}")


def unlocated_errors(stderr: str) -> list[str]:
    """The error headers of `stderr` that do not name a line: of the input
    file, or of the kernel's Python source that its `loc(...)`s give."""
    bad = []
    for header in HEADER.finditer(stderr):
        where = LOCATION.match(header["where"] or "")
        if not where or int(where["line"]) < 1:
            bad.append(header.group(0))
    return bad


def _opt(path: Path) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("mtia-opt")
    assert executable, "mtia-opt is not installed"
    return subprocess.run([executable, str(path), "--stage", "all", "--split-input-file"],
                          capture_output=True, text=True, errors="replace", timeout=600)


def _check_opt(texts: list[str], directory: Path, report: Report) -> None:
    """One mtia-opt process over `texts` as chunks of one file."""
    path = directory / "batch.ttir"
    path.write_text(f"\n{SPLIT}\n".join(texts))
    result = _opt(path)
    if result.returncode not in (0, 1):
        if len(texts) > 1:
            for text in texts:
                _check_opt([text], directory, report)
            return
        report.fail(f"signal{-result.returncode}" if result.returncode < 0 else
                    f"exit{result.returncode}", texts[0], directory)
        return
    if len(texts) == 1:
        report.counts["rejected" if result.returncode else "accepted"] += 1
    else:
        # Each failing chunk prints at least one error; the others print IR.
        report.counts["chunks"] += len(texts)
    if "Traceback" in result.stderr:
        if len(texts) > 1:
            for text in texts:
                _check_opt([text], directory, report)
            return
        report.fail("traceback", texts[0], directory)
    if unlocated_errors(result.stderr):
        if len(texts) > 1:
            for text in texts:
                _check_opt([text], directory, report)
            return
        report.fail("unlocated", texts[0], directory)


def fuzz_opt(count: int, seed: int, directory: Path, batch: int = 50) -> Report:
    report = Report()
    texts = [text for _, text in mutants(count, seed)]
    for start in range(0, len(texts), batch):
        _check_opt(texts[start:start + batch], directory, report)
    report.counts["inputs"] = count
    return report


# The worker runs in its own process: compile + run of one mutant per line of
# its input (JSON: the TTIR and its case directory); one JSON line out each.
WORKER = r'''
import json, sys, traceback
import numpy as np
sys.path.insert(0, sys.argv[1])
from corpus_data import LOCATED, load_run_case
import mtia_compiler
from mtia_compiler.errors import CompilationError
from mtia_compiler.sim import SimulationError
run_case = load_run_case()
GUARD = 256
for line in sys.stdin:
    job = json.loads(line)
    outcome = {}
    try:
        try:
            kernel = mtia_compiler.compile(job["ttir"])
        except CompilationError as error:
            outcome = {"kind": "rejected" if LOCATED.search(str(error)) else "unlocated",
                       "message": str(error)[:300]}
            raise StopIteration
        case, data = run_case.load_case(job["case"])
        args, _ = run_case.build_args(case, data)
        guarded = []
        for value in args:
            if isinstance(value, np.ndarray):
                raw = value.view(np.uint8)
                whole = np.full(raw.size + 2 * GUARD, 0xA5, np.uint8)
                whole[GUARD:GUARD + raw.size] = raw
                # Raw bytes: a mutant that changed a pointee still runs.
                guarded.append((whole, whole[GUARD:GUARD + raw.size]))
            else:
                guarded.append((None, value))
        try:
            kernel.run(*(v for _, v in guarded), grid=tuple(case["grid"]), max_seconds=20,
                       max_steps=1 << 26)
            outcome = {"kind": "ran"}
        except SimulationError as error:
            outcome = {"kind": "fault-" + error.kind}
        except (TypeError, OverflowError, ValueError) as error:
            outcome = {"kind": "refused-argument", "message": str(error)[:300]}
        for whole, _ in guarded:
            if whole is not None and (np.any(whole[:GUARD] != 0xA5)
                                      or np.any(whole[-GUARD:] != 0xA5)):
                outcome = {"kind": "write-outside"}
    except StopIteration:
        pass
    except BaseException:
        outcome = {"kind": "traceback", "message": traceback.format_exc()[-2000:]}
    print(json.dumps(outcome), flush=True)
'''

ACCEPTABLE_RUN = re.compile(r"^(rejected|ran|fault-.*|refused-argument)$")


def _run_batch(jobs: list[tuple[Path, str]], directory: Path, report: Report) -> None:
    lines = "".join(json.dumps({"ttir": text, "case": str(path.parent)}) + "\n"
                    for path, text in jobs)
    result = subprocess.run([sys.executable, "-c", WORKER, str(HERE)], input=lines,
                            capture_output=True, text=True, errors="replace", timeout=3600)
    outcomes = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    for (_, text), outcome in zip(jobs, outcomes, strict=False):
        kind = outcome["kind"]
        if ACCEPTABLE_RUN.match(kind):
            report.counts[kind] += 1
        else:
            report.fail(kind, text + "\n// " + outcome.get("message", "").replace("\n", "\n// "),
                        directory)
    if len(outcomes) < len(jobs):
        # The worker died at job len(outcomes): that one alone, then the rest.
        path, text = jobs[len(outcomes)]
        report.fail(f"signal{-result.returncode}" if result.returncode < 0 else
                    f"exit{result.returncode}", text, directory)
        if len(outcomes) + 1 < len(jobs):
            _run_batch(jobs[len(outcomes) + 1:], directory, report)


def fuzz_run(count: int, seed: int, directory: Path, batch: int = 100) -> Report:
    report = Report()
    jobs = mutants(count, seed)
    for start in range(0, len(jobs), batch):
        _run_batch(jobs[start:start + batch], directory, report)
    report.counts["inputs"] = count
    return report


ACCEPTABLE_LAUNCH = re.compile(r"^(rejected|ran|fault-.*|refused-argument|refused-by-triton)$")


def fuzz_launch(count: int, seed: int, directory: Path, batch: int = 100) -> Report:
    """`count` mutated launches through the Triton backend, under a budget,
    compiling into a Triton cache of `directory`."""
    from fuzz_launch import launches, run_launches

    report = Report()
    environment = dict(os.environ, TRITON_CACHE_DIR=str(directory / "triton-cache"),
                       MTIA_MAX_CYCLES="2000000", MTIA_MAX_SECONDS="20")
    jobs = launches(count, seed)
    for start in range(0, len(jobs), batch):
        for job, outcome in run_launches(jobs[start:start + batch], directory, environment):
            kind = outcome["kind"]
            if ACCEPTABLE_LAUNCH.match(kind):
                report.counts[kind] += 1
                continue
            report.fail(kind, json.dumps(job) + "\n" + outcome.get("message", ""), directory)
    report.counts["inputs"] = count
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opt", type=int, default=1000, help="mutants through mtia-opt")
    parser.add_argument("--run", type=int, default=100, help="mutants through compile + run")
    parser.add_argument("--launch", type=int, default=0,
                        help="mutated launches through the Triton backend")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None,
                        help="directory for the failing inputs (default: a temporary one)")
    options = parser.parse_args()
    directory = options.keep or Path(tempfile.mkdtemp(prefix="mtia-fuzz-"))
    directory.mkdir(parents=True, exist_ok=True)
    failed = False
    for name, fuzz, count in (("mtia-opt --stage all", fuzz_opt, options.opt),
                              ("compile + run", fuzz_run, options.run),
                              ("launch", fuzz_launch, options.launch)):
        if count <= 0:
            continue
        report = fuzz(count, options.seed, directory)
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(report.counts.items())))
        for failure in report.failures:
            print("  " + failure)
        failed |= bool(report.failures)
    print(f"failing inputs kept in {directory}" if failed else "no failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
