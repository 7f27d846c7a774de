"""Presence: status, custom status and rich presence of SDK users; who sees whose."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("presence", routes=routes.routes, schema=resources.files(__name__) / "schema")
