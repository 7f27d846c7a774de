"""Which redirect URIs an application may use, and how to append a result to one."""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import urlencode, urlsplit

from ...core.storage import Database

_LOOPBACK_HOSTS = ("127.0.0.1", "[::1]", "localhost")


def _loopback_without_port(uri: str) -> str | None:
    parts = urlsplit(uri)
    if parts.scheme != "http" or parts.hostname is None:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if host not in _LOOPBACK_HOSTS:
        return None
    return f"http://{host}{parts.path}?{parts.query}"


def allowed(db: Database, app: sqlite3.Row, uri: str) -> bool:
    """Exact match with a registered URI; a registered loopback URI on any port (RFC 8252 §7.3, as
    native apps pick a free port); ``platform-<app id>:/authorize/callback``; or
    ``<scheme>:/authorize/callback`` for a custom scheme the application registered."""
    registered = [row["uri"] for row in db.query("SELECT uri FROM redirect_uris WHERE application_id = ?",
                                                 (app["id"],))]
    if uri in registered:
        return True
    loopback = _loopback_without_port(uri)
    if loopback is not None and any(_loopback_without_port(r) == loopback for r in registered):
        return True
    scheme, sep, rest = uri.partition(":")
    if sep and rest == "/authorize/callback":
        return scheme == f"platform-{app['id']}" or scheme in json.loads(app["custom_schemes"])
    return False


def with_params(uri: str, params: dict[str, str | None]) -> str:
    query = urlencode({k: v for k, v in params.items() if v is not None})
    if not query:
        return uri
    base, _, fragment = uri.partition("#")
    joined = f"{base}{'&' if '?' in base else '?'}{query}"
    return f"{joined}#{fragment}" if fragment else joined
