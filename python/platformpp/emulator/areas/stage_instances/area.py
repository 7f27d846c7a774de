"""What the stage instances area adds to the emulator (routes, schema, fixture sections, the closing of
a stage whose last speaker left); the app builder loads it."""

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
    """A stage closes when its last speaker leaves (the voice states area publishes each end) and when
    its channel is deleted (after CHANNEL_DELETE)."""
    from . import store

    def on_event(event: Event) -> None:
        if event.name == "voice_state.ended" and event.payload.get("speaker"):
            store.close_without_speakers(state, int(event.payload["channel_id"]))
        elif event.name == "CHANNEL_DELETE" and event.audience is not None:
            store.close_orphans(state)
    state.bus.subscribe(on_event)


# After guilds (30): a stage instance's channel exists when it loads.
AREA = Area("stage_instances", routes=_routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("stage_instances", 38, fixtures.load_stage_instances),), startup=_startup)
