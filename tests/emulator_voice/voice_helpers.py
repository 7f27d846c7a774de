"""Shared values and helpers of the voice service tests (a module of its own: `conftest` names
another module once several test folders are collected together)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Any

BEFORE_E2EE = datetime(2026, 2, 1, tzinfo=timezone.utc)
AFTER_E2EE = datetime(2026, 3, 2, tzinfo=timezone.utc)


class FakeNowClock:
    """The emulator clock as the service sees it: a `now()` the test moves."""

    def __init__(self, instant: datetime) -> None:
        self.instant = instant

    def now(self) -> datetime:
        return self.instant


def run(coro: Any) -> Any:
    return asyncio.run(coro)
