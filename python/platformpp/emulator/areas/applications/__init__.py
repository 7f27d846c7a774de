"""Applications: the application object, and the applications fixture section."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area(
    "applications",
    routes=routes.routes,
    schema=resources.files(__name__) / "schema",
    fixtures=(FixtureSection("applications", 20, fixtures.load_applications),),
)
