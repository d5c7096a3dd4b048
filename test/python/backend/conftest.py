"""The backend's tests compile into a Triton cache of their own, made fresh
for each run: Triton's cache key holds the kernel's source but not its file,
so a shared cache could hand these tests a program compiled from a copy of
this file elsewhere, whose source locations name that copy."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_triton_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    previous = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = str(tmp_path_factory.mktemp("triton-cache"))
    yield
    if previous is None:
        del os.environ["TRITON_CACHE_DIR"]
    else:
        os.environ["TRITON_CACHE_DIR"] = previous
