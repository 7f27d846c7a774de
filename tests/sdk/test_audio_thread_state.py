"""The audio thread's Python thread state: kept from its first callback to the thread's end, then deleted.

Driven through `_audio_callback_cost`, which calls the binding's captured-callback wrapper from a C++
thread of its own exactly as the SDK's audio thread does, and reports how many Python thread states
that thread left behind once it ended.
"""

from __future__ import annotations

import threading

import numpy as np

import platformpp
from platformpp import _platformpp


def test_the_audio_thread_keeps_one_thread_state_across_callbacks() -> None:
    # A threading.local lives in the thread state: with a fresh state per call it would be empty each time.
    local = threading.local()
    seen: list[tuple[int, int]] = []

    def capture(samples: np.ndarray, sample_rate: int) -> None:
        local.calls = getattr(local, "calls", 0) + 1
        seen.append((threading.get_ident(), local.calls))

    _, _, states_left = _platformpp._audio_callback_cost(capture, 40)
    assert [calls for _, calls in seen] == list(range(1, 41))
    assert len({ident for ident, _ in seen}) == 1
    assert seen[0][0] != threading.get_ident()
    assert states_left == 0


def test_each_audio_thread_deletes_its_thread_state_when_it_ends() -> None:
    def capture(samples: np.ndarray, sample_rate: int) -> None:
        samples[0, 0] = 1

    for _ in range(5):
        python_ns, native_ns, states_left = _platformpp._audio_callback_cost(capture, 20)
        assert len(python_ns) == len(native_ns) == 20
        assert states_left == 0


def test_exceptions_are_reported_and_the_kept_state_survives_them() -> None:
    caught: list[BaseException] = []
    platformpp.set_callback_error_hook(caught.append)
    local = threading.local()
    calls: list[int] = []

    def capture(samples: np.ndarray, sample_rate: int) -> None:
        local.calls = getattr(local, "calls", 0) + 1
        calls.append(local.calls)
        if local.calls % 3 == 0:
            raise RuntimeError(f"boom {local.calls}")

    try:
        _, _, states_left = _platformpp._audio_callback_cost(capture, 12)
    finally:
        platformpp.set_callback_error_hook(None)
    assert calls == list(range(1, 13))
    assert [str(error) for error in caught] == ["boom 3", "boom 6", "boom 9", "boom 12"]
    assert states_left == 0
