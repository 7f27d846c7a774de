"""Guild roles: list, get, create, modify, positions, delete."""

from __future__ import annotations

from ...core.area import Area
from . import routes

AREA = Area("roles", routes=routes.routes)
