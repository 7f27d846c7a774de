"""Guild channel messages: messages with attachments, reactions, pins, typing, slowmode, forwards and
Search Guild Messages (FTS5, indexed asynchronously)."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import admin_routes, routes, search


def _routes() -> list:
    return [*routes.routes(), *admin_routes.routes()]


AREA = Area("channel_messages", routes=_routes, schema=resources.files(__name__) / "schema", startup=search.start)
