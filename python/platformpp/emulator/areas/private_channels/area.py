"""What the private channels area adds to the emulator (routes, schema); the app builder loads it."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("private_channels", routes=routes.routes, schema=resources.files(__package__) / "schema")
