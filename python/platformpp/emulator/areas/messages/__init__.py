"""Messages: lobby messages and game direct messages, one implementation."""

from __future__ import annotations

from ...core.area import Area
from ..accounts.merge import on_account_merged
from . import routes, store

AREA = Area(
    "messages",
    routes=routes.routes,
    startup=lambda state: on_account_merged(state, store.move_account_data),
)
