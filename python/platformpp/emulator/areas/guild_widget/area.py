"""What the guild widget area adds to the emulator (routes, schema, fixture section); the app builder
loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

# After guilds (30): the guild and its channels exist when it loads.
AREA = Area("guild_widget", routes=routes.routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("guild_widgets", 32, fixtures.load_guild_widgets),))
