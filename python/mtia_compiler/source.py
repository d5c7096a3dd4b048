"""Parsing TTIR and MLIR text with diagnostics located in the source."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

from mtia_compiler import _mtia, ir
from mtia_compiler.errors import CompilationError

# The separator of `--split-input-file`, as in mlir-opt.
SPLIT_MARKER = "// -----"


@dataclass(frozen=True)
class SourceChunk:
    """A piece of a source buffer, padded so that line numbers stay those of
    the whole buffer."""

    text: bytes
    first_line: int


def split_source(buffer: bytes) -> Iterator[SourceChunk]:
    """Split a buffer at lines holding only `// -----`, as mlir-opt does."""
    lines = buffer.splitlines(keepends=True)
    start = 0
    for index, line in enumerate(lines):
        if line.strip() == SPLIT_MARKER.encode():
            yield _chunk(lines, start, index)
            start = index + 1
    yield _chunk(lines, start, len(lines))


def _chunk(lines: list[bytes], start: int, end: int) -> SourceChunk:
    return SourceChunk(b"\n" * start + b"".join(lines[start:end]), start + 1)


def decode_diagnostics(output: bytes) -> str:
    """Diagnostics as text; source bytes that are not UTF-8 are replaced."""
    return output.decode("utf-8", errors="replace").rstrip()


def new_context() -> ir.Context:
    """A context with every dialect the compiler reads registered, whose
    error diagnostics reach the handler of a `SourceSession` rather than
    being captured into Python exceptions."""
    context = ir.Context()
    context.emit_error_diagnostics = True
    return context


_compiler_contexts = threading.local()


def compiler_context() -> ir.Context:
    """The context `compile` works in: one per thread, made once, since
    making a context with every registered dialect costs several
    milliseconds. The modules of earlier compilations are independent of it;
    only uniqued types and attributes accumulate. A kernel is one function,
    so the passes gain nothing from running on several threads."""
    context = getattr(_compiler_contexts, "context", None)
    if context is None:
        context = _compiler_contexts.context = new_context()
        context.enable_multithreading(False)
    return context


def parse_module(context: ir.Context, buffer: bytes, name: str) -> ir.Module:
    """Parse and verify `buffer`; raise CompilationError with the located
    diagnostics on failure."""
    with _mtia.SourceSession(context, buffer, name) as session:
        module = session.parse()
        if module is None:
            raise CompilationError(decode_diagnostics(session.take_output()))
        return module
