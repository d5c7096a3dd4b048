"""The Python side of the tt dialect: the package imports on its own, types
and ops build from Python, and the pass registry mixes Python and C++ passes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from mlir.dialects import arith
from mlir.passmanager import PassManager

from mtia_compiler import ir
from mtia_compiler.dialects import tt
from mtia_compiler.errors import CompilationError
from mtia_compiler.passes import PipelineError, add_pipeline, python_passes, split_top_level
from mtia_compiler.source import new_context, parse_module, split_source


def test_import_in_fresh_interpreter() -> None:
    code = (
        "import mtia_compiler, mlir.ir as ir\n"
        "ctx = ir.Context()\n"
        "m = ir.Module.parse('tt.func @f() { tt.return }', ctx)\n"
        "print(m.operation.verify())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_types() -> None:
    with new_context(), ir.Location.unknown():
        f32 = ir.F32Type.get()
        pointer = tt.PointerType.get(f32)
        assert str(pointer) == "!tt.ptr<f32>"
        assert pointer.pointee_type == f32
        assert pointer.address_space == 1
        assert str(tt.PointerType.get(f32, 3)) == "!tt.ptr<f32, 3>"
        block = ir.RankedTensorType.get([64, 32], ir.F16Type.get())
        desc = tt.TensorDescType.get(block)
        assert str(desc) == "!tt.tensordesc<64x32xf16>"
        assert desc.block_type == block
        assert tt.PointerType.isinstance(ir.Type.parse("!tt.ptr<i8>"))
        assert not tt.PointerType.isinstance(f32)
        with pytest.raises(ValueError):
            tt.TensorDescType.get(f32)


def test_build_vector_add_from_python() -> None:
    with new_context(), ir.Location.unknown():
        module = ir.Module.create()
        f32 = ir.F32Type.get()
        i32 = ir.IntegerType.get_signless(32)
        pointer = tt.PointerType.get(f32)
        block = 128
        pointers = ir.RankedTensorType.get([block], pointer)
        offsets_type = ir.RankedTensorType.get([block], i32)
        values_type = ir.RankedTensorType.get([block], f32)
        with ir.InsertionPoint(module.body):
            function = tt.FuncOp(
                "add", ir.TypeAttr.get(ir.FunctionType.get([pointer, pointer, i32], []))
            )
            entry = function.body.blocks.append(pointer, pointer, i32)
            with ir.InsertionPoint(entry):
                x_ptr, out_ptr, n = entry.arguments
                pid = tt.GetProgramIdOp(tt.ProgramIDDim.X).result
                start = arith.MulIOp(pid, arith.ConstantOp(i32, block).result).result
                offsets = arith.AddIOp(
                    tt.SplatOp(offsets_type, start).result,
                    tt.MakeRangeOp(offsets_type, 0, block).result,
                ).result
                mask = arith.CmpIOp(
                    arith.CmpIPredicate.slt, offsets, tt.SplatOp(offsets_type, n).result
                ).result
                x_ptrs = tt.AddPtrOp(tt.SplatOp(pointers, x_ptr).result, offsets).result
                x = tt.LoadOp(x_ptrs, mask=mask).result
                doubled = arith.AddFOp(x, x).result
                out_ptrs = tt.AddPtrOp(tt.SplatOp(pointers, out_ptr).result, offsets).result
                tt.StoreOp(out_ptrs, doubled, mask=mask)
                tt.ReturnOp([])
        assert module.operation.verify()
        text = str(module)
        assert f"tt.load {x_ptrs.get_name()}, {mask.get_name()} :" in text
        assert f"tt.store {out_ptrs.get_name()}, {doubled.get_name()}, {mask.get_name()} :" in text
        assert str(x.type) == str(values_type)


def test_parse_module_reports_located_errors() -> None:
    context = new_context()
    with pytest.raises(CompilationError, match=r"^k\.ttir:1:21: error: custom op 'tt.nope'"):
        parse_module(context, b"tt.func @f() { %0 = tt.nope : i32 tt.return }", "k.ttir")


RELOCATED = b"""\
module {
  tt.func public @k(%n: i32) {
    %0 = tt.frobnicate %n : i32 loc(#named)
    scf.if %c {
      tt.frobnicate2
    } loc(#if)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("kernel.py":1:0)
#site = loc("kernel.py":7:11)
#named = loc("x"(#site))
#if = loc(callsite(#inner at #loc))
#inner = loc("helper.py":3:4)
"""


def test_a_parse_error_is_reported_at_the_operations_location() -> None:
    # The operation the parser stops at is located in the kernel's source
    # (through a name location and an alias): the error is reported there,
    # with a note at the position in the IR text.
    with pytest.raises(CompilationError) as failure:
        parse_module(new_context(), RELOCATED, "k.ttir")
    message = str(failure.value)
    assert message.startswith("kernel.py:7:11: error: custom op 'tt.frobnicate' is unknown")
    assert "k.ttir:3:10: note: in the IR the compiler was given" in message


def test_a_parse_error_in_a_region_header_takes_the_location_that_closes_it() -> None:
    text = RELOCATED.replace(b"tt.frobnicate %n : i32", b"arith.constant 1 : i32")
    text = text.replace(b"scf.if %c", b"tt.frobregion")
    with pytest.raises(CompilationError) as failure:
        parse_module(new_context(), text, "k.ttir")
    # The unknown op opens a region: its location is on the closing brace
    # (a call site: the callee's file first).
    message = str(failure.value)
    assert message.startswith("helper.py:3:4: error: custom op 'tt.frobregion' is unknown"), message
    assert "k.ttir:4:5: note: in the IR the compiler was given" in message


def test_a_parse_error_without_a_location_stays_in_the_text() -> None:
    text = RELOCATED.replace(b"tt.frobnicate %n : i32", b"arith.constant true")
    with pytest.raises(CompilationError) as failure:
        parse_module(new_context(), text.replace(b"scf.if %c", b"scf.if %0"), "k.ttir")
    assert str(failure.value).startswith("k.ttir:5:7: error: custom op 'tt.frobnicate2'")


def test_split_source_keeps_line_numbers() -> None:
    chunks = list(split_source(b"a\n// -----\nb\nc\n// -----\nd"))
    assert [chunk.first_line for chunk in chunks] == [1, 3, 6]
    assert chunks[1].text == b"\n\nb\nc\n"


def test_split_top_level() -> None:
    assert split_top_level("a, b{x=1,2}, c(d, e)") == ["a", "b{x=1,2}", "c(d, e)"]
    with pytest.raises(PipelineError):
        split_top_level("a, b)")


def test_pipeline_mixes_python_and_cpp_passes() -> None:
    context = new_context()
    source = (
        b"tt.func @f(%n: i32) -> i32 {\n"
        b"  %c0 = arith.constant 0 : i32\n"
        b"  %p = arith.cmpi sgt, %n, %c0 : i32\n"
        b"  llvm.intr.assume %p : i1\n"
        b"  tt.return %n : i32\n"
        b"}\n"
    )
    module = parse_module(context, source, "f.ttir")
    assert "mtia-drop-assumes" in [entry.argument for entry in python_passes()]
    with context:
        pm = PassManager(context=context)
        add_pipeline(pm, "builtin.module(mtia-drop-assumes, canonicalize)")
        pm.run(module.operation)
    text = str(module)
    assert "llvm.intr.assume" not in text
    assert "arith.cmpi" not in text


def test_pipeline_rejects_unknown_pass() -> None:
    with new_context() as context:
        pm = PassManager(context=context)
        with pytest.raises(PipelineError, match="no-such-pass"):
            add_pipeline(pm, "builtin.module(no-such-pass)")
