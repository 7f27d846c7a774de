"""OAuth2 and OpenID Connect: authorize, token, revoke, userinfo, keys; grants and tokens."""

from __future__ import annotations

from importlib import resources

from ...core.area import Area
from . import authorize_routes, routes

AREA = Area("oauth", routes=lambda: [*authorize_routes.routes(), *routes.routes()],
            schema=resources.files(__name__) / "schema")
