"""The Gateway (WIRE.md "Gateway"): real-time WebSocket sessions for bots and SDK users."""

from __future__ import annotations

from .routes import routes

__all__ = ["routes"]
