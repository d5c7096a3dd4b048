"""Native part of mtia_compiler: dialects, passes and the parser."""

from collections.abc import Sequence

import mlir._mlir_libs._mlir.ir
import mlir.ir


def register_dialects(registry: mlir.ir.DialectRegistry) -> None:
    """Insert the mtia-compiler dialects into a registry."""

def register_passes() -> None:
    """Add the C++ passes of mtia-compiler to the global pass registry."""

def register_test_passes() -> None:
    """
    Add the test passes of test/lib (mtia-opt only) to the global pass registry.
    """

def registered_dialects(context: mlir.ir.Context) -> list[str]:
    """Names of the dialects registered in a context."""

def print_registered_passes() -> None:
    """Print every C++ pass of the global registry to stdout."""

def verified_asm(operation: mlir.ir.Operation) -> str:
    """
    The text of a verified operation with its locations: what `operation.get_asm(enable_debug_info=True, assume_verified=True)` returns.
    """

class SourceSession:
    """
    A source buffer whose diagnostics are rendered as file:line:col, or checked against expected-* annotations in verify mode.
    """

    def __init__(self, context: mlir.ir.Context, buffer: bytes, buffer_name: str, verify_diagnostics: bool = False) -> None: ...

    def parse(self) -> mlir.ir.Module | None:
        """Parse and verify the buffer; None on failure."""

    def verify(self) -> bool:
        """In verify mode, whether every expected diagnostic was seen."""

    def take_output(self) -> bytes:
        """The diagnostics rendered since the last call."""

    def close(self) -> None: ...

    def __enter__(self) -> SourceSession: ...

    def __exit__(self, *args) -> None: ...

class PointerType(mlir._mlir_libs._mlir.ir.Type):
    @staticmethod
    def isinstance(other_type: mlir.ir.Type) -> bool: ...

    def __repr__(self) -> str: ...

    @staticmethod
    def get_static_typeid() -> mlir.ir.TypeID: ...

    @classmethod
    def get(cls, pointee_type: mlir.ir.Type, address_space: int = 1) -> object:
        """Create !tt.ptr<pointee_type, address_space>."""

    @property
    def pointee_type(self) -> mlir.ir.Type: ...

    @property
    def address_space(self) -> int: ...

class TensorDescType(mlir._mlir_libs._mlir.ir.Type):
    @staticmethod
    def isinstance(other_type: mlir.ir.Type) -> bool: ...

    def __repr__(self) -> str: ...

    @staticmethod
    def get_static_typeid() -> mlir.ir.TypeID: ...

    @classmethod
    def get(cls, block_type: mlir.ir.Type) -> object:
        """Create !tt.tensordesc<block_type> from a ranked tensor type."""

    @property
    def block_type(self) -> mlir.ir.Type: ...

def op_endpoint(op: mlir.ir.Operation) -> int | None:
    """
    The cb.Endpoint value of the agent that executes `op` (a unit, the control core, or a transfer's DMA queue), or None if `op` executes on no unit.
    """

def tile_value_holder(value: mlir.ir.Value) -> int:
    """
    The cb.Endpoint value of the agent that holds `value`, a tile (the UnitAssignment analysis of the data-movement stage).
    """

class TileType(mlir._mlir_libs._mlir.ir.Type):
    @staticmethod
    def isinstance(other_type: mlir.ir.Type) -> bool: ...

    def __repr__(self) -> str: ...

    @staticmethod
    def get_static_typeid() -> mlir.ir.TypeID: ...

    @classmethod
    def get(cls, shape: Sequence[int], element_type: mlir.ir.Type, order: Sequence[int] = [], loc: mlir.ir.Location | None = None) -> object:
        """
        Create !tile.tile<shape x element_type> with an optional dimension order (fastest varying first; empty for row-major).
        """

    @property
    def shape(self) -> list[int]: ...

    @property
    def element_type(self) -> mlir.ir.Type: ...

    @property
    def order(self) -> list[int]:
        """Dimensions from fastest to slowest varying."""

    @property
    def is_row_major(self) -> bool: ...

    @property
    def size_in_bytes(self) -> int: ...

class CircularBufferType(mlir._mlir_libs._mlir.ir.Type):
    @staticmethod
    def isinstance(other_type: mlir.ir.Type) -> bool: ...

    def __repr__(self) -> str: ...

    @staticmethod
    def get_static_typeid() -> mlir.ir.TypeID: ...

    @classmethod
    def get(cls, page_type: mlir.ir.Type, num_pages: int, loc: mlir.ir.Location | None = None) -> object:
        """Create !cb.cb<page_type, pages = num_pages>."""

    @property
    def page_type(self) -> mlir.ir.Type: ...

    @property
    def num_pages(self) -> int: ...

    @property
    def size_in_bytes(self) -> int: ...

class TokenType(mlir._mlir_libs._mlir.ir.Type):
    @staticmethod
    def isinstance(other_type: mlir.ir.Type) -> bool: ...

    def __repr__(self) -> str: ...

    @staticmethod
    def get_static_typeid() -> mlir.ir.TypeID: ...

    @classmethod
    def get(cls, context: mlir.ir.Context | None = None) -> object:
        """Create !dma.token."""
