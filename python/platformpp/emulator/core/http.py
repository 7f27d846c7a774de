"""The request kit every area's routes use: the emulator behind a request, its base URL, new ids,
snowflake path and query parameters, integer and boolean query parameters, HTTP Basic credentials,
a scope check for SDK users, ``in_transaction``, the one way a route runs its work (one
transaction with an outbox), and ``off_loop`` for a blocking call outside one. Bad parameters answer 400 / 50035 naming them (``field_error``)."""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextvars
import functools
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, ParamSpec, TypeVar
from urllib.parse import unquote

from starlette.requests import HTTPConnection

from ..events.outbox import Outbox
from . import auth, errors
from .auth import Principal
from .errors import ApiError
from .scopes import expand
from .snowflake import parse_snowflake
from .storage import MEMORY
from .validation import field_error

if TYPE_CHECKING:
    from ..state import EmulatorState

T = TypeVar("T")
P = ParamSpec("P")

# The threads that run the routes' database work. An executor of our own rather than the ASGI
# stack's thread pool (anyio's capacity limiter, cancel scopes and run-variable lookups on every
# call): the hop is on every request, and this one costs a fraction of the CPU. The database's one
# lock serialises the work anyway; the threads only let a request wait for it off the loop.
_WORKERS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="emulator-work")


async def off_loop(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` on a worker thread (with the caller's context variables), awaited on
    the loop: the one way the emulator runs blocking work (database, files, the voice thread) from
    async code. Cancelling the await does not stop the call, which finishes on its thread."""
    context = contextvars.copy_context()
    bound: Callable[[], T] = functools.partial(call, *args, **kwargs) if args or kwargs else call  # type: ignore[assignment]
    return await asyncio.get_running_loop().run_in_executor(_WORKERS, context.run, bound)


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


def _not_snowflake(name: str, raw: str) -> ApiError:
    return field_error(name, "NUMBER_TYPE_COERCE", f"Value {raw[:40]!r} is not snowflake.")


def snowflake_param(conn: HTTPConnection, name: str) -> int:
    """A snowflake path parameter (the rule of ``parse_snowflake``); 50035 naming it when it is not one."""
    raw = str(conn.path_params[name])
    value = parse_snowflake(raw)
    if value is None:
        raise _not_snowflake(name, raw)
    return value


def query_snowflake(conn: HTTPConnection, name: str) -> int | None:
    """A snowflake query parameter (None when absent); 50035 naming it when it is not one."""
    raw = conn.query_params.get(name)
    if raw is None:
        return None
    value = parse_snowflake(raw)
    if value is None:
        raise _not_snowflake(name, raw)
    return value


def query_int(conn: HTTPConnection, name: str, *, default: int, minimum: int = 0,
              maximum: int = (1 << 63) - 1) -> int:
    """An integer query parameter of ASCII digits from ``minimum`` to ``maximum`` (``default`` when
    absent); 50035 naming it otherwise (signs, non-ASCII digits, empty values and junk included)."""
    raw = conn.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        raise field_error(name, "NUMBER_TYPE_COERCE", f"Value {raw[:40]!r} is not int.")
    value = int(raw)
    if value < minimum:
        raise field_error(name, "NUMBER_TYPE_MIN", f"Must be an integer from {minimum} to {maximum}.")
    if value > maximum:
        raise field_error(name, "NUMBER_TYPE_MAX", f"Must be an integer from {minimum} to {maximum}.")
    return value


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
        raise field_error(name, "BOOLEAN_TYPE_COERCE", "Must be one of true, false, 1 or 0.")
    return value


def basic_credentials(conn: HTTPConnection) -> tuple[str, str] | None:
    """The (client id, secret) of an ``Authorization: Basic`` header, each percent-decoded as RFC 6749
    2.3.1 asks; None without one. ValueError when it is not base64 of UTF-8 text: each caller answers
    that in its own API's terms."""
    header = conn.headers.get("authorization", "")
    if not header.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise ValueError("malformed HTTP Basic credentials") from None
    client_id, _, secret = decoded.partition(":")
    return unquote(client_id), unquote(secret)


def require_scope(conn: HTTPConnection, scope: str) -> Principal:
    """An SDK user (Bearer) whose grant includes ``scope``, directly or through an SDK umbrella scope."""
    principal = auth.require(conn, kinds=("bearer",))
    if scope not in expand(principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, f"Missing Access: the token lacks scope {scope!r}.")
    return principal


async def in_transaction(conn: HTTPConnection, work: Callable[[sqlite3.Connection, Outbox], T], *,
                         on_loop_in_memory: bool = False) -> T:
    """Run ``work(conn, outbox)`` in one transaction off the event loop; the outbox's dispatches and
    events leave when it commits (never if it rolls back).

    ``on_loop_in_memory``: with an in-memory store nothing waits on a disk sync, and for a short unit
    of work the hop to a worker thread and back costs more than the work, so it runs on the loop
    (the same transaction under the database's lock, with the same outcome)."""
    state = emulator_state(conn)

    def call() -> T:
        outbox = Outbox(state)
        with state.db.transaction() as db:
            return work(db, outbox)

    if on_loop_in_memory and state.db.path == MEMORY:
        return call()
    return await off_loop(call)
