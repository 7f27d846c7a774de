"""Accounts: provisional accounts for external identities, merge and unmerge, bans and the account admin view."""

from __future__ import annotations

from ...core.area import Area
from . import admin_routes, routes

AREA = Area("accounts", routes=lambda: [*routes.routes(), *admin_routes.routes()])
