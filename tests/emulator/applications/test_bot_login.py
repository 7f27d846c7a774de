"""Bots log in as on the platform: the routes bot libraries call at start answer as the
platform does, and Identify accepts every payload the platform accepts and refuses only what it
refuses, with its close codes. Over real sockets against a running emulator."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from emulator_world import APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.gateway.protocol import ALL_INTENTS, Intent
from social_helpers import GatewayClient, bot

# GATEWAY_PRESENCE, GATEWAY_GUILD_MEMBERS, GATEWAY_MESSAGE_CONTENT (the non-limited privileged flags)
PRIVILEGED_FLAGS = (1 << 12) | (1 << 14) | (1 << 18)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def allow_privileged_intents(emu: Emulator) -> None:
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (PRIVILEGED_FLAGS, APP_ID))


async def identify_with(emu: Emulator, d: dict[str, Any]) -> tuple[dict[str, Any] | None, int | None]:
    """Identify with ``d`` (token added): READY's payload, or the close code."""
    client = await GatewayClient.connect(emu)
    assert (await client.recv())["op"] == 10
    await client.send({"op": 2, "d": {"token": BOT_TOKEN, **d}})
    try:
        ready = await client.dispatch("READY")
    except Exception:   # the socket closed: report its code
        return None, await client.close_code()
    await client.close()
    return ready, None


PROPERTIES = {"os": "linux", "browser": "lib", "device": "lib"}

ACCEPTED = {
    "legacy $-prefixed properties": {"properties": {"$os": "linux", "$browser": "lib", "$device": "lib"},
                                     "intents": 1},
    "properties of any keys": {"properties": {"os": "linux", "browser": "lib", "device": "lib",
                                              "browser_user_agent": "x", "client_build_number": 9}, "intents": 1},
    "empty properties": {"properties": {}, "intents": 1},
    "presence with nulls": {"properties": PROPERTIES, "intents": 1,
                            "presence": {"since": None, "activities": None, "status": None, "afk": None}},
    "presence with the legacy game": {"properties": PROPERTIES, "intents": 1,
                                      "presence": {"since": None, "game": {"name": "Chess", "type": 0},
                                                   "status": "idle", "afk": False}},
    "presence with activity nulls": {"properties": PROPERTIES, "intents": 1, "presence": {
        "activities": [{"name": "Chess", "type": 0, "url": None, "state": None}], "status": "dnd",
        "since": 0, "afk": False}},
    "empty presence": {"properties": PROPERTIES, "intents": 1, "presence": {}},
    "null presence and optional fields": {"properties": PROPERTIES, "intents": 1, "presence": None,
                                          "shard": None, "large_threshold": None, "compress": None,
                                          "capabilities": None},
    "compress true, large_threshold 250, shard": {"properties": PROPERTIES, "intents": 1, "compress": True,
                                                  "large_threshold": 250, "shard": [0, 1]},
    "compress false, large_threshold 50": {"properties": PROPERTIES, "intents": 1, "compress": False,
                                           "large_threshold": 50},
    "every documented intent": {"properties": PROPERTIES, "intents": ALL_INTENTS},
    "intent bit 17 and the other gaps": {"properties": PROPERTIES, "intents": (1 << 17) | (1 << 18) | (1 << 19)
                                         | (1 << 22) | (1 << 23) | 1},
    "every bit up to 25": {"properties": PROPERTIES, "intents": (1 << 26) - 1},
}


@pytest.mark.parametrize("d", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_identify_accepts_what_the_platform_accepts(platformpp_emulator: Emulator, d: dict[str, Any]) -> None:
    allow_privileged_intents(platformpp_emulator)
    ready, code = run(identify_with(platformpp_emulator, d))
    assert code is None and ready is not None, f"closed with {code}"
    assert ready["d"]["user"]["id"] == str(BOT_ID)
    assert ready["d"]["user"]["verified"] is True and ready["d"]["user"]["email"] is None


def test_identify_presence_with_the_legacy_game_is_the_bots_activity(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    run(identify_with(emu, ACCEPTED["presence with the legacy game"]))
    row = emu.state.db.query_one("SELECT status FROM presences WHERE user_id = ?", (BOT_ID,))
    assert row is not None and row["status"] == "idle"
    activities = emu.state.db.query("SELECT activity FROM activities WHERE user_id = ?", (BOT_ID,))
    assert any('"Chess"' in a["activity"] for a in activities)


REFUSED = {
    "intent beyond the highest bit": ({"properties": PROPERTIES, "intents": 1 << 26}, 4013),
    "negative intents": ({"properties": PROPERTIES, "intents": -1}, 4013),
    "privileged intent not enabled": ({"properties": PROPERTIES, "intents": int(Intent.MESSAGE_CONTENT)}, 4014),
    "shard id not below the count": ({"properties": PROPERTIES, "intents": 1, "shard": [1, 1]}, 4010),
    "shard of three numbers": ({"properties": PROPERTIES, "intents": 1, "shard": [0, 1, 2]}, 4010),
    "large_threshold 251": ({"properties": PROPERTIES, "intents": 1, "large_threshold": 251}, 4002),
    "large_threshold 49": ({"properties": PROPERTIES, "intents": 1, "large_threshold": 49}, 4002),
    "compress as a string": ({"properties": PROPERTIES, "intents": 1, "compress": "zlib"}, 4002),
    "properties missing": ({"intents": 1}, 4002),
    "properties a list": ({"properties": ["linux"], "intents": 1}, 4002),
    "intents missing": ({"properties": PROPERTIES}, 4002),
    "bad presence status": ({"properties": PROPERTIES, "intents": 1, "presence": {"status": "sleeping"}}, 4002),
}


@pytest.mark.parametrize(("d", "code"), REFUSED.values(), ids=REFUSED.keys())
def test_identify_refuses_with_the_platforms_close_codes(platformpp_emulator: Emulator, d: dict[str, Any],
                                                          code: int) -> None:
    ready, closed_with = run(identify_with(platformpp_emulator, d))
    assert ready is None and closed_with == code


def test_start_up_routes_answer_for_the_bot(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET flags = ? WHERE id = ?", ((1 << 40) | (1 << 19) | 2, APP_ID))
    with bot(emu) as http:
        gateway = http.get("/gateway/bot").json()
        assert gateway["url"].startswith("ws://") and gateway["shards"] == 1
        assert gateway["session_start_limit"]["max_concurrency"] == 1
        me = http.get("/users/@me").json()
        assert me["id"] == str(BOT_ID) and me["bot"] is True and me["primary_guild"] is None
        assert me["verified"] is True and me["email"] is None   # as the platform answers a bot
        app = http.get("/applications/@me").json()
        assert app == http.get("/oauth2/applications/@me").json()
        assert app["summary"] == ""   # deprecated, outside the schema, still sent (clients read it)
        assert app["id"] == str(APP_ID) and app["bot"]["id"] == str(BOT_ID) and app["owner"]["username"]
        assert app["flags"] == (1 << 19) | 2 and app["flags_new"] == str((1 << 40) | (1 << 19) | 2)
        assert app["approximate_guild_count"] == 1 and app["team"] is None and app["type"] is None
        guilds = http.get("/users/@me/guilds").json()
        assert [g["id"] for g in guilds] == [str(GUILD_ID)]


def test_patch_application_keeps_flags_32_bit_and_changes_only_what_it_may(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET flags = ? WHERE id = ?", ((1 << 40) | (1 << 12), APP_ID))
    with bot(emu) as http:
        # the limited message-content flag may be turned on; bits beyond 30 are kept, as flags_new shows
        changed = http.patch("/applications/@me", json={"flags": (1 << 12) | (1 << 19), "description": "New",
                                                         "tags": ["chess"], "explicit_content_filter": 1,
                                                         "custom_install_url": "https://game.example/i"})
        assert changed.status_code == 200, changed.text
        body = changed.json()
        assert body["flags"] == (1 << 12) | (1 << 19) and body["flags_new"] == str((1 << 40) | (1 << 12) | (1 << 19))
        assert body["description"] == "New" and body["tags"] == ["chess"] and body["explicit_content_filter"] == 1
        assert http.get("/applications/@me").json()["custom_install_url"] == "https://game.example/i"
        before = http.get("/applications/@me").json()
        for bad, field in (({"flags": 1 << 31}, "flags"),           # flags stays a 32-bit signed integer
                           ({"flags": "4096"}, "flags"),
                           ({"flags": 1 << 14}, "flags"),            # not a flag an application may set
                           ({"description": "ok", "tags": ["x" * 21]}, "tags"),
                           ({"icon": "not an image"}, "icon"),
                           ({"interactions_endpoint_url": "ftp://x"}, "interactions_endpoint_url"),
                           ({"explicit_content_filter": 2}, "explicit_content_filter")):
            refused = http.patch("/applications/@me", json=bad)
            assert refused.status_code == 400 and field in refused.json()["errors"], (bad, refused.text)
        assert http.get("/applications/@me").json() == before   # nothing of a refused body was written
        # A field the route does not change (verify_key is read-only) is ignored.
        assert http.patch("/applications/@me", json={"verify_key": "x"}).json() == before
        icon = http.patch("/applications/@me", json={"icon": "data:image/png;base64,iVBORw0KGgo="}).json()["icon"]
        assert isinstance(icon, str) and len(icon) == 32
        assert http.patch("/applications/@me", json={"icon": None}).json()["icon"] is None
    with httpx.Client(base_url=emu.api_base) as anonymous:
        assert anonymous.patch("/applications/@me", json={}).status_code == 401


def test_large_bot_sharding_from_a_fixture_needs_the_shard_query(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    fixture = {"applications": [{"id": "6000", "name": "Sharded", "client_secret": "a-long-secret",
                                 "bot": {"id": "6001", "username": "sharded-bot", "token": "NjAwMQ.AAAA.anything-random"},
                                 "sharding": {"large": True, "shards": 32, "max_concurrency": 16}}],
               "guilds": [{"id": str(7000 + n), "name": f"G{n}", "owner_id": "6001",
                           "members": [{"user_id": "6001"}]} for n in range(3)]}
    seeded = httpx.post(f"{emu.base_url}/_emulator/seed", json=fixture)
    assert seeded.status_code == 204, seeded.text
    with httpx.Client(base_url=emu.api_base, headers={"Authorization": "Bot NjAwMQ.AAAA.anything-random"}) as http:
        assert http.get("/gateway/bot").json()["session_start_limit"]["max_concurrency"] == 16
        missing = http.get("/users/@me/guilds")
        assert missing.status_code == 400 and "shard" in missing.json()["errors"]
        for bad in ("16", "-1", "x"):
            assert http.get("/users/@me/guilds", params={"shard": bad}).status_code == 400
        seen = [g["id"] for shard in range(16) for g in http.get("/users/@me/guilds", params={"shard": shard}).json()]
        assert sorted(seen) == ["7000", "7001", "7002"]


# --- start-up of two popular Python bot libraries, reproduced request by request ----------------------
# (recorded against the emulator with the libraries themselves in a scratch environment)

GENERAL = GUILD_ID + 101   # the default world's #general
UNPRIVILEGED = ALL_INTENTS & ~int(Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT)


async def _library_session(emu: Emulator, query: str, identify: dict[str, Any]) -> tuple[dict[str, Any],
                                                                                        dict[str, Any]]:
    client = await GatewayClient.connect(emu, query)
    hello = await client.recv()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await client.send({"op": 2, "d": {"token": BOT_TOKEN, **identify}})
    ready = await client.dispatch("READY")
    guild = await client.dispatch("GUILD_CREATE")
    await client.close()
    return ready, guild


def _channel_and_message(http: httpx.Client) -> None:
    channel = http.get(f"/channels/{GENERAL}")
    assert channel.status_code == 200 and channel.json()["name"] == "general", channel.text
    sent = http.post(f"/channels/{GENERAL}/messages", json={"content": "hello from a bot library"})
    assert sent.status_code == 200 and sent.json()["content"] == "hello from a bot library", sent.text


def test_start_up_with_payload_compression_flag_and_legacy_presence(platformpp_emulator: Emulator) -> None:
    """A library that asks for the current user and its application over REST, then connects with
    zlib-stream and identifies with ``compress: true``, ``large_threshold: 250`` and a presence whose
    activity travels in the legacy ``game`` field (null when the bot sets none)."""
    emu = platformpp_emulator
    with bot(emu) as http:
        assert http.get("/users/@me").status_code == 200
        assert http.get("/oauth2/applications/@me").status_code == 200
        for presence in ({"status": "idle", "game": {"type": 0, "name": "Chess"}, "since": 0, "afk": False},
                         {"status": None, "game": None, "since": 0, "afk": False}):
            ready, guild = run(_library_session(emu, "v=10&encoding=json&compress=zlib-stream", {
                "properties": {"os": "linux", "browser": "lib", "device": "lib"}, "compress": True,
                "large_threshold": 250, "presence": presence, "intents": UNPRIVILEGED}))
            assert ready["d"]["user"]["id"] == str(BOT_ID) and guild["d"]["id"] == str(GUILD_ID)
        _channel_and_message(http)


def test_start_up_with_gateway_bot_shard_and_capabilities(platformpp_emulator: Emulator) -> None:
    """A library that reads ``/gateway/bot`` first, then identifies with an explicit ``shard``,
    ``capabilities``, ``compress: false`` and a presence with ``since: null``."""
    emu = platformpp_emulator
    with bot(emu) as http:
        gateway = http.get("/gateway/bot").json()
        assert gateway["session_start_limit"]["remaining"] > 0
        ready, guild = run(_library_session(emu, "v=10&encoding=json&compress=zlib-stream", {
            "compress": False, "large_threshold": 250,
            "properties": {"os": "Linux 64bit", "browser": "lib (1.0, http 3.0)", "device": "lib 1.0"},
            "shard": [0, gateway["shards"]], "intents": UNPRIVILEGED & ~int(Intent.GUILD_MESSAGE_TYPING), "capabilities": 0,
            "presence": {"since": None, "afk": False, "status": "online", "game": None}}))
        assert ready["d"]["shard"] == [0, 1] and guild["d"]["name"] == "Demo Guild"
        _channel_and_message(http)


def test_patch_application_verifies_only_a_new_interactions_endpoint(platformpp_emulator: Emulator) -> None:
    """A new URL must answer the platform's signed PING (nothing listens on port 1, so it cannot);
    sending back the URL the application already has is not a change and is not checked again."""
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET interactions_endpoint_url = ? WHERE id = ?",
                         ("http://127.0.0.1:1/kept", APP_ID))
    with bot(emu) as http:
        same = http.patch("/applications/@me", json={"interactions_endpoint_url": "http://127.0.0.1:1/kept",
                                                     "description": "Same URL"})
        assert same.status_code == 200 and same.json()["description"] == "Same URL", same.text
        new = http.patch("/applications/@me", json={"interactions_endpoint_url": "http://127.0.0.1:1/new",
                                                    "description": "New URL"})
        assert new.status_code == 400 and "interactions_endpoint_url" in new.json()["errors"]
        after = http.get("/applications/@me").json()
        assert after["description"] == "Same URL" and after["interactions_endpoint_url"] == "http://127.0.0.1:1/kept"


def test_zstd_stream_is_answered_with_text_frames(platformpp_emulator: Emulator) -> None:
    """Libraries ask for ``compress=zstd-stream`` whenever a zstd module is importable; they read plain
    text frames too, which is what they get. An unknown transport compression is still refused."""
    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator, "v=10&encoding=json&compress=zstd-stream")
        ready = await client.identify(BOT_TOKEN, intents=1)
        assert ready["d"]["user"]["id"] == str(BOT_ID) and client.binary_frames == 0
        await client.close()
        refused = await GatewayClient.connect(platformpp_emulator, "v=10&encoding=json&compress=brotli-stream")
        assert await refused.close_code() == 4002

    run(scenario())
