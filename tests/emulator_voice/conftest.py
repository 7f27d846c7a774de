from __future__ import annotations

import asyncio
import itertools
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import pytest

from platformpp.emulator.voice import VoiceService

BEFORE_E2EE = datetime(2026, 2, 1, tzinfo=timezone.utc)
AFTER_E2EE = datetime(2026, 3, 2, tzinfo=timezone.utc)


class FakeNowClock:
    """The emulator clock as the service sees it: a `now()` the test moves."""

    def __init__(self, instant: datetime) -> None:
        self.instant = instant

    def now(self) -> datetime:
        return self.instant


@pytest.fixture
def clock() -> FakeNowClock:
    return FakeNowClock(AFTER_E2EE)


@pytest.fixture
def events() -> list[tuple[str, int, int, Any]]:
    return []


@pytest.fixture
def voice(clock: FakeNowClock, events: list[Any]) -> Iterator[VoiceService]:
    service = VoiceService(now=clock.now, heartbeat_interval=1.0, resume_window=5.0, transition_timeout=2.0,
                           on_event=lambda *event: events.append(event))
    service.start()
    yield service
    service.stop()


_ids = itertools.count(1000)


@pytest.fixture
def new_user() -> Callable[[], int]:
    return lambda: 90_000_000_000_000_000 + next(_ids)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
