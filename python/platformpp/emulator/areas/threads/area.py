"""What the threads area adds to the emulator (routes, schema, fixture sections); the app builder loads
it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


# After guilds (30) and group DMs (35): a thread's parent and members exist when it loads.
AREA = Area("threads", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("threads", 36, fixtures.load_threads),))
