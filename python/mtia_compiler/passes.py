"""Passes written in Python, and pass pipelines that mix them with C++ passes.

A Python pass is a function `run(op, pass_)` registered under a name with
`@python_pass`. Textual pipelines such as
`builtin.module(canonicalize, mtia-drop-assumes, cse)` name C++ passes
(ours and MLIR's, from the global registry) and Python passes alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mlir.passmanager import PassManager

from mtia_compiler import ir

PassFunction = Callable[[ir.Operation, object], None]


@dataclass(frozen=True)
class PythonPass:
    """A pass implemented in Python, run on the whole module."""

    argument: str
    description: str
    run: PassFunction


_PYTHON_PASSES: dict[str, PythonPass] = {}


def python_pass(argument: str, description: str) -> Callable[[PassFunction], PassFunction]:
    """Register the decorated function as the Python pass `argument`."""

    def register(run: PassFunction) -> PassFunction:
        if argument in _PYTHON_PASSES:
            raise ValueError(f"a Python pass named '{argument}' is already registered")
        _PYTHON_PASSES[argument] = PythonPass(argument, description, run)
        return run

    return register


def python_passes() -> list[PythonPass]:
    """Every registered Python pass, sorted by name."""
    return [_PYTHON_PASSES[name] for name in sorted(_PYTHON_PASSES)]


class PipelineError(ValueError):
    """A textual pass pipeline is malformed or names an unknown pass."""


_OPENING = {"(": ")", "{": "}", "[": "]"}


def split_top_level(text: str) -> list[str]:
    """Split a comma-separated pipeline list at the commas outside brackets
    and quotes."""
    elements: list[str] = []
    expected_closers: list[str] = []
    in_quote = False
    start = 0
    for index, char in enumerate(text):
        if char == '"':
            in_quote = not in_quote
        elif in_quote:
            continue
        elif char in _OPENING:
            expected_closers.append(_OPENING[char])
        elif char in _OPENING.values():
            if not expected_closers or expected_closers.pop() != char:
                raise PipelineError(f"unbalanced '{char}' in pass pipeline '{text}'")
        elif char == "," and not expected_closers:
            elements.append(text[start:index].strip())
            start = index + 1
    if expected_closers or in_quote:
        raise PipelineError(f"unterminated bracket or quote in pass pipeline '{text}'")
    elements.append(text[start:].strip())
    return [element for element in elements if element]


def parse_module_pipeline(pipeline: str) -> list[str]:
    """The elements of `builtin.module(e1, e2, ...)`."""
    text = pipeline.strip()
    prefix = "builtin.module("
    if not text.startswith(prefix) or not text.endswith(")"):
        raise PipelineError(
            f"pass pipeline '{pipeline}' must be anchored on the module: "
            "builtin.module(...)"
        )
    return split_top_level(text[len(prefix) : -1])


def add_pipeline(pm: PassManager, pipeline: str) -> None:
    """Append the passes of a textual `builtin.module(...)` pipeline to `pm`,
    taking registered Python passes by name and everything else from MLIR's
    pass registry."""
    for element in parse_module_pipeline(pipeline):
        python_pass_entry = _PYTHON_PASSES.get(element.split("{", 1)[0].strip())
        if python_pass_entry is not None:
            if "{" in element:
                raise PipelineError(f"Python pass '{element}' takes no options")
            pm.add(
                python_pass_entry.run,
                name=python_pass_entry.argument,
                argument=python_pass_entry.argument,
                description=python_pass_entry.description,
            )
            continue
        try:
            pm.add(element)
        except ValueError as error:
            raise PipelineError(f"'{element}': {error}") from None
