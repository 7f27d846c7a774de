from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

import pytest

from platformpp.emulator.voice.service import VoiceService
from voice_helpers import AFTER_E2EE, FakeNowClock



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
