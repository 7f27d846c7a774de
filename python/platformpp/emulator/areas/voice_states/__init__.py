"""Voice states (Gateway opcode 4: guild voice and stage channels, DMs, group DMs, lobby calls), the
voice service following them (``calls.py``), what else ends them (``lifecycle.py``: deleted channels,
removed members, timed-out voice sessions), server mute and deafen (``moderation.py``), voice channel
status and start time, voice regions."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from . import admin_routes, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


AREA = Area("voice_states", routes=_routes, schema=resources.files(__name__) / "schema")
