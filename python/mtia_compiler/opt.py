"""`mtia-opt`: parse, transform and print TTIR and MTIA IR, like mlir-opt.

    mtia-opt kernel.ttir                                  # parse, verify, print
    mtia-opt k.ttir --pass-pipeline='builtin.module(canonicalize,cse)'
    mtia-opt tests.mlir --split-input-file --verify-diagnostics

Exit status: 0 on success, 1 on any error diagnostic (printed as
`file:line:col: error: ...` with the source line), 2 on bad usage.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import click
from mlir.passmanager import PassManager

from mtia_compiler import _mtia, ir, transforms  # noqa: F401 (registers passes)
from mtia_compiler.compiler import PASS_STAGES
from mtia_compiler.passes import (
    PipelineError,
    add_pipeline,
    parse_module_pipeline,
    python_passes,
)
from mtia_compiler.source import SPLIT_MARKER, decode_diagnostics, new_context, split_source

# Like mlir-opt, mtia-opt also registers the test passes of test/lib, which
# compile() does not.
_mtia.register_test_passes()


@dataclass(frozen=True)
class OptOptions:
    """What to do with each input module."""

    pipeline: str | None
    verify_diagnostics: bool
    print_ir_after_all: bool
    print_debuginfo: bool
    print_generic: bool


def process_chunk(buffer: bytes, name: str, options: OptOptions) -> tuple[bool, str | None]:
    """Parse one buffer, run the pipeline and render the result.

    Returns whether the chunk succeeded and the printed module (None when
    nothing is to be printed). Diagnostics go to stderr.
    """
    context = new_context()
    with _mtia.SourceSession(context, buffer, name, options.verify_diagnostics) as session:
        printed = _parse_and_transform(context, session, buffer, name, options)
        if options.verify_diagnostics:
            succeeded = session.verify()
        else:
            succeeded = printed is not None
        diagnostics = decode_diagnostics(session.take_output())
    if diagnostics:
        click.echo(diagnostics, err=True)
    return succeeded, printed


def _parse_and_transform(
    context: ir.Context,
    session: _mtia.SourceSession,
    buffer: bytes,
    name: str,
    options: OptOptions,
) -> str | None:
    module = session.parse()
    if module is None:
        return None
    if options.pipeline:
        with context:
            pm = PassManager(context=context)
            add_pipeline(pm, options.pipeline)
            if options.print_ir_after_all:
                pm.enable_ir_printing(
                    print_after_all=True, enable_debug_info=options.print_debuginfo
                )
            try:
                pm.run(module.operation)
            except ir.MLIRError:
                return None
    # MLIR's stubs type get_asm as returning `object`; without `binary` it
    # returns the text.
    return cast(str, module.operation.get_asm(
        enable_debug_info=options.print_debuginfo,
        print_generic_op_form=options.print_generic,
    ))


STAGE_NAMES = [name for name, _ in PASS_STAGES]


def stage_pipeline(stage: str) -> str:
    """The pass pipeline of a named compiler stage, or of all of them."""
    pipelines = [pipeline for name, pipeline in PASS_STAGES if stage in (name, "all")]
    elements = [element for pipeline in pipelines for element in parse_module_pipeline(pipeline)]
    return f"builtin.module({', '.join(elements)})"


def print_dialects() -> None:
    names = sorted(_mtia.registered_dialects(new_context()))
    click.echo("Available Dialects: " + ", ".join(names))


def print_passes() -> None:
    sys.stdout.flush()
    _mtia.print_registered_passes()
    click.echo("Python passes:")
    for entry in python_passes():
        click.echo(f"  --{entry.argument}: {entry.description}")


def fail(message: str) -> None:
    click.echo(f"mtia-opt: error: {message}", err=True)
    sys.exit(1)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_file", default="-", metavar="[INPUT]")
@click.option("-o", "output_file", default="-", metavar="FILE",
              help="Output file (default stdout).")
@click.option("--pass-pipeline", default=None, metavar="PIPELINE",
              help="Textual pipeline, e.g. 'builtin.module(canonicalize,cse)'. "
              "C++ and Python passes can be mixed.")
@click.option("--stage", type=click.Choice([*STAGE_NAMES, "all"]), default=None,
              help="Run the pass pipeline of one stage of the compiler (or all of them).")
@click.option("--split-input-file", is_flag=True,
              help=f"Process each chunk between '{SPLIT_MARKER}' lines on its own.")
@click.option("--verify-diagnostics", is_flag=True,
              help="Check diagnostics against expected-error/-warning/-remark annotations.")
@click.option("--mlir-print-ir-after-all", "print_ir_after_all", is_flag=True,
              help="Print the IR after every pass (to stderr).")
@click.option("--mlir-print-debuginfo", "print_debuginfo", is_flag=True,
              help="Print locations.")
@click.option("--mlir-print-op-generic", "print_generic", is_flag=True,
              help="Print operations in generic form.")
@click.option("--list-passes", is_flag=True, help="List the registered passes and exit.")
@click.option("--show-dialects", is_flag=True, help="List the registered dialects and exit.")
def main(
    input_file: str,
    output_file: str,
    pass_pipeline: str | None,
    stage: str | None,
    split_input_file: bool,
    verify_diagnostics: bool,
    print_ir_after_all: bool,
    print_debuginfo: bool,
    print_generic: bool,
    list_passes: bool,
    show_dialects: bool,
) -> None:
    """Parse, verify, transform and print TTIR and MTIA IR."""
    if show_dialects:
        print_dialects()
        return
    if list_passes:
        print_passes()
        return
    if stage is not None:
        if pass_pipeline is not None:
            fail("--stage and --pass-pipeline exclude each other")
        pass_pipeline = stage_pipeline(stage)
    if input_file == "-":
        buffer, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        try:
            buffer, name = Path(input_file).read_bytes(), input_file
        except OSError as error:
            fail(f"could not open input file '{input_file}': {error.strerror}")
    options = OptOptions(pass_pipeline, verify_diagnostics, print_ir_after_all,
                         print_debuginfo, print_generic)
    chunks = list(split_source(buffer)) if split_input_file else [None]
    all_succeeded = True
    outputs: list[str] = []
    try:
        for chunk in chunks:
            text = buffer if chunk is None else chunk.text
            succeeded, printed = process_chunk(text, name, options)
            all_succeeded &= succeeded
            if printed is not None:
                outputs.append(printed)
    except PipelineError as error:
        fail(str(error))
    rendered = f"{SPLIT_MARKER}\n".join(outputs)
    if output_file == "-":
        sys.stdout.write(rendered)
    else:
        Path(output_file).write_text(rendered)
    sys.exit(0 if all_succeeded else 1)


def entry() -> None:
    """Console-script entry point of mtia-opt."""
    try:
        main()
    except BrokenPipeError:
        # The reader of our output went away (`mtia-opt ... | head`): stop
        # quietly, and keep Python from failing again when it flushes stdout.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
