"""No route answers 5xx to a malformed path or query parameter: every route of the app (as
test_routing.py enumerates them), with a bot's credentials, gets non-ASCII digits, signs, numbers
too large for an id, empty values and junk in each path parameter, and in each integer, snowflake
or boolean query parameter its module reads (the names are read from the module's source)."""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from emulator_world import APP_ID, BOT_TOKEN, GUILD_ID, bot_headers
from platformpp.emulator import Emulator, app as _app  # noqa: F401  (registers the snowflake convertor)
from platformpp.emulator.areas.catalog import AREAS
from platformpp.emulator.gateway.routes import routes as gateway_routes
from platformpp.emulator.inspector.routes import routes as inspector_routes
from platformpp.emulator.ipc.admin_routes import routes as ipc_routes
from starlette.routing import Route

BAD_VALUES = ("²", "١٢٣", "-1", "+5", "99999999999999999999999", "9223372036854775808", "", "abc", "1.5",
              "0x10", " 7", "%00")
# Query parameters of the platform's API that carry integers, snowflakes or booleans; each route gets
# those its module's source names.
QUERY_NAMES = ("limit", "before", "after", "around", "user_id", "guild_id", "channel_id", "days", "count",
               "shard", "size", "actor_id", "action_type", "application_id", "thread_id", "with_counts",
               "with_member", "with_user_count", "with_localizations", "with_response", "with_expiration",
               "wait", "archived", "exclude_ended", "exclude_deleted", "type", "sku_ids", "offset",
               "member_id", "author_id", "mentions", "min_id", "max_id", "include_nsfw", "animated",
               "guild_scheduled_event_id", "include_roles", "max_age", "max_uses", "position")

ROUTES = [route for route in (*gateway_routes(), *ipc_routes(), *inspector_routes(),
                              *(route for area in AREAS for route in area.routes()))
          if isinstance(route, Route)]
_PARAM = re.compile(r"\{([a-z_]+)(?::[a-z]+)?\}")
_SOURCES: dict[str, str] = {}


def _query_names(route: Route) -> list[str]:
    module = sys.modules[route.endpoint.__module__]
    if module.__name__ not in _SOURCES:
        _SOURCES[module.__name__] = inspect.getsource(module)
    source = _SOURCES[module.__name__]
    return [name for name in QUERY_NAMES if f'"{name}"' in source]


def _path(route: Route, values: dict[str, str]) -> str:
    return _PARAM.sub(lambda m: values[m.group(1)], route.path)


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Emulator, dict[str, str]]]:
    with Emulator() as emu, httpx.Client(base_url=emu.base_url, headers=bot_headers(), timeout=30) as http:
        channels = http.get(f"/api/v10/guilds/{GUILD_ID}/channels").json()
        channel_id = next(c["id"] for c in channels if c["type"] == 0)
        message = http.post(f"/api/v10/channels/{channel_id}/messages", json={"content": "hello"}).json()
        valid = {"guild_id": str(GUILD_ID), "channel_id": channel_id, "message_id": message["id"],
                 "application_id": str(APP_ID), "role_id": str(GUILD_ID)}
        yield emu, valid


def _send(http: httpx.Client, method: str, path: str, params: dict[str, str] | None = None) -> int:
    """The answer's status; its body is not read (the live feed is a stream that does not end)."""
    body = {} if method in ("POST", "PUT", "PATCH") else None
    with http.stream(method, path, params=params, json=body) as answer:
        return answer.status_code


def _methods(route: Route) -> list[str]:
    # reads first, then changes; deletions last, so that a valid path keeps reaching its route
    order = {"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}
    return sorted((m for m in route.methods or () if m != "HEAD"), key=lambda m: order.get(m, 1))


def test_no_route_answers_5xx_to_malformed_parameters(world: tuple[Emulator, dict[str, str]]) -> None:
    emu, valid = world
    failures: list[str] = []
    sent = 0
    with httpx.Client(base_url=emu.base_url, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=30) as http:
        for phase in (0, 1, 2):
            for route in ROUTES:
                names = _PARAM.findall(route.path)
                good = {name: valid.get(name, "1") for name in names}
                for method in _methods(route):
                    if {"GET": 0, "DELETE": 2}.get(method, 1) != phase:
                        continue
                    for name in names:
                        for bad in BAD_VALUES:
                            path = _path(route, {**good, name: quote(bad, safe="")})
                            status = _send(http, method, path)
                            sent += 1
                            if status >= 500:
                                failures.append(f"{method} {path} -> {status}")
                    for query in _query_names(route):
                        for bad in BAD_VALUES:
                            status = _send(http, method, _path(route, good), {query: bad})
                            sent += 1
                            if status >= 500:
                                failures.append(f"{method} {_path(route, good)}?{query}={bad!r} -> {status}")
    assert sent > 2000
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("part", ["files[²]", "files[١]", "files[-1]", "files[]", "files[99999999999999999999]"])
def test_a_file_part_whose_index_is_not_ascii_digits_is_a_400(world: tuple[Emulator, dict[str, str]], part: str) -> None:
    emu, valid = world
    with httpx.Client(base_url=emu.base_url, headers=bot_headers(), timeout=30) as http:
        answer = http.post(f"/api/v10/channels/{valid['channel_id']}/messages",
                           data={"payload_json": '{"content": "x"}'}, files={part: ("a.txt", b"hi")})
    assert answer.status_code == 400 and answer.json()["code"] == 50035
    assert "files" in answer.json()["errors"]
