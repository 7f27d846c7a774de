"""What the lobbies area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from ..accounts.merge import on_account_merged
from . import invite_routes, routes, self_routes, store

AREA = Area(
    "lobbies",
    # The @me routes first: the {user_id} routes would otherwise take them.
    routes=lambda: [*self_routes.routes_of_self(), *routes.routes(), *invite_routes.routes()],
    schema=resources.files(__package__) / "schema",
    startup=lambda state: on_account_merged(state, store.move_account_data),
)
