"""Small helpers every area's routes use: the emulator behind a request, its base URL, new ids,
snowflake path parameters, boolean query parameters, and a scope check for SDK users."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

from . import auth, errors
from .auth import Principal
from .errors import ApiError
from .scopes import expand

if TYPE_CHECKING:
    from ..state import EmulatorState


def emulator_state(conn: HTTPConnection) -> EmulatorState:
    return conn.app.state.emu


# (scheme, server, first Host header, root paths) -> str(request.base_url): building the URL costs
# more than the rest of a small request's routing; bounded, as the Host header is the client's.
_BASE_URLS: dict[tuple[object, ...], str] = {}
_BASE_URLS_KEPT = 256


def base_url_of(conn: HTTPConnection) -> str:
    """``str(conn.base_url)`` (what it depends on, and nothing else, is the cache key)."""
    scope = conn.scope
    host = next((value for key, value in scope["headers"] if key == b"host"), None)
    key = (scope.get("scheme"), scope.get("server"), host, scope.get("root_path"), scope.get("app_root_path"))
    known = _BASE_URLS.get(key)
    if known is None:
        if len(_BASE_URLS) >= _BASE_URLS_KEPT:
            _BASE_URLS.clear()
        known = _BASE_URLS[key] = str(conn.base_url)
    return known


def new_id(state: EmulatorState) -> int:
    return state.ids.next()


def snowflake_param(conn: HTTPConnection, name: str) -> int:
    """A snowflake path parameter; 50035 naming it when it is not one."""
    raw = str(conn.path_params[name])
    if raw.isdigit() and len(raw) <= 20 and int(raw) < 1 << 64:
        return int(raw)
    raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body",
                   {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE",
                                        "message": f"Value {raw[:40]!r} is not snowflake."}]}})


_QUERY_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def parse_query_bool(raw: str) -> bool | None:
    """A query boolean as the platform reads one (``true``/``false``/``1``/``0``, any case); None if not one."""
    return _QUERY_BOOLEANS.get(raw.lower())


def query_bool(conn: HTTPConnection, name: str, default: bool = False) -> bool:
    """A boolean query parameter (``default`` when absent); 400 / 50035 naming it when it is not one."""
    raw = conn.query_params.get(name)
    if raw is None:
        return default
    value = parse_query_bool(raw)
    if value is None:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body",
                       {name: {"_errors": [{"code": "BOOLEAN_TYPE_COERCE",
                                            "message": "Must be one of true, false, 1 or 0."}]}})
    return value


def require_scope(conn: HTTPConnection, scope: str) -> Principal:
    """An SDK user (Bearer) whose grant includes ``scope``, directly or through an SDK umbrella scope."""
    principal = auth.require(conn, kinds=("bearer",))
    if scope not in expand(principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, f"Missing Access: the token lacks scope {scope!r}.")
    return principal

