"""The compiler half of the Triton backend: `@triton.jit` kernels to MTIA programs.

Triton finds this module through the `triton.backends` entry point `mtia`
(pyproject.toml) and uses its one `BaseBackend` subclass for every
`GPUTarget("mtia", arch, ...)`, where `arch` names a target description:
`"2i"` is `targets/mtia-2i.json`. The stage table is Triton's `ttir` stage
(Triton's own TTIR passes, as the NVIDIA backend runs them for a Hopper-class
target, so specialisation, tuples and tensor descriptors reach us exactly as
the frontend makes them), then this project's stages `tile`, `dma` and `bin`,
the same ones `mtia_compiler.compile` runs.

This module imports nothing of MLIR at import time: `import triton` discovers
every installed backend, and a user who never selects MTIA should not pay for
loading it.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, fields
from pathlib import Path
from types import ModuleType
from typing import Any

from triton.backends.compiler import BaseBackend, GPUTarget, Language

#: The name of the backend, of its targets and of its entry point.
BACKEND_NAME = "mtia"

#: The threads a target reports: the frontend only checks `num_warps *
#: warp_size` against it, and a program runs on one PE whatever `num_warps` is.
WARP_SIZE = 32


def target_description(target: GPUTarget) -> str:
    """The name of the target description (`targets/<name>.json`) of `target`."""
    return f"mtia-{target.arch}"


@dataclass(frozen=True)
class MTIAOptions:
    """The compile options of a kernel, as `kernel[grid](..., num_stages=2)` or
    `triton.Config` set them.

    `num_warps` has no effect: one program runs on one processing element,
    whose vector core and units have a fixed width. It is accepted (and must be
    a power of two, as on every Triton backend) so that kernels and autotune
    configs written for GPUs compile unchanged. `num_ctas` must be 1: a program
    is never split across PEs. `num_stages` is the pipeline stages of the
    kernel's loops (a `tl.range(..., num_stages=)` gives a loop its own):
    loads stream ahead of the compute with at least that many pages per
    buffer (more where the memory latency needs them), and from two stages
    on, a loop's dots that depend only on the induction variable
    (attention's Q·K^T) are computed up to one iteration ahead per stage
    beyond the first, as far as the loop's estimated schedule needs and at
    most two: two pay when the SIMD engine's softmax is about as long as the
    DPE's products (attention with 64-wide heads). `cb_multiplier` (MTIA's
    own option, passed like `num_stages`: `kernel[grid](..., cb_multiplier=2)`
    or in a `triton.Config`) multiplies the pages of the circular buffers of
    loads and stores, and so the prefetch depth.

    `max_cycles` and `max_seconds` (also MTIA's own) are the budget of each
    launch of the kernel: simulated cycles and host seconds, 0 for none (the
    environment variables `MTIA_MAX_CYCLES` and `MTIA_MAX_SECONDS` then set
    it). A launch over budget stops with a `SimulationError` of kind
    `timeout` naming the instruction and source line a control core is at.
    """

    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    cb_multiplier: int = 1
    max_cycles: int = 0
    max_seconds: float = 0.0
    warp_size: int = WARP_SIZE
    debug: bool = False
    sanitize_overflow: bool = False
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    instrumentation_mode: str = ""
    fpsan_homomorphic_casts: bool = False
    # The frontend rejects fp8 types not listed here. The SIMD engine converts
    # the OCP formats (fp8e4nv, fp8e5) and the fnuz ones (fp8e4b8, fp8e5b16)
    # exactly; fp8e4b15, which the IR holds as i8, is converted by
    # `convert_custom_types` (float8e4b15.py).
    supported_fp8_dtypes: tuple[str, ...] = ("fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16",
                                             "fp8e4b15")
    deprecated_fp8_dot_operand_dtypes: tuple[str, ...] = ()
    # The DPE multiplies f32 operands exactly (no tf32 rounding), so "ieee"
    # is the default; the other precisions are accepted and computed as ieee,
    # which is at least as accurate.
    default_dot_input_precision: str = "ieee"
    allowed_dot_input_precisions: tuple[str, ...] = ("ieee", "tf32", "tf32x3", "bf16x3",
                                                     "bf16x6")
    max_num_imprecise_acc_default: int = 0
    extern_libs: tuple[tuple[str, str], ...] | None = None
    backend_name: str = BACKEND_NAME
    #: The target: `targets/mtia-<arch>.json`.
    arch: str = "2i"

    def __post_init__(self) -> None:
        if self.num_warps <= 0 or self.num_warps & (self.num_warps - 1):
            raise ValueError(f"num_warps must be a power of 2, got {self.num_warps}")
        if self.num_ctas != 1:
            raise ValueError(f"num_ctas must be 1 on MTIA (a program runs on one PE), "
                             f"got {self.num_ctas}")
        if self.num_stages < 1:
            raise ValueError(f"num_stages must be at least 1, got {self.num_stages}")
        if self.max_cycles < 0 or not self.max_seconds >= 0:
            raise ValueError(f"the budget of a launch must be >= 0, got max_cycles="
                             f"{self.max_cycles}, max_seconds={self.max_seconds}")
        if self.cb_multiplier < 1:
            raise ValueError(f"cb_multiplier must be at least 1, got {self.cb_multiplier}")

    def hash(self) -> str:
        """A digest of every option, part of Triton's cache key."""
        key = "_".join(f"{name}-{value}" for name, value in sorted(self.__dict__.items()))
        return hashlib.sha256(key.encode()).hexdigest()


@functools.cache
def installation_digest() -> str:
    """A digest of every file of the installed compiler (its Python stages,
    native extensions and target descriptions), part of Triton's cache key:
    a program compiled by another build of the compiler is never reused,
    even under the same version number. An editable install keeps the
    native extensions and target descriptions in another directory than the
    Python sources: every directory the package is loaded from counts."""
    from mtia_compiler import _mtia, _sim

    directories = {Path(__file__).resolve().parents[1],
                   *(Path(str(module.__file__)).resolve().parent for module in (_mtia, _sim))}
    digest = hashlib.sha256()
    for directory in sorted(directories):
        for path in sorted(directory.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(directory)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


class StageOutput:
    """What one of our stages hands to the next: the IR text Triton stores in
    `asm` (and its cache), and the compiled kernel the later stages read from."""

    def __init__(self, text: str, kernel: Any) -> None:
        self.text = text
        self.kernel = kernel

    def __str__(self) -> str:
        return self.text


class MTIABackend(BaseBackend):
    """Compiles Triton kernels for the simulated MTIA chip."""

    binary_ext = "bin"

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == BACKEND_NAME

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        self.binary_ext = "bin"

    def hash(self) -> str:
        return f"mtia-compiler-{installation_digest()}-{target_description(self.target)}"

    def parse_options(self, options: dict[str, Any]) -> MTIAOptions:
        names = {field.name for field in fields(MTIAOptions)}
        known = {k: v for k, v in options.items() if k in names and v is not None}
        known["arch"] = str(self.target.arch)
        if "supported_fp8_dtypes" in known:
            known["supported_fp8_dtypes"] = tuple(known["supported_fp8_dtypes"])
        if "allowed_dot_input_precisions" in known:
            known["allowed_dot_input_precisions"] = tuple(known["allowed_dot_input_precisions"])
        if known.get("extern_libs") is not None:
            known["extern_libs"] = tuple(dict(known["extern_libs"]).items())
        return MTIAOptions(**known)

    def pack_metadata(self, metadata: Any) -> tuple[int, int, int]:
        return (metadata.num_warps, metadata.num_ctas, metadata.shared)

    def get_codegen_implementation(self, options: MTIAOptions) -> dict[str, Any]:
        from mtia_compiler.backend.float8e4b15 import convert_custom_types

        def min_dot_size(lhs_type: Any, rhs_type: Any) -> tuple[int, int, int]:
            # The DPE takes any matrix shape; the frontend's only demand is that
            # the dimensions are at least these.
            return (1, 1, 1)

        return {"convert_custom_types": convert_custom_types, "min_dot_size": min_dot_size}

    def get_module_map(self) -> dict[str, ModuleType]:
        # The tile stage lowers CUDA libdevice's `__nv_*` functions (on the
        # SIMD engine and its special-function unit), so kernels that import
        # `triton.language.extra.libdevice` get CUDA's declarations.
        from triton.language.extra.cuda import libdevice

        return {"triton.language.extra.libdevice": libdevice}

    def load_dialects(self, context: Any) -> None:
        # Triton's TTIR stage needs no dialect beyond Triton's own.
        return None

    @staticmethod
    def make_ttir(module: Any, metadata: dict[str, Any], options: MTIAOptions) -> Any:
        """Triton's TTIR clean-up, as its NVIDIA backend runs it for targets
        with native tensor descriptors (which the DMA engine has)."""
        from triton._C.libtriton import ir, passes

        pm = ir.pass_manager(module.context)
        pm.enable_debug()
        passes.common.add_inliner(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_combine(pm)
        passes.ttir.add_reorder_broadcast(pm)
        passes.common.add_cse(pm)
        passes.common.add_symbol_dce(pm)
        passes.ttir.add_loop_unroll(pm)
        pm.run(module, "make_ttir")
        return module

    @staticmethod
    def make_tile(module: Any, metadata: dict[str, Any], options: MTIAOptions) -> StageOutput:
        """Runs the whole MTIA pipeline on the TTIR (every later stage only
        reads its result) and records what the launcher needs."""
        from mtia_compiler.compiler import compile as compile_ttir

        kernel = compile_ttir(module.str(), target=f"mtia-{options.arch}",
                              cb_multiplier=options.cb_multiplier,
                              num_stages=options.num_stages,
                              fp_fusion=options.enable_fp_fusion)
        metadata["name"] = kernel.name
        metadata["shared"] = kernel.local_memory_bytes
        metadata["mtia_parameters"] = [parameter.to_json() for parameter in kernel.parameters]
        return StageOutput(kernel.asm["tile"], kernel)

    @staticmethod
    def make_dma(previous: StageOutput, metadata: dict[str, Any],
                 options: MTIAOptions) -> StageOutput:
        return StageOutput(previous.kernel.asm["dma"], previous.kernel)

    @staticmethod
    def make_bin(previous: StageOutput, metadata: dict[str, Any], options: MTIAOptions) -> bytes:
        program: bytes = previous.kernel.asm["bin"]
        return program

    def add_stages(self, stages: dict[str, Any], options: MTIAOptions,
                   language: Language) -> None:
        if language != Language.TRITON:
            raise NotImplementedError("the MTIA backend compiles Triton kernels, not Gluon")
        stages["ttir"] = functools.partial(self.make_ttir, options=options)
        stages["tile"] = functools.partial(self.make_tile, options=options)
        stages["dma"] = functools.partial(self.make_dma, options=options)
        stages["bin"] = functools.partial(self.make_bin, options=options)
