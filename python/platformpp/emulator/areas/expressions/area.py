"""What the expressions area adds to the emulator (routes, schema, fixture sections); the app
builder loads it, so that importing the area's stores runs none of this."""

from __future__ import annotations

from importlib import resources

from starlette.routing import BaseRoute

from ...core.area import Area


def _routes() -> list[BaseRoute]:
    # Imported when the app is built, not with the package: the guild model reads listing.py, and
    # loading the routes (and their permission checks, which import the guild model) with it would
    # make that read a cycle at run time.
    from . import routes
    return routes.routes()


AREA = Area("expressions", routes=_routes, schema=resources.files(__package__) / "schema")
