"""What the integrations area adds to the emulator (routes, schema, fixture section); the app builder
loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

# After guilds (30) and applications (20): the bot is a member of the guild when it loads.
AREA = Area("integrations", routes=routes.routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("integrations", 33, fixtures.load_integrations),))
