"""The runtime by which PyTorch uses the simulated MTIA chips of mtia-compiler
as its `mtia` device (`mtia.host_runtime.torch_mtia`, the module PyTorch's own
MTIA support imports)."""
