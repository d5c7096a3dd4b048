"""The program format (docs/program-format.md): the per-PE control code of
one kernel, its parameters, local-memory plan and source locations, written
by `ProgramBuilder`. The codegen (`mtia_compiler.codegen`) and the simulator
tests both write programs with it; the simulator (`mtia_compiler.sim`) reads
them."""

from mtia_compiler.program.builder import (
    CB,
    DTYPE_BYTES,
    DTYPES,
    FORMAT_VERSION,
    MAGIC,
    MAX_DIMS,
    OP_UNITS,
    SLOT_ALIGNMENT,
    Broadcast,
    FReg,
    IntArg,
    Label,
    ProgramBuilder,
    ProgramFormatError,
    Reg,
    Scalar,
    Slot,
    Splat,
    TileArg,
    Unit,
    decode,
    encode,
    merge_copy_dims,
    seal,
)

__all__ = [
    "CB",
    "DTYPES",
    "DTYPE_BYTES",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_DIMS",
    "OP_UNITS",
    "SLOT_ALIGNMENT",
    "Broadcast",
    "FReg",
    "IntArg",
    "Label",
    "ProgramBuilder",
    "ProgramFormatError",
    "Reg",
    "Scalar",
    "Slot",
    "Splat",
    "TileArg",
    "Unit",
    "decode",
    "encode",
    "merge_copy_dims",
    "seal",
]
