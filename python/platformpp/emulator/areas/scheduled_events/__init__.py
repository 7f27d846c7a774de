"""Guild scheduled events: create, list, get, modify, delete, interested users; under the dated
creation rule of 2026-02-23."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area


def _routes() -> list[BaseRoute]:
    # Imported when the app is built (see areas/expressions/__init__.py): the guild model and the
    # Gateway read listing.py without loading the routes.
    from . import routes
    return routes.routes()


AREA = Area("scheduled_events", routes=_routes, schema=resources.files(__name__) / "schema")
