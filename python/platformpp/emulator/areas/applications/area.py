"""What the applications area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, privileged_intents, routes

if TYPE_CHECKING:
    from ...state import EmulatorState


def _startup(state: EmulatorState) -> None:
    # a move of the clock turns off the privileged intents whose approval it has run past
    state.clock.on_change(lambda: privileged_intents.expire_now(state))


AREA = Area(
    "applications",
    routes=routes.routes,
    schema=resources.files(__package__) / "schema",
    fixtures=(FixtureSection("applications", 20, fixtures.load_applications),
              FixtureSection("privileged_intents", 21, privileged_intents.load_fixture)),
    startup=_startup,
)
