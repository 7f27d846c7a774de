"""What the messages area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from ...core.area import Area
from ..accounts.merge import on_account_merged
from . import routes, store

AREA = Area(
    "messages",
    routes=routes.routes,
    startup=lambda state: on_account_merged(state, store.move_account_data),
)
