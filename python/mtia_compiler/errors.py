"""Exceptions raised by mtia_compiler."""


class CompilationError(Exception):
    """A kernel could not be compiled.

    The message holds every diagnostic as `file:line:col: error: ...`, located
    at the TTIR operation that caused it.
    """
