"""Compiling TTIR for the simulated MTIA chip: the stage table and the API.

    import mtia_compiler
    kernel = mtia_compiler.compile("kernel.ttir", target="mtia-2i")
    kernel.asm["ttir"], kernel.asm["tile"], kernel.asm["dma"], kernel.asm["bin"]
    result = kernel.run(x, y, out, n, grid=3)
    result.cycles

Like Triton's backends (`add_stages`), the pipeline is a table of named
stages. Each stage but the last runs a pass pipeline on the module; the
module's text after it is kept in `asm`. The last stage emits the program
the simulator runs (`asm["bin"]`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from mlir.passmanager import PassManager

from mtia_compiler import _mtia, ir
from mtia_compiler import transforms as _transforms  # noqa: F401 (registers passes)
from mtia_compiler._sim import Program
from mtia_compiler.codegen import emit_program
from mtia_compiler.codegen.storage import PROGRAM_STAGE_BUFFERS
from mtia_compiler.dialects.tt import PointerType, TensorDescType
from mtia_compiler.errors import CompilationError, LocalMemoryError, PlanLimitError
from mtia_compiler.passes import add_pipeline
from mtia_compiler.program import decode
from mtia_compiler.sim import (
    DEFAULT_MAX_STEPS,
    Pointer,
    Result,
    Simulator,
    grid_dims,
    load_target,
    parse_program,
)
from mtia_compiler.source import compiler_context, decode_diagnostics


def pass_stages(target: str | Path, strip_budget_divisor: int = 0,
                strip_joint_axes: bool = False, cb_multiplier: int = 1,
                split_masked_loops: bool = True, num_stages: int = 3,
                fp_fusion: bool = True, max_stages: int = 0) -> tuple[tuple[str, str], ...]:
    """The pass pipelines of the stages that transform IR, in order, for
    `target` (a name from `targets/` or a path to a JSON description), which
    the passes read their machine constants from. With a
    `strip_budget_divisor` d, `mtia-strip-mine-blocks` runs a kernel whose
    data exceeds 1/d of local memory in strips within 1/d, of one axis or,
    with `strip_joint_axes`, in tiles of two. `cb_multiplier` multiplies the
    pages of the buffers of loads and stores (`mtia-lower-data-movement`).
    `split_masked_loops` runs `mtia-split-masked-loops` (which splits the
    loops whose masks bound them), whose second loop needs buffers of its
    own: `compile` tries without it when the plan does not fit. `num_stages`
    (Triton's) is the pipeline stages of the loops without a
    `tt.num_stages` of their own: the loads' prefetch depth is at least that
    many pages, and from two stages on `mtia-pipeline-dots` computes a
    loop's independent dots ahead, one iteration per stage beyond the first,
    as far as the loop's estimated schedule needs and at most two.
    `max_stages`, unless 0, bounds every loop's stages, its own included.
    `fp_fusion` (Triton's `enable_fp_fusion`) contracts multiplications and
    the additions that use them into fused multiply-adds
    (`mtia-combine-arithmetic{fp-fusion}`)."""
    if num_stages < 1:
        raise ValueError(f"num_stages must be at least 1, got {num_stages}")
    strip_mining = (f"mtia-strip-mine-blocks{{budget-divisor={strip_budget_divisor} "
                    f"joint-axes={str(strip_joint_axes).lower()}}}")
    loop_splitting = "mtia-split-masked-loops, " if split_masked_loops else ""
    # The inliner canonicalizes every callable before inlining it by
    # default; the stage canonicalizes the whole module right after.
    return (
        ("ttir", "builtin.module(mtia-drop-assumes, mtia-lift-function-control-flow, "
                 "inline{default-pipeline=}, canonicalize, "
                 "cse, symbol-dce)"),
        ("tile", f"builtin.module(mtia-attach-target{{target={target} "
                 f"num-stages={num_stages} max-stages={max_stages}}}, "
                 "mtia-materialize-poison, "
                 "mtia-substitute-induction-variables, "
                 "mtia-narrow-masked-dimensions, "
                 "mtia-order-programs, "
                 f"{strip_mining}, mtia-contiguous-accesses, {loop_splitting}"
                 f"mtia-combine-arithmetic{{fp-fusion={str(fp_fusion).lower()}}}, "
                 "mtia-pipeline-dots, mtia-subtile-epilogues, "
                 "mtia-convert-tt-to-tile, mtia-expand-combine-regions, "
                 "mtia-rematerialize-tiles, canonicalize, cse, "
                 "mtia-relay-shared-products)"),
        ("dma", f"builtin.module(mtia-lower-data-movement{{"
                f"reserved-buffers={PROGRAM_STAGE_BUFFERS} cb-multiplier={cb_multiplier}}}, "
                "canonicalize, cse, mtia-reserve-where-produced, mtia-rematerialize-tiles)"),
    )


#: The stages for the default target, mtia-2i.
PASS_STAGES = pass_stages("mtia-2i")

#: When the program stage's local-memory plan of a kernel does not fit, the
#: compiler compiles it again with these divisors of local memory, in order,
#: as the budget of a strip's data, until a plan fits, first in strips of one
#: axis, then in tiles of two: the estimate the strip-mining pass makes does
#: not see the buffers the plan adds (double buffering, each unit's scratch,
#: offsets the transfers cannot fold into their addressing).
STRIP_BUDGET_DIVISORS = (2, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class Parameter:
    """One parameter of the kernel's `tt.func`, in signature order."""

    name: str
    kind: str  # "pointer", "tensordesc", "int" or "float"
    #: The width of a scalar parameter's type (i1 is 1); 64 for the others.
    bits: int = 64
    #: The element type a pointer points to or a descriptor's block holds,
    #: as MLIR prints it ("f32", "i8", "!tt.ptr<f16>"); "" for scalars.
    element: str = ""

    def to_json(self) -> list[Any]:
        """The parameter as a JSON value (Triton keeps it in its metadata)."""
        return [self.name, self.kind, self.bits, self.element]

    @classmethod
    def from_json(cls, value: Sequence[Any]) -> Parameter:
        name, kind, bits = value[:3]
        # Metadata that Triton cached before elements were recorded has none
        # (its buffers are then taken as they come).
        element = value[3] if len(value) > 3 else ""
        return cls(str(name), str(kind), int(bits), str(element))


@dataclass
class CompiledKernel:
    """A kernel compiled for one target: its IR after every stage, its
    program, and how to launch it on the simulator."""

    name: str
    target: str
    asm: dict[str, Any]
    parameters: list[Parameter]
    _simulator: Simulator | None = field(default=None, repr=False)
    #: The program parsed and validated by the first launch.
    _program: Program | None = field(default=None, repr=False)

    @property
    def local_memory_bytes(self) -> int:
        """The local memory of each PE that the program's circular buffers
        take (what Triton reports as the kernel's `shared` memory)."""
        cbs = decode(self.asm["bin"]).get("cbs", [])
        return sum(int(cb["pages"]) * int(cb["page_bytes"]) for cb in cbs)

    def run(self, *args: Any, grid: int | Sequence[int] = 1, trace: bool = False,
            echo: bool = False, max_steps: int = DEFAULT_MAX_STEPS, max_cycles: int = 0,
            max_seconds: float = 0.0) -> Result:
        """Simulates one launch over `grid` (an int or 1 to 3 ints).

        `args` follow the `tt.func` parameters: a contiguous numpy array for
        each pointer and for each tensor descriptor (its base tensor), of the
        pointee's type or raw bytes (`array.view(np.uint8)`), written in
        place (a read-only array is fine for a buffer the kernel only reads),
        or a `mtia_compiler.sim.Pointer` into one,
        and a Python int or float for each scalar, in the range of its type.
        With `echo`, the text the kernel prints also goes to stdout.

        The launch stops with a `timeout` after `max_steps` control steps
        (summed over the PEs), `max_cycles` simulated cycles or `max_seconds`
        of host time (0: no limit), naming the instruction and source line a
        control core is at; Ctrl-C stops it within a second. Raises
        `mtia_compiler.SimulationError` on a fault, TypeError or
        OverflowError naming the parameter for an argument that does not fit
        its parameter."""
        if len(args) != len(self.parameters):
            raise TypeError(
                f"kernel '{self.name}' takes {len(self.parameters)} arguments "
                f"({', '.join(p.name for p in self.parameters)}), got {len(args)}")
        bound = [_bind(value, parameter) for value, parameter in zip(args, self.parameters,
                                                                     strict=True)]
        dims = grid_dims(grid)
        if self._simulator is None:
            self._simulator = Simulator(self.target)
        if self._program is None:
            self._program = parse_program(self.asm["bin"])
        return self._simulator.run(self._program, bound, dims, trace=trace, echo=echo,
                                   max_steps=max_steps, max_cycles=max_cycles,
                                   max_seconds=max_seconds)


#: The numpy types of the MLIR float types numpy has.
_NUMPY_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _element_bits(element: str) -> int:
    """The width of an element type as MLIR prints it (pointers: 64)."""
    if element.startswith("!tt.ptr"):
        return 64
    if element.startswith(("f8E", "f6E", "f4E")):
        return 8
    digits = element.lstrip("bfi")
    return int(digits) if digits.isdigit() else 0


def _buffer_fits(dtype: np.dtype[Any], element: str) -> bool:
    """Whether an array of `dtype` holds elements of `element`: raw bytes
    (uint8), integers of the element's width (its bits: the way to pass
    types numpy lacks, or the other signedness) or the element's own float
    type (ml_dtypes' types for bf16 and the fp8 formats)."""
    if dtype == np.uint8 or not element:
        return True
    if element == "i1":
        return dtype.itemsize == 1
    if dtype.itemsize * 8 != _element_bits(element):
        return False
    if dtype.kind in "iub":
        return True
    if element in _NUMPY_FLOATS:
        return dtype == _NUMPY_FLOATS[element]
    # A float format numpy lacks: ml_dtypes' type of it, not another float.
    return not element.startswith("i") and dtype.kind != "f"


def _bind(value: Any, parameter: Parameter) -> Any:
    if parameter.kind in ("pointer", "tensordesc"):
        buffer = value.buffer if isinstance(value, Pointer) else value
        if not isinstance(buffer, np.ndarray):
            raise TypeError(f"parameter '{parameter.name}' takes a numpy array, "
                            f"got {type(value).__name__}")
        if not _buffer_fits(buffer.dtype, parameter.element):
            raise TypeError(
                f"parameter '{parameter.name}' points to {parameter.element}: "
                f"a {buffer.dtype} array does not hold it (pass an array of the "
                f"pointee's type, or `array.view(np.uint8)` to reuse its bytes)")
        return value
    if parameter.kind == "int":
        return _bind_int(value, parameter)
    if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"parameter '{parameter.name}' takes a float, "
                        f"got {type(value).__name__}")
    # A double: the kernel rounds it to the parameter's type (f64 keeps it).
    try:
        return float(value)
    except (OverflowError, TypeError) as error:
        raise TypeError(f"parameter '{parameter.name}' takes a float: {error}") from None


def _bind_int(value: Any, parameter: Parameter) -> int:
    """`value` checked against the parameter's width, signed or unsigned
    (Triton passes u64 values of 2**63 and more as i64), as the signed value
    of that width the kernel sees: 2**32 - 1 given to an i32 is -1, as
    Triton's GPU launchers pass it, wherever the kernel uses it."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"parameter '{parameter.name}' takes an int, "
                        f"got {type(value).__name__}")
    integer = int(value)
    bits = max(parameter.bits, 1)
    if bits == 1:
        return integer
    if not -(1 << (bits - 1)) <= integer < (1 << bits):
        raise OverflowError(f"parameter '{parameter.name}' is an i{bits}: "
                            f"{integer} does not fit")
    return integer - (1 << bits) if integer >= 1 << (bits - 1) else integer


def _parameters(module: ir.Module, source: str) -> tuple[str, list[Parameter]]:
    """The name and parameters of the module's public `tt.func`; an error
    located at the start of `source` (the module) when there is none."""
    for op in module.body.operations:
        if op.operation.name != "tt.func":
            continue
        attributes = op.operation.attributes
        if "sym_visibility" in attributes and \
                ir.StringAttr(attributes["sym_visibility"]).value != "public":
            continue
        name = ir.StringAttr(attributes["sym_name"]).value
        function_type = ir.FunctionType(ir.TypeAttr(attributes["function_type"]).value)
        parameters = []
        entry = op.regions[0].blocks[0]
        for index, argument_type in enumerate(function_type.inputs):
            kind = _kind(argument_type)
            bits = ir.IntegerType(argument_type).width if kind == "int" else 64
            parameters.append(Parameter(_argument_name(entry.arguments[index], index),
                                        kind, bits, _element(argument_type)))
        return name, parameters
    raise CompilationError(f"{source}:1:1: error: the module has no public tt.func kernel")


def _argument_name(argument: ir.Value, index: int) -> str:
    location = argument.location
    if location.is_a_name():
        return location.name_str
    return f"arg{index}"


def _element(argument_type: ir.Type) -> str:
    """The element type a pointer or descriptor parameter addresses, as
    MLIR prints it; "" for a scalar."""
    if PointerType.isinstance(argument_type):
        pointee = PointerType(argument_type).pointee_type
        if isinstance(pointee, ir.RankedTensorType):
            pointee = pointee.element_type
        return str(pointee)
    if TensorDescType.isinstance(argument_type):
        return str(ir.RankedTensorType(TensorDescType(argument_type).block_type).element_type)
    return ""


def _kind(argument_type: ir.Type) -> str:
    text = str(argument_type)
    if text.startswith("!tt.ptr"):
        return "pointer"
    if text.startswith("!tt.tensordesc"):
        return "tensordesc"
    if isinstance(argument_type, ir.FloatType):
        return "float"
    return "int"


@functools.lru_cache(maxsize=128)
def _pass_manager(context: ir.Context, pipeline: str) -> PassManager:
    """The pass manager of a stage's `pipeline` in `context`, built once:
    parsing the pipeline and initializing its passes (canonicalize gathers
    the patterns of every registered dialect) costs more than running them
    on most kernels. It verifies the module once after the stage (in
    `compile`) rather than after every pass."""
    pm = PassManager(context=context)
    add_pipeline(pm, pipeline)
    pm.enable_verifier(False)
    return pm


def _read_source(src: str | Path) -> tuple[bytes, str]:
    """The TTIR of `src`: a path to a file, or the text itself."""
    if isinstance(src, Path) or (isinstance(src, str) and "\n" not in src
                                 and Path(src).is_file()):
        path = Path(src)
        return path.read_bytes(), str(path)
    return str(src).encode(), "<ttir>"


def compile(src: str | Path, target: str = "mtia-2i",  # noqa: A001 (Triton's name)
            stages: Sequence[tuple[str, str]] | None = None,
            cb_multiplier: int = 1, num_stages: int = 3,
            fp_fusion: bool = True) -> CompiledKernel:
    """Compiles TTIR (a path to a `.ttir` file, or its text) for `target`,
    with `cb_multiplier` times the usual pages in the buffers of loads and
    stores (a deeper prefetch, when local memory allows; the program stage
    gives pages back when it does not), with loops split where their
    select masks hold for whole blocks when the masks bound them
    (`mtia-split-masked-loops`), with loops in `num_stages` pipeline
    stages unless they give their own (`tl.range(..., num_stages=)`; see
    `pass_stages`), and, with `fp_fusion` (Triton's `enable_fp_fusion`),
    multiplications and the additions that use them contracted into fused
    multiply-adds.

    Raises `mtia_compiler.CompilationError` with `file:line:col` locations
    of the TTIR operations that cannot be compiled."""
    buffer, name = _read_source(src)
    target_description = load_target(target)
    # Each strip size first with the loops split where masks hold, then,
    # should the buffers of the second loops not fit, without; and, should
    # no plan fit, all of it again in one pipeline stage (no dot computed
    # ahead, which takes buffers of its own), loops with stages of their own
    # included: a block that no strip can cut (one read through a tensor
    # descriptor) runs, only slower. (The text search only saves the
    # attempts in one stage, and without a loop splitting in a kernel
    # without loops, that cannot differ from those before.)
    stage_plans = [(num_stages, 0)]
    if num_stages > 1 or b"tt.num_stages" in buffer:
        stage_plans.append((1, 1))
    splits = (True, False) if b"scf.for" in buffer else (True,)
    attempts = [(stages, False)] if stages is not None else [
        (pass_stages(target, divisor, joint, cb_multiplier, split, loop_stages, fp_fusion,
                     max_stages),
         split)
        for loop_stages, max_stages in stage_plans
        for joint, divisors in ((False, (0, *STRIP_BUDGET_DIVISORS)),
                                (True, STRIP_BUDGET_DIVISORS))
        for divisor in divisors
        for split in splits]
    context = compiler_context()
    # The first plan that does not fit, with and without the loop splitting.
    errors: dict[bool, PlanLimitError] = {}
    tried: set[str] = set()
    for attempt, split in attempts:
        with _mtia.SourceSession(context, buffer, name) as session:
            def fail() -> CompilationError:
                return CompilationError(decode_diagnostics(session.take_output()))

            module = session.parse()
            if module is None:
                raise fail()
            kernel_name, parameters = _parameters(module, name)
            asm: dict[str, Any] = {}
            with context:
                for stage, pipeline in attempt:
                    try:
                        _pass_manager(context, pipeline).run(module.operation)
                        module.operation.verify()
                    except ir.MLIRError:
                        raise fail() from None
                    asm[stage] = _mtia.verified_asm(module.operation)
            # A budget that changes nothing in the tile stage changes nothing later.
            if asm.get("tile", "") in tried:
                continue
            tried.add(asm.get("tile", ""))
            try:
                asm["bin"] = emit_program(module, target_description)
            except PlanLimitError as error:
                errors.setdefault(split, error)
                continue
            except CompilationError:
                raise
            except Exception as error:
                # A defect of the program stage, not of the kernel: still a
                # compilation error for the user, with the cause chained.
                raise CompilationError(
                    f"{name}: error: internal error in the program stage "
                    f"({type(error).__name__}: {error}); please report it") from error
        return CompiledKernel(kernel_name, target, asm, parameters)
    # The error of a plan without the optional splitting says more.
    first_error = errors.get(False) or errors[True]
    if isinstance(first_error, LocalMemoryError) and len(tried) > 1:
        raise LocalMemoryError(f"{first_error}; in strips of the block that the compiler "
                               "could make, it does not fit either")
    raise first_error

