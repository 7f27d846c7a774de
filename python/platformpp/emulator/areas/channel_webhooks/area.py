"""What the channel webhooks area adds to the emulator (routes, schema); the app builder loads it, so
that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("channel_webhooks", routes=routes.routes, schema=resources.files(__package__) / "schema")
