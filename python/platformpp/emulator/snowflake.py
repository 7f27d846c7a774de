"""Snowflake ids as WIRE.md describes them, timestamped by the emulator clock."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

from .clock import Clock

EPOCH_MS = 1420070400000
_WORKER = 1
_PROCESS = 0


def snowflake_time(snowflake: int) -> datetime:
    return datetime.fromtimestamp(((snowflake >> 22) + EPOCH_MS) / 1000, tz=timezone.utc)


def make_snowflake(timestamp_ms: int, increment: int = 0) -> int:
    return ((timestamp_ms - EPOCH_MS) << 22) | (_WORKER << 17) | (_PROCESS << 12) | (increment & 0xFFF)


class SnowflakeGenerator:
    """Strictly increasing ids; never goes backwards even when the clock is moved back."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._last = 0

    def next(self) -> int:
        with self._lock:
            candidate = make_snowflake(int(self._clock.timestamp() * 1000))
            self._last = max(candidate, self._last + 1)
            return self._last

    def observe(self, existing: int) -> None:
        """Make later ids larger than an id loaded from fixtures or a snapshot."""
        with self._lock:
            self._last = max(self._last, existing)
