"""A buffer over host memory that the process cannot write (though its
array says it can) is bound read-only, so that a store into it is a
`read_only` error naming the parameter; one over memory that it cannot read
is refused. Before, the simulator's copies faulted and SIGSEGV killed the
process: `torch.from_numpy(np.memmap(path, mode="r"))` as a kernel's output.
Each case runs in a subprocess, so that a fault fails the test instead of
killing pytest."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: Shared by the cases: `store`, a kernel that stores 1.0 into the first
#: 1024 f32 of `out`; `load`, one that copies them from `src` to `out`;
#: `run`, which runs one, prints the error's kind and message and exits 0;
#: `writable_view`, a writable numpy array over any memory; `libc.mmap`.
PRELUDE = textwrap.dedent("""
    import ctypes, mmap, os, sys
    import numpy as np
    from mtia_compiler.program import ProgramBuilder, Unit
    from mtia_compiler.sim import SimulationError, Simulator

    def store_program():
        b = ProgramBuilder("fill")
        out = b.param_ptr("out", "f32")
        cb = b.cb("t", 4096, 1)
        b.reserve(Unit.SIMD, cb)
        b.simd_fill("f32", cb.back(), 1024, 1.0)
        b.push(Unit.SIMD, cb)
        b.wait(Unit.DMA_OUT, cb)
        b.dma_store(cb.front(), b.param(out), "f32", [1024], [1])
        b.pop(Unit.DMA_OUT, cb)
        return b.build()

    def load_program():
        b = ProgramBuilder("copy")
        src, out = b.param_ptr("src", "f32"), b.param_ptr("out", "f32")
        cb = b.cb("t", 4096, 1)
        b.reserve(Unit.DMA_IN, cb)
        b.dma_load(cb.back(), b.param(src), "f32", [1024], [1])
        b.push(Unit.DMA_IN, cb)
        b.wait(Unit.DMA_OUT, cb)
        b.dma_store(cb.front(), b.param(out), "f32", [1024], [1])
        b.pop(Unit.DMA_OUT, cb)
        return b.build()

    def run(program, args):
        try:
            Simulator().run(program, args)
        except SimulationError as error:
            print(error.kind, error)
            return
        print("ok")

    def writable_view(address, count, dtype=np.float32):
        raw = (ctypes.c_uint8 * (count * np.dtype(dtype).itemsize)).from_address(address)
        view = np.ctypeslib.as_array(raw).view(dtype)
        assert view.flags.writeable
        return view

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    PROT_NONE, MAP_FIXED = 0, 0x10  # Linux's values; the mmap module has neither.
    path = sys.argv[1]
    with open(path, "wb") as f:
        f.write(np.arange(2048, dtype=np.float32).tobytes())
""")

CASES = {
    # The backend's way: torch takes the read-only memmap as writable, and
    # the storage is viewed as numpy again.
    "torch_memmap": """
        import torch, warnings
        warnings.simplefilter("ignore")
        tensor = torch.from_numpy(np.memmap(path, np.float32, mode="r"))
        out = tensor.numpy()
        assert out.flags.writeable
        run(store_program(), [out])
        assert out[0] == 0
    """,
    "numpy_over_read_only_mmap": """
        with open(path, "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
        address = np.frombuffer(mapped, np.uint8).ctypes.data
        run(store_program(), [writable_view(address, 2048)])
    """,
    # A buffer whose first page is writable and whose second is not.
    "spanning_two_mappings": """
        address = libc.mmap(None, 8192, mmap.PROT_READ | mmap.PROT_WRITE,
                            mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        assert libc.mprotect(address + 4096, 4096, mmap.PROT_READ) == 0
        run(store_program(), [writable_view(address + 2048, 1024)])
    """,
    # Two mappings with the same permissions, one after the other, take
    # the store.
    "two_writable_mappings": """
        address = libc.mmap(None, 8192, mmap.PROT_READ | mmap.PROT_WRITE,
                            mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        fd = os.open(path, os.O_RDONLY)
        fixed = libc.mmap(address + 4096, 4096, mmap.PROT_READ | mmap.PROT_WRITE,
                          mmap.MAP_PRIVATE | MAP_FIXED, fd, 0)
        assert fixed == address + 4096
        out = writable_view(address + 2048, 1024)
        run(store_program(), [out])
        assert (out == 1).all()
    """,
    "unreadable": """
        address = libc.mmap(None, 4096, PROT_NONE,
                            mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        run(load_program(), [writable_view(address, 1024), np.zeros(1024, np.float32)])
    """,
}


@pytest.mark.parametrize(("case", "expected"), [
    ("torch_memmap", "read_only"),
    ("numpy_over_read_only_mmap", "read_only"),
    ("spanning_two_mappings", "read_only"),
    ("two_writable_mappings", "ok"),
    ("unreadable", "invalid_launch"),
])
def test_buffers_over_memory_the_host_protects(case: str, expected: str,
                                               tmp_path: Path) -> None:
    script = PRELUDE + textwrap.dedent(CASES[case])
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "data.bin")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == expected, done.stdout
    if expected == "read_only":
        assert "into the read-only buffer 'out' (its host memory is not writable)" in done.stdout
    if expected == "invalid_launch":
        assert "the buffer of parameter 'src'" in done.stdout
        assert "is not readable host memory" in done.stdout
