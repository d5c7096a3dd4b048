"""tile.extract and circular buffers consumed by the control core: the core
waits for the page, reads the element into a register (ldl) and pops."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from program_stage_support import emit, rng, run

from mtia_compiler.errors import CompilationError
from mtia_compiler.program import decode

ELEMENTS = """
#loc = loc("extract.py":1:1)
!page = !cb.cb<4x32x{T}{ORDER}, pages = 1>
module {{
  tt.func public @elements(%x: !tt.ptr<{T}> loc("x_ptr"(#loc)),
                           %out: !tt.ptr<{T}> loc("out_ptr"(#loc)),
                           %i: i32 loc("i"(#loc)), %j: i32 loc("j"(#loc))) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1 : i32
    %in = cb.alloc "x", dma_in -> core : !page
    cb.reserve_back %in, 1 : !page
    %t0 = dma.load %x[%c0] strides [%c32, %c1] into %in[0] : !tt.ptr<{T}>, !page
    cb.push_back %in, 1 : !page
    cb.wait_front %in, 1 : !page
    %tile = cb.read_front %in[0] : !page
    %fixed = tile.extract %tile[%c2, %c5] : !tile.tile<4x32x{T}{ORDER}>
    %row = arith.index_cast %i : i32 to index
    %column = arith.index_cast %j : i32 to index
    %moving = tile.extract %tile[%row, %column] : !tile.tile<4x32x{T}{ORDER}>
    %mixed = tile.extract %tile[%c1, %column] : !tile.tile<4x32x{T}{ORDER}>
    cb.pop_front %in, 1 : !page
    tt.store %out, %fixed : !tt.ptr<{T}>
    %p1 = tt.addptr %out, %one : !tt.ptr<{T}>, i32
    tt.store %p1, %moving : !tt.ptr<{T}>
    %two = arith.constant 2 : i32
    %p2 = tt.addptr %out, %two : !tt.ptr<{T}>, i32
    tt.store %p2, %mixed : !tt.ptr<{T}>
    tt.return
  }}
}}
"""

NUMPY_TYPES: dict[str, type[Any]] = {
    "f32": np.float32, "f16": np.float16, "f64": np.float64, "i8": np.int8, "i16": np.int16,
    "i32": np.int32, "i64": np.int64}


def elements_module(dtype: str, column_major: bool = False) -> str:
    return ELEMENTS.format(T=dtype, ORDER=", order = [0, 1]" if column_major else "")


@pytest.mark.parametrize("dtype", list(NUMPY_TYPES))
def test_extracted_elements_are_exact(dtype: str) -> None:
    numpy_type = NUMPY_TYPES[dtype]
    if dtype.startswith("f"):
        x = rng().standard_normal((4, 32)).astype(numpy_type)
    else:
        info = np.iinfo(numpy_type)
        x = rng().integers(info.min, info.max, (4, 32), dtype=numpy_type, endpoint=True)
    out = np.zeros(3, numpy_type)
    run(elements_module(dtype), [x, out, 3, 6])
    # Bit for bit: the register holds the element exactly.
    np.testing.assert_array_equal(out.view(f"u{out.itemsize}"),
                                  np.array([x[2, 5], x[3, 6], x[1, 6]]).view(f"u{out.itemsize}"))


def test_constant_indices_become_immediates_in_the_page_layout() -> None:
    """[2, 5] is element 69 of a row-major 4x32 page and element 22 of a
    column-major one; dynamic indices are computed in registers."""
    for column_major, fixed in ((False, 69), (True, 22)):
        body = decode(emit(elements_module("f32", column_major)))
        reads = [inst for inst in body["code"] if inst["op"] == "ldl"]
        assert len(reads) == 3
        assert reads[0]["i"] == fixed
        assert all(isinstance(read["i"], dict) for read in reads[1:])
        waits = [inst for inst in body["code"] if inst["op"] in ("cb.wait", "cb.pop")]
        assert [(inst["op"], inst["unit"]) for inst in waits] == [("cb.wait", "ctl"),
                                                                   ("cb.pop", "ctl")]


def test_a_column_major_page_reads_by_position() -> None:
    x = np.arange(128, dtype=np.float32).reshape(4, 32)
    out = np.zeros(3, np.float32)
    run(elements_module("f32", column_major=True), [x, out, 0, 7])
    # The DMA fills the column-major page from the row-major rows of x.
    assert out.tolist() == [x[2, 5], x[0, 7], x[1, 7]]


CONTROL = """
#loc = loc("control.py":1:1)
!page = !cb.cb<64xi32, pages = 1>
!scalar = !cb.cb<i32, pages = 1>
!flag = !cb.cb<i1, pages = 1>
module {
  tt.func public @control(%x: !tt.ptr<i32> loc("x_ptr"(#loc)),
                          %out: !tt.ptr<i32> loc("out_ptr"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %in = cb.alloc "x", dma_in -> reduce : !page
    %peak_buffer = cb.alloc "peak", reduce -> core : !scalar
    %flag_buffer = cb.alloc "flag", simd -> core : !flag
    cb.reserve_back %in, 1 : !page
    %t0 = dma.load %x[%c0] strides [%c1] into %in[0] : !tt.ptr<i32>, !page
    cb.push_back %in, 1 : !page
    cb.wait_front %in, 1 : !page
    %tile = cb.read_front %in[0] : !page
    cb.reserve_back %peak_buffer, 1 : !scalar
    %peak_tile = tile.reduce maxsi %tile axis = 0 : !tile.tile<64xi32> -> !tile.tile<i32>
    cb.write_back %peak_tile, %peak_buffer[0] : !scalar
    cb.push_back %peak_buffer, 1 : !scalar
    cb.pop_front %in, 1 : !page
    cb.wait_front %peak_buffer, 1 : !scalar
    %peak_page = cb.read_front %peak_buffer[0] : !scalar
    %peak = tile.extract %peak_page[] : !tile.tile<i32>
    cb.pop_front %peak_buffer, 1 : !scalar
    %total = scf.for %k = %zero to %peak step %one iter_args(%acc = %zero) -> (i32) : i32 {
      %next = arith.addi %acc, %k : i32
      scf.yield %next : i32
    }
    tt.store %out, %total : !tt.ptr<i32>
    %halvings:2 = scf.while (%v = %peak, %n = %zero) : (i32, i32) -> (i32, i32) {
      cb.reserve_back %flag_buffer, 1 : !flag
      %splat = tile.splat %v : !tile.tile<i32>
      %limit = tile.splat %one : !tile.tile<i32>
      %more = tile.cmpi sgt %splat, %limit : !tile.tile<i32>
      cb.write_back %more, %flag_buffer[0] : !flag
      cb.push_back %flag_buffer, 1 : !flag
      cb.wait_front %flag_buffer, 1 : !flag
      %more_page = cb.read_front %flag_buffer[0] : !flag
      %go = tile.extract %more_page[] : !tile.tile<i1>
      cb.pop_front %flag_buffer, 1 : !flag
      scf.condition(%go) %v, %n : i32, i32
    } do {
    ^bb0(%v: i32, %n: i32):
      %half = arith.divsi %v, %two : i32
      %count = arith.addi %n, %one : i32
      scf.yield %half, %count : i32, i32
    }
    %p1 = tt.addptr %out, %one : !tt.ptr<i32>, i32
    tt.store %p1, %halvings#1 : !tt.ptr<i32>
    %element = tt.addptr %x, %peak : !tt.ptr<i32>, i32
    %at_peak = tt.load %element : !tt.ptr<i32>
    %p2 = tt.addptr %out, %two : !tt.ptr<i32>, i32
    tt.store %p2, %at_peak : !tt.ptr<i32>
    tt.return
  }
}
"""


def test_a_reduction_result_drives_loops_and_addresses() -> None:
    """The maximum of a tile (on the RE) bounds an scf.for, a SIMD compare
    read back every iteration decides an scf.while, and the maximum offsets
    a scalar load."""
    x = rng().integers(0, 40, 64).astype(np.int32)
    out = np.full(3, -1, np.int32)
    run(CONTROL, [x, out])
    peak = int(x.max())
    halvings = 0
    value = peak
    while value > 1:
        value //= 2
        halvings += 1
    assert out.tolist() == [peak * (peak - 1) // 2, halvings, int(x[peak])]


CORE_PRODUCER = """
module {
  tt.func public @kernel() {
    %b = cb.alloc "from_core", core -> simd : !cb.cb<8xf32, pages = 1> loc("producer.py":3:5)
    tt.return
  }
}
"""


def test_a_buffer_the_core_would_fill_is_refused() -> None:
    with pytest.raises(CompilationError, match=r"^producer.py:3:5: error: circular buffer "
                                               r"\"from_core\" has the control core as its "
                                               r"producer, but the control core never writes "
                                               r"local memory"):
        emit(CORE_PRODUCER)


CARRIED = """
!scalar = !cb.cb<f32, pages = 1>
module {
  tt.func public @kernel(%n: i32) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %half = arith.constant 0.5 : f32
    %b = cb.alloc "to_core", simd -> core : !scalar
    cb.reserve_back %b, 1 : !scalar
    %t = tile.splat %half : !tile.tile<f32>
    cb.write_back %t, %b[0] : !scalar
    cb.push_back %b, 1 : !scalar
    cb.wait_front %b, 1 : !scalar
    %page = cb.read_front %b[0] : !scalar
    %kept = scf.for %i = %zero to %n step %one iter_args(%acc = %page) -> (!tile.tile<f32>) : i32 {
      scf.yield %acc : !tile.tile<f32>
    } loc("carried.py":9:3)
    %v = tile.extract %kept[] : !tile.tile<f32>
    cb.pop_front %b, 1 : !scalar
    tt.return
  }
}
"""


def test_a_tile_the_core_would_carry_is_refused() -> None:
    with pytest.raises(CompilationError, match=r"^carried.py:9:3: error: the control core "
                                               r"holds tiles only in the pages"):
        emit(CARRIED)


def test_the_program_reads_with_ldl() -> None:
    body = decode(emit(CONTROL))
    ops = [inst["op"] for inst in body["code"]]
    assert ops.count("ldl") == 2
    assert sum(1 for inst in body["code"] if inst.get("unit") == "ctl") == 4
