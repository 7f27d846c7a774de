"""What the monetization area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes, store

if TYPE_CHECKING:
    from ...state import EmulatorState


def _startup(state: EmulatorState) -> None:
    # a move of the clock applies the transitions it made due (and dispatches them) at once
    state.clock.on_change(lambda: store.advance_now(state))


AREA = Area(
    "monetization",
    routes=routes.routes,
    schema=resources.files(__package__) / "schema",
    fixtures=(FixtureSection("skus", 50, fixtures.load_skus),
              FixtureSection("entitlements", 51, fixtures.load_entitlements),
              FixtureSection("subscriptions", 52, fixtures.load_subscriptions)),
    startup=_startup,
)
