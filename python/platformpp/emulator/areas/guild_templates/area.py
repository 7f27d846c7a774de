"""What the guild templates area adds to the emulator (routes, schema, fixture section, the ``is_dirty``
subscriber); the app builder loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, dirty, fixtures, routes

if TYPE_CHECKING:
    from ...state import EmulatorState


def _routes() -> list[BaseRoute]:
    return [*routes.routes(), *admin_routes.routes()]


def _startup(state: EmulatorState) -> None:
    dirty.start(state)


# After guilds (30) and threads (36): the snapshot is of the guild as the world file built it.
AREA = Area("guild_templates", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("guild_templates", 39, fixtures.load_guild_templates),), startup=_startup)
