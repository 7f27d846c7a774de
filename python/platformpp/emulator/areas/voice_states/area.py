"""What the voice states area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from . import admin_routes, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


AREA = Area("voice_states", routes=_routes, schema=resources.files(__package__) / "schema")
