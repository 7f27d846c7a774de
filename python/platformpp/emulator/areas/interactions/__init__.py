"""Interactions: a simulated user's commands, context menus, components, autocomplete and modals
delivered to the app (Gateway or signed HTTP), the app's responses and followups, and the admin API
that plays the user."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import admin_routes, routes


def _routes() -> list:
    return [*routes.routes(), *admin_routes.routes()]


AREA = Area("interactions", routes=_routes, schema=resources.files(__name__) / "schema")
