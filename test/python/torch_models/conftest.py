"""The tests of `mtia_compiler.torch` compile into caches of their own, made
fresh for each run (Inductor's and Triton's): a cache filled by an earlier
build of the compiler or of these heuristics must not stand in for the
compilations under test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    variables = {"TRITON_CACHE_DIR": "triton-cache", "TORCHINDUCTOR_CACHE_DIR": "inductor-cache"}
    previous = {name: os.environ.get(name) for name in variables}
    for name, folder in variables.items():
        os.environ[name] = str(tmp_path_factory.mktemp(folder))
    yield
    for name, value in previous.items():
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value
