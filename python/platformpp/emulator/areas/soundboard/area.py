"""What the soundboard area adds to the emulator (routes, schema, fixture sections); the app builder
loads it."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures


def _routes() -> list[BaseRoute]:
    from . import admin_routes, routes
    return [*routes.routes(), *admin_routes.routes()]


# After guilds (30) and users (10): a sound's guild and creator exist when it loads.
AREA = Area("soundboard", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("soundboard_sounds", 39, fixtures.load_soundboard_sounds),))
