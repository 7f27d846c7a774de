"""Bots log in as on the platform (issue 10 §6): the routes bot libraries call at start answer as the
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
}


@pytest.mark.parametrize("d", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_identify_accepts_what_the_platform_accepts(platformpp_emulator: Emulator, d: dict[str, Any]) -> None:
    allow_privileged_intents(platformpp_emulator)
    ready, code = run(identify_with(platformpp_emulator, d))
    assert code is None and ready is not None, f"closed with {code}"
    assert ready["d"]["user"]["id"] == str(BOT_ID)


def test_identify_presence_with_the_legacy_game_is_the_bots_activity(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    run(identify_with(emu, ACCEPTED["presence with the legacy game"]))
    row = emu.state.db.query_one("SELECT status FROM presences WHERE user_id = ?", (BOT_ID,))
    assert row is not None and row["status"] == "idle"
    activities = emu.state.db.query("SELECT activity FROM activities WHERE user_id = ?", (BOT_ID,))
    assert any('"Chess"' in a["activity"] for a in activities)


REFUSED = {
    "unknown intent bit 17": ({"properties": PROPERTIES, "intents": 1 << 17}, 4013),
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
        app = http.get("/applications/@me").json()
        assert app == http.get("/oauth2/applications/@me").json()
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
                                                         "interactions_endpoint_url": "https://game.example/i"})
        assert changed.status_code == 200, changed.text
        body = changed.json()
        assert body["flags"] == (1 << 12) | (1 << 19) and body["flags_new"] == str((1 << 40) | (1 << 12) | (1 << 19))
        assert body["description"] == "New" and body["tags"] == ["chess"] and body["explicit_content_filter"] == 1
        assert http.get("/applications/@me").json()["interactions_endpoint_url"] == "https://game.example/i"
        before = http.get("/applications/@me").json()
        for bad, field in (({"flags": 1 << 31}, "flags"),           # flags stays a 32-bit signed integer
                           ({"flags": "4096"}, "flags"),
                           ({"flags": 1 << 14}, "flags"),            # not a flag an application may set
                           ({"description": "ok", "tags": ["x" * 21]}, "tags"),
                           ({"icon": "not an image"}, "icon"),
                           ({"interactions_endpoint_url": "ftp://x"}, "interactions_endpoint_url"),
                           ({"explicit_content_filter": 2}, "explicit_content_filter"),
                           ({"verify_key": "x"}, "verify_key")):
            refused = http.patch("/applications/@me", json=bad)
            assert refused.status_code == 400 and field in refused.json()["errors"], (bad, refused.text)
        assert http.get("/applications/@me").json() == before   # nothing of a refused body was written
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
