"""Exceptions raised by mtia_compiler."""


class CompilationError(Exception):
    """A kernel could not be compiled.

    The message holds every diagnostic as `file:line:col: error: ...`, located
    at the TTIR operation that caused it.
    """


class PlanLimitError(CompilationError):
    """The plan of a kernel exceeds a limit of the PE: its local memory, or
    the circular buffers its command processor tracks."""


class LocalMemoryError(PlanLimitError):
    """The local-memory plan of a kernel does not fit a PE's local memory.

    The compiler raises it after it has tried to run the kernel's block in
    strips small enough to fit; the message names what is live at the plan's
    peak."""
