"""The simulated chip as PyTorch's `mtia` device (`mtia.host_runtime.torch_mtia`):
tensors, copies and views, dtypes, autograd, `torch.mtia`'s APIs, the
operations that run as kernels on the simulator and those that run on the
host (counted), Triton kernels and `torch.compile` on `mtia` tensors, several
devices, and a fresh interpreter that never imports the project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import torch
import triton
import triton.language as tl

from mtia.host_runtime.torch_mtia.dynamic_library import host_operations, reset_host_operations
from mtia_compiler.backend import last_launch, launches

from .zoo import ZOO

TARGETS = Path(__file__).resolve().parents[3] / "targets"


@pytest.fixture(autouse=True)
def fresh_dynamo() -> None:
    """Each test compiles from scratch: Dynamo would otherwise compile a
    `Sequential` seen before with other shapes for dynamic ones (which the
    convolution operators leave to ATen)."""
    torch._dynamo.reset()


def run_fresh(directory: Path, script: str, **environment: str) -> str:
    """Runs `script` (written to a file in `directory`: Triton reads the
    source of its kernels) in a new interpreter, with `environment` added,
    and returns its output; the script must succeed."""
    path = directory / "script.py"
    path.write_text(textwrap.dedent(script))
    env = {**os.environ, **environment}
    completed = subprocess.run([sys.executable, str(path)], env=env, capture_output=True,
                               text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return completed.stdout


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # noqa: ANN001, ANN201
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def test_a_fresh_interpreter_uses_mtia_without_importing_the_project(tmp_path: Path) -> None:
    output = run_fresh(tmp_path, """
        import torch
        import triton
        import triton.language as tl

        assert torch.mtia.is_available() and torch.mtia.device_count() == 1
        torch.manual_seed(0)
        x = torch.randn(8, 32, device="mtia")
        assert x.device == torch.device("mtia", 0)

        model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(),
                                    torch.nn.Linear(64, 4))
        expected = model(x.cpu())
        model.to("mtia")
        got = torch.compile(model)(x)
        assert got.device.type == "mtia"
        torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)

        @triton.jit
        def double(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            tl.store(out_ptr + offsets, 2 * tl.load(x_ptr + offsets, mask=mask), mask=mask)

        flat = x.flatten()
        out = torch.empty_like(flat)
        double[(triton.cdiv(flat.numel(), 128),)](flat, out, flat.numel(), BLOCK=128)
        assert torch.equal(out.cpu(), 2 * flat.cpu())
        print("ok")
    """)
    assert output.split() == ["ok"]


def test_copies_views_and_strides_share_the_device_memory() -> None:
    host = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    device = host.to("mtia")
    assert device.device.type == "mtia" and device.is_contiguous()
    assert torch.equal(device.t().cpu(), host.t())
    assert torch.equal(device[1:, ::2].cpu(), host[1:, ::2])
    assert torch.equal(device.view(2, 12).cpu(), host.view(2, 12))
    assert torch.equal(device.unfold(1, 3, 2).cpu(), host.unfold(1, 3, 2))
    column = device[:, 2]
    column.add_(100)
    host[:, 2] += 100
    assert torch.equal(device.cpu(), host)
    assert device.t().contiguous().stride() == (4, 1)
    strided = torch.empty_strided((3, 2), (1, 3), device="mtia")
    strided.copy_(torch.ones(3, 2))
    assert strided.stride() == (1, 3) and torch.equal(strided.cpu(), torch.ones(3, 2))
    resized = torch.empty(0, device="mtia")
    resized.resize_(5).fill_(3)
    assert torch.equal(resized.cpu(), torch.full((5,), 3.0))
    assert torch.equal(device.to("mtia").cpu(), host)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int8,
                                   torch.int64, torch.bool])
def test_dtypes_round_trip_exactly(dtype: torch.dtype) -> None:
    values = (torch.randn(5, 7) * 50).to(dtype)
    on_device = values.to("mtia")
    assert on_device.dtype == dtype
    assert torch.equal(on_device.cpu(), values)
    assert torch.equal((on_device == on_device).cpu(), torch.ones(5, 7, dtype=torch.bool))


def test_autograd_on_mtia_matches_the_cpu() -> None:
    torch.manual_seed(1)
    x, w = torch.randn(6, 5), torch.randn(5, 3)
    x_device = x.to("mtia").requires_grad_()
    w_device = w.to("mtia").requires_grad_()
    (x_device @ w_device).tanh().sum().backward()
    x.requires_grad_()
    w.requires_grad_()
    (x @ w).tanh().sum().backward()
    assert x_device.grad is not None and w_device.grad is not None
    assert x_device.grad.device.type == "mtia"
    torch.testing.assert_close(x_device.grad.cpu(), x.grad)
    torch.testing.assert_close(w_device.grad.cpu(), w.grad)


def test_torch_mtia_reports_the_target_and_the_memory_of_its_tensors() -> None:
    description = json.loads((TARGETS / "mtia-2i.json").read_text())
    properties = torch.mtia.get_device_properties(0)
    assert properties["name"] == "mtia-2i"
    assert properties["total_memory"] == description["dram"]["bytes"]
    assert properties["processing_elements"] == 64
    assert torch.mtia.get_device_capability(0) == (2, 0)
    assert torch.mtia.current_device() == 0
    assert torch.mtia.current_stream().device == torch.device("mtia", 0)
    torch.mtia.synchronize()
    before = torch.mtia.memory_allocated()
    block = torch.empty(1000, dtype=torch.float64, device="mtia")
    assert torch.mtia.memory_allocated() == before + 8000
    assert torch.mtia.max_memory_allocated() >= before + 8000
    del block
    assert torch.mtia.memory_allocated() == before


def test_more_memory_than_the_chip_has_is_an_out_of_memory_error() -> None:
    with pytest.raises(torch.OutOfMemoryError, match="MTIA out of memory"):
        torch.empty(1 << 37, dtype=torch.uint8, device="mtia")


def test_a_device_that_does_not_exist_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="mtia:3 does not exist"):
        torch.zeros(2, device="mtia:3")


def _record_memory_history() -> None:
    # PyTorch asks for the history once the device is initialised.
    torch.mtia.init()
    torch.mtia.record_memory_history()


@pytest.mark.parametrize(("call", "what"), [
    (lambda: torch.mtia.snapshot(), "memory snapshots"),
    (_record_memory_history, "a memory history"),
    (lambda: torch.mtia.attach_out_of_memory_observer(print), "out-of-memory observers"),
    (lambda: torch.mtia.MTIAGraph(), "MTIA graphs"),
])
def test_what_the_runtime_does_not_provide_is_a_clear_error(call: Callable[[], Any],
                                                            what: str) -> None:
    with pytest.raises(RuntimeError, match=f"the simulated MTIA runtime does not provide {what}"):
        call()


def test_events_measure_simulated_time() -> None:
    x, y = torch.randn(5000, device="mtia"), torch.randn(5000, device="mtia")
    out = torch.empty_like(x)
    start, end = torch.mtia.Event(enable_timing=True), torch.mtia.Event(enable_timing=True)
    start.record()
    add_kernel[(triton.cdiv(5000, 1024),)](x, y, out, 5000, BLOCK=1024)
    end.record()
    launch = last_launch()
    assert launch is not None
    assert start.elapsed_time(end) == pytest.approx(launch.seconds * 1e3)
    assert torch.equal(out.cpu(), x.cpu() + y.cpu())


def test_operations_without_a_kernel_run_on_the_host_and_are_counted() -> None:
    x = torch.linspace(-2, 2, 50, device="mtia")
    reset_host_operations()
    with launches() as records:
        result = torch.sin(x).cpu()
    assert records == []
    assert host_operations() == {"aten::sin.out": 1}
    assert torch.equal(result, torch.sin(torch.linspace(-2, 2, 50)))


@pytest.mark.parametrize(("dtype", "tolerance"), [(torch.float32, 1e-4), (torch.float16, 2e-2),
                                                  (torch.bfloat16, 1e-1)])
def test_matmuls_run_on_the_chip(dtype: torch.dtype, tolerance: float) -> None:
    generator = torch.Generator().manual_seed(2)
    a = torch.randn(70, 50, generator=generator).to(dtype)
    b = torch.randn(50, 90, generator=generator).to(dtype)
    bias = torch.randn(90, generator=generator).to(dtype)
    batched = torch.randn(3, 50, 20, generator=generator).to(dtype)
    reset_host_operations()
    with launches() as records:
        addmm = torch.addmm(bias.to("mtia"), a.to("mtia"), b.to("mtia"), beta=0.5, alpha=2.0)
        # A transposed operand is read through its strides.
        mm = a.to("mtia") @ b.t().contiguous().to("mtia").t()
        bmm = torch.bmm(a[:60].reshape(3, 20, 50).to("mtia"), batched.to("mtia"))
    assert [record.kernel for record in records] == ["_matmul_kernel"] * 3
    assert host_operations() == {}
    exact = {"addmm": torch.addmm(bias.double(), a.double(), b.double(), beta=0.5, alpha=2.0),
             "mm": a.double() @ b.double(),
             "bmm": torch.bmm(a[:60].reshape(3, 20, 50).double(), batched.double())}
    for name, got in (("addmm", addmm), ("mm", mm), ("bmm", bmm)):
        expected = exact[name]
        assert got.dtype == dtype
        error = (got.cpu().double() - expected).abs().max().item()
        assert error <= tolerance * expected.abs().max().item(), name


def test_integer_matmuls_run_on_the_host_exactly() -> None:
    a = torch.arange(6).reshape(2, 3)
    b = torch.arange(12).reshape(3, 4)
    reset_host_operations()
    got = (a.to("mtia") @ b.to("mtia")).cpu()
    assert torch.equal(got, a @ b)
    assert host_operations() == {"aten::mm": 1}


def test_layer_norm_runs_on_the_chip() -> None:
    generator = torch.Generator().manual_seed(3)
    x = torch.randn(4, 6, 1500, generator=generator)
    norm = torch.nn.LayerNorm(1500)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5, generator=generator)
        norm.bias.uniform_(-1, 1, generator=generator)
    expected = norm(x)
    norm.to("mtia")
    reset_host_operations()
    with launches() as records:
        got = norm(x.to("mtia"))
    assert [record.kernel for record in records] == ["_layer_norm_kernel"]
    assert host_operations() == {}
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-5, atol=1e-5)


CONVOLUTIONS: dict[str, tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]] = {
    "conv2d": ((2, 3, 9, 9), (8, 3, 3, 3), {"padding": 1}),
    "conv2d_stride_dilation": ((1, 4, 11, 10), (6, 4, 3, 2),
                               {"stride": (2, 1), "padding": (1, 2), "dilation": (2, 1)}),
    "conv2d_stride_3": ((1, 2, 10, 10), (3, 2, 3, 3), {"stride": 3}),
    "conv2d_groups": ((2, 6, 8, 8), (9, 2, 3, 3), {"groups": 3, "padding": 1}),
    "depthwise": ((2, 8, 7, 7), (8, 1, 3, 3), {"groups": 8, "padding": 1}),
    "conv1d": ((2, 5, 17), (4, 5, 3), {"stride": 2, "padding": 1}),
    "conv3d": ((1, 2, 5, 6, 7), (3, 2, 2, 3, 3), {"padding": (0, 1, 1), "stride": (1, 2, 1)}),
    "pointwise": ((2, 16, 5, 5), (32, 16, 1, 1), {}),
}
CONVOLUTION_FUNCTIONS: dict[int, Callable[..., torch.Tensor]] = {
    3: torch.nn.functional.conv1d, 4: torch.nn.functional.conv2d, 5: torch.nn.functional.conv3d}


@pytest.mark.parametrize("name", list(CONVOLUTIONS))
def test_convolutions_run_on_the_chip(name: str) -> None:
    x_shape, w_shape, options = CONVOLUTIONS[name]
    generator = torch.Generator().manual_seed(4)
    x, w = torch.randn(x_shape, generator=generator), torch.randn(w_shape, generator=generator)
    bias = torch.randn(w_shape[0], generator=generator)
    convolve = CONVOLUTION_FUNCTIONS[len(x_shape)]
    expected = convolve(x.double(), w.double(), bias.double(), **options)
    reset_host_operations()
    with launches() as records:
        got = convolve(x.to("mtia"), w.to("mtia"), bias.to("mtia"), **options)
    assert [record.kernel for record in records] == ["_convolution_kernel"]
    assert host_operations() == {}
    torch.testing.assert_close(got.cpu().double(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(CONVOLUTIONS))
def test_convolution_gradients_run_on_the_chip(name: str) -> None:
    """The input's and the weight's gradients are the runtime's kernels, run
    on PyTorch's thread for device backward, which `profile()` sees; the
    bias's is a sum on the host."""
    import mtia_compiler.torch

    x_shape, w_shape, options = CONVOLUTIONS[name]
    generator = torch.Generator().manual_seed(7)
    operands = [torch.randn(x_shape, generator=generator),
                torch.randn(w_shape, generator=generator),
                torch.randn(w_shape[0], generator=generator)]
    convolve = CONVOLUTION_FUNCTIONS[len(x_shape)]
    exact = [operand.double().requires_grad_() for operand in operands]
    output = convolve(*exact, **options)
    grad = torch.randn(output.shape, generator=generator)
    output.backward(grad.double())
    device = [operand.to("mtia").requires_grad_() for operand in operands]
    with mtia_compiler.torch.profile() as profiled:
        convolve(*device, **options).backward(grad.to("mtia"))
    assert [launch.name for launch in profiled.launches] == [
        "_convolution_kernel", "_convolution_input_grad_kernel",
        "_convolution_weight_grad_kernel"]
    assert profiled.host_operations == {"aten::sum.IntList_out": 1}
    for got, expected in zip(device, exact, strict=True):
        assert got.grad is not None and expected.grad is not None
        torch.testing.assert_close(got.grad.cpu().double(), expected.grad, rtol=1e-5,
                                   atol=1e-5)


def test_depthwise_convolutions_run_the_faster_kernel() -> None:
    """A depthwise convolution (MobileNet's: 96 channels, 3x3) and its
    gradients run as the faster of the implicit GEMM and the depthwise
    kernels, found once per shape in simulated time with the search's
    launches hidden: here the depthwise ones, with fp64's numbers."""
    import mtia_compiler.torch

    generator = torch.Generator().manual_seed(14)
    operands = [torch.randn(2, 96, 16, 16, generator=generator),
                torch.randn(96, 1, 3, 3, generator=generator),
                torch.randn(96, generator=generator)]
    grad = torch.randn(2, 96, 16, 16, generator=generator)
    def depthwise(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.conv2d(x, weight, bias, padding=1, groups=96)

    exact = [operand.double().requires_grad_() for operand in operands]
    depthwise(*exact).backward(grad.double())
    device = [operand.to("mtia").requires_grad_() for operand in operands]
    with mtia_compiler.torch.profile() as profiled:
        output = depthwise(*device)
        output.backward(grad.to("mtia"))
    assert [launch.name for launch in profiled.launches] == [
        "_depthwise_convolution_kernel", "_depthwise_convolution_input_grad_kernel",
        "_depthwise_convolution_weight_grad_kernel"]
    for got, expected in zip(device, exact, strict=True):
        assert got.grad is not None and expected.grad is not None
        torch.testing.assert_close(got.grad.cpu().double(), expected.grad, rtol=1e-5,
                                   atol=1e-5)
    with launches() as records:
        again = depthwise(*(t.detach() for t in device))
    assert [record.kernel for record in records] == ["_depthwise_convolution_kernel"]
    torch.testing.assert_close(again.cpu(), output.detach().cpu())


def test_one_value_of_a_convolution_geometry_stands_for_every_dimension() -> None:
    """A graph passes the convolution operator a stride, padding or dilation
    of one value for all the spatial dimensions, as ATen takes them
    (EfficientNet's `padding="valid"` arrives as [0])."""
    import mtia.host_runtime.torch_mtia.kernels  # noqa: F401 (registers the operators)

    generator = torch.Generator().manual_seed(15)
    x = torch.randn(1, 4, 9, 9, generator=generator)
    w = torch.randn(6, 4, 3, 3, generator=generator)
    got = torch.ops.mtia_compiler.convolution(x.to("mtia"), w.to("mtia"), None, [2], [1], [2], 1)
    expected = torch.ops.aten.convolution(x, w, None, [2], [1], [2], False, [0], 1)
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-5, atol=1e-5)


def test_a_convolution_is_laid_out_as_pytorch_says() -> None:
    generator = torch.Generator().manual_seed(5)
    x = torch.randn(2, 3, 9, 9, generator=generator).to(memory_format=torch.channels_last)
    w = torch.randn(8, 3, 3, 3, generator=generator).to(memory_format=torch.channels_last)
    got = torch.nn.functional.conv2d(x.to("mtia"), w.to("mtia"), padding=1)
    meta = torch.nn.functional.conv2d(x.to("meta"), w.to("meta"), padding=1)
    assert got.stride() == meta.stride()
    torch.testing.assert_close(got.cpu(), torch.nn.functional.conv2d(x, w, padding=1))


def test_types_the_kernels_do_not_take_run_on_the_host() -> None:
    """f64 layer norms and convolutions, and their gradients, run on the
    host, counted, with the host's results."""
    generator = torch.Generator().manual_seed(9)
    x = torch.randn(1, 2, 5, 5, dtype=torch.float64, generator=generator)
    w = torch.randn(3, 2, 3, 3, dtype=torch.float64, generator=generator, requires_grad=True)
    norm = torch.nn.LayerNorm(27, dtype=torch.float64)
    expected = norm(torch.nn.functional.conv2d(x, w).flatten(1))
    expected.sum().backward()
    w_device = w.detach().to("mtia").requires_grad_()
    norm.to("mtia")
    reset_host_operations()
    got = norm(torch.nn.functional.conv2d(x.to("mtia"), w_device).flatten(1))
    got.sum().backward()
    counted = host_operations()
    assert counted["aten::convolution"] == counted["aten::convolution_backward"] == 1
    assert counted["aten::native_layer_norm"] == 1
    torch.testing.assert_close(got.cpu(), expected)
    assert w_device.grad is not None and w.grad is not None
    torch.testing.assert_close(w_device.grad.cpu(), w.grad)


def test_transposed_convolutions_run_on_the_host() -> None:
    generator = torch.Generator().manual_seed(6)
    x = torch.randn(1, 4, 5, 5, generator=generator)
    w = torch.randn(4, 2, 3, 3, generator=generator)
    reset_host_operations()
    got = torch.nn.functional.conv_transpose2d(x.to("mtia"), w.to("mtia"), stride=2)
    assert host_operations() == {"aten::convolution": 1}
    torch.testing.assert_close(got.cpu(), torch.nn.functional.conv_transpose2d(x, w, stride=2))


#: Attention cases: (batch, heads, key heads, queries, keys, head dim) and the
#: options of `scaled_dot_product_attention`; "bias" is an additive mask of
#: that shape, "boolean" a boolean one.
ATTENTION: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = {
    "plain": ((2, 3, 3, 40, 40, 32), {}),
    "causal_grouped_query_odd_head_dim": ((1, 4, 2, 33, 50, 80),
                                          {"is_causal": True, "enable_gqa": True}),
    "bias_per_head_and_key": ((2, 2, 2, 20, 70, 16), {"bias": (1, 2, 1, 70), "scale": 0.3}),
    "causal_with_bias": ((1, 2, 2, 24, 24, 16), {"bias": (24, 24), "is_causal": True}),
    "boolean_mask": ((1, 2, 2, 17, 9, 24), {"boolean": (17, 9)}),
    "fewer_keys_than_queries": ((1, 1, 1, 70, 5, 64), {"is_causal": True}),
}


def _attention_operands(name: str, dtype: torch.dtype = torch.float32,
                        ) -> tuple[list[torch.Tensor], dict[str, Any]]:
    """The query, key and value of an attention case, and the options of
    `scaled_dot_product_attention` (the mask made from its shape). The query
    is a transposed view of (batch, queries, heads, dim), as models make it."""
    (batch, heads, key_heads, length, source, dim), options = ATTENTION[name]
    generator = torch.Generator().manual_seed(11)
    query = torch.randn(batch, length, heads, dim, generator=generator).transpose(1, 2)
    key = torch.randn(batch, key_heads, source, dim, generator=generator)
    value = torch.randn(batch, key_heads, source, dim, generator=generator)
    options = dict(options)
    if "bias" in options:
        options["attn_mask"] = torch.randn(options.pop("bias"), generator=generator)
    if "boolean" in options:
        mask = torch.rand(options.pop("boolean"), generator=generator) > 0.4
        mask[3] = False  # A row that sees no key has a zero output.
        options["attn_mask"] = mask
    return [t.to(dtype) for t in (query, key, value)], options


def _sdpa(operands: Sequence[torch.Tensor], **options: Any) -> torch.Tensor:
    query, key, value = operands
    return torch.nn.functional.scaled_dot_product_attention(query, key, value, **options)


def _on(device: str, options: dict[str, Any]) -> dict[str, Any]:
    return {key: value.to(device) if isinstance(value, torch.Tensor) else value
            for key, value in options.items()}


@pytest.mark.parametrize("name", list(ATTENTION))
def test_attention_runs_on_the_chip(name: str) -> None:
    operands, options = _attention_operands(name)
    expected = _sdpa([t.double() for t in operands],
                    **{key: value.double() if isinstance(value, torch.Tensor)
                       and value.is_floating_point() else value
                       for key, value in options.items()})
    reset_host_operations()
    with launches() as records:
        got = _sdpa([t.to("mtia") for t in operands], **_on("mtia", options))
    assert [record.kernel for record in records] == ["_attention_kernel"]
    # A boolean mask becomes an additive one first (PyTorch's conversion, on the host).
    assert not any("attention" in operation for operation in host_operations())
    # The output is laid out as the query, as on the CPU.
    assert got.stride() == _sdpa(operands, **options).stride()
    torch.testing.assert_close(got.cpu().double(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("dtype", "tolerance"), [(torch.float16, 1e-2), (torch.bfloat16, 5e-2)])
def test_attention_of_16_bit_types_runs_on_the_chip(dtype: torch.dtype, tolerance: float) -> None:
    operands, options = _attention_operands("causal_grouped_query_odd_head_dim", dtype)
    expected = _sdpa([t.double() for t in operands], **options)
    with launches() as records:
        got = _sdpa([t.to("mtia") for t in operands], **options)
    assert [record.kernel for record in records] == ["_attention_kernel"]
    assert got.dtype == dtype
    torch.testing.assert_close(got.cpu().double(), expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("name", ["causal_grouped_query_odd_head_dim", "bias_per_head_and_key",
                                  "boolean_mask"])
def test_attention_gradients_run_on_the_chip(name: str) -> None:
    """The query's, key's and value's gradients, and a trained bias's (the
    scores' gradient summed over what the bias broadcasts), from the
    runtime's kernels."""
    import mtia_compiler.torch

    operands, options = _attention_operands(name)
    trained = [t.double().requires_grad_() for t in operands]
    exact_options = dict(options)
    mask = options.get("attn_mask")
    bias_trained = isinstance(mask, torch.Tensor) and mask.is_floating_point()
    if isinstance(mask, torch.Tensor) and bias_trained:
        exact_options["attn_mask"] = mask.double().requires_grad_()
        trained.append(exact_options["attn_mask"])
    output = _sdpa(trained[:3], **exact_options)
    grad = torch.randn(output.shape, generator=torch.Generator().manual_seed(12))
    output.backward(grad.double())
    device = [t.to("mtia").requires_grad_() for t in operands]
    device_options = _on("mtia", options)
    if bias_trained:
        device_options["attn_mask"].requires_grad_()
        device.append(device_options["attn_mask"])
    with mtia_compiler.torch.profile() as profiled:
        _sdpa(device[:3], **device_options).backward(grad.to("mtia"))
    assert [launch.name for launch in profiled.launches] == [
        "_attention_kernel", "_attention_delta_kernel", "_attention_key_grad_kernel",
        "_attention_query_grad_kernel", *(["_attention_bias_grad_kernel"] if bias_trained else [])]
    assert not any("attention" in operation or "sum" in operation
                   for operation in profiled.host_operations)
    for got, expected in zip(device, trained, strict=True):
        assert got.grad is not None and expected.grad is not None
        torch.testing.assert_close(got.grad.cpu().double(), expected.grad, rtol=1e-5,
                                   atol=1e-5)


def test_attention_the_kernels_do_not_take_uses_the_math_backend() -> None:
    """Dropout, f64, and a backend the user selects go to PyTorch's math
    backend (matmuls on the chip, the rest on the host), as on other devices."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    operands, _ = _attention_operands("plain")
    device = [t.to("mtia") for t in operands]
    with launches() as records:
        with sdpa_kernel(SDPBackend.MATH):
            math = _sdpa(device)
        doubles = _sdpa([t.double() for t in device])
        torch.manual_seed(0)
        dropped = _sdpa(device, dropout_p=0.5)
    assert "_attention_kernel" not in [record.kernel for record in records]
    torch.testing.assert_close(math.cpu(), _sdpa(operands), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(doubles.cpu(), _sdpa([t.double() for t in operands]))
    assert dropped.shape == math.shape


def test_histograms_of_any_type_run_on_the_chip() -> None:
    """Integer histograms (a router's tokens per expert), which the CPU's
    histogram refuses, run as the runtime's kernel, as floating ones do."""
    generator = torch.Generator().manual_seed(13)
    experts = torch.randint(0, 8, (300,), generator=generator, dtype=torch.int32)
    values = torch.randn(1000, generator=generator)
    reset_host_operations()
    with launches() as records:
        per_expert = torch.histc(experts.to("mtia"), bins=8, min=0, max=7)
        spread = torch.histc(values.to("mtia"), bins=20)
    assert [record.kernel for record in records] == ["_histogram_kernel"] * 2
    assert host_operations() == {}
    assert per_expert.dtype == torch.int32
    assert torch.equal(per_expert.cpu(), torch.histc(experts.float(), 8, 0, 7).int())
    assert torch.equal(spread.cpu(), torch.histc(values, bins=20))


def test_several_devices_each_hold_their_own_state(tmp_path: Path) -> None:
    output = run_fresh(tmp_path, """
        import torch
        import triton
        import triton.language as tl

        assert torch.mtia.device_count() == 2
        x = torch.arange(10.0, device="mtia:1")
        assert x.device == torch.device("mtia", 1)
        assert torch.mtia.memory_allocated(1) == 40 and torch.mtia.memory_allocated(0) == 0
        with torch.mtia.device(1):
            assert torch.mtia.current_device() == 1
            assert torch.empty(3, device="mtia").device.index == 1
        assert torch.equal(x.to("mtia:0").cpu(), x.cpu())

        @triton.jit
        def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offsets = tl.arange(0, BLOCK)
            tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n),
                     mask=offsets < n)

        out = torch.empty_like(x)
        start = [torch.mtia.Event(enable_timing=True) for _ in range(2)]
        end = [torch.mtia.Event(enable_timing=True) for _ in range(2)]
        for device in range(2):
            start[device].record(torch.mtia.default_stream(device))
        copy[(1,)](x, out, 10, BLOCK=16)
        for device in range(2):
            end[device].record(torch.mtia.default_stream(device))
        assert torch.equal(out.cpu(), x.cpu())
        # The launch ran on mtia:1: only its clock moved.
        assert start[1].elapsed_time(end[1]) > 0 and start[0].elapsed_time(end[0]) == 0
        try:
            copy[(1,)](x, torch.empty(10, device="mtia:0"), 10, BLOCK=16)
        except ValueError as error:
            print(error)
        try:
            torch.empty(1, device="mtia:2")
        except RuntimeError as error:
            print(str(error).splitlines()[0])
    """, MTIA_DEVICE_COUNT="2")
    assert "kernel 'copy' has tensors on mtia:0, mtia:1: a launch runs on one chip" in output
    assert "mtia:2 does not exist: this process has 2 simulated MTIA device(s)" in output


def test_a_runtime_that_cannot_load_leaves_torch_importable(tmp_path: Path) -> None:
    output = run_fresh(tmp_path, """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import torch
        print(torch.mtia.is_available(), torch.ones(2).sum().item())
        print([str(warning.message) for warning in caught])
    """, MTIA_TARGET="mtia-nonexistent")
    assert output.splitlines()[0] == "False 2.0"
    assert "the simulated MTIA device is unavailable" in output
    assert "MTIA_TARGET='mtia-nonexistent' names no target description" in output


@pytest.mark.parametrize("name", ["mlp_gelu", "dlrm", "cnn_head", "cross_entropy", "adamw_step",
                                  "mlp_training"])
def test_zoo_models_compile_on_mtia_with_stock_torch_compile(name: str) -> None:
    model = ZOO[name]
    eager_model, eager_inputs = model.make(1, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    device_model, inputs = model.make(1, "mtia")
    compiled = torch.compile(device_model)
    with launches() as records:
        got = model.step(compiled, device_model, inputs)
    assert records, "nothing ran on the simulator"
    assert all(tensor.device.type == "mtia" for tensor in got)
    for got_tensor, expected_tensor in zip(got, expected, strict=True):
        torch.testing.assert_close(got_tensor.cpu(), expected_tensor, rtol=model.rtol,
                                   atol=model.atol)


class ConvolutionHead(torch.nn.Module):
    """A convolution, a linear layer and a layer norm (the runtime's
    kernels), a ReLU (Inductor's) and a transposed convolution (on the
    host)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.up = torch.nn.ConvTranspose2d(4, 2, 2, stride=2)
        self.linear = torch.nn.Linear(2 * 12 * 12, 16)
        self.norm = torch.nn.LayerNorm(16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.linear(self.up(torch.relu(self.conv(x))).flatten(1)))


def _convolution_head() -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    torch.manual_seed(5)
    model = ConvolutionHead()
    x = torch.randn(2, 3, 8, 8)
    return model, x, model(x).detach()


def test_the_compile_api_on_mtia_tensors_reports_what_ran_on_the_host() -> None:
    import mtia_compiler.torch

    model, x, expected = _convolution_head()
    compiled = mtia_compiler.torch.compile(model.to("mtia"))
    got = compiled(x.to("mtia"))
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)
    report = compiled.report()
    assert report.host_operation_counts == {"aten::convolution": 1}
    assert report.host_ops == ()
    names = [kernel.name for kernel in report.kernels]
    assert {"_convolution_kernel", "_matmul_kernel", "_layer_norm_kernel"} <= set(names)
    assert all(kernel.on_mtia and kernel.cycles > 0 for kernel in report.kernels)
    assert "aten::convolution x1" in str(report)
    # The coverage figures: the transposed convolution is the one operator
    # instance on the host, with its FLOPs; the kernels' time by class.
    assert [op.name for op in report.operators if not op.on_mtia] == ["aten.convolution"]
    assert report.operator_share < 1 and 0 < report.flop_share < 1
    shares = report.time_shares()
    assert shares["convolution"] > 0 and shares["GEMM"] > 0 and shares["reduction"] > 0


def test_the_compile_api_refuses_a_target_the_device_does_not_simulate() -> None:
    import mtia_compiler.torch

    model, x, _ = _convolution_head()
    compiled = mtia_compiler.torch.compile(model.to("mtia"), target="mtia-v1")
    with pytest.raises(Exception, match="the mtia device simulates mtia-2i, and this model "
                                        "compiles for mtia-v1"):
        compiled(x.to("mtia"))


def test_profile_reports_a_stock_compiled_model() -> None:
    import mtia_compiler.torch

    model, x, expected = _convolution_head()
    compiled = torch.compile(model.to("mtia"))
    compiled(x.to("mtia"))
    with mtia_compiler.torch.profile() as profiled:
        got = compiled(x.to("mtia"))
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)
    report = profiled.report()
    assert report.target == "mtia-2i"
    assert report.host_operation_counts == {"aten::convolution": 1}
    # Inductor adds the biases of the convolutions it calls in two kernels
    # of its own.
    names = [kernel.name for kernel in report.kernels]
    assert [name for name in names if not name.startswith("triton_")] == [
        "_convolution_kernel", "_matmul_kernel", "_layer_norm_kernel"]
    assert len(names) == 5 and report.total_cycles > 0


@pytest.mark.parametrize("name", ["llama_block", "adamw_step"])
def test_the_compile_api_on_mtia_matches_eager_and_reports_no_benchmarks(name: str) -> None:
    """Autotuning benchmarks at the first call leave no launch and no host
    operation in the report (llama_block's autotuned reductions); what a
    graph on the device keeps on the CPU (AdamW's step counts) is host code."""
    import mtia_compiler.torch

    model = ZOO[name]
    eager_model, eager_inputs = model.make(1, "cpu")
    expected = model.step(eager_model, eager_model, eager_inputs)
    device_model, inputs = model.make(1, "mtia")
    compiled = mtia_compiler.torch.compile(device_model)
    got = model.step(compiled, device_model, inputs)
    for got_tensor, expected_tensor in zip(got, expected, strict=True):
        torch.testing.assert_close(got_tensor.cpu(), expected_tensor, rtol=model.rtol,
                                   atol=model.atol)
    first = compiled.report()
    assert first.host_operation_counts == {}
    assert first.kernels and all(kernel.on_mtia for kernel in first.kernels)
    # The first call autotuned; the second runs what was chosen: the same
    # launches, in the same simulated time.
    model.step(compiled, device_model, inputs)
    second = compiled.report()
    assert [kernel.name for kernel in first.kernels] == [kernel.name for kernel in second.kernels]
    assert first.total_cycles == second.total_cycles


@pytest.mark.parametrize("device", ["cpu", "mtia"])
def test_the_compile_api_runs_convolutions_and_their_gradients_on_the_chip(device: str) -> None:
    """On either device, `mtia_compiler.torch.compile` decomposes ATen's
    convolutions into the runtime's operators, whose kernels Inductor
    compiles into the forward and backward graphs."""
    import mtia_compiler.torch

    torch.manual_seed(8)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Conv2d(8, 4, 3, stride=2, groups=2),
                                torch.nn.Flatten(), torch.nn.Linear(4 * 7 * 7, 5))
    x = torch.randn(2, 3, 16, 16)
    model(x).square().sum().backward()
    expected = [parameter.grad.clone() for parameter in model.parameters()
                if parameter.grad is not None]
    model.zero_grad()
    model.to(device)
    compiled = mtia_compiler.torch.compile(model)
    compiled(x.to(device)).square().sum().backward()
    got = [parameter.grad.cpu() for parameter in model.parameters() if parameter.grad is not None]
    for got_grad, expected_grad in zip(got, expected, strict=True):
        torch.testing.assert_close(got_grad, expected_grad, rtol=1e-4, atol=1e-4)
    report = compiled.report()
    assert report.host_ops == () and report.host_operation_counts == {}
    kernels = {(kernel.graph, kernel.name) for kernel in report.kernels}
    assert {("forward", "_convolution_kernel"), ("backward", "_convolution_input_grad_kernel"),
            ("backward", "_convolution_weight_grad_kernel")} <= kernels
