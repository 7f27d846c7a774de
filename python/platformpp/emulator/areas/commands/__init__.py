"""Application commands: global and guild commands (chat input, user, message, entry point) with the
platform's validation and per-scope limits, and their per-guild permissions."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import routes

AREA = Area("commands", routes=routes.routes, schema=resources.files(__name__) / "schema")
