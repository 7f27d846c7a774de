"""What the role connections area adds to the emulator (routes, admin routes, schema, the fixture
section); the app builder loads it."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


# After guilds (30): the roles a linked role names exist when it loads.
AREA = Area("role_connections", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("role_connections", 33, fixtures.load_role_connections),))
