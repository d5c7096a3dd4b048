"""The launch mode of the fuzzer: `@triton.jit` kernels (fuzz_launch_kernels.py)
launched through the Triton backend with mutated arguments and grids.

Each launch starts from a valid one and changes 1 to 3 things: the grid
(floats, negative, huge, too many axes, not a tuple), a pointer (another
dtype, too small, a strided or empty view, read-only memory, an object with
`data_ptr()` inside or outside the tensor it holds, not a pointer at all),
an integer or a float (boundary values of every width, NaN, other types),
the number of arguments, and whether the `CompiledKernel` is relaunched
without its constexprs. Every launch runs under a budget, in a worker
process. A launch must end in one of: it ran; a `SimulationError`; a located
`CompilationError`; a `TypeError`, `ValueError`, `OverflowError` or
`KeyError` with a message of ours (not a raw binding error); or an error
Triton's frontend raises before the backend sees the launch (as it would on
any backend). No launch may kill the worker, raise anything else, or write
before a tensor's first element.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: The kernels, the arguments of a valid launch of each (a tensor as
#: ("tensor", dtype, elements)) and its grid.
KERNELS: dict[str, tuple[list[Any], dict[str, Any], list[int]]] = {
    "fuzz_add": ([["tensor", "float32", 300], ["tensor", "float32", 300],
                  ["tensor", "float32", 300], 300], {"BLOCK": 128}, [3]),
    "fuzz_scale": ([["tensor", "float32", 200], 0.5, ["tensor", "float32", 200], 200, 3.0],
                   {"BLOCK": 64}, [4]),
    "fuzz_tuple": ([[["tensor", "float32", 100], ["tensor", "float32", 100]], 100],
                   {"BLOCK": 64}, [2]),
    "fuzz_rows": ([["tensor", "float32", 96], ["tensor", "float32", 6], 6, 16, 16],
                  {"BLOCK_C": 16}, [3, 2]),
}

GRIDS: list[Any] = [[0], [2.7], [-1], [1 << 31], [(1 << 64) + 1], [1, 2, 3, 4], [], "3",
                    None, [True], [1, 1 << 40, 1 << 40], [1.0, 1], [7], [1, -2]]
INTEGERS: list[Any] = [0, -1, 1, 16, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32,
                       (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 63) - 1, True,
                       3.5, "7", None]
FLOATS: list[Any] = [float("nan"), float("inf"), -0.0, 1e308, 5, True, "x", None, -1e-45]
TENSOR_VARIANTS = ["int8", "float64", "bool", "small", "strided", "empty", "read-only",
                   "data_ptr-inside", "data_ptr-outside", "numpy", "none", "int", "scalar"]
GUARD = 64


def plan(rng: random.Random) -> dict[str, Any]:
    """A launch: a kernel, its arguments and grid with 1 to 3 mutations."""
    name = rng.choice(sorted(KERNELS))
    args, constexprs, grid = json.loads(json.dumps(KERNELS[name]))
    launch: dict[str, Any] = {"kernel": name, "args": args, "constexprs": constexprs,
                              "grid": grid, "relaunch": False, "count": 0}
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(5)
        if kind == 0:
            launch["grid"] = rng.choice(GRIDS)
        elif kind == 1:
            launch["relaunch"] = True
        elif kind == 2:
            # Triton's binder checks the count of a JIT function's arguments;
            # a CompiledKernel's relaunch leaves it to the backend.
            launch["relaunch"] = True
            launch["count"] = rng.choice([-1, 1])
        else:
            _mutate_argument(launch["args"], rng)
    return launch


def _mutate_argument(args: list[Any], rng: random.Random) -> None:
    index = rng.randrange(len(args))
    value = args[index]
    if isinstance(value, list) and value and value[0] == "tensor":
        args[index] = ["tensor", value[1], value[2], rng.choice(TENSOR_VARIANTS)]
    elif isinstance(value, list):
        _mutate_argument(value, rng)
    elif isinstance(value, float):
        args[index] = rng.choice(FLOATS)
    else:
        args[index] = rng.choice(INTEGERS)


class _Address:
    """An object with `data_ptr()` and a dtype, holding `tensor`."""

    def __init__(self, tensor: Any, address: int) -> None:
        self._tensor = tensor
        self.dtype = tensor.dtype
        self.address = address

    def data_ptr(self) -> int:
        return self.address


def _materialize(spec: Any, guards: list[tuple[Any, Any]], directory: Path) -> Any:
    """The Python value of an argument's spec; each tensor is a view after
    GUARD bytes of 0xA5 that no launch may write."""
    import numpy as np
    import torch

    if isinstance(spec, list) and spec and spec[0] == "tensor":
        _, dtype, elements, *variant = spec
        kind = variant[0] if variant else ""
        if kind in ("int8", "float64", "bool"):
            dtype = kind
        if kind == "small":
            elements = 3
        if kind == "empty":
            elements = 0
        torch_dtype = getattr(torch, dtype)
        size = elements * (2 if kind == "strided" else 1)
        whole = torch.empty(GUARD + size * torch_dtype.itemsize, dtype=torch.uint8)
        whole[:GUARD] = 0xA5
        tensor = whole[GUARD:].view(torch_dtype)
        tensor.copy_(torch.arange(size).to(torch_dtype))
        guards.append((whole, tensor))
        if kind == "strided":
            return tensor[::2]
        if kind == "read-only":
            path = directory / f"read-only-{len(guards)}.bin"
            path.write_bytes(tensor.numpy().tobytes())
            return torch.from_numpy(np.memmap(path, dtype=dtype, mode="r"))
        if kind == "data_ptr-inside":
            return _Address(tensor, tensor.data_ptr() + tensor.element_size())
        if kind == "data_ptr-outside":
            return _Address(tensor, tensor.data_ptr() - 4096)
        if kind == "numpy":
            return tensor.numpy()
        if kind == "none":
            return None
        if kind == "int":
            return tensor.data_ptr()
        if kind == "scalar":
            return torch.tensor(1.0)
        return tensor
    if isinstance(spec, list):
        return tuple(_materialize(item, guards, directory) for item in spec)
    return spec


ACCEPTED_ERRORS = (TypeError, ValueError, OverflowError, KeyError)


def execute(launch: dict[str, Any], directory: Path) -> dict[str, str]:
    """Launches `launch` and classifies how it ended."""
    import warnings

    import fuzz_launch_kernels

    from mtia_compiler.errors import CompilationError
    from mtia_compiler.sim import SimulationError

    kernel = getattr(fuzz_launch_kernels, launch["kernel"])
    guards: list[tuple[Any, Any]] = []
    args = [_materialize(spec, guards, directory) for spec in launch["args"]]
    if launch["count"] < 0:
        args = args[:-1]
    elif launch["count"] > 0:
        args = [*args, 1]
    grid = tuple(launch["grid"]) if isinstance(launch["grid"], list) else launch["grid"]
    outcome: dict[str, str] = {"kind": "ran"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if launch["relaunch"]:
                valid = [_materialize(spec, [], directory) for spec in KERNELS[launch["kernel"]][0]]
                compiled = kernel[tuple(KERNELS[launch["kernel"]][2])](
                    *valid, **launch["constexprs"])
                # A CompiledKernel takes three grid dimensions (libraries pad).
                compiled[(*grid, 1, 1, 1)[:3] if isinstance(grid, tuple) else grid](*args)
            else:
                kernel[grid](*args, **launch["constexprs"])
    except SimulationError as error:
        outcome = {"kind": f"fault-{error.kind}"}
    except CompilationError as error:
        outcome = {"kind": "rejected" if ":" in str(error).split("error:")[0] else "unlocated",
                   "message": str(error)[:300]}
    except Exception as error:  # noqa: BLE001 (classified below)
        outcome = _classify(error)
    for whole, _ in guards:
        if bool((whole[:GUARD] != 0xA5).any()):
            outcome = {"kind": "write-outside"}
    return outcome


def _classify(error: Exception) -> dict[str, str]:
    """Errors raised by the backend must be argument refusals with a message
    of ours; those raised by Triton's frontend before the launch reached the
    backend are Triton's own behaviour."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = any("mtia_compiler" in frame.filename for frame in frames)
    message = f"{type(error).__name__}: {error}"
    if not ours:
        return {"kind": "refused-by-triton"}
    if isinstance(error, ACCEPTED_ERRORS) and "incompatible function arguments" not in message:
        return {"kind": "refused-argument"}
    return {"kind": "traceback", "message": "".join(traceback.format_exception(error))[-2000:]}


WORKER = r"""
import json, random, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import fuzz_launch
directory = Path(sys.argv[2])
for line in sys.stdin:
    launch = json.loads(line)
    print(json.dumps(fuzz_launch.execute(launch, directory)), flush=True)
"""


def launches(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [plan(rng) for _ in range(count)]


def run_launches(jobs: list[dict[str, Any]], directory: Path,
                 environment: dict[str, str]) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Each job's outcome, in a worker process; a job that kills the worker
    gets its signal or exit status as outcome, and the rest run in a new one."""
    results: list[tuple[dict[str, Any], dict[str, str]]] = []
    while len(results) < len(jobs):
        pending = jobs[len(results):]
        result = subprocess.run([sys.executable, "-c", WORKER, str(HERE), str(directory)],
                                input="".join(json.dumps(job) + "\n" for job in pending),
                                capture_output=True, text=True, errors="replace", timeout=3600,
                                env=environment)
        outcomes = [json.loads(line) for line in result.stdout.splitlines()
                    if line.startswith("{")]
        results.extend(zip(pending, outcomes, strict=False))
        if len(outcomes) < len(pending):
            code = result.returncode
            results.append((pending[len(outcomes)], {
                "kind": f"signal{-code}" if code < 0 else f"exit{code}",
                "message": result.stderr[-2000:]}))
    return results
