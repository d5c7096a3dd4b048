"""Elementwise kernels: DMA with bounds and masks into CBs, SIMD between."""

from __future__ import annotations

import numpy as np
from program_stage_support import emit, rng, run

from mtia_compiler.program import decode

VECTOR_ADD = """
#loc = loc("vadd.py":1:1)
!page = !cb.cb<256xf32, pages = 2>
module {
  tt.func public @vadd(%x: !tt.ptr<f32> loc("x_ptr"(#loc)), %y: !tt.ptr<f32> loc("y_ptr"(#loc)),
                       %out: !tt.ptr<f32> loc("out_ptr"(#loc)), %n: i32 loc("n"(#loc))) {
    %c1 = arith.constant 1 : index
    %block = arith.constant 256 : i32
    %zero = arith.constant 0.0 : f32
    %xs = cb.alloc "x", dma_in -> simd : !page
    %ys = cb.alloc "y", dma_in -> simd : !page
    %os = cb.alloc "out", simd -> dma_out : !page
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %block : i32
    %left = arith.subi %n, %start : i32
    %offset = arith.index_cast %start : i32 to index
    %bound = arith.index_cast %left : i32 to index
    cb.reserve_back %xs, 1 : !page
    %t0 = dma.load %x[%offset] strides [%c1] bounds [%bound] padding %zero
        into %xs[0] : !tt.ptr<f32>, !page
    cb.push_back %xs, 1 : !page
    cb.reserve_back %ys, 1 : !page
    %t1 = dma.load %y[%offset] strides [%c1] bounds [%bound] padding %zero
        into %ys[0] : !tt.ptr<f32>, !page
    cb.push_back %ys, 1 : !page
    cb.wait_front %xs, 1 : !page
    cb.wait_front %ys, 1 : !page
    %a = cb.read_front %xs[0] : !page
    %b = cb.read_front %ys[0] : !page
    cb.reserve_back %os, 1 : !page
    %sum = tile.binary addf %a, %b : !tile.tile<256xf32> loc("vadd.py":7:11)
    cb.write_back %sum, %os[0] : !page
    cb.push_back %os, 1 : !page
    cb.pop_front %xs, 1 : !page
    cb.pop_front %ys, 1 : !page
    cb.wait_front %os, 1 : !page
    %t2 = dma.store %os[0] to %out[%offset] strides [%c1] bounds [%bound] : !page, !tt.ptr<f32>
    cb.pop_front %os, 1 : !page
    tt.return
  }
}
"""


def test_vector_add_with_bounds_over_a_grid() -> None:
    generator = rng()
    n = 1000
    x = generator.standard_normal(n).astype(np.float32)
    y = generator.standard_normal(n).astype(np.float32)
    out = np.full(n + 24, 7.0, dtype=np.float32)
    run(VECTOR_ADD, [x, y, out, n], grid=(4,))
    np.testing.assert_array_equal(out[:n], x + y)
    np.testing.assert_array_equal(out[n:], 7.0)


#: `out = x * scale + 1.0`, then `out = where(out > 0, out, splat)`:
#: the splat of `scale` and the constants are scalar inputs of the SIMD
#: instructions; the splat stored as the second output needs storage.
SCALE_SHIFT = """
#loc = loc("scale.py":1:1)
!page = !cb.cb<256xf32, pages = 2>
!tile = !tile.tile<256xf32>
module {
  tt.func public @scale_shift(%x: !tt.ptr<f32> loc("x_ptr"(#loc)),
                              %out: !tt.ptr<f32> loc("out_ptr"(#loc)),
                              %filled: !tt.ptr<f32> loc("filled_ptr"(#loc)),
                              %scale: f32 loc("scale"(#loc))) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %xs = cb.alloc "x", dma_in -> simd : !page
    %os = cb.alloc "out", simd -> dma_out : !page
    %fs = cb.alloc "filled", simd -> dma_out : !page
    %one = tile.constant dense<1.0> : tensor<256xf32> : !tile
    %zero = tile.constant dense<0.0> : tensor<256xf32> : !tile
    %scales = tile.splat %scale : !tile
    cb.reserve_back %xs, 1 : !page
    %t0 = dma.load %x[%c0] strides [%c1] into %xs[0] : !tt.ptr<f32>, !page
    cb.push_back %xs, 1 : !page
    cb.wait_front %xs, 1 : !page
    %a = cb.read_front %xs[0] : !page
    %scaled = tile.binary mulf %a, %scales : !tile
    %shifted = tile.binary addf %scaled, %one : !tile
    %positive = tile.cmpf ogt %shifted, %zero : !tile
    %kept = tile.select %positive, %shifted, %scales : !tile
    cb.pop_front %xs, 1 : !page
    cb.reserve_back %os, 1 : !page
    cb.write_back %kept, %os[0] : !page
    cb.push_back %os, 1 : !page
    cb.wait_front %os, 1 : !page
    %t1 = dma.store %os[0] to %out[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %os, 1 : !page
    %fill = tile.splat %scale : !tile
    cb.reserve_back %fs, 1 : !page
    cb.write_back %fill, %fs[0] : !page
    cb.push_back %fs, 1 : !page
    cb.wait_front %fs, 1 : !page
    %t2 = dma.store %fs[0] to %filled[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %fs, 1 : !page
    tt.return
  }
}
"""


def test_splats_are_scalar_inputs_of_simd_instructions() -> None:
    program = decode(emit(SCALE_SHIFT))
    fills = [inst for inst in program["code"] if inst["op"] == "simd.fill"]
    assert len(fills) == 1, "only the stored splat is filled"
    (scratch,) = [cb for cb in program["cbs"] if cb["name"].startswith("scratch")]
    # The shifted tile is computed over the product (in place), next to the
    # mask: 1280 bytes; the three splats would add another 3 KiB.
    assert scratch["page_bytes"] == 1280
    x = rng().standard_normal(256).astype(np.float32)
    out = np.zeros(256, np.float32)
    filled = np.zeros(256, np.float32)
    scale = -0.75
    run(SCALE_SHIFT, [x, out, filled, scale])
    shifted = x * np.float32(scale) + np.float32(1.0)
    np.testing.assert_array_equal(out, np.where(shifted > 0, shifted, np.float32(scale)))
    np.testing.assert_array_equal(filled, np.float32(scale))


#: `out = (x * 2 + 1) * (x * 2 + 1) - x`: a chain of elementwise ops.
CHAIN = """
!page = !cb.cb<1024xf32, pages = 2>
!tile = !tile.tile<1024xf32>
module {
  tt.func public @chain(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %xs = cb.alloc "x", dma_in -> simd : !page
    %os = cb.alloc "out", simd -> dma_out : !page
    cb.reserve_back %xs, 1 : !page
    %t0 = dma.load %x[%c0] strides [%c1] into %xs[0] : !tt.ptr<f32>, !page
    cb.push_back %xs, 1 : !page
    cb.wait_front %xs, 1 : !page
    %a = cb.read_front %xs[0] : !page
    %twos = tile.splat %two : !tile
    %ones = tile.splat %one : !tile
    %doubled = tile.binary mulf %a, %twos : !tile
    %shifted = tile.binary addf %doubled, %ones : !tile
    %squared = tile.binary mulf %shifted, %shifted : !tile
    cb.reserve_back %os, 1 : !page
    %result = tile.binary subf %squared, %a : !tile
    cb.write_back %result, %os[0] : !page
    cb.push_back %os, 1 : !page
    cb.pop_front %xs, 1 : !page
    cb.wait_front %os, 1 : !page
    %t1 = dma.store %os[0] to %out[%c0] strides [%c1] : !page, !tt.ptr<f32>
    cb.pop_front %os, 1 : !page
    tt.return
  }
}
"""


def test_elementwise_chains_compute_in_place() -> None:
    program = decode(emit(CHAIN))
    (scratch,) = [cb for cb in program["cbs"] if cb["name"].startswith("scratch")]
    # Each of the three intermediate tiles dies where the next is computed:
    # they share one 4 KiB range.
    assert scratch["page_bytes"] == 4096
    x = rng().standard_normal(1024).astype(np.float32)
    out = np.zeros(1024, np.float32)
    run(CHAIN, [x, out])
    shifted = x * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(out, shifted * shifted - x)
