"""What the roles area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("roles", routes=routes.routes, schema=resources.files(__package__) / "schema")
