"""Property test of the HTTP request layer (hypothesis, bounded, derandomized): every route of the app,
with random path parameters, query strings, bodies (JSON of any shape, nested too deep, with lone
surrogates, form, multipart, bytes that are not UTF-8, large) and headers, is answered, never with a
5xx and never by dropping the connection; the next request on the same connection is served."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, BOT_TOKEN, GUILD_ID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from platformpp.emulator import Emulator
from social_helpers import user_token
from starlette.routing import Route

# Fault injection answers 5xx and drops sockets on purpose; the inspector's live feed is a stream that
# never ends while the emulator runs (its own tests read it).
EXCLUDED = re.compile(r"^/_emulator/(faults|inspector/live)")


class Target:
    """The emulator under test and its routes (method, path template)."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        with httpx.Client(base_url=emu.api_base, headers={"authorization": f"Bot {BOT_TOKEN}"}) as bot:
            # Ids of things that exist, so that requests get past "unknown channel" to their bodies.
            self.ids = [str(c["id"]) for c in bot.get(f"/guilds/{GUILD_ID}/channels").json()]
            self.ids += [str(r["id"]) for r in bot.get(f"/guilds/{GUILD_ID}/roles").json()]
            channel = next(c["id"] for c in bot.get(f"/guilds/{GUILD_ID}/channels").json() if c["type"] == 0)
            self.ids.append(str(bot.post(f"/channels/{channel}/messages", json={"content": "hi"}).json()["id"]))
        app = emu._server.config.app   # the Starlette app the server runs: its routes
        self.routes = sorted({(method, route.path) for route in app.routes if isinstance(route, Route)
                              for method in (route.methods or {"GET"}) - {"HEAD"}
                              if not EXCLUDED.match(route.path)})

    def __repr__(self) -> str:
        return f"Target({len(self.routes)} routes)"


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[Target]:
    with Emulator() as emu:
        yield Target(emu)


KNOWN_IDS = [str(GUILD_ID), str(APP_ID), str(ALICE), str(BOB), str(BOT_ID)]
snowflakes = st.one_of(st.sampled_from(KNOWN_IDS), st.integers(0, 2**70).map(str),
                       st.sampled_from(["0", "-1", "1e3", "@me", "18446744073709551616", "9" * 40]))
segments = st.one_of(snowflakes, st.text(max_size=12).map(lambda s: quote(s, safe="")),
                     st.sampled_from(["..", "%2e%2e", "%00", "%ED%A0%80", "%FF", "@me", "x.txt"]))

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                        st.text(max_size=12), st.sampled_from(KNOWN_IDS))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=5), max_leaves=20)
# Keys the routes read, so that random values reach the validators rather than stopping at a missing field.
FIELD_NAMES = ["content", "name", "type", "id", "user_id", "channel_id", "guild_id", "roles", "permissions",
               "embeds", "components", "attachments", "flags", "metadata", "secret", "token", "scope", "scopes",
               "grant_type", "code", "client_id", "redirect_uri", "activity", "lobby_metadata", "max_age",
               "data", "options", "position", "nick", "topic", "allow", "deny", "limit", "user", "application_id",
               "intent", "status", "seconds", "time", "payload_json", "files"]
objects = st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=6)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


raw_json = st.one_of(
    objects.map(json.dumps), json_values.map(json.dumps),
    st.one_of(st.sampled_from([65, 1000, 100_000]), st.integers(60, 5000)).map(_deep),
    st.sampled_from(FIELD_NAMES).map(lambda k: '{"%s": "\\ud800"}' % k),   # a lone surrogate
    st.sampled_from(['{"a":NaN}', '{"a":1', "", " ", "null", '"\\udfff"', '{"\\udc00":1}', "1e999999"]),
)
bodies = st.one_of(
    st.tuples(st.just("json"), raw_json.map(str.encode)),
    st.tuples(st.just("bytes"), st.binary(max_size=64)),
    st.tuples(st.just("form"), st.lists(st.tuples(st.sampled_from(FIELD_NAMES), st.text(max_size=10)),
                                        max_size=5).map(lambda pairs: "&".join(f"{quote(k)}={quote(v)}"
                                                                               for k, v in pairs).encode())),
    st.tuples(st.just("multipart"), raw_json.map(str.encode)),
    st.tuples(st.just("large"), st.sampled_from([b"[" + b"1," * (1 << 19) + b"1]", b"a" * (21 << 20)])),
    st.tuples(st.just("none"), st.just(b"")),
)
CONTENT_TYPES = {"json": "application/json", "bytes": "application/octet-stream",
                 "form": "application/x-www-form-urlencoded", "large": "application/json", "none": None}
queries = st.lists(st.tuples(st.sampled_from(["limit", "before", "after", "around", "with_counts", "query",
                                              "user_id", "guild_id", "content", "v", "x"]),
                             st.one_of(snowflakes, st.text(max_size=8))), max_size=3)
# Mostly good credentials, so that requests get past authentication to their bodies.
authorizations = st.sampled_from(["bot", "bot", "bot", "bearer", "bearer", "none", "garbage", "bearer-garbage"])
extra_headers = st.dictionaries(st.sampled_from(["x-audit-log-reason", "content-type", "x-signature-ed25519",
                                                 "accept-encoding", "x-super-properties"]),
                                st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20).map(str.strip),
                                max_size=2)


def _multipart(payload: bytes) -> tuple[bytes, str]:
    boundary = "fuzzboundary"
    parts = [b"--" + boundary.encode() + b'\r\nContent-Disposition: form-data; name="payload_json"\r\n'
             b"Content-Type: application/json\r\n\r\n" + payload + b"\r\n",
             b"--" + boundary.encode() + b'\r\nContent-Disposition: form-data; name="files[0]"; '
             b'filename="../a b.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n',
             b"--" + boundary.encode() + b"--\r\n"]
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_every_route_answers_any_request_without_a_5xx(fuzzed: Target, data: Any) -> None:
    emu = fuzzed.emu
    method, template = data.draw(st.sampled_from(fuzzed.routes), label="route")
    path = re.sub(r"\{[^}]+\}", lambda _: data.draw(st.sampled_from(fuzzed.ids) | segments,
                                                     label="path parameter"), template)
    query = data.draw(queries, label="query")
    kind, body = data.draw(bodies, label="body")
    headers: dict[str, str | bytes] = {}
    content_type = CONTENT_TYPES.get(kind)
    if kind == "multipart":
        body, content_type = _multipart(body)
    if content_type:
        headers["content-type"] = content_type
    auth = data.draw(authorizations, label="authorization")
    if auth == "bot":
        headers["authorization"] = f"Bot {BOT_TOKEN}"
    elif auth == "bearer":
        headers["authorization"] = f"Bearer {user_token(emu, ALICE)}"
    elif auth == "garbage":
        headers["authorization"] = "Bot x.y.z"
    elif auth == "bearer-garbage":
        headers["authorization"] = "Bearer \u00e9\u00e9".encode("latin-1")
    headers.update(data.draw(extra_headers, label="headers"))
    with httpx.Client(base_url=emu.base_url, timeout=30) as client:
        try:
            answer = client.request(method, path, params=query, content=body or None, headers=headers)
        except httpx.TransportError as exc:   # a dropped connection: no answer at all
            pytest.fail(f"{method} {path}: no answer ({exc!r})")
        assert answer.status_code < 500, f"{method} {path} -> {answer.status_code} {answer.text[:300]}"
        assert client.get("/api/v10/gateway").status_code == 200   # the same connection goes on
