"""What the scheduled events area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures


def _routes() -> list[BaseRoute]:
    # Imported when the app is built (see areas/expressions/__init__.py): the guild model and the
    # Gateway read listing.py without loading the routes.
    from . import routes
    return routes.routes()


# After guilds (30): an event's guild, channel and members exist when it loads.
AREA = Area("scheduled_events", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("scheduled_events", 34, fixtures.load_scheduled_events),))
