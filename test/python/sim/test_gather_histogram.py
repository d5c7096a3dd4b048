"""Local gathers (mlu.gather, for tt.gather) and histograms (re.histogram, for
tt.histogram) against numpy, with the gathers' out-of-range errors and the
histograms' ignored values outside the bins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import run_tile

from mtia_compiler.program import ProgramBuilder, Slot, Unit
from mtia_compiler.sim import SimulationError, parse_program


def gather(src: np.ndarray, src_dtype: str, index: np.ndarray, index_dtype: str,
           axis: int) -> np.ndarray:
    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.mlu_gather(out, ins[0], ins[1], src.itemsize, index.shape, src.shape, axis,
                     index_dtype)

    flat = run_tile([(src.reshape(-1), src_dtype), (index.reshape(-1), index_dtype)],
                    src_dtype, src.dtype.type, index.size, emit, Unit.MLU)
    return flat.reshape(index.shape)


@pytest.mark.parametrize(("src_shape", "index_shape", "axis"), [
    ((6, 10), (6, 7), 1), ((6, 10), (9, 10), 0), ((3, 4, 5), (3, 8, 5), 1), ((50,), (70,), 0),
])
@pytest.mark.parametrize(("src_dtype", "np_type", "index_dtype"), [
    ("f32", np.float32, "i32"), ("i64", np.int64, "i64"), ("f16", np.float16, "i32"),
    ("i8", np.int8, "i64"),
])
def test_gather_matches_take_along_axis(src_shape: tuple[int, ...], index_shape: tuple[int, ...],
                                        axis: int, src_dtype: str, np_type: type[Any],
                                        index_dtype: str, rng: np.random.Generator) -> None:
    src = rng.integers(-100, 100, src_shape).astype(np_type)
    index = rng.integers(0, src_shape[axis], index_shape).astype(
        np.int32 if index_dtype == "i32" else np.int64)
    got = gather(src, src_dtype, index, index_dtype, axis)
    np.testing.assert_array_equal(got, np.take_along_axis(src, index, axis))


@pytest.mark.parametrize("bad", [10, -1, 2**40])
def test_gather_index_out_of_range(bad: int) -> None:
    src = np.arange(60, dtype=np.float32).reshape(6, 10)
    index = np.zeros((6, 4), np.int64)
    index[4, 2] = bad
    with pytest.raises(SimulationError) as info:
        gather(src, "f32", index, "i64", 1)
    assert info.value.kind == "out_of_bounds"
    message = str(info.value)
    assert f"mlu.gather index {bad} at position (4, 2) is outside [0, 10) along axis 1" in message
    assert "mlu.gather" in message and "PE 0" in message


def test_gather_rejects_mismatched_shapes() -> None:
    b = ProgramBuilder("bad_gather")
    cb = b.cb("t", 1024, 1)
    b.mlu_gather(cb.back(), cb.back(), cb.back(), 4, [4, 5], [6, 6], 1)
    with pytest.raises(SimulationError) as info:
        parse_program(b)
    assert info.value.kind == "invalid_program"
    assert "must agree except along 'axis'" in str(info.value)


def histogram(values: np.ndarray, dtype: str, bins: int, mask: np.ndarray | None = None,
              signed: bool = True) -> np.ndarray:
    def emit(b: ProgramBuilder, out: Slot, ins: list[Slot]) -> None:
        b.histogram(dtype, ins[0], values.size, bins, out,
                    mask=ins[1] if mask is not None else None, signed=signed)

    inputs = [(values, dtype)] + ([(mask, "i1")] if mask is not None else [])
    return run_tile(inputs, "i32", np.int32, bins, emit, Unit.RE)


@pytest.mark.parametrize(("dtype", "np_type"), [("i32", np.int32), ("i8", np.int8),
                                                ("i64", np.int64), ("i16", np.int16)])
def test_histogram_matches_bincount(dtype: str, np_type: type[Any],
                                    rng: np.random.Generator) -> None:
    values = rng.integers(0, 50, 3000).astype(np_type)
    np.testing.assert_array_equal(histogram(values, dtype, 50), np.bincount(values, minlength=50))
    np.testing.assert_array_equal(histogram(values, dtype, 64), np.bincount(values, minlength=64))


def test_histogram_mask_skips_out_of_range_values(rng: np.random.Generator) -> None:
    values = rng.integers(-20, 40, 1000).astype(np.int32)
    mask = ((values >= 0) & (values < 33) & (rng.random(1000) < 0.7)).astype(np.uint8)
    got = histogram(values, "i32", 33, mask)
    np.testing.assert_array_equal(got, np.bincount(values[mask == 1], minlength=33))


def test_histogram_unsigned_interpretation(rng: np.random.Generator) -> None:
    values = rng.integers(0, 256, 500).astype(np.uint8)
    got = histogram(values.view(np.int8), "i8", 256, signed=False)
    np.testing.assert_array_equal(got, np.bincount(values, minlength=256))


@pytest.mark.parametrize("signed", [True, False])
def test_histogram_ignores_values_outside_the_bins(signed: bool, rng: np.random.Generator) -> None:
    # Triton's tl.histogram (and its interpreter) drops values outside
    # [0, bins); so does re.histogram, negative ones included (unsigned, they
    # are large).
    values = rng.integers(-40, 60, 2000).astype(np.int32)
    got = histogram(values, "i32", 33, signed=signed)
    unsigned = values.view(np.uint32)
    counted = values[(values >= 0) & (values < 33)] if signed else unsigned[unsigned < 33]
    expected = np.bincount(counted, minlength=33)
    assert expected.sum() < values.size
    np.testing.assert_array_equal(got, expected)
