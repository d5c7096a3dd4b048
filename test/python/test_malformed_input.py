"""Bad input gives `file:line:col: error: ...` and exit status 1, never a
traceback, an abort or a crash. Each case runs mtia-opt in its own process so
that a crash would show as a signal exit status."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from corpus_data import CORPUS_FILES

import mtia_compiler

LOCATED_ERROR = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): error: ", re.M)
NOLOC_FILES = [path for path in CORPUS_FILES if path.name == "kernel.noloc.ttir"]


def run_opt(path: Path) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("mtia-opt")
    assert executable, "mtia-opt is not installed"
    return subprocess.run(
        [executable, str(path)], capture_output=True, text=True, errors="replace", timeout=60
    )


def assert_located_error(result: subprocess.CompletedProcess[str], path: Path) -> re.Match[str]:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    match = LOCATED_ERROR.search(result.stderr)
    assert match, result.stderr
    assert match["file"] == str(path)
    return match


@pytest.mark.parametrize("path", NOLOC_FILES, ids=lambda p: p.parent.name)
@pytest.mark.parametrize("fraction", [0.3, 0.75, 0.98])
def test_truncated_corpus_file(path: Path, fraction: float, tmp_path: Path) -> None:
    text = path.read_bytes()
    truncated = tmp_path / "truncated.ttir"
    truncated.write_bytes(text[: int(len(text) * fraction)])
    assert_located_error(run_opt(truncated), truncated)


def test_unknown_tt_op(tmp_path: Path) -> None:
    source = tmp_path / "unknown.ttir"
    source.write_text("tt.func @f() {\n  %0 = tt.frobnicate : i32\n  tt.return\n}\n")
    result = run_opt(source)
    match = assert_located_error(result, source)
    assert (match["line"], match["col"]) == ("2", "8")
    assert "custom op 'tt.frobnicate' is unknown" in result.stderr


def test_type_mismatch(tmp_path: Path) -> None:
    source = tmp_path / "mismatch.ttir"
    source.write_text(
        "tt.func @f(%p: !tt.ptr<f32>, %x: i32) {\n"
        "  %0 = tt.addptr %p, %x : !tt.ptr<f32>, i32\n"
        "  tt.store %0, %x : !tt.ptr<f32>\n"
        "  tt.return\n"
        "}\n"
    )
    result = run_opt(source)
    match = assert_located_error(result, source)
    assert match["line"] == "3"
    assert "expects different type than prior uses" in result.stderr


def test_verifier_error_is_located(tmp_path: Path) -> None:
    source = tmp_path / "verifier.ttir"
    source.write_text(
        "tt.func @f(%x: tensor<8xf32>) {\n"
        "  %0 = tt.reshape %x : tensor<8xf32> -> tensor<3xf32>\n"
        "  tt.return\n"
        "}\n"
    )
    result = run_opt(source)
    match = assert_located_error(result, source)
    assert (match["line"], match["col"]) == ("2", "8")
    assert "cannot reshape" in result.stderr


@pytest.mark.parametrize("seed", range(8))
def test_random_bytes(seed: int, tmp_path: Path) -> None:
    source = tmp_path / "random.bin"
    source.write_bytes(random.Random(seed).randbytes(400))
    assert_located_error(run_opt(source), source)


def test_random_bytes_inside_valid_module(tmp_path: Path) -> None:
    text = NOLOC_FILES[0].read_bytes()
    middle = len(text) // 2
    source = tmp_path / "corrupt.ttir"
    source.write_bytes(text[:middle] + random.Random(7).randbytes(64) + text[middle:])
    assert_located_error(run_opt(source), source)


def test_missing_file(tmp_path: Path) -> None:
    result = run_opt(tmp_path / "missing.ttir")
    assert result.returncode == 1
    assert "could not open input file" in result.stderr
    assert "Traceback" not in result.stderr


def _nested(kind: str, depth: int) -> str:
    """A function whose text nests `depth` levels of one kind of bracket."""
    if kind == "regions":
        return ("tt.func @f(%c: i1) {\n" + "scf.if %c {\n" * depth + "}\n" * depth
                + "tt.return\n}\n")
    if kind == "attributes":
        return "tt.func @f() attributes {x = " + "[" * depth + "]" * depth + "} {\ntt.return\n}\n"
    return "tt.func @f(%a: " + "tuple<" * depth + ">" * depth + ") {\ntt.return\n}\n"


@pytest.mark.parametrize("kind", ["regions", "attributes", "types"])
@pytest.mark.parametrize("depth", [300, 20000])
def test_deep_nesting_is_refused_before_the_parser_recurses(kind: str, depth: int,
                                                           tmp_path: Path) -> None:
    # MLIR's parser and verifier recurse once per level: without the limit,
    # 20000 levels overflow the stack and kill the process with a signal.
    source = tmp_path / "deep.ttir"
    source.write_text(_nested(kind, depth))
    result = run_opt(source)
    assert_located_error(result, source)
    assert "nests more than 256 levels of brackets" in result.stderr


def test_deep_nesting_below_the_limit_parses(tmp_path: Path) -> None:
    source = tmp_path / "deep.ttir"
    source.write_text(_nested("regions", 200))
    result = run_opt(source)
    assert result.returncode == 0, result.stderr


def test_compile_refuses_deep_nesting_in_process() -> None:
    with pytest.raises(mtia_compiler.CompilationError, match="nests more than 256 levels"):
        mtia_compiler.compile(_nested("types", 20000))


@pytest.mark.parametrize(("text", "message"), [
    ("tt.func @f(%p: tensor<64x!tt.ptr<none>>) {\n"
     "  %0 = tt.load %p : tensor<64x!tt.ptr<none>>\n  tt.return\n}\n",
     "pointers point to integers, floats, pointers or tensors of them, got 'none'"),
    ("tt.func @f(%d: !tt.tensordesc<64x32xnone>) {\n  tt.return\n}\n",
     "tensor descriptor elements must be integers or floats, got 'none'"),
    ("tt.func @f() {\n  %c = arith.constant dense<1.0> : tensor<8x9223372036854775807xf16>\n"
     "  tt.return\n}\n",
     "the shape has more than 2^48 elements"),
])
def test_inputs_that_aborted_mlir_get_located_errors(text: str, message: str,
                                                    tmp_path: Path) -> None:
    # Each of these once ended the process in an assertion of MLIR's.
    source = tmp_path / "abort.ttir"
    source.write_text(text)
    result = run_opt(source)
    assert_located_error(result, source)
    assert message in result.stderr
