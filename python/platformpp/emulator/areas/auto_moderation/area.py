"""What the auto moderation area adds to the emulator (routes, schema, the fixture section, and the
carrying out of triggered rules); the app builder loads it."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures

if TYPE_CHECKING:
    from ...events.bus import Event
    from ...state import EmulatorState


def _routes() -> list[BaseRoute]:
    from . import admin_routes, routes
    return [*routes.routes(), *admin_routes.routes()]


def _startup(state: EmulatorState) -> None:
    """Rules that screening.py found triggered are carried out when their domain event arrives."""
    from . import consequences

    def on_event(event: Event) -> None:
        consequences.on_event(state, event)
    state.bus.subscribe(on_event, dispatches=False)


# After guilds (30) and their channels and roles: rules refer to them.
AREA = Area("auto_moderation", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("auto_moderation_rules", 41, fixtures.load_rules),), startup=_startup)
