"""Guild channels: list, create, positions, get, modify, delete, permission overwrites; group DMs
from fixtures (read with GET /channels/{id})."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("channels", routes=routes.routes, schema=resources.files(__name__) / "schema",
            fixtures=(FixtureSection("group_dms", 35, fixtures.load_group_dms),))
