"""What the sticker packs area adds to the emulator (routes, schema, the ``sticker_packs`` fixture
section); the app builder loads it, so that importing the area's store runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("sticker_packs", routes=routes.routes, schema=resources.files(__package__) / "schema",
            fixtures=(FixtureSection("sticker_packs", 15, fixtures.load_sticker_packs),))
