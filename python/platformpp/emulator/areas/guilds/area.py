"""What the guilds area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes

AREA = Area("guilds", routes=lambda: [*routes.routes(), *admin_routes.routes()],
            schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("guilds", 30, fixtures.load_guilds),))
