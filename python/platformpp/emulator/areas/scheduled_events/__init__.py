"""Guild scheduled events: create, list, get, modify, delete, interested users; under the dated
creation rule of 2026-02-23."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("scheduled_events", routes=routes.routes, schema=resources.files(__name__) / "schema")
