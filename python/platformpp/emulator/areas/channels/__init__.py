"""Guild channels: list, create, positions, get, modify, delete, permission overwrites."""

from __future__ import annotations

from ...core.area import Area
from . import routes

AREA = Area("channels", routes=routes.routes)
