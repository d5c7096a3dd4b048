"""PyTorch's MTIA runtime over the simulated chips of mtia-compiler.

`dynamic_library` is the module PyTorch names when it finds no MTIA runtime;
importing it (PyTorch's device-extension autoload does, at `import torch`)
registers the device with PyTorch. `acc_flags` answers Inductor's question
for the chip's architecture.
"""
