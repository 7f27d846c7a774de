"""Profiles: application identity profiles and the game stats widget fields."""

from __future__ import annotations

from ...core.area import Area
from ..accounts.merge import on_account_merged
from . import routes, store

AREA = Area(
    "profiles",
    routes=routes.routes,
    startup=lambda state: on_account_merged(state, store.move_account_data),
)
