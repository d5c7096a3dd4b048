"""The launcher follows Triton's launcher conventions (arguments with or
without constexprs, `data_ptr()` objects, validated grids and integers), its
records are right when nested and across threads, a budget can be set per
launch, benchmarks simulate each configuration once, and a damaged cached
program is refused with its file named."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
import torch
import triton

import mtia_compiler
from mtia_compiler.backend import last_launch, launches

from . import kernels
from .test_launch import KERNELS, line_of, run_python


def test_a_compiled_kernel_relaunches_with_or_without_its_constexprs() -> None:
    x = torch.arange(100, dtype=torch.float32)
    out = torch.zeros(100)
    compiled = kernels.offset_scale_kernel[(2,)](x, 3.0, out, 100, BLOCK=64)
    torch.testing.assert_close(out, x * 3)
    # FlagGems' libentry relaunches a CompiledKernel with the runtime
    # arguments only; Triton's own launchers take both forms.
    y, runtime_only, every_argument = torch.randn(70), torch.zeros(70), torch.zeros(70)
    compiled[(2, 1, 1)](y, runtime_only, 70)
    compiled[(2, 1, 1)](y, 3.0, every_argument, 70, 64)
    torch.testing.assert_close(runtime_only, y * 3)
    torch.testing.assert_close(every_argument, y * 3)
    with pytest.raises(TypeError, match=r"'offset_scale_kernel' takes 5 arguments .* or the 3 "
                                        r"that are not constexprs, got 2"):
        compiled[(1, 1, 1)](y, runtime_only)


def test_a_relaunch_passes_ints_that_were_specialised_into_constants() -> None:
    """FlagGems passes every argument not declared `tl.constexpr`, an int
    that Triton made a constant (equal to 1) included."""
    x, out = torch.arange(1.0, 9.0), torch.zeros(8)
    compiled = kernels.offset_scale_kernel[(1,)](x, 2.0, out, 1, BLOCK=8)
    assert compiled.src.signature["n"] == "constexpr"
    again = torch.zeros(8)
    compiled[(1, 1, 1)](x, again, 1)
    assert again.tolist() == [2.0] + [0.0] * 7
    with pytest.raises(ValueError, match=r"argument 'n' was 1 when the kernel compiled"):
        compiled[(1, 1, 1)](x, again, 5)


class StridedBuffer:
    """Like FlagGems' `StridedBuffer`: a view of a tensor that is no tensor,
    with `data_ptr()` at `offset` elements into it."""

    def __init__(self, base: torch.Tensor, offset: int = 0) -> None:
        self._base = base
        self.dtype = base.dtype
        self.offset = offset

    def data_ptr(self) -> int:
        return self._base.data_ptr() + self.offset * self._base.element_size()


def test_objects_with_data_ptr_are_pointers_into_the_tensor_they_hold() -> None:
    x = torch.arange(64, dtype=torch.float32)
    out = torch.zeros(64)
    kernels.add_kernel[(1,)](StridedBuffer(x, 16), StridedBuffer(x, 0), StridedBuffer(out),
                             48, BLOCK=64)
    torch.testing.assert_close(out[:48], x[16:] + x[:48])
    assert torch.all(out[48:] == 0)

    # A flip, as FlagGems writes it: the pointer at the last element, read
    # with a negative stride down to the first.
    flipped = torch.zeros(64)
    kernels.reversed_copy_kernel[(1,)](StridedBuffer(x, 63), -1, flipped, BLOCK=64)
    torch.testing.assert_close(flipped, x.flip(0))
    with pytest.raises(mtia_compiler.SimulationError) as caught:
        kernels.reversed_copy_kernel[(1,)](StridedBuffer(x, 62), -1, flipped, BLOCK=64)
    assert caught.value.kind == "out_of_bounds"

    # A torch view reaches its storage before its first element, as on a GPU.
    view_flipped = torch.zeros(8)
    kernels.reversed_copy_kernel[(1,)](x[7:], -1, view_flipped, BLOCK=8)
    torch.testing.assert_close(view_flipped, x[:8].flip(0))

    class Address:
        dtype = torch.float32

        def data_ptr(self) -> int:
            return x.data_ptr()

    with pytest.raises(TypeError, match=r"argument 'x_ptr' \(Address\) points to 0x[0-9a-f]+, "
                                        r"which lies in no torch tensor it holds"):
        kernels.add_kernel[(1,)](Address(), x, out, 48, BLOCK=64)


@pytest.mark.parametrize("grid", [(2.7,), (1, 1.0), (3, "1")])
def test_grids_that_are_not_ints_are_refused(grid: tuple[Any, ...]) -> None:
    x, out = torch.randn(256), torch.zeros(256)
    with pytest.raises(TypeError, match="'add_kernel': grid must be an int or a tuple"):
        kernels.add_kernel[grid](x, x, out, 256, BLOCK=64)
    assert torch.all(out == 0)
    compiled = mtia_compiler.compile(kernels.add_kernel.warmup(
        x, x, out, 256, BLOCK=64, grid=(1,)).asm["ttir"])
    with pytest.raises(TypeError, match="grid must be an int or a tuple"):
        compiled.run(x.numpy(), x.numpy(), out.numpy(), 256, grid=grid)


@pytest.mark.parametrize("grid", [(-1,), (1 << 64) + 1, (1, 1 << 63)])
def test_grids_out_of_range_are_refused(grid: Any) -> None:
    x, out = torch.randn(64), torch.zeros(64)
    with pytest.raises(ValueError, match=r"kernel 'add_kernel': the dimensions of grid .* must be"):
        kernels.add_kernel[grid if isinstance(grid, tuple) else (grid,)](x, x, out, 64, BLOCK=64)


@pytest.mark.parametrize("n", [-1, (1 << 32) - 1])
def test_an_i32_parameter_is_taken_as_the_kernel_sees_it(n: int) -> None:
    """2**32 - 1 given to an i32 is -1 wherever the kernel uses it (as on a
    GPU): the mask `offsets < n` holds nowhere, so nothing is written."""
    out = torch.zeros(16, dtype=torch.int32)
    compiled = kernels.count_kernel[(1,)](out, 5, BLOCK=16)
    assert out.tolist() == [5] * 5 + [0] * 11
    assert "n: i32" in compiled.asm["ttir"]
    untouched = torch.full((16,), 7, dtype=torch.int32)
    compiled[(1, 1, 1)](untouched, n)
    assert untouched.tolist() == [7] * 16


def test_budget_per_launch_from_an_option_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = torch.zeros(1, dtype=torch.int32)
    # The error is located in the endless loop: its `for` line or its body,
    # wherever the control core is when the budget runs out.
    first = line_of(kernels.spin_kernel, 'for _ in range')
    loop = re.compile(rf"{re.escape(str(KERNELS))}:({first}|{first + 1}):")
    with pytest.raises(mtia_compiler.SimulationError, match="cycles") as caught:
        kernels.spin_kernel[(1,)](out, 1 << 40, max_cycles=20_000)
    assert caught.value.kind == "timeout" and loop.search(str(caught.value))
    monkeypatch.setenv("MTIA_MAX_CYCLES", "30000")
    with pytest.raises(mtia_compiler.SimulationError) as caught:
        kernels.spin_kernel[(1,)](out, 1 << 40)
    assert caught.value.kind == "timeout" and loop.search(str(caught.value))
    # Within budget, the launch runs to its end.
    kernels.spin_kernel[(1,)](out, 10)
    assert out.item() == 2**10 - 1
    monkeypatch.setenv("MTIA_MAX_CYCLES", "many")
    with pytest.raises(ValueError, match="MTIA_MAX_CYCLES='many'"):
        kernels.spin_kernel[(1,)](out, 10)


def test_nested_recorders_each_collect_every_launch() -> None:
    x, out = torch.randn(64), torch.zeros(64)
    with launches() as outer:
        with launches() as inner:
            kernels.add_kernel[(1,)](x, x, out, 64, BLOCK=64)
        with launches() as empty:
            pass
        kernels.add_kernel[(1,)](x, x, out, 64, BLOCK=64)
    assert len(outer) == 2 and len(inner) == 1 and empty == []
    assert outer[0] is inner[0] and last_launch() is outer[1]


def test_threads_record_their_own_launches() -> None:
    x = torch.randn(256)
    errors: list[BaseException] = []
    counts: dict[int, list[tuple[int, int, int]]] = {}

    def launch_in_thread(index: int) -> None:
        try:
            out = torch.zeros(256)
            with launches() as records:
                for _ in range(3):
                    kernels.add_kernel[(index + 1,)](x, x, out, 256, BLOCK=64)
            assert last_launch() is records[-1]
            counts[index] = [record.grid for record in records]
        except BaseException as error:  # noqa: BLE001 (reported by the main thread)
            errors.append(error)

    threads = [threading.Thread(target=launch_in_thread, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert counts == {i: [(i + 1, 1, 1)] * 3 for i in range(8)}


def test_do_bench_launches_once_whatever_warmup_and_rep_say() -> None:
    x, y, out = torch.randn(4096), torch.randn(4096), torch.zeros(4096)

    def launch() -> None:
        kernels.add_kernel[(16,)](x, y, out, 4096, BLOCK=256)

    with launches() as records:
        launch()
    with launches() as benchmarked:
        milliseconds = triton.testing.do_bench(launch, warmup=25, rep=100)
        assert triton.testing.do_bench(launch, quantiles=[0.5, 0.2]) == \
            pytest.approx([milliseconds] * 2)
        assert triton.testing.do_bench(launch, return_mode="all") == pytest.approx([milliseconds])
    assert milliseconds == pytest.approx(records[0].seconds * 1e3)
    assert len(benchmarked) == 3
    torch.testing.assert_close(out, x + y)


def test_repeated_launches_are_simulated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A benchmark loop of its own (Triton's events read the simulated
    clock) simulates a configuration once, or twice when its first launch
    changes what it reads."""
    simulated: list[int] = []
    original = mtia_compiler.CompiledKernel.run

    def counting_run(self: Any, *args: Any, **kwargs: Any) -> Any:
        simulated.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(mtia_compiler.CompiledKernel, "run", counting_run)
    x, y, out = torch.randn(4096), torch.randn(4096), torch.zeros(4096)
    device = triton.runtime.driver.active.get_device_interface()
    start, end = device.Event(enable_timing=True), device.Event(enable_timing=True)
    start.record()
    for _ in range(1000):
        kernels.add_kernel[(16,)](x, y, out, 4096, BLOCK=256)
    end.record()
    assert len(simulated) == 2
    assert start.elapsed_time(end) == pytest.approx(1000 * last_launch().seconds * 1e3)  # type: ignore[union-attr]
    torch.testing.assert_close(out, x + y)


def test_a_replayed_launch_writes_what_the_simulation_wrote() -> None:
    """A launch is replayed only when its memory is as it was: an
    accumulation is simulated at every step, and a replay writes its
    outputs even when they were overwritten in between."""
    x = torch.arange(64, dtype=torch.float32)
    out = torch.zeros(64)
    with launches() as records:
        for _ in range(3):
            kernels.accumulate_kernel[(1,)](x, out, BLOCK=64)
    torch.testing.assert_close(out, 3 * x)
    assert len({id(record.result) for record in records}) == 3
    first, second = torch.zeros(64), torch.zeros(64)
    kernels.add_kernel[(1,)](x, x, first, 64, BLOCK=64)
    kernels.add_kernel[(1,)](x, x, second, 64, BLOCK=64)
    first.zero_()
    with launches() as records:
        kernels.add_kernel[(1,)](x, x, first, 64, BLOCK=64)
    torch.testing.assert_close(first, 2 * x)
    assert records[0].result is last_launch().result  # type: ignore[union-attr]


def test_importing_the_backend_before_triton(tmp_path: Path) -> None:
    result = run_python("""
        import mtia_compiler.backend
        import torch, triton
        from backend import kernels
        out = torch.zeros(16)
        kernels.add_kernel[(1,)](torch.ones(16), torch.ones(16), out, 16, BLOCK=16)
        print(int(out.sum()))
    """, tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "32\n", "")


DAMAGE_THE_CACHED_PROGRAM = """
    import pathlib, sys, torch, triton
    from backend import kernels
    x, out = torch.ones(16), torch.zeros(16)
    if sys.argv[1] == "compile":
        kernels.add_kernel[(1,)](x, x, out, 16, BLOCK=16)
    else:
        (program,) = pathlib.Path(sys.argv[2]).glob("*/add_kernel.bin")
        data = program.read_bytes()
        if sys.argv[1] == "truncate":
            data = data[:-40]
        else:
            # The SIMD engine's addition made a multiplication: still a program.
            data = data.replace(b'"fn":"add"', b'"fn":"mul"')
        program.write_bytes(data)
        try:
            kernels.add_kernel[(1,)](x, x, out, 16, BLOCK=16)
            print("ran", out.tolist())
        except Exception as error:
            print(type(error).__name__, error)
"""


@pytest.mark.parametrize("damage", ["truncate", "change"])
def test_a_damaged_cached_program_is_refused_naming_its_file(tmp_path: Path, damage: str) -> None:
    compiled = run_python(DAMAGE_THE_CACHED_PROGRAM, tmp_path, "compile")
    assert compiled.returncode == 0, compiled.stderr
    refused = run_python(DAMAGE_THE_CACHED_PROGRAM, tmp_path, damage, str(tmp_path))
    (program,) = tmp_path.glob("*/add_kernel.bin")
    assert refused.returncode == 0, refused.stderr
    assert refused.stdout.startswith("SimulationError the program of kernel 'add_kernel' "
                                     "cannot be loaded: ")
    assert ("truncated" if damage == "truncate" else "damaged") in refused.stdout
    assert f"it was read from Triton's cache, {program}" in refused.stdout


def test_a_launch_into_read_only_memory_is_never_replayed(tmp_path: Path) -> None:
    """The launch into the read-only copy finds memory that holds what the
    first launch's buffers held: it is simulated (a `read_only` fault), not
    replayed by writing into memory that cannot be written."""
    result = run_python("""
        import sys, warnings
        import numpy as np, torch
        from backend import kernels
        import mtia_compiler
        warnings.simplefilter("ignore")
        x = torch.arange(16, dtype=torch.float32)
        out = torch.arange(16, dtype=torch.float32)
        np.arange(16, dtype=np.float32).tofile(sys.argv[1])
        read_only = torch.from_numpy(np.memmap(sys.argv[1], dtype=np.float32, mode="r"))
        kernels.add_kernel[(1,)](x, x, out, 16, BLOCK=16)
        try:
            kernels.add_kernel[(1,)](x, x, read_only, 16, BLOCK=16)
        except mtia_compiler.SimulationError as error:
            print(error.kind)
    """, tmp_path, str(tmp_path / "read-only.bin"))
    assert (result.returncode, result.stdout) == (0, "read_only\n"), result.stderr
