"""PyTorch models on the simulated MTIA (docs/torch.md)."""

from mtia_compiler.torch.compiled import CompiledModel, MTIAFallbackWarning, compile
from mtia_compiler.torch.profile import Profile, profile
from mtia_compiler.torch.report import Coverage, KernelRecord, Report

__all__ = ["CompiledModel", "Coverage", "KernelRecord", "MTIAFallbackWarning", "Profile",
           "Report", "compile", "profile"]
