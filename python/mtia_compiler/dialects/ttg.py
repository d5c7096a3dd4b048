"""Python bindings of the part of Triton's `ttg` dialect that TTIR contains
(`ttg.barrier`): op builders and enums."""

from mtia_compiler.dialects._ttg_enum_gen import *  # noqa: F403
from mtia_compiler.dialects._ttg_ops_gen import *  # noqa: F403
