"""What the polls area adds to the emulator (routes, admin routes, schema, the expiry hook); the app
builder loads it."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import expiry, routes

AREA = Area("polls", routes=routes.routes, schema=resources.files(__package__) / "schema", startup=expiry.start)
