"""What the members area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import moderation_routes, routes, temporary

AREA = Area("members", routes=lambda: [*routes.routes(), *moderation_routes.routes()],
            schema=resources.files(__package__) / "schema", startup=temporary.start)
