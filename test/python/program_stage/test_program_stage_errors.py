"""What the program stage refuses, with the source location of the op."""

from __future__ import annotations

import pytest
from program_stage_support import emit

from mtia_compiler.errors import CompilationError

UNSUPPORTED = """
#site = loc("kernel.py":12:9)
module {
  tt.func public @kernel(%n: i32) {
    %c7 = arith.constant 7 : i32
    %q = arith.ceildivsi %n, %c7 : i32 loc(callsite("q"(#site) at "caller.py":3:4))
    tt.return
  }
}
"""


def test_an_unsupported_op_is_located_at_its_source() -> None:
    with pytest.raises(CompilationError) as failure:
        emit(UNSUPPORTED)
    message = str(failure.value)
    assert message.startswith("kernel.py:12:9: error: ")
    assert "arith.ceildivsi" in message


OVERSUBSCRIBED = """
module {
  tt.func public @kernel(%x: !tt.ptr<f32>) {
    %a = cb.alloc "huge_a", dma_in -> simd : !cb.cb<32768xf32, pages = 2>
    %b = cb.alloc "huge_b", simd -> dma_out : !cb.cb<32768xf32, pages = 2>
    tt.return
  } loc("big.py":4:1)
}
"""


def test_a_plan_beyond_local_memory_names_the_buffers() -> None:
    with pytest.raises(CompilationError) as failure:
        emit(OVERSUBSCRIBED)
    message = str(failure.value)
    assert message.startswith("big.py:4:1: error: the local-memory plan needs 524288 bytes")
    assert "'huge_a' 262144 B" in message and "'huge_b' 262144 B" in message


PEAK = """
#a = loc("peak.py":3:5)
#b = loc("peak.py":4:5)
module {
  tt.func public @kernel() {
    %a = tile.iota 0 : !tile.tile<65536xi32> loc("a"(#a))
    %b = tile.iota 0 : !tile.tile<65536xi32> loc("b"(#b))
    %sum = tile.binary addi %a, %b : !tile.tile<65536xi32> loc("peak.py":5:9)
    %twice = tile.binary addi %sum, %sum : !tile.tile<65536xi32> loc("peak.py":6:9)
    tt.return
  } loc("peak.py":1:1)
}
"""


def test_a_plan_beyond_local_memory_names_the_tiles_live_at_the_peak() -> None:
    # `a` and `b` (256 KiB each) are live together; the sums reuse their
    # ranges in place, so the peak of the SIMD scratch is a and b alone.
    with pytest.raises(CompilationError) as failure:
        emit(PEAK)
    message = str(failure.value)
    assert message.startswith("peak.py:1:1: error: the local-memory plan needs 524288 bytes")
    assert message.endswith("at its peak, the simd scratch holds "
                            "tile a (262144 bytes) at peak.py:3:5, "
                            "tile b (262144 bytes) at peak.py:4:5"), message


CROSSING = """
module {
  tt.func public @kernel() {
    %t = tile.iota 0 : !tile.tile<64xi32>
    %r = tile.reshape %t : !tile.tile<64xi32> -> !tile.tile<8x8xi32> loc("cross.py":7:3)
    tt.return
  }
}
"""


def test_a_tile_crossing_units_without_a_buffer_is_located_at_the_consumer() -> None:
    with pytest.raises(CompilationError, match=r"^cross.py:7:3: error: 'tile.reshape' runs "
                                               r"on mlu but reads a tile held by simd"):
        emit(CROSSING)


EXTRACT = """
module {
  tt.func public @kernel() {
    %c0 = arith.constant 0 : index
    %t = tile.iota 0 : !tile.tile<8xi32>
    %e = tile.extract %t[%c0] : !tile.tile<8xi32> loc("extract.py":2:8)
    tt.return
  }
}
"""


def test_the_control_core_reads_only_tiles_passed_to_it_in_a_buffer() -> None:
    with pytest.raises(CompilationError, match=r"^extract.py:2:8: error: 'tile.extract' runs "
                                               r"on ctl but reads a tile held by simd"):
        emit(EXTRACT)


UNEXPANDED_SCAN = """
!page = !cb.cb<64xi32, pages = 1>
module {
  tt.func public @kernel(%x: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in = cb.alloc "x", dma_in -> reduce : !page
    cb.reserve_back %in, 1 : !page
    %t0 = dma.load %x[%c0] strides [%c1] into %in[0] : !tt.ptr<i32>, !page
    cb.push_back %in, 1 : !page
    cb.wait_front %in, 1 : !page
    %tile = cb.read_front %in[0] : !page
    %s = tile.scan %tile axis = 0 : (!tile.tile<64xi32>) -> !tile.tile<64xi32> {
    ^bb0(%a: i32, %b: i32):
      %d = arith.subi %a, %b : i32
      tile.yield %d : i32
    } loc("scan.py":5:3)
    cb.pop_front %in, 1 : !page
    tt.return
  }
}
"""


def test_a_scan_without_a_combine_kind_is_located_at_the_scan() -> None:
    with pytest.raises(CompilationError, match=r"^scan.py:5:3: error: a 'tile.scan' without a "
                       "combine kind"):
        emit(UNEXPANDED_SCAN)


UNSUPPORTED_WITHOUT_LOCATION = """
module {
  tt.func public @kernel(%n: i32, %out: !tt.ptr<i32>) {
    %c7 = arith.constant 7 : i32
    %q = arith.ceildivsi %n, %c7 : i32 loc(unknown)
    tt.store %out, %q : !tt.ptr<i32> loc("user.py":8:5)
    tt.return
  } loc("kernel.py":2:1)
}
"""


@pytest.mark.parametrize("user", [True, False])
def test_an_op_without_a_location_is_located_at_its_user_or_its_function(user: bool) -> None:
    """An op a pass made without a source location is located at the first
    of its users that has one, else at the function it is in."""
    source = UNSUPPORTED_WITHOUT_LOCATION if user else \
        UNSUPPORTED_WITHOUT_LOCATION.replace('loc("user.py":8:5)', "loc(unknown)")
    with pytest.raises(CompilationError) as failure:
        emit(source)
    expected = "user.py:8:5" if user else "kernel.py:2:1"
    assert str(failure.value).startswith(f"{expected}: error: ")
    assert "arith.ceildivsi" in str(failure.value)
