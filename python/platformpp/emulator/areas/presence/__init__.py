"""Presence: status, custom status and rich presence of SDK users; who sees whose."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("presence", routes=routes.routes, schema=resources.files(__name__) / "schema",
            fixtures=(FixtureSection("desktop_user", 60, fixtures.load_desktop_user),))
