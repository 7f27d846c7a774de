"""Snowflake ids as docs/wire.md describes them, timestamped by the emulator clock."""

from __future__ import annotations

import re
import threading
from datetime import datetime, timezone
from typing import Any

from starlette.convertors import Convertor

from .clock import Clock

EPOCH_MS = 1420070400000
_WORKER = 1
_PROCESS = 0


_DIGITS = re.compile(r"^[0-9]{1,19}$")
MAX_SNOWFLAKE = (1 << 63) - 1      # ids are stored as SQLite's signed 64-bit INTEGER


def parse_snowflake(text: str | None) -> int | None:
    """The id in ``text`` (ASCII digits, at most 2**63 - 1), or None."""
    if text is None or not _DIGITS.match(text):
        return None
    value = int(text)
    return value if value <= MAX_SNOWFLAKE else None


def snowflake_value(value: Any) -> int | None:
    """A snowflake as clients send one in a body or a Gateway payload: a string of digits or an
    integer (0 to 2**63 - 1); None when it is neither."""
    if isinstance(value, str):
        return parse_snowflake(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SNOWFLAKE:
        return value
    return None


class SnowflakeConvertor(Convertor[int]):
    """``{name:snowflake}`` path parameters: an id that cannot exist does not match the route (404)."""

    regex = "[0-9]{1,19}"

    def convert(self, value: str) -> int:
        parsed = parse_snowflake(value)
        # Starlette has matched the regex already; only the 2**63 bound is left, and an id beyond it
        # cannot exist, so treat it as the id 0, which no row has.
        return parsed if parsed is not None else 0

    def to_string(self, value: int) -> str:
        return str(value)


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
