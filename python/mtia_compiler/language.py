"""MTIA language extensions for `@triton.jit` kernels (docs/language.md).

What a GPU does not have and plain Triton cannot say: which PE a program
runs on, barriers between the programs running at once, and collectives over
the PEs' reduction network::

    import mtia_compiler.language as mtia

    @triton.jit
    def total(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        ...
        partial = tl.sum(x, axis=0)
        whole = mtia.all_reduce(partial, "sum")      # every program gets it
        if tl.program_id(0) == 0:
            tl.store(out_ptr, whole)

Each function is a Triton builtin that the stock Triton 3.9 frontend turns
into `tt.extern_elementwise` in the library `mtia`, whose symbol names the
operation (`mtia.all_reduce.sum.grid`); the tile stage of the MTIA backend
recognises those calls (passes/Conversion/TTToTile/LanguageOpToTile.cpp) and
reports any other use at its location.

A collective involves a *group* of programs, chosen like `tl.program_id`'s
axis: `axis=0`, the programs that differ only in their id along grid axis 0
(with a grid of (8, 8) on the 8x8 PEs, a row of PEs), `axis=1`, or
`axis=None`, every program of the launch. Every program of a group must
reach the same collectives in the same order, and a group must fit on the
PEs at once; the simulator reports a launch that breaks either rule.
"""

from __future__ import annotations

from typing import Any

from triton.language import core

#: The library name that marks the calls as extensions.
LIBRARY = "mtia"

#: The group of programs of each `axis` argument.
GROUPS = {None: "grid", 0: "row", 1: "column"}

#: The reductions of `all_reduce`.
REDUCTIONS = ("sum", "max", "min")

#: The neighbours of `shift`: east and west along grid axis 0, south and
#: north along axis 1.
DIRECTIONS = ("east", "west", "south", "north")


def _call(symbol: str, arguments: list[Any], result: core.dtype, pure: bool,
          semantic: Any) -> Any:
    """`tt.extern_elementwise` of `symbol` in the `mtia` library, giving
    `result` elements."""
    if type(semantic.builder).__name__ == "InterpreterBuilder":
        raise NotImplementedError(
            f"{symbol} needs the MTIA backend: Triton's interpreter runs the programs one "
            "after another, so they cannot meet at a barrier or collective")
    tensors = [semantic.to_tensor(argument) for argument in arguments]
    types = tuple(tensor.dtype for tensor in tensors)
    return core.extern_elementwise(LIBRARY, "", tensors, {types: (symbol, result)},
                                   is_pure=pure, _semantic=semantic)


def _group(axis: Any) -> str:
    axis = core._unwrap_if_constexpr(axis)
    if axis not in GROUPS:
        raise ValueError(f"axis must be 0, 1 or None (every program), got {axis!r}")
    return GROUPS[axis]


def _pe(query: str, semantic: Any) -> Any:
    return _call(f"{LIBRARY}.pe.{query}", [0], core.int32, True, semantic)


@core.extern
def pe_row(_semantic: Any = None) -> Any:
    """The row of the PE this program runs on, in `[0, num_pe_rows())`."""
    return _pe("row", _semantic)


@core.extern
def pe_column(_semantic: Any = None) -> Any:
    """The column of the PE this program runs on, in `[0, num_pe_columns())`."""
    return _pe("column", _semantic)


@core.extern
def pe_index(_semantic: Any = None) -> Any:
    """The PE's index `pe_row() * num_pe_columns() + pe_column()`. Program
    `l` (its ids linearised with axis 0 fastest) runs on PE `l % (rows x
    columns)`, after the programs `l - k * (rows x columns)`."""
    return _pe("index", _semantic)


@core.extern
def num_pe_rows(_semantic: Any = None) -> Any:
    """The number of rows of the target's PE grid (8 on mtia-2i)."""
    return _pe("rows", _semantic)


@core.extern
def num_pe_columns(_semantic: Any = None) -> Any:
    """The number of columns of the target's PE grid (8 on mtia-2i)."""
    return _pe("columns", _semantic)


@core.extern
def barrier(axis: Any = None, _semantic: Any = None) -> None:
    """Waits until every program of the group (`axis`, see the module) has
    reached this barrier. Stores of any member before it are visible to
    loads of every member after it."""
    _call(f"{LIBRARY}.barrier.{_group(axis)}", [0], core.int32, False, _semantic)


@core.extern
def all_reduce(x: Any, op: Any = "sum", axis: Any = None, _semantic: Any = None) -> Any:
    """`x` (a tensor or a scalar) combined elementwise over the programs of
    the group by `op` ("sum", "max" or "min"; NaN-ignoring like `tl.max`
    on floats, unsigned on unsigned integers) on the reduction network, in
    rank order; every member gets the result."""
    op = core._unwrap_if_constexpr(op)
    if op not in REDUCTIONS:
        raise ValueError(f"op must be one of {', '.join(REDUCTIONS)}, got {op!r}")
    x = _semantic.to_tensor(x)
    if x.dtype.is_int1():
        raise ValueError("all_reduce combines numbers; convert int1 values first")
    if x.dtype.is_int_unsigned() and op != "sum":
        op = f"u{op}"
    return _call(f"{LIBRARY}.all_reduce.{op}.{_group(axis)}", [x], x.dtype, False, _semantic)


@core.extern
def broadcast(x: Any, root: Any = 0, axis: Any = None, _semantic: Any = None) -> Any:
    """The `x` of the group member of rank `root` (its program id along the
    group's axes, axis 0 fastest), given to every member bit for bit."""
    root = core._unwrap_if_constexpr(root)
    if not isinstance(root, int) or root < 0:
        raise ValueError(f"root must be a non-negative constant, got {root!r}")
    x = _semantic.to_tensor(x)
    return _call(f"{LIBRARY}.broadcast.{_group(axis)}.{root}", [x], x.dtype, False, _semantic)


def _arg_reduce(kind: str, x: Any, index: Any, axis: Any, semantic: Any) -> Any:
    x, index = semantic.to_tensor(x), semantic.to_tensor(index)
    if index.dtype != core.int32:
        raise ValueError(f"{kind}'s index must be int32, got {index.dtype}")
    if x.dtype.is_int1() or x.dtype.is_int_unsigned():
        raise ValueError(f"{kind} compares signed integers or floats, got {x.dtype}")
    return _call(f"{LIBRARY}.{kind}.{_group(axis)}", [x, index], core.int32, False, semantic)


@core.extern
def all_argmax(x: Any, index: Any, axis: Any = None, _semantic: Any = None) -> Any:
    """The `index` (int32) of the group member holding the largest `x`,
    elementwise: every member sends its `x` and `index`; the lowest rank
    wins ties, and NaN never displaces a number."""
    return _arg_reduce("all_argmax", x, index, axis, _semantic)


@core.extern
def all_argmin(x: Any, index: Any, axis: Any = None, _semantic: Any = None) -> Any:
    """`all_argmax` for the smallest `x`."""
    return _arg_reduce("all_argmin", x, index, axis, _semantic)


@core.extern
def shift(x: Any, direction: Any, _semantic: Any = None) -> Any:
    """Sends `x` to the neighbouring program in `direction` ("east": program
    id + 1 along grid axis 0, "west": - 1, "south": + 1 along axis 1,
    "north": - 1) and returns the `x` of the neighbour on the other side;
    a program at the edge of the grid, which has none, gets zeros. With a
    grid of (8, 8), the neighbours are the PE's neighbours."""
    direction = core._unwrap_if_constexpr(direction)
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    x = _semantic.to_tensor(x)
    return _call(f"{LIBRARY}.shift.{direction}", [x], x.dtype, False, _semantic)
