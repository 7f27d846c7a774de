"""What the area of a guild's pages for new members adds to the emulator (routes, schema, fixture
sections); the app builder loads it, so that importing the area's modules runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


# After guilds (30): the channels, roles and members these pages name exist when they load.
AREA = Area("onboarding", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("welcome_screens", 39, fixtures.load_welcome_screens),
                      FixtureSection("guild_onboarding", 39, fixtures.load_guild_onboarding),
                      FixtureSection("new_member_welcome", 39, fixtures.load_new_member_welcome)))
