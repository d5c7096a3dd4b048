"""The Triton backend that TorchInductor's CPU Triton code reaches: the
simulated MTIA behind Triton's target `cpu`.

TorchInductor, asked for Triton code on the CPU device
(`cpu_backend = "triton"`), compiles each kernel for `GPUTarget("cpu", "", 32)`
and activates the Triton backend registered under the name `cpu`.
`installed(target)` registers, for as long as it is entered, a backend under
that name that compiles with this project's stages for an MTIA target and
launches on the simulator (the project's own Triton backend, `mtia`, keeps
its target and stays as it is).

Two things differ from the `mtia` backend:

* A kernel that does not compile for MTIA (a `mtia_compiler.CompilationError`,
  which is located at the TTIR operation, that is the line of Inductor's
  kernel) is not an error: its "program" is a marker that records the reason,
  and its launches run the kernel on the host with Triton's interpreter.
  `mtia_compiler.torch` warns once per kernel and counts it in the report.
* A launch on the host is recorded for the report as a simulated one is
  (`mtia_compiler.backend.driver.kernel_launches()`), with its reason.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from triton.backends.compiler import Language

from mtia_compiler.backend.compiler import MTIABackend, MTIAOptions, StageOutput
from mtia_compiler.backend.driver import (
    MAX_THREADS,
    KernelLaunch,
    MTIADriver,
    MTIALauncher,
    MTIAUtils,
    record_kernel_launch,
    tensor_arguments,
)

#: The name of the Triton backend and target that Inductor compiles CPU
#: kernels for.
HOST_BACKEND = "cpu"

#: The "program" of a kernel that runs on the host: the launcher recognises it.
FALLBACK_PROGRAM = b"mtia-compiler: this kernel runs on the host\n"


def _target_digest(target: str) -> str:
    """What identifies the MTIA target `target` in Triton's cache key: its
    name, and for a description given by path, the description itself."""
    path = Path(target)
    if path.suffix == ".json":
        return hashlib.sha256(path.read_bytes()).hexdigest()
    return target


def _entry_name(ttir: str) -> str:
    match = re.search(r"tt\.func public @([\w$.]+)", ttir)
    return match.group(1) if match else "kernel"


class HostTargetBackend(MTIABackend):
    """Compiles the kernels Inductor generates for the CPU device for the MTIA
    target `mtia_target` (a subclass per target is made by `backend_for`)."""

    mtia_target: ClassVar[str] = "mtia-2i"

    @staticmethod
    def supports_target(target: Any) -> bool:
        return bool(target.backend == HOST_BACKEND)

    def hash(self) -> str:
        # The fallback changes what a failed compilation produces, so these
        # programs never share Triton's cache entries with the `mtia` backend's.
        return f"{super().hash()}-inductor-host-{_target_digest(self.mtia_target)}"

    def parse_options(self, options: dict[str, Any]) -> MTIAOptions:
        # The arch of Inductor's CPU target is empty; the MTIA target is this
        # class's, and only `make_tile` reads it.
        return dataclasses.replace(super().parse_options(options), arch="host")

    @classmethod
    def make_tile_or_fallback(cls, module: Any, metadata: dict[str, Any],
                              options: MTIAOptions) -> StageOutput:
        """Compiles the TTIR for the MTIA target; a kernel that does not
        compile becomes a host fallback that records the located reason."""
        from mtia_compiler.compiler import compile as compile_ttir
        from mtia_compiler.errors import CompilationError

        ttir = module.str()
        metadata["mtia_target"] = cls.mtia_target
        try:
            kernel = compile_ttir(ttir, target=cls.mtia_target)
        except CompilationError as error:
            metadata["name"] = _entry_name(ttir)
            metadata["shared"] = 0
            metadata["mtia_parameters"] = []
            metadata["mtia_fallback"] = str(error).strip()
            return StageOutput(f"// runs on the host: {str(error).strip()}\n", None)
        metadata["name"] = kernel.name
        # Triton compares `shared` with the local memory of the target it
        # saw first in the process (`max_shared_mem` is cached per device
        # index, whatever the driver), which need not be this one; the
        # compiler has checked the plan against this target already.
        metadata["shared"] = 0
        metadata["mtia_local_memory_bytes"] = kernel.local_memory_bytes
        metadata["mtia_parameters"] = [parameter.to_json() for parameter in kernel.parameters]
        metadata["mtia_fallback"] = ""
        return StageOutput(kernel.asm["tile"], kernel)

    @staticmethod
    def make_dma(previous: StageOutput, metadata: dict[str, Any],
                 options: MTIAOptions) -> StageOutput:
        if previous.kernel is None:
            return previous
        return StageOutput(previous.kernel.asm["dma"], previous.kernel)

    @staticmethod
    def make_bin(previous: StageOutput, metadata: dict[str, Any], options: MTIAOptions) -> bytes:
        if previous.kernel is None:
            return FALLBACK_PROGRAM
        program: bytes = previous.kernel.asm["bin"]
        return program

    def add_stages(self, stages: dict[str, Any], options: MTIAOptions,
                   language: Language) -> None:
        super().add_stages(stages, options, language)
        stages["tile"] = functools.partial(self.make_tile_or_fallback, options=options)
        stages["dma"] = functools.partial(self.make_dma, options=options)
        stages["bin"] = functools.partial(self.make_bin, options=options)


class HostTargetLauncher(MTIALauncher):
    """Launches a kernel compiled by `HostTargetBackend`: on the simulator,
    or, for a host fallback, with Triton's interpreter on the torch tensors."""

    def __init__(self, src: Any, metadata: Any) -> None:
        super().__init__(src, metadata)
        # Kernels of the `mtia` backend (`mtia` tensors' kernels, launched
        # while this driver is active) are launched as that backend does.
        self.target = getattr(metadata, "mtia_target", self.target)
        self.fallback: str = getattr(metadata, "mtia_fallback", "")
        self.function = src.fn.fn

    def __call__(self, grid_x: int, grid_y: int, grid_z: int, stream: Any, function: Any,
                 packed_metadata: Any, launch_metadata: Any, enter_hook: Any, exit_hook: Any,
                 *args: Any) -> None:
        if not self.fallback:
            super().__call__(grid_x, grid_y, grid_z, stream, function, packed_metadata,
                             launch_metadata, enter_hook, exit_hook, *args)
            return
        grid = (int(grid_x), int(grid_y), int(grid_z))
        self._run_on_host(grid, args)
        record_kernel_launch(KernelLaunch(self.kernel_name, self.path, grid,
                                          tensor_arguments(self.names, args), None,
                                          self.fallback))

    def _run_on_host(self, grid: tuple[int, int, int], args: tuple[Any, ...]) -> None:
        """Runs the kernel's Python source with Triton's interpreter, which
        reads and writes the torch tensors in place. The `@triton.jit`
        helpers the kernel calls (Inductor's `triton_helpers`, a scan's
        combine function) are JIT functions, which refuse to be called
        outside a kernel; while the interpreter runs, calling one interprets
        it, and libdevice is computed on the host (`host_libdevice`). Every
        patch the interpreter makes to `triton.language` is undone when the
        kernel is done: later kernels of the process compile with the real
        language."""
        from torch._inductor.runtime import triton_helpers
        from triton.runtime.interpreter import InterpretedFunction, _patch_lang
        from triton.runtime.jit import JITFunction

        from mtia_compiler.torch import host_libdevice

        if 0 in grid:
            return

        # The interpreter patches the `triton.language` modules a function's
        # globals hold, and restores them in the reverse order. Patching
        # `triton.language` and its `core` first, here, makes every later
        # patch of the same attributes (the kernel's own, and those of the
        # helpers' modules, patched the first time one of their helpers is
        # called, since patching costs milliseconds and a loop calls helpers
        # thousands of times) restore to this one, which restores last.
        import triton.language as tl

        base = _patch_lang(eval("lambda: None", {"tl": tl, "core": tl.core}))
        scopes: dict[int, Any] = {}

        def interpret(function: Any, *call_args: Any, **call_kwargs: Any) -> Any:
            namespace = function.fn.__globals__
            if id(namespace) not in scopes:
                scopes[id(namespace)] = _patch_lang(function.fn)
            return InterpretedFunction(function.fn).rewrite()(*call_args, **call_kwargs)

        refusal = JITFunction.__call__
        JITFunction.__call__ = interpret  # type: ignore[method-assign,assignment]
        try:
            with host_libdevice.installed(self.function.__globals__, vars(triton_helpers)):
                InterpretedFunction(self.function).run(*args, grid=grid, warmup=False)
        finally:
            JITFunction.__call__ = refusal  # type: ignore[method-assign]
            for scope in reversed(scopes.values()):
                scope.restore()
            base.restore()


class HostTargetUtils(MTIAUtils):
    """`MTIAUtils` that also "loads" the marker program of a host fallback."""

    def load_binary(self, name: str, kernel: bytes, shared: int,
                    device: int) -> tuple[bytes, bytes, int, int, int]:
        if kernel == FALLBACK_PROGRAM:
            return kernel, kernel, 0, 0, MAX_THREADS
        return super().load_binary(name, kernel, shared, device)


class HostTargetDriver(MTIADriver):
    """The driver Inductor activates for CPU kernels while `installed()` is
    entered. It is never picked by Triton's own discovery."""

    mtia_target: ClassVar[str] = "mtia-2i"

    def __init__(self) -> None:
        super().__init__()
        self.utils = HostTargetUtils(self.mtia_target)
        self.launcher_cls = HostTargetLauncher

    @staticmethod
    def is_active() -> bool:
        return False


@functools.cache
def backend_for(target: str) -> Any:
    """The Triton `Backend` (compiler and driver classes) for Inductor's CPU
    target that compiles and launches for the MTIA target `target`."""
    from triton.backends import Backend

    suffix = re.sub(r"\W", "_", Path(target).stem)
    compiler = type(f"HostTargetBackend_{suffix}", (HostTargetBackend,), {"mtia_target": target})
    driver = type(f"HostTargetDriver_{suffix}", (HostTargetDriver,), {"mtia_target": target})
    return Backend(compiler=compiler, driver=driver)


@contextmanager
def installed(target: str) -> Iterator[None]:
    """Registers the backend for Inductor's CPU target as `backend_for(target)`
    while the block runs, and afterwards restores Triton's backend table and
    its active driver as they were."""
    import triton
    from triton.backends import backends

    driver = triton.runtime.driver
    previous_backend = backends.get(HOST_BACKEND)
    previous_driver = driver._active
    backend = backend_for(target)
    backends[HOST_BACKEND] = backend
    # Kernels Inductor loaded in an earlier session bind their launcher to
    # the active driver when first launched.
    driver.set_active(backend.driver())
    try:
        yield
    finally:
        if previous_backend is None:
            del backends[HOST_BACKEND]
        else:
            backends[HOST_BACKEND] = previous_backend
        driver._active = previous_driver
