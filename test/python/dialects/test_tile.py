"""The Python side of the tile dialect: the tile type, and every operation
built from Python into a module that verifies."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from mlir.dialects import arith

from mtia_compiler import ir
from mtia_compiler.dialects import tile, tt
from mtia_compiler.source import new_context


@contextmanager
def kernel(argument_types: list[ir.Type]) -> Iterator[tuple[ir.Module, list[ir.Value]]]:
    """A module holding one `tt.func` with the given arguments; the body is
    built at the insertion point of the `with` and terminated on exit."""
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        function = tt.FuncOp("kernel", ir.TypeAttr.get(ir.FunctionType.get(argument_types, [])))
        entry = function.body.blocks.append(*argument_types)
    with ir.InsertionPoint(entry):
        yield module, list(entry.arguments)
        tt.ReturnOp([])


def test_tile_type() -> None:
    with new_context(), ir.Location.unknown():
        f16 = ir.F16Type.get()
        row_major = tile.TileType.get([64, 32], f16)
        assert str(row_major) == "!tile.tile<64x32xf16>"
        assert row_major.shape == [64, 32]
        assert row_major.element_type == f16
        assert row_major.order == [1, 0]
        assert row_major.is_row_major
        assert row_major.size_in_bytes == 64 * 32 * 2
        column_major = tile.TileType.get([64, 32], f16, order=[0, 1])
        assert str(column_major) == "!tile.tile<64x32xf16, order = [0, 1]>"
        assert not column_major.is_row_major
        assert tile.TileType.get([8], ir.IntegerType.get_signless(1)).size_in_bytes == 8
        assert tile.TileType.isinstance(ir.Type.parse("!tile.tile<f32>"))
        assert not tile.TileType.isinstance(f16)


@pytest.mark.parametrize(
    ("shape", "element", "order"),
    [([0, 4], ir.F32Type.get, []), ([4], ir.IndexType.get, []), ([4, 4], ir.F32Type.get, [0, 0])],
)
def test_invalid_tile_type(
    shape: list[int], element: Callable[[], ir.Type], order: list[int]
) -> None:
    with new_context() as context, ir.Location.unknown():
        context.emit_error_diagnostics = False
        with pytest.raises((ValueError, ir.MLIRError)):
            tile.TileType.get(shape, element(), order=order)


def test_build_every_op() -> None:
    with new_context(), ir.Location.unknown():
        f16, f32 = ir.F16Type.get(), ir.F32Type.get()
        i1, i8, i32 = (ir.IntegerType.get_signless(width) for width in (1, 8, 32))
        index = ir.IndexType.get()
        a = tile.TileType.get([64, 32], f16)
        b = tile.TileType.get([32, 64], f16)
        acc = tile.TileType.get([64, 64], f32)
        qa, qb, qacc = (
            tile.TileType.get([32, 32], i8),
            tile.TileType.get([32, 32], i8),
            tile.TileType.get([32, 32], i32),
        )
        vec = tile.TileType.get([64], f32)
        ivec = tile.TileType.get([64], i32)
        with kernel([a, b, acc, qa, qb, qacc, f32, index]) as (module, args):
            ta, tb, tacc, tqa, tqb, tqacc, scalar, position = args
            product = tile.matmul(ta, tb, tacc)
            tile.matmul(tqa, tqb, tqacc)

            x = tile.splat(vec, scalar)
            sum_ = tile.binary(tile.BinaryKind.AddF, x, x)
            negated = tile.unary(tile.UnaryKind.NegF, sum_)
            fused = tile.fma(x, sum_, negated)
            exp = tile.sfu(tile.SpecialFunction.Exp, fused)
            offsets = tile.iota(ivec, 0)
            small = tile.cmpi(tile.CmpIPredicate.SLT, offsets, offsets)
            nan = tile.cmpf(tile.CmpFPredicate.UNO, exp, exp)
            assert tile.TileType(nan.type).element_type == i1
            chosen = tile.select(small, exp, x)
            half = tile.cast(
                tile.TileType.get([64], f16),
                tile.CastKind.TruncF,
                chosen,
                rounding=tile.RoundingMode.RTNE,
            )
            tile.cast(vec, tile.CastKind.ExtF, half)
            ones = ir.DenseElementsAttr.get_splat(
                ir.RankedTensorType.get([64], f32), ir.FloatAttr.get(f32, 1.0)
            )
            constant = tile.constant(vec, ones)
            tile.extract(constant, [position])

            row_sums = tile.reduce(vec, tile.CombineKind.AddF, product, 1)
            argmax = tile.arg_reduce(ivec, tile.ArgReduceKind.ArgMax, product, 1)
            column = tile.reshape(tile.TileType.get([64, 1], i32), argmax)
            indices = tile.broadcast(tile.TileType.get([64, 64], i32), column)
            reduced = tile.ReduceRegionOp([vec, ivec], [product, indices], 1)
            combiner = reduced.combiner.blocks.append(f32, i32, f32, i32)
            with ir.InsertionPoint(combiner):
                value, position, new_value, new_position = combiner.arguments
                greater = arith.cmpf(arith.CmpFPredicate.OGT, new_value, value)
                tile.yield_(
                    [
                        arith.select(greater, new_value, value),
                        arith.select(greater, new_position, position),
                    ]
                )
            scan = tile.ScanOp([vec], [row_sums], 0, reverse=True)
            scanner = scan.combiner.blocks.append(f32, f32)
            with ir.InsertionPoint(scanner):
                tile.yield_([arith.addf(scanner.arguments[0], scanner.arguments[1])])
            tile.cross_pe_reduce(tile.CombineKind.MaxNumF, row_sums, tile.PEGroup.Grid)
            tile.histogram(tile.TileType.get([8], i32), offsets, mask=small)
            tile.unary(tile.UnaryKind.Sqrt, exp)

            tile.copy(ta)
            transposed = tile.transpose(tile.TileType.get([32, 64], f16), ta, [1, 0])
            tile.convert_layout(tile.TileType.get([32, 64], f16, order=[0, 1]), transposed)
            left = tile.slice(tile.TileType.get([64, 16], f16), ta, [0, 0])
            right = tile.slice(tile.TileType.get([64, 16], f16), ta, [0, 16])
            tile.concat(a, [left, right], 1)
            rows = tile.splat(tile.TileType.get([16, 32], i32), arith.constant(i32, 3))
            tile.gather(tile.TileType.get([16, 32], f16), ta, rows, 0)
            tile.print_(" sums: ", row_sums, hex=True)
            tile.assert_(small, "offsets must grow")
        assert module.operation.verify()
        text = str(module)
        names = (
            "matmul binary unary fma sfu cmpi cmpf select cast splat iota constant extract reduce "
            "reduce_region scan yield arg_reduce cross_pe_reduce transpose convert_layout reshape "
            "broadcast slice concat histogram gather copy print assert"
        )
        for name in names.split():
            assert f"tile.{name} " in text, name
        assert ir.Module.parse(text).operation.verify()


def test_verifier_rejects_python_built_op() -> None:
    with new_context() as context, ir.Location.unknown():
        context.emit_error_diagnostics = False
        f16 = ir.F16Type.get()
        a = tile.TileType.get([64, 32], f16)
        with kernel([a, a, tile.TileType.get([64, 32], ir.F32Type.get())]) as (module, args):
            tile.matmul(*args)
        with pytest.raises(ir.MLIRError, match=r"shapes must be \[B×\]M×K"):
            module.operation.verify()
