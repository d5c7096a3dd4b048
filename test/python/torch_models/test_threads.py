"""A model compiled by `mtia_compiler.torch.compile` called from several
threads at once: every call is right and records its own launches."""

from __future__ import annotations

import threading

import torch
import torch.nn.functional as F  # noqa: N812

import mtia_compiler.torch


def scaled_softmax(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return F.softmax(x @ w * 0.5, dim=-1)


def test_calls_from_eight_threads_are_right_and_recorded_apart() -> None:
    w = torch.randn(16, 32)
    compiled = mtia_compiler.torch.compile(scaled_softmax)
    first = torch.randn(8, 16)
    torch.testing.assert_close(compiled(first, w), scaled_softmax(first, w))
    kernels_per_call = len(compiled.report().kernels)
    assert kernels_per_call >= 1
    errors: list[BaseException] = []

    def call_ten_times(seed: int) -> None:
        generator = torch.Generator().manual_seed(seed)
        try:
            for _ in range(10):
                x = torch.randn(8, 16, generator=generator)
                torch.testing.assert_close(compiled(x, w), scaled_softmax(x, w))
        except BaseException as error:  # noqa: BLE001 (reported by the main thread)
            errors.append(error)

    threads = [threading.Thread(target=call_ten_times, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # After the threads, a call records its own launches only.
    torch.testing.assert_close(compiled(first, w), scaled_softmax(first, w))
    assert len(compiled.report().kernels) == kernels_per_call
