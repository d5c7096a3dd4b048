"""Passes of the compiler written in Python; importing registers them."""

from mtia_compiler.transforms import drop_assumes  # noqa: F401
