"""`CompiledKernel.run` checks every argument against the `tt.func`
signature and names the parameter in each error: buffer types against the
pointee (raw bytes through an explicit uint8 view), integers against the
parameter's width, the grid's type; read-only arrays are accepted for the
buffers the kernel only reads, and a write into one is refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mtia_compiler
from mtia_compiler.program import ProgramBuilder
from mtia_compiler.sim import SimulationError, Simulator

BLOCK = 64

KERNEL = f"""
tt.func public @shift(%x: !tt.ptr<f32> loc("x"), %out: !tt.ptr<f32> loc("out"),
                      %n: i32 loc("n"), %k: i64 loc("k")) {{
  %c = arith.constant {BLOCK} : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c : i32
  %range = tt.make_range {{end = {BLOCK} : i32, start = 0 : i32}} : tensor<{BLOCK}xi32>
  %starts = tt.splat %start : i32 -> tensor<{BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<{BLOCK}xi32>
  %ns = tt.splat %n : i32 -> tensor<{BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<{BLOCK}xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<{BLOCK}x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offsets : tensor<{BLOCK}x!tt.ptr<f32>>, tensor<{BLOCK}xi32>
  %v = tt.load %xp, %mask : tensor<{BLOCK}x!tt.ptr<f32>>
  %kf = arith.uitofp %k : i64 to f32
  %ks = tt.splat %kf : f32 -> tensor<{BLOCK}xf32>
  %r = arith.addf %v, %ks : tensor<{BLOCK}xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<{BLOCK}x!tt.ptr<f32>>
  %op = tt.addptr %os, %offsets : tensor<{BLOCK}x!tt.ptr<f32>>, tensor<{BLOCK}xi32>
  tt.store %op, %r, %mask : tensor<{BLOCK}x!tt.ptr<f32>>
  tt.return
}}
"""

N = 3 * BLOCK - 5


@pytest.fixture(scope="module")
def kernel() -> Any:
    return mtia_compiler.compile(KERNEL)


def inputs() -> tuple[np.ndarray, np.ndarray]:
    x = np.arange(N, dtype=np.float32) - 40
    return x, np.zeros(N, np.float32)


def test_parameters_record_their_elements(kernel: Any) -> None:
    assert [(p.name, p.kind, p.bits, p.element) for p in kernel.parameters] == [
        ("x", "pointer", 64, "f32"), ("out", "pointer", 64, "f32"),
        ("n", "int", 32, ""), ("k", "int", 64, "")]


def test_matching_arguments_run(kernel: Any) -> None:
    x, out = inputs()
    kernel.run(x, out, N, 3, grid=3)
    np.testing.assert_array_equal(out, x + 3)


def test_buffer_of_another_type_is_refused(kernel: Any) -> None:
    x, out = inputs()
    with pytest.raises(TypeError, match=r"'out' points to f32: a float64 array"):
        kernel.run(x, out.astype(np.float64), N, 3, grid=3)
    with pytest.raises(TypeError, match=r"'x' points to f32: a float16 array"):
        kernel.run(x.astype(np.float16), out, N, 3, grid=3)
    with pytest.raises(TypeError, match=r"'x' points to f32: a int64 array"):
        kernel.run(x.astype(np.int64), out, N, 3, grid=3)


def test_bits_of_the_element_width_are_accepted(kernel: Any) -> None:
    x, out = inputs()
    bits = np.zeros(N, np.uint32)
    kernel.run(x.view(np.int32), bits, N, 3, grid=3)
    np.testing.assert_array_equal(bits.view(np.float32), x + 3)


def test_raw_bytes_through_an_explicit_view(kernel: Any) -> None:
    x, _ = inputs()
    raw = np.zeros(N * 4, np.uint8)
    kernel.run(x.view(np.uint8), raw, N, 1, grid=3)
    np.testing.assert_array_equal(raw.view(np.float32), x + 1)


@pytest.mark.parametrize(("n", "k", "error", "message"), [
    (1 << 32, 0, OverflowError, r"'n' is an i32: 4294967296 does not fit"),
    (-(1 << 31) - 1, 0, OverflowError, r"'n' is an i32"),
    (N, 1 << 64, OverflowError, r"'k' is an i64"),
    (N, -(1 << 63) - 1, OverflowError, r"'k' is an i64"),
    (float(N), 0, TypeError, r"'n' takes an int, got float"),
    ("12", 0, TypeError, r"'n' takes an int, got str"),
    (N, 1.5, TypeError, r"'k' takes an int, got float"),
])
def test_scalars_out_of_their_type_are_refused(kernel: Any, n: Any, k: Any,
                                               error: type[Exception], message: str) -> None:
    x, out = inputs()
    with pytest.raises(error, match=message):
        kernel.run(x, out, n, k, grid=3)
    assert not out.any()


def test_unsigned_values_of_the_width_are_accepted(kernel: Any) -> None:
    # Triton passes u64 values of 2**63 and more as i64 parameters.
    x, out = inputs()
    kernel.run(x, out, N, (1 << 64) - 1, grid=3)
    np.testing.assert_array_equal(out, x + np.float32(2.0**64))


@pytest.mark.parametrize("grid", ["12", 3.0, (3.0,), (1, "2"), b"\x03", True, None])
def test_grid_must_be_ints(kernel: Any, grid: Any) -> None:
    x, out = inputs()
    with pytest.raises(TypeError, match="grid must be an int or a tuple of 1 to 3 ints"):
        kernel.run(x, out, N, 3, grid=grid)
    assert not out.any()


@pytest.mark.parametrize("grid", [(), (1, 1, 1, 1)])
def test_grid_has_1_to_3_dimensions(kernel: Any, grid: Any) -> None:
    x, out = inputs()
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        kernel.run(x, out, N, 3, grid=grid)


def test_grid_of_numpy_ints(kernel: Any) -> None:
    x, out = inputs()
    kernel.run(x, out, N, 3, grid=(np.int64(3), 1))
    np.testing.assert_array_equal(out, x + 3)


def test_read_only_input_is_accepted(kernel: Any) -> None:
    x, out = inputs()
    x.flags.writeable = False
    kernel.run(x, out, N, 2, grid=3)
    np.testing.assert_array_equal(out, x + 2)


def test_write_into_a_read_only_buffer_is_refused(kernel: Any) -> None:
    x, out = inputs()
    out.flags.writeable = False
    with pytest.raises(SimulationError) as info:
        kernel.run(x, out, N, 2, grid=3)
    assert info.value.kind == "read_only"
    assert "read-only buffer 'out'" in str(info.value)
    assert info.value.location, str(info.value)
    assert not out.any()


@pytest.mark.parametrize(("dtype", "element", "fits"), [
    (np.uint16, "bf16", True), (np.float16, "bf16", False), (np.int8, "f8E4M3FN", True),
    (np.float32, "f8E5M2", False), (np.bool_, "i1", True), (np.int32, "i1", False),
    (np.bool_, "i8", True), (np.int64, "!tt.ptr<f32>", True), (np.float64, "!tt.ptr<f32>", False),
    (np.uint8, "f64", True), (np.float64, "f64", True), (np.float32, "f64", False),
    (np.uint64, "i64", True), (np.int16, "i32", False),
])
def test_buffer_types_per_element(dtype: Any, element: str, fits: bool) -> None:
    from mtia_compiler.compiler import _buffer_fits

    assert _buffer_fits(np.dtype(dtype), element) is fits


@pytest.mark.parametrize(("value", "stored"), [((1 << 64) - 1, -1), (-(1 << 63), -(1 << 63)),
                                               (True, 1), (np.uint64((1 << 64) - 1), -1)])
def test_simulator_takes_64_bit_patterns(value: Any, stored: int) -> None:
    b = ProgramBuilder("store_n")
    out = b.param_ptr("out", "i64")
    n = b.param_int("n")
    b.store_scalar(b.param(out), b.param(n), "i64")
    host = np.zeros(1, np.int64)
    Simulator().run(b.build(), [host, value])
    assert host[0] == stored


@pytest.mark.parametrize("value", [1 << 64, -(1 << 63) - 1])
def test_simulator_refuses_ints_beyond_64_bits(value: int) -> None:
    b = ProgramBuilder("store_n")
    b.param_int("n")
    with pytest.raises(SimulationError, match="parameter 'n'.*does not fit 64 bits"):
        Simulator().run(b.build(), [value])


def test_a_pointer_into_a_buffer(kernel: Any) -> None:
    """`Pointer(buffer, offset)`: the kernel's pointer is `offset` bytes into
    the buffer, and reaches the buffer's bytes on both sides of it."""
    from mtia_compiler.sim import Pointer

    x, out = inputs()
    whole = np.zeros(N + 16, np.float32)
    kernel.run(x, Pointer(whole, 16 * 4), N, 2, grid=3)
    np.testing.assert_array_equal(whole[16:], x + 2)
    assert not whole[:16].any()
    with pytest.raises(SimulationError, match=r"the pointer of parameter 'out' points 4 bytes "
                                              r"into a buffer of 0 bytes") as caught:
        kernel.run(x, Pointer(np.zeros(0, np.float32), 4), N, 2, grid=3)
    assert caught.value.kind == "invalid_launch"
    with pytest.raises(TypeError, match="parameter 'out' points to f32: a float64 array"):
        kernel.run(x, Pointer(np.zeros(N, np.float64), 0), N, 2, grid=3)
