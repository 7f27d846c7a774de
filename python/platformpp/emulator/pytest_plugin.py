"""pytest plugin (entry point ``pytest11``): the ``platformpp_emulator`` fixture, a fresh in-process
emulator with the default world and an in-memory store, per test, and ``platformpp_user``, a
simulated user of it who uses the app's commands, components and modals.

pytest loads this module in every run once platformpp is installed, with or without the ``emulator``
extra, so it imports the emulator (Starlette, uvicorn, ...) only when a test asks for the fixture."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .server import Emulator
    from .simulated_user import SimulatedUser


@pytest.fixture
def platformpp_emulator() -> Iterator[Emulator]:
    """A running emulator (default world, ``:memory:`` store, real time) on a free loopback port."""
    from .server import Emulator

    emulator = Emulator().start()
    try:
        yield emulator
    finally:
        emulator.stop(wait=False)   # the next test need not wait for uvicorn's shutdown sleeps


@pytest.fixture
def platformpp_user(platformpp_emulator: Emulator) -> Iterator[Callable[..., SimulatedUser]]:
    """``platformpp_user(user_id, channel_id=... | recipient_id=..., application_id=...)``: a simulated user of the
    running emulator (simulated_user.py) who uses the app's commands, components and modals."""
    from .simulated_user import SimulatedUser

    made: list[SimulatedUser] = []

    def make(user_id: int, *, channel_id: int | None = None, recipient_id: int | None = None,
             application_id: int | None = None, wait_s: float = 3.0) -> SimulatedUser:
        extra = {} if application_id is None else {"application_id": application_id}
        user = SimulatedUser(platformpp_emulator.base_url, user_id, channel_id=channel_id, recipient_id=recipient_id,
                             admin_secret=platformpp_emulator.admin_secret, wait_s=wait_s, **extra)
        made.append(user)
        return user

    yield make
    for user in made:
        user.close()
