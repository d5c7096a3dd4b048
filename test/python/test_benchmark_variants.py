"""The style-variants benchmark (`benchmarks/variants.py`) at tiny sizes, on
its own code path (`variants.benchmark`): the variants measured agree with
torch and are reported in the documented lines, a variant that does not
compile is reported as left out with its error, and so is one whose numbers
are wrong."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import triton

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import variants  # noqa: E402 (after its folder is on the path)
from suite import Case, Check, Family, Results, Size  # noqa: E402

#: The variants measured and a tiny size of each, with partial blocks where
#: the kernel takes them.
TINY_SIZES: dict[str, Size] = {
    "gemm/tutorial": (200, 136, 72),
    "gemm/transposed_b": (200, 136, 72),
    "gemm/split_k_two_pass": (64, 96, 512),
    "gemm/persistent": (200, 136, 72),
    "attention/exp_causal": (1, 2, 150, 64),
    "attention/gqa_causal": (1, 4, 2, 128, 64),
    "memory/softmax_looped": (4, 3000),
    "memory/row_sum": (10, 300),
}
#: Triton 3.9 removed block pointers; the variant stays in the list to say so.
NOT_COMPILING = "gemm/block_ptr"
#: A variant whose check expects other numbers than the kernel's.
WRONG = "gemm/tutorial_checked_wrongly"

VARIANT = r"(?P<variant>\w+/\w+)"
SIZED_LINE = re.compile(VARIANT + r"\[(?P<size>[\dx]+)\]: (?P<percent>[\d.]+)% of roofline")
AGAINST_COPY = re.compile(VARIANT + r"\[[\dx]+\]: (?P<percent>[\d.]+)% of the streaming copy")
SUMMARY_LINE = re.compile(VARIANT + r": (?P<percent>[\d.]+)% of roofline")
LEFT_OUT_LINE = re.compile(VARIANT + r"(?P<size>\[[\dx]+\])?: left out, (?P<reason>.+)")


def first_config(make: Callable[[Size], Case], size: Size) -> Case:
    """The case of `make` at `size` with its first config only (fast)."""
    case = make(size)
    return dataclasses.replace(case, configs=case.configs[:1])


def checked_wrongly(make: Callable[[Size], Case], size: Size) -> Case:
    """The case of `make` at `size` whose check expects every element one more."""
    case = first_config(make, size)
    expected = case.check.expected.float() + 1
    return dataclasses.replace(case, check=Check(expected.to(case.check.expected.dtype), 1e-2,
                                                 1e-2))


def tiny_families() -> list[Family]:
    families = {family.kernel: family for family in variants.families()}
    tiny = [Family(name, [size], functools.partial(first_config, families[name].make))
            for name, size in TINY_SIZES.items()]
    tutorial = families["gemm/tutorial"]
    tiny.append(Family(WRONG, [TINY_SIZES["gemm/tutorial"]],
                       functools.partial(checked_wrongly, tutorial.make)))
    tiny.append(Family(NOT_COMPILING, [(64, 64, 64)],
                       functools.partial(first_config, families[NOT_COMPILING].make)))
    return tiny


@dataclasses.dataclass(frozen=True)
class Run:
    results: Results
    lines: list[str]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    output = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRITON_CACHE_DIR", str(tmp_path_factory.mktemp("triton-cache")))
        with contextlib.redirect_stdout(output):
            results = variants.benchmark(tiny_families(), "", True, "mtia-2i")
    yield Run(results, output.getvalue().splitlines())
    triton.runtime.driver.reset_active()


def test_variants_agree_with_torch_and_report_their_lines(run: Run) -> None:
    text = "\n".join(run.lines)
    measured = list(TINY_SIZES)
    # Every config of a measured variant checked against torch.
    assert list(run.results.measurements) == measured, text
    assert not any("wrong numbers" in line for line in run.lines if WRONG not in line), text
    sized = [match for line in run.lines if (match := SIZED_LINE.fullmatch(line))]
    assert [(match["variant"], match["size"]) for match in sized] == [
        (name, "x".join(map(str, size))) for name, size in TINY_SIZES.items()], text
    # The roofline is a lower bound of the time.
    assert all(0 < float(match["percent"]) <= 100 for match in sized), text
    assert all(m.cycles > 0 for ms in run.results.measurements.values() for m in ms)
    # The memory-bound ones are also held against the streaming copy.
    against_copy = {match["variant"] for line in run.lines
                    if (match := AGAINST_COPY.fullmatch(line))}
    assert {"memory/softmax_looped", "memory/row_sum"} <= against_copy, text
    # The output ends with one line per variant, in the list's order.
    summary = run.lines[-(len(measured) + 2):]
    assert [line.split(":")[0] for line in summary] == [*measured, WRONG, NOT_COMPILING], text
    for line in summary[:len(measured)]:
        match = SUMMARY_LINE.fullmatch(line)
        assert match is not None, line
        assert float(match["percent"]) > 0, line


def test_a_variant_that_does_not_compile_is_left_out_with_its_error(run: Run) -> None:
    left_out = {(match["variant"], match["size"]): match["reason"] for line in run.lines
                if (match := LEFT_OUT_LINE.fullmatch(line))}
    reason = "every config: CompilationError: Block pointers have been removed"
    assert left_out[(NOT_COMPILING, "[64x64x64]")].startswith(reason), run.lines
    assert left_out[(NOT_COMPILING, None)].startswith(reason), run.lines


def test_a_variant_with_wrong_numbers_is_left_out(run: Run) -> None:
    left_out = {(match["variant"], match["size"]): match["reason"] for line in run.lines
                if (match := LEFT_OUT_LINE.fullmatch(line))}
    assert left_out[(WRONG, None)].startswith("every config: wrong numbers: Tensor-likes are "
                                              "not close! Mismatched elements:"), run.lines
    assert WRONG not in run.results.measurements
    # The same kernel with the right check is measured.
    assert "gemm/tutorial" in run.results.measurements
