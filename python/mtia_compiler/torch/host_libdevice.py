"""`libdevice` for kernels that run on the host in Triton's interpreter.

Inductor's kernels call `libdevice.exp`, `libdevice.erf`, ... (through
`torch._inductor.runtime.triton_helpers`). When a kernel is compiled, the
backend's module map resolves them; Triton's interpreter has no libdevice
(its `extern_elementwise` is not implemented, and the stub module's
functions return None). While a host fallback runs, `installed()` puts in
their place a namespace whose functions compute the same results with
torch's elementwise functions on the interpreter's numpy data, in the
arguments' precision.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch


def _ilogb(x: torch.Tensor) -> torch.Tensor:
    # frexp's exponent is ilogb's plus one (for finite, non-zero x).
    return (torch.frexp(x).exponent - 1).to(torch.int32)


def _ldexp(x: torch.Tensor, exponent: torch.Tensor) -> torch.Tensor:
    return torch.ldexp(x, exponent).to(x.dtype)


#: The libdevice functions Inductor calls, as torch functions of tensors.
FUNCTIONS: dict[str, Callable[..., torch.Tensor]] = {
    "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh,
    "atan": torch.atan, "atan2": torch.atan2, "atanh": torch.atanh, "ceil": torch.ceil,
    "copysign": torch.copysign, "cos": torch.cos, "cosh": torch.cosh, "erf": torch.erf,
    "erfc": torch.erfc, "erfinv": torch.erfinv, "exp": torch.exp, "exp2": torch.exp2,
    "expm1": torch.expm1, "fast_tanhf": torch.tanh, "floor": torch.floor, "fmod": torch.fmod,
    "hypot": torch.hypot, "ilogb": _ilogb, "isinf": torch.isinf,
    "isnan": lambda x: torch.isnan(x).to(torch.int32), "ldexp": _ldexp,
    "lgamma": torch.lgamma, "llrint": lambda x: torch.round(x).to(torch.int64),
    "log": torch.log, "log10": torch.log10, "log1p": torch.log1p, "log2": torch.log2,
    "nearbyint": torch.round, "nextafter": torch.nextafter, "pow": torch.pow,
    "rsqrt": torch.rsqrt, "signbit": lambda x: torch.signbit(x).to(torch.int32),
    "sin": torch.sin, "sinh": torch.sinh, "sqrt": torch.sqrt, "tan": torch.tan,
    "tanh": torch.tanh, "trunc": torch.trunc,
}


def _element_type(dtype: torch.dtype) -> Any:
    import triton.language as tl

    return {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16, torch.float32: tl.float32,
            torch.float64: tl.float64, torch.int32: tl.int32, torch.int64: tl.int64,
            torch.bool: tl.int1}[dtype]


def _host_function(name: str, function: Callable[..., torch.Tensor]) -> Callable[..., Any]:
    def call(*args: Any, _semantic: Any = None, **kwargs: Any) -> Any:
        import triton.language as tl
        from triton.runtime.interpreter import TensorHandle

        shape: list[int] = []
        operands = []
        for arg in args:
            if isinstance(arg, tl.tensor):
                if arg.type.is_block():
                    shape = list(arg.type.shape)
                operands.append(torch.from_numpy(np.asarray(arg.handle.data)))
            else:
                operands.append(torch.tensor(arg.value if isinstance(arg, tl.constexpr) else arg))
        result = function(*operands).contiguous()
        element = _element_type(result.dtype)
        block = tl.block_type(element, shape) if shape else element
        return tl.tensor(TensorHandle(result.numpy(), element), block)

    call.__name__ = name
    return call


#: The namespace that stands for libdevice in the interpreter.
HOST_LIBDEVICE = types.SimpleNamespace(
    **{name: _host_function(name, function) for name, function in FUNCTIONS.items()})


def _is_libdevice(value: Any) -> bool:
    return isinstance(value, types.ModuleType) and value.__name__ in (
        "triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice")


@contextmanager
def installed(*namespaces: dict[str, Any]) -> Iterator[None]:
    """Replaces every libdevice module in `namespaces` (module globals) by
    HOST_LIBDEVICE while the block runs."""
    replaced = [(namespace, key, value) for namespace in namespaces
                for key, value in namespace.items() if _is_libdevice(value)]
    for namespace, key, _ in replaced:
        namespace[key] = HOST_LIBDEVICE
    try:
        yield
    finally:
        for namespace, key, value in replaced:
            namespace[key] = value
