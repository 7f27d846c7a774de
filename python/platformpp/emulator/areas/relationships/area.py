"""What the relationships area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from ..accounts.merge import on_account_merged
from . import fixtures, routes, store

AREA = Area(
    "relationships",
    routes=routes.routes,
    schema=resources.files(__package__) / "schema",
    fixtures=(FixtureSection("relationships", 40, fixtures.load_relationships),),
    startup=lambda state: on_account_merged(state, store.move_account_data),
)
