"""The host side of the simulated MTIA chips (`torch_mtia`: PyTorch's runtime)."""
