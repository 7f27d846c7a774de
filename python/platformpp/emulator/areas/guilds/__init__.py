"""Guilds: guilds, roles, channels and members as bots and SDK users see them."""

from __future__ import annotations

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("guilds", routes=routes.routes, fixtures=(FixtureSection("guilds", 30, fixtures.load_guilds),))
