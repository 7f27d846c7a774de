"""pytest plugin (entry point ``pytest11``): the ``platformpp_emulator`` fixture, a fresh in-process
emulator with the default world and an in-memory store, per test.

pytest loads this module in every run once platformpp is installed, with or without the ``emulator``
extra, so it imports the emulator (Starlette, uvicorn, ...) only when a test asks for the fixture."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .server import Emulator


@pytest.fixture
def platformpp_emulator() -> Iterator[Emulator]:
    """A running emulator (default world, ``:memory:`` store, real time) on a free loopback port."""
    from .server import Emulator

    emulator = Emulator().start()
    try:
        yield emulator
    finally:
        emulator.stop(wait=False)   # the next test need not wait for uvicorn's shutdown sleeps
