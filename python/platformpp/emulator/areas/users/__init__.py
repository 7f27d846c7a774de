"""Users: ``/users/@me``, ``/users/{id}``, connections, and the users fixture section."""

from __future__ import annotations

from ...core.area import Area
from ...core.fixtures import FixtureSection
from . import fixtures, routes

AREA = Area("users", routes=routes.routes, fixtures=(FixtureSection("users", 10, fixtures.load_users),))
