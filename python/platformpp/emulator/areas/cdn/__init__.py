"""The CDN: images uploaded as data URIs (member avatars and banners, guild and role icons) stored
as uploaded and served back at the platform's CDN paths, in the format and size asked for."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import admin_routes, routes

AREA = Area("cdn", routes=lambda: [*routes.routes(), *admin_routes.routes()],
            schema=resources.files(__name__) / "schema")
