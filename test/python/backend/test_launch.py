"""`@triton.jit` kernels launched through the MTIA backend with torch CPU tensors."""

from __future__ import annotations

import inspect
import math
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest
import torch
import triton
from triton.tools.tensor_descriptor import TensorDescriptor

import mtia_compiler
from mtia_compiler.backend import MTIADriver, do_bench, last_launch, launches

from . import kernels

KERNELS = Path(kernels.__file__)


def line_of(kernel: Any, text: str) -> int:
    """The line of `kernels.py` in the body of `kernel` (a JIT function,
    perhaps autotuned) that contains `text`."""
    while hasattr(kernel, "fn"):
        kernel = kernel.fn
    lines, first = inspect.getsourcelines(kernel)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_the_backend_is_the_active_driver() -> None:
    driver = triton.runtime.driver.active
    assert isinstance(driver, MTIADriver)
    assert driver.get_current_target().backend == "mtia"
    properties = driver.utils.get_device_properties(0)
    assert properties["max_shared_mem"] == 393216
    assert properties["multiprocessor_count"] == 64


@pytest.mark.parametrize("n", [1, 17, 1024, 3000])
def test_vector_add_specialised_sizes(n: int) -> None:
    # n == 1 is specialised as a constexpr and n == 1024 as divisible by 16.
    x, y, out = torch.randn(n), torch.randn(n), torch.full((n,), math.nan)
    with launches() as records:
        compiled = kernels.add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    assert [r.grid for r in records] == [(triton.cdiv(n, 256), 1, 1)]
    assert records[0].cycles > 0 and records[0].seconds > 0
    assert records[0].result.units["dma.in"]["busy_cycles"] > 0
    assert last_launch() is records[0]
    assert set(compiled.asm) >= {"ttir", "tile", "dma", "bin"}
    assert "tt.func public @add_kernel" in compiled.asm["ttir"]
    assert compiled.metadata.shared > 0 and compiled.n_regs > 0


def test_a_kernel_is_loaded_once_and_its_program_parsed_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton loads a kernel (and makes a new launcher) at every launch while
    its module is None: `load_binary` returns the program as the module."""
    utils = triton.runtime.driver.active.utils
    loads = []
    original = utils.load_binary

    def counting_load_binary(*args: Any) -> Any:
        loads.append(args[0])
        return original(*args)

    monkeypatch.setattr(utils, "load_binary", counting_load_binary)
    x, y = torch.randn(300), torch.randn(300)
    for _ in range(3):
        out = torch.zeros(300)
        compiled = kernels.add_kernel[(2,)](x, y, out, 300, BLOCK=256)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    # The kernel may be loaded already by an earlier test of the session.
    assert len(loads) <= 1
    assert compiled.run.kernel._program is not None


def test_constexpr_defaults_strided_views_and_float_arguments() -> None:
    base = torch.randn(40, 6)
    view = base[3:, 2]  # an offset, strided view of another tensor's storage
    out = torch.zeros(view.numel())
    kernels.scale_kernel[(1,)](view, out, view.numel(), view.stride(0), 1.5)
    torch.testing.assert_close(out, view * 1.5 + 0.5)
    kernels.scale_kernel[(1,)](view, out, view.numel(), view.stride(0), -2.0, SHIFT=3.0)
    torch.testing.assert_close(out, view * -2.0 + 3.0)


def test_arguments_that_share_storage() -> None:
    x = torch.arange(64, dtype=torch.float32)
    expected = x + x
    kernels.add_kernel[(1,)](x, x, x, 64, BLOCK=64)
    torch.testing.assert_close(x, expected)
    data = torch.zeros(128)
    kernels.add_kernel[(1,)](data[:64] + 1, data[64:] + 2, data[64:], 64, BLOCK=64)
    assert torch.all(data[64:] == 3) and torch.all(data[:64] == 0)


def test_do_not_specialize_and_every_integer_width() -> None:
    out = torch.zeros(48, dtype=torch.int32)
    for n in (1, 16, 48):
        kernels.fill_kernel[(1,)](out, n, 7, BLOCK=64)
        assert out[:n].tolist() == [7] * n
    assert len(kernels.fill_kernel.device_caches[0][0]) == 1  # one compilation for every n


def test_tuple_arguments() -> None:
    a, b, out = torch.randn(20), torch.randn(20), torch.zeros(20)
    kernels.tuple_kernel[(1,)]((a, b, out), (20, 4.0), BLOCK=32)
    torch.testing.assert_close(out, a * b + 4.0)


def test_none_arguments() -> None:
    x, bias, out = torch.randn(10), torch.randn(10), torch.zeros(10)
    kernels.optional_bias_kernel[(1,)](x, None, out, 10, BLOCK=16)
    torch.testing.assert_close(out, x)
    kernels.optional_bias_kernel[(1,)](x, bias, out, 10, BLOCK=16)
    torch.testing.assert_close(out, x + bias)


def test_host_tensor_descriptors() -> None:
    source = torch.randn(64, 96)
    target = torch.zeros(64, 96)
    in_desc = TensorDescriptor.from_tensor(source, [16, 32])
    out_desc = TensorDescriptor.from_tensor(target, [16, 32])
    kernels.descriptor_kernel[(4, 3)](in_desc, out_desc, BM=16, BN=32)
    torch.testing.assert_close(target, source * 2 + 1)


def test_a_descriptor_block_at_a_negative_coordinate_fails_the_launch() -> None:
    # A block copied from one descriptor to another moves through a page.
    # The transfers bound a block by the tensor's shape from above only: one
    # starting before the tensor is refused at run time, located, rather
    # than read from what lies before it.
    source = torch.randn(64, 96)
    target = torch.zeros(64, 96)
    in_desc = TensorDescriptor.from_tensor(source, [16, 32])
    out_desc = TensorDescriptor.from_tensor(target, [16, 32])
    kernels.shifted_descriptor_kernel[(4, 3)](in_desc, out_desc, 0, BM=16, BN=32)
    torch.testing.assert_close(target, source, rtol=0, atol=0)
    with pytest.raises(mtia_compiler.SimulationError,
                       match=r"a tensor descriptor's block starts at a negative coordinate"
                       r".*kernels\.py:\d+"):
        kernels.shifted_descriptor_kernel[(4, 3)](in_desc, out_desc, 8, BM=16, BN=32)


def test_callable_and_empty_grids() -> None:
    x, y, out = torch.randn(500), torch.randn(500), torch.zeros(500)
    kernels.add_kernel[lambda meta: (triton.cdiv(500, meta["BLOCK"]),)](x, y, out, 500, BLOCK=128)
    torch.testing.assert_close(out, x + y)
    untouched = torch.zeros(500)
    with launches() as records:
        kernels.add_kernel[(0,)](x, y, untouched, 500, BLOCK=128)
        kernels.add_kernel[(4, 0)](x, y, untouched, 500, BLOCK=128)
    assert records == [] and torch.all(untouched == 0)


def test_device_print_reaches_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    kernels.print_kernel[(1,)](torch.arange(4, dtype=torch.float32), BLOCK=4)
    printed = capfd.readouterr().out.splitlines()
    assert printed == [f"pid (0, 0, 0) idx ({i}) x =: {i}" for i in range(4)]


def test_autotune_ranks_configs_by_simulated_time_and_prunes_what_does_not_compile() -> None:
    n = 1 << 14
    x, y, out = torch.randn(n), torch.randn(n), torch.zeros(n)

    def grid(meta: dict[str, int]) -> tuple[int]:
        return (triton.cdiv(n, meta["ROWS"] * meta["COLS"]),)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernels.autotuned_sort_kernel[grid](x, y, out, n)
    timings = kernels.autotuned_sort_kernel.configs_timings
    by_config = {(config.kwargs["ROWS"], config.kwargs["ASSEMBLY"]): ms[0]
                 for config, ms in timings.items()}
    assert by_config[(4, True)] == math.inf  # pruned, not fatal
    assert any("pruned" in str(w.message) for w in caught)
    fastest = min(by_config.items(), key=lambda item: item[1])[0]
    assert kernels.autotuned_sort_kernel.best_config.kwargs["ROWS"] == fastest[0]
    assert not fastest[1]
    block = fastest[0] * 64
    torch.testing.assert_close(out, (x + y).view(-1, block).sort(dim=1).values.flatten())
    # The timings are simulated: each is what a launch of that config records.
    for rows in (1, 4):
        with launches() as records:
            kernels.autotuned_sort_kernel.fn[(triton.cdiv(n, rows * 64),)](
                x, y, out, n, ROWS=rows, COLS=64, ASSEMBLY=False)
        assert by_config[(rows, False)] == pytest.approx(records[0].seconds * 1e3)


def test_benchmarkers_measure_simulated_time() -> None:
    x, y, out = torch.randn(4096), torch.randn(4096), torch.zeros(4096)

    def launch() -> None:
        kernels.add_kernel[(16,)](x, y, out, 4096, BLOCK=256)

    with launches() as records:
        launch()
    simulated_ms = records[0].seconds * 1e3
    assert do_bench(launch) == pytest.approx(simulated_ms)
    assert do_bench(launch, quantiles=[0.5, 0.2]) == pytest.approx([simulated_ms] * 2)
    assert triton.testing.do_bench(launch, warmup=0, rep=0) == pytest.approx(simulated_ms)


def test_compile_errors_name_the_kernel_source_line() -> None:
    with pytest.raises(mtia_compiler.CompilationError) as caught:
        kernels.inline_asm_kernel[(1,)](torch.zeros(8), BLOCK=8)
    line = line_of(kernels.inline_asm_kernel, "inline_asm_elementwise")
    assert f"{KERNELS}:{line}:" in str(caught.value)
    assert "inline assembly" in str(caught.value)


def test_faults_name_the_program_pe_and_source_line() -> None:
    x, out = torch.randn(100), torch.zeros(200)
    with pytest.raises(mtia_compiler.SimulationError) as caught:
        kernels.unmasked_kernel[(2,)](x, out, BLOCK=64)
    error = caught.value
    assert error.kind == "out_of_bounds"
    assert error.program_id == (1, 0, 0) and error.pe >= 0
    assert f"{KERNELS}:{line_of(kernels.unmasked_kernel, 'tl.store')}:" in str(error)


def run_python(code: str, cache: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, TRITON_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *argv],
                          capture_output=True,
                          text=True, env=environment, cwd=Path(__file__).parents[1], check=False,
                          timeout=300)


LAUNCH_IN_A_NEW_PROCESS = """
    import torch, triton
    from backend import kernels
    hits = []
    triton.knobs.compilation.listener = lambda **event: hits.append(event["cache_hit"])
    x, y, out = torch.ones(100), torch.ones(100), torch.zeros(100)
    kernels.add_kernel[(1,)](x, y, out, 100, BLOCK=128)
    assert torch.all(out == 2)
    print("cache hit" if hits == [True] else "compiled")
"""


def test_a_second_process_reuses_the_compiled_program(tmp_path: Path) -> None:
    first = run_python(LAUNCH_IN_A_NEW_PROCESS, tmp_path)
    second = run_python(LAUNCH_IN_A_NEW_PROCESS, tmp_path)
    assert (first.returncode, first.stdout, first.stderr) == (0, "compiled\n", "")
    assert (second.returncode, second.stdout, second.stderr) == (0, "cache hit\n", "")


def test_the_cache_key_covers_the_native_extensions(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # An editable install loads the extensions from another directory than
    # the Python sources: a rebuilt extension there must not reuse programs
    # the previous build compiled.
    from mtia_compiler import _mtia, _sim
    from mtia_compiler.backend.compiler import installation_digest

    extension = tmp_path / "_mtia.so"
    extension.write_bytes(b"one build")
    for module in (_mtia, _sim):
        monkeypatch.setattr(module, "__file__", str(extension))
    installation_digest.cache_clear()
    before = installation_digest()
    extension.write_bytes(b"another build")
    installation_digest.cache_clear()
    after = installation_digest()
    installation_digest.cache_clear()
    assert before != after


def test_importing_and_launching_prints_nothing(tmp_path: Path) -> None:
    result = run_python("""
        import warnings
        warnings.simplefilter("error")
        import torch, triton, mtia_compiler
        from backend import kernels
        out = torch.zeros(16)
        kernels.add_kernel[(1,)](out, out, out, 16, BLOCK=16)
    """, tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
