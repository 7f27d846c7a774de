"""The inspector's server side over real HTTP: the live feed subscribes to the bus only while a page
is connected (with none open the emulator does no work for it), what the feed and the world reads
show (and never show: secrets), the page beyond loopback, and bad input to its lobby actions."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from emulator_world import ALICE, BOT_ID, BOT_TOKEN, CLIENT_SECRET, bot_headers
from interaction_bots import GatewayBot, Replies
from platformpp.emulator import Emulator
from platformpp.emulator.core.admin_secret import ENV

GENERAL = 1200000000000000101
LIVE = "/_emulator/inspector/live"
GUILD_MESSAGES = 1 << 9


class FeedReader:
    """Reads the live feed on a thread until closed; ``messages`` are (event, data) pairs."""

    def __init__(self, base_url: str, headers: dict[str, str] | None = None) -> None:
        self.messages: list[tuple[str, Any]] = []
        self._stop = threading.Event()
        self._client = httpx.Client(base_url=base_url, timeout=10, headers=headers or {})
        self._thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        try:
            self._stream()
        except (httpx.HTTPError, RuntimeError):
            if not self._stop.is_set():   # closing the client ends the stream under the reader
                raise

    def _stream(self) -> None:
        with self._client.stream("GET", LIVE) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            kind = None
            for line in response.iter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    self.messages.append((kind, json.loads(line[6:])))
                if self._stop.is_set():
                    return

    def wait_for(self, test: Any, timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [data for kind, data in list(self.messages) if test(kind, data)]
            if found:
                return found[0]
            time.sleep(0.02)
        raise AssertionError(f"not in the feed: {self.messages}")

    def __enter__(self) -> FeedReader:
        self._thread.start()
        self.wait_for(lambda kind, data: kind == "status")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._client.close()
        self._thread.join(5)


def _subscribers(emu: Emulator) -> tuple[int, int]:
    bus = emu.state.bus
    return len(bus._subscribers), len(bus._dispatch_subscribers)


def test_the_feed_subscribes_only_while_a_page_is_connected(emu: Emulator, http: httpx.Client) -> None:
    closed = _subscribers(emu)
    with FeedReader(emu.base_url):
        assert _subscribers(emu) == (closed[0] + 1, closed[1] + 1)
    deadline = time.monotonic() + 5
    while _subscribers(emu) != closed:
        assert time.monotonic() < deadline, "the feed's subscriber stayed after the page went"
        time.sleep(0.02)


def test_the_feed_shows_dispatches_requests_and_events_redacted(emu: Emulator, http: httpx.Client) -> None:
    with GatewayBot(emu.base_url, Replies(), intents=1 | GUILD_MESSAGES), FeedReader(emu.base_url) as feed:
        posted = http.post(f"/api/v10/channels/{GENERAL}/messages", json={"content": "seen live"},
                           headers=bot_headers()).json()
        token = http.post("/api/v10/oauth2/token", data={
            "grant_type": "client_credentials", "scope": "identify", "client_id": "1000000000000000000",
            "client_secret": CLIENT_SECRET})
        assert token.status_code == 200
        dispatch = feed.wait_for(lambda kind, data: kind == "dispatch" and data["event"] == "MESSAGE_CREATE")
        assert dispatch["payload"]["id"] == posted["id"] and dispatch["size"] > 0
        assert [(to["kind"], to["user_id"]) for to in dispatch["to"]] == [("bot", str(BOT_ID))]
        request = feed.wait_for(lambda kind, data: kind == "http" and data["path"].endswith("/messages"))
        assert request["method"] == "POST" and request["status"] == 200 and request["body"] == {"content": "seen live"}
        assert request["authorization"] == "Bot [REDACTED]"
        assert request["response"]["id"] == posted["id"] and request["response"]["content"] == "seen live"
        oauth = feed.wait_for(lambda kind, data: kind == "http" and data["path"] == "/api/v10/oauth2/token")
        assert oauth["body"]["client_secret"] == "[REDACTED]"
        assert oauth["response"]["access_token"] == "[REDACTED]" and token.json()["access_token"] not in str(oauth)
        assert http.post("/_emulator/reset").status_code == 204
        feed.wait_for(lambda kind, data: kind == "event" and data["name"] == "emulator.reset")
        text = json.dumps(feed.messages)
        assert BOT_TOKEN not in text and CLIENT_SECRET not in text
        # The inspector's own reads are left out of the HTTP feed.
        assert not any(kind == "http" and data["path"].startswith("/_emulator/inspector") for kind, data in feed.messages)


def test_the_world_read_names_no_secret(emu: Emulator, http: httpx.Client) -> None:
    world = http.get("/_emulator/inspector/world")
    assert world.status_code == 200
    assert [g["name"] for g in world.json()["guilds"]] == ["Demo Guild"]
    assert "secret" not in world.text and "token" not in world.text and "private_key" not in world.text
    assert http.get("/_emulator/inspector/channels/1/messages").json()["code"] == 10003
    assert http.get("/_emulator/inspector/lobbies/1/messages").json()["code"] == 10031
    bad = http.get("/_emulator/inspector/channels/abc/messages")
    assert bad.status_code == 404   # not a snowflake: no route
    assert http.get("/_emulator/ui/secrets.txt").status_code == 404


def test_lobby_join_and_leave_refuse_unknown_ids_and_change_nothing(emu: Emulator, http: httpx.Client) -> None:
    lobby = http.post("/api/v10/lobbies", json={}, headers=bot_headers()).json()
    assert http.put(f"/_emulator/lobbies/1/members/{ALICE}").json()["code"] == 10031
    assert http.put(f"/_emulator/lobbies/{lobby['id']}/members/1").json()["code"] == 10013
    assert http.delete(f"/_emulator/lobbies/{lobby['id']}/members/{ALICE}").json()["code"] == 10007
    assert http.get(f"/api/v10/lobbies/{lobby['id']}", headers=bot_headers()).json()["members"] == []
    joined = http.put(f"/_emulator/lobbies/{lobby['id']}/members/{ALICE}")
    assert joined.status_code == 200 and joined.json()["id"] == str(ALICE)


@pytest.fixture
def beyond_loopback(monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    monkeypatch.delenv(ENV, raising=False)
    with Emulator(db=":memory:", host="0.0.0.0") as emu:
        yield emu


def test_beyond_loopback_the_page_loads_but_every_read_needs_the_secret(beyond_loopback: Emulator) -> None:
    emu = beyond_loopback
    secret = emu.admin_secret
    assert secret is not None
    with httpx.Client(base_url=f"http://127.0.0.1:{emu.port}", timeout=10) as http:
        page = http.get("/_emulator/ui")
        assert page.status_code == 200 and secret not in page.text
        assert http.get("/_emulator/ui/inspector.js").status_code == 200
        for path in ("/_emulator/inspector/world", LIVE, f"/_emulator/inspector/channels/{GENERAL}/messages"):
            assert http.get(path).status_code == 401, path
        assert http.put(f"/_emulator/lobbies/1/members/{ALICE}").status_code == 401
        assert http.get("/_emulator/inspector/world", headers={"Authorization": f"Bearer {secret}"}).status_code == 200


def test_stopping_the_emulator_ends_the_feed_at_once() -> None:
    emu = Emulator(db=":memory:").start()
    with FeedReader(emu.base_url) as feed:
        started = time.monotonic()
        emu.stop()
        # Without the stream ending, uvicorn would wait its 2 s grace period, then cancel it.
        assert time.monotonic() - started < 1.5
        feed._thread.join(5)
        assert not feed._thread.is_alive()


def test_response_bodies_are_kept_only_while_a_page_follows_the_log(emu: Emulator, http: httpx.Client) -> None:
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200
    with FeedReader(emu.base_url) as feed:
        assert http.get("/api/v10/gateway").status_code == 200
        feed.wait_for(lambda kind, data: kind == "http" and data["path"] == "/api/v10/gateway")
    deadline = time.monotonic() + 5
    while emu.state.requests.keep_responses:   # the server sees the page go
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert http.get("/api/v10/applications/@me", headers=bot_headers()).status_code == 200
    log = {entry["path"]: entry for entry in http.get("/_emulator/requests").json()}
    assert log["/api/v10/users/@me"]["response"] is None
    assert log["/api/v10/gateway"]["response"]["url"].startswith("ws://")
    assert log["/api/v10/applications/@me"]["response"] is None
