"""Guilds: the guild object, its bots' dispatches and the permission checks of every guild-model area
(roles, members and channels build on access.py, dispatch.py and mutations.py here)."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import admin_routes, fixtures, routes

AREA = Area("guilds", routes=lambda: [*routes.routes(), *admin_routes.routes()],
            schema=resources.files(__name__) / "schema",
            fixtures=(FixtureSection("guilds", 30, fixtures.load_guilds),))
