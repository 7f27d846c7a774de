"""What the users area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("users", routes=routes.routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("users", 10, fixtures.load_users),))
