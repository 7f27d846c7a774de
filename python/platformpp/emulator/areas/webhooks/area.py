"""What the webhooks area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from ...core.area import Area

AREA = Area("webhooks")
