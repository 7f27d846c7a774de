"""The error of a refused admin API call, shared by the typed admin client and simulated users."""

from __future__ import annotations

from typing import Any


class AdminError(Exception):
    """The admin API refused a call: ``status`` and the emulator's error ``body``."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status, self.body = status, body
