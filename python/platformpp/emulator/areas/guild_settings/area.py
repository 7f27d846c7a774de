"""What the guild settings area adds to the emulator (routes, schema, fixture section); the app
builder loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


# After guilds (30): the guild and the requests' users exist when it loads.
AREA = Area("guild_settings", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("guild_settings", 31, fixtures.load_guild_settings),))
