"""The Python side of the dma dialect: the token type, and every operation
built from Python into a module that verifies."""

from __future__ import annotations

import pytest
from mlir.dialects import arith

from mtia_compiler import ir
from mtia_compiler.dialects import cb, dma, tile, tt
from mtia_compiler.source import new_context


def test_token_type() -> None:
    with new_context(), ir.Location.unknown():
        token = dma.TokenType.get()
        assert str(token) == "!dma.token"
        assert dma.TokenType.isinstance(ir.Type.parse("!dma.token"))
        assert not dma.TokenType.isinstance(ir.F32Type.get())


def build_transfers(stride: int) -> ir.Module:
    """A module with every transfer; the loads' row stride is `stride`
    elements of f32."""
    f32, i1, i32 = ir.F32Type.get(), ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(32)
    index = ir.IndexType.get()
    pointer = tt.PointerType.get(f32)
    i32_pointer = tt.PointerType.get(i32)
    page = tile.TileType.get([8, 64], f32)
    vector = tile.TileType.get([64], f32)
    indices = tile.TileType.get([64], i32)
    mask = tile.TileType.get([64], i1)
    single = tile.TileType.get([1], i32)
    token = dma.TokenType.get()
    module = ir.Module.create()
    arguments = [pointer, i32_pointer, index, index, indices, mask, single]
    with ir.InsertionPoint(module.body):
        function = tt.FuncOp("transfers", ir.TypeAttr.get(ir.FunctionType.get(arguments, [])))
        entry = function.body.blocks.append(*arguments)
    with ir.InsertionPoint(entry):
        base, lock, offset, rows, offsets, valid, one = entry.arguments
        unit = arith.constant(index, 1)
        row_stride = arith.constant(index, stride)
        zero = arith.constant(f32, 0.0)
        windows = cb.alloc(
            cb.CircularBufferType.get(page, 2), "windows", cb.Endpoint.DMAIn, cb.Endpoint.SIMD
        )
        results = cb.alloc(
            cb.CircularBufferType.get(page, 1), "results", cb.Endpoint.SIMD, cb.Endpoint.DMAOut
        )
        gathered = cb.alloc(
            cb.CircularBufferType.get(vector, 1), "gathered", cb.Endpoint.DMAIn, cb.Endpoint.SIMD
        )
        scattered = cb.alloc(
            cb.CircularBufferType.get(vector, 1), "scattered", cb.Endpoint.SIMD, cb.Endpoint.DMAOut
        )
        old = cb.alloc(
            cb.CircularBufferType.get(single, 1), "old", cb.Endpoint.DMAOut, cb.Endpoint.Core
        )
        cb.reserve_back(windows, 1)
        cb.wait_front(results, 1)
        cb.reserve_back(gathered, 1)
        cb.wait_front(scattered, 1)
        cb.reserve_back(old, 1)
        tokens = [
            dma.load(
                token, base, offset, [row_stride, unit], [rows, rows], windows, 0, padding=zero
            ),
            dma.store(token, results, 0, base, offset, [row_stride, unit], []),
            dma.gather(token, base, offsets, gathered, 0, mask=valid, padding=zero),
            dma.scatter(token, scattered, 0, base, offsets, mask=valid),
            dma.atomic_rmw(
                token,
                dma.AtomicKind.FAdd,
                dma.MemoryOrder.Relaxed,
                dma.MemoryScope.Chip,
                base,
                offsets,
                tile.splat(vector, zero),
                mask=valid,
            ),
            dma.atomic_cas(
                token,
                dma.MemoryOrder.AcquireRelease,
                dma.MemoryScope.Chip,
                lock,
                one,
                one,
                one,
                cb=old,
                page=0,
            ),
        ]
        dma.wait(tokens)
        tt.ReturnOp([])
    return module


def test_build_every_op() -> None:
    with new_context(), ir.Location.unknown():
        module = build_transfers(stride=64)
        assert module.operation.verify()
        text = str(module)
        for name in ("load", "store", "gather", "scatter", "atomic_rmw", "atomic_cas", "wait"):
            assert f"dma.{name} " in text, name
        assert ir.Module.parse(text).operation.verify()


def test_misaligned_stride_is_rejected() -> None:
    with new_context() as context, ir.Location.unknown():
        context.emit_error_diagnostics = False
        module = build_transfers(stride=65)
        with pytest.raises(
            ir.MLIRError,
            match="stride 0 of 65 elements \\(260 bytes\\) breaks the 32-byte alignment",
        ):
            module.operation.verify()
