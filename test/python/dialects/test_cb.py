"""The Python side of the cb dialect: the circular-buffer type, and every
operation built from Python into a module that verifies."""

from __future__ import annotations

import pytest

from mtia_compiler import ir
from mtia_compiler.dialects import cb, tile, tt
from mtia_compiler.source import new_context


def test_circular_buffer_type() -> None:
    with new_context(), ir.Location.unknown():
        page = tile.TileType.get([64, 32], ir.F16Type.get(), order=[0, 1])
        buffer = cb.CircularBufferType.get(page, 3)
        assert str(buffer) == "!cb.cb<64x32xf16, order = [0, 1], pages = 3>"
        assert buffer.page_type == page
        assert buffer.num_pages == 3
        assert buffer.size_in_bytes == 3 * 64 * 32 * 2
        assert cb.CircularBufferType.isinstance(ir.Type.parse("!cb.cb<f32, pages = 1>"))
        with pytest.raises(ValueError, match="page type must be a tile type"):
            cb.CircularBufferType.get(ir.F16Type.get(), 2)


def test_invalid_circular_buffer_type() -> None:
    with new_context() as context, ir.Location.unknown():
        context.emit_error_diagnostics = False
        page = tile.TileType.get([8], ir.F32Type.get())
        with pytest.raises((ValueError, ir.MLIRError)):
            cb.CircularBufferType.get(page, 0)


def build_pipeline(consumer: cb.Endpoint) -> ir.Module:
    """A module in which DMA fills one buffer, the SIMD engine squares its
    pages into a second buffer, and `consumer` drains the first."""
    f32 = ir.F32Type.get()
    page = tile.TileType.get([1024], f32)
    buffer = cb.CircularBufferType.get(page, 2)
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        function = tt.FuncOp("pipeline", ir.TypeAttr.get(ir.FunctionType.get([], [])))
        entry = function.body.blocks.append()
    with ir.InsertionPoint(entry):
        inputs = cb.alloc(buffer, "x", cb.Endpoint.DMAIn, consumer)
        outputs = cb.alloc(buffer, "y", cb.Endpoint.SIMD, cb.Endpoint.DMAOut)
        cb.wait_front(inputs, 1)
        x = cb.read_front(inputs, 0)
        cb.reserve_back(outputs, 1)
        cb.write_back(tile.binary(tile.BinaryKind.MulF, x, x), outputs, 0)
        cb.push_back(outputs, 1)
        cb.pop_front(inputs, 1)
        tt.ReturnOp([])
    return module


def test_build_every_op() -> None:
    with new_context(), ir.Location.unknown():
        module = build_pipeline(cb.Endpoint.SIMD)
        assert module.operation.verify()
        text = str(module)
        names = "alloc reserve_back push_back wait_front pop_front read_front write_back"
        for name in names.split():
            assert f"cb.{name} " in text, name
        assert 'cb.alloc "x", dma_in -> simd' in text


def test_second_consumer_is_rejected() -> None:
    with new_context() as context, ir.Location.unknown():
        context.emit_error_diagnostics = False
        module = build_pipeline(cb.Endpoint.DPE)
        with pytest.raises(ir.MLIRError, match='"x" has consumer dpe but is drained by simd'):
            module.operation.verify()
