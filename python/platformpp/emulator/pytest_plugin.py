"""pytest plugin (entry point ``pytest11``): the ``platformpp_emulator`` fixture, a fresh in-process
emulator with the default world and an in-memory store, per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .server import Emulator


@pytest.fixture
def platformpp_emulator() -> Iterator[Emulator]:
    """A running emulator (default world, ``:memory:`` store, real time) on a free loopback port."""
    emulator = Emulator().start()
    try:
        yield emulator
    finally:
        emulator.stop(wait=False)   # the next test need not wait for uvicorn's shutdown sleeps
