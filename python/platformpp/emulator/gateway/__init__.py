"""The Gateway (WIRE.md "Gateway"): real-time WebSocket sessions for bots and SDK users. It subscribes
to the bus and turns events with an audience into dispatches; it reads area stores through their
query functions and never imports an area's routes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hub import get_hub
from .routes import routes

if TYPE_CHECKING:
    from ..state import EmulatorState

__all__ = ["routes", "start"]


def start(state: EmulatorState) -> None:
    """Create the emulator's Gateway hub: it subscribes to the bus and answers who is connected."""
    get_hub(state)
