"""The emulator-wide clock. Real time by default; the admin API can move it (running on from the new
instant) or freeze it. Every dated behaviour (token and code expiry, dated API changes, bans, snowflake
timestamps, webhook timestamps) reads this clock, never the system clock directly."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone


def parse_instant(text: str) -> datetime:
    """Parse ISO-8601; a naive value is taken as UTC. Raises ValueError naming the accepted form."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except (ValueError, AttributeError) as exc:
        raise ValueError(f"{text!r} is not an ISO-8601 date-time such as 2026-07-10T00:00:00Z") from exc
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def format_instant(value: datetime) -> str:
    """ISO-8601 UTC with microseconds and a +00:00 offset, the platform's timestamp form."""
    utc = value if value.tzinfo is timezone.utc else value.astimezone(timezone.utc)
    return utc.isoformat(timespec="microseconds")


class Clock:
    def __init__(self) -> None:
        self._lock = threading.Lock()   # serialises ``set``; readers take ``_setting`` whole, without it
        # (seconds added to real time, the frozen instant or None): replaced, never changed, so one
        # read sees a consistent pair (the clock is read several times by every request).
        self._setting: tuple[float, float | None] = (0.0, None)
        self._listeners: list[Callable[[], None]] = []

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every ``set`` (outside the lock): areas apply what became due."""
        self._listeners.append(listener)

    def timestamp(self) -> float:
        """Seconds since the epoch on the emulator clock."""
        offset, frozen_at = self._setting
        return frozen_at if frozen_at is not None else time.time() + offset

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp(), tz=timezone.utc)

    def iso(self) -> str:
        return format_instant(self.now())

    def set(self, instant: datetime | None, *, frozen: bool = False) -> None:
        """Move the clock to ``instant`` (None: back to real time). Unfrozen, it keeps running from there."""
        with self._lock:
            if instant is None:
                self._setting = (0.0, None)
            else:
                target = instant.timestamp()
                self._setting = (target - time.time(), target if frozen else None)
        for listener in list(self._listeners):
            listener()

    @property
    def frozen(self) -> bool:
        return self._setting[1] is not None

    @property
    def is_real_time(self) -> bool:
        return self._setting == (0.0, None)
