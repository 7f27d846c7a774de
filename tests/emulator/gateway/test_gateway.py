"""The Gateway protocol over a real WebSocket: Hello, Identify (bot and SDK user), heartbeats,
zlib-stream, close codes, limits, Resume, Reconnect, Invalid Session and injected faults."""

from __future__ import annotations

import asyncio
import json
import time
import zlib

import httpx
import pytest
from platformpp.emulator import Emulator
from social_helpers import (
    ALICE,
    APP_ID,
    BOB,
    BOT_ID,
    BOT_TOKEN,
    GUILD_ID,
    SYNC_FLUSH,
    GatewayClient,
    api,
    sdk_session,
    set_heartbeat,
    user_token,
)

PROPS = {"os": "linux", "browser": "tests", "device": "tests"}
GUILD_KEYS = {
    "id", "name", "icon", "splash", "owner_id", "afk_channel_id", "afk_timeout", "verification_level",
    "default_message_notifications", "explicit_content_filter", "mfa_level", "application_id",
    "system_channel_id", "system_channel_flags", "rules_channel_id", "public_updates_channel_id",
    "vanity_url_code", "description", "banner", "premium_tier", "preferred_locale", "nsfw_level", "features",
    "roles", "emojis", "stickers", "joined_at", "large", "unavailable", "member_count", "members", "channels",
    "threads", "presences", "voice_states", "stage_instances", "guild_scheduled_events"}


def run(coro):
    return asyncio.run(coro)


async def _closed_with(emu: Emulator, payloads: list[object], query: str = "v=10&encoding=json",
                       hello: bool = True) -> int | None:
    client = await GatewayClient.connect(emu, query)
    if hello:
        assert (await client.recv())["op"] == 10
    for payload in payloads:
        await client.ws.send(payload if isinstance(payload, (str, bytes)) else json.dumps(payload))
    return await client.close_code()


def test_discovery_routes(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    gateway = httpx.get(f"{emu.api_base}/gateway").json()
    assert gateway == {"url": emu.base_url.replace("http://", "ws://") + "/gateway"}
    with api(emu, BOT_TOKEN, bot=True) as client:
        body = client.get("/gateway/bot").json()
    assert body["url"] == gateway["url"] and body["shards"] == 1
    assert set(body["session_start_limit"]) == {"total", "remaining", "reset_after", "max_concurrency"}
    assert httpx.get(f"{emu.api_base}/gateway/bot").status_code == 401


def test_hello_heartbeat_and_ack(platformpp_emulator: Emulator) -> None:
    set_heartbeat(platformpp_emulator, 5000)

    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        hello = await client.recv()
        assert hello == {"op": 10, "d": {"heartbeat_interval": 5000}, "s": None, "t": None}
        await client.send({"op": 1, "d": None})
        assert await client.recv() == {"op": 11, "d": None, "s": None, "t": None}
        await client.close()

    run(scenario())


def test_bot_identify_ready_then_guild_create_over_zlib_stream(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator, "v=10&encoding=json&compress=zlib-stream")
        ready = await client.identify(BOT_TOKEN, intents=1)
        d = ready["d"]
        assert ready["s"] == 1 and d["v"] == 10
        assert d["user"]["id"] == str(BOT_ID) and d["user"]["bot"] is True
        assert {"id", "username", "discriminator", "global_name", "avatar", "bot", "mfa_enabled", "flags"} <= set(d["user"])
        assert d["guilds"] == [{"id": str(GUILD_ID), "unavailable": True}]
        assert d["application"] == {"id": str(APP_ID), "flags": 0}
        assert d["resume_gateway_url"].endswith("/gateway") and d["session_id"]
        guild = await client.dispatch("GUILD_CREATE")
        assert guild["s"] == 2 and GUILD_KEYS <= set(guild["d"])
        assert guild["d"]["unavailable"] is False and guild["d"]["member_count"] == 5
        assert {m["user"]["id"] for m in guild["d"]["members"]} >= {str(ALICE), str(BOT_ID)}
        voice = next(c for c in guild["d"]["channels"] if c["type"] == 2)
        assert {"bitrate", "user_limit", "permission_overwrites", "position"} <= set(voice)
        assert all({"color", "hoist", "position", "permissions", "managed", "mentionable"} <= set(r)
                   for r in guild["d"]["roles"])
        assert client.binary_frames == 3  # Hello, READY, GUILD_CREATE: each a binary frame
        await client.close()

    run(scenario())


def test_zlib_frames_end_with_sync_flush_and_share_one_stream(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        url = platformpp_emulator.base_url.replace("http://", "ws://") + "/gateway?v=10&encoding=json&compress=zlib-stream"
        import websockets

        async with websockets.connect(url) as ws:
            first = await ws.recv()
            await ws.send(json.dumps({"op": 1, "d": None}))
            second = await ws.recv()
        assert isinstance(first, bytes) and first.endswith(SYNC_FLUSH) and second.endswith(SYNC_FLUSH)
        inflater = zlib.decompressobj()
        assert json.loads(inflater.decompress(first))["op"] == 10
        # The second frame only inflates with the same stream state: one compressor per connection.
        assert json.loads(inflater.decompress(second))["op"] == 11
        with pytest.raises(zlib.error):
            zlib.decompressobj().decompress(second)

    run(scenario())


def test_sdk_user_identify_with_bearer_token(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        ready = await client.identify(user_token(platformpp_emulator, ALICE))
        d = ready["d"]
        assert d["user"]["id"] == str(ALICE) and d["user"]["bot"] is False
        assert d["guilds"] == [] and d["lobbies"] == [] and d["relationships"] == []
        await client.close()

    run(scenario())


@pytest.mark.parametrize(("identify", "code"), [
    ({"token": "not-a-token", "intents": 0, "properties": PROPS}, 4004),
    ({"token": BOT_TOKEN, "intents": 1 << 30, "properties": PROPS}, 4013),
    ({"token": BOT_TOKEN, "intents": 1 << 8, "properties": PROPS}, 4014),   # GUILD_PRESENCES not enabled
    ({"token": BOT_TOKEN, "intents": 1 << 15, "properties": PROPS}, 4014),  # MESSAGE_CONTENT not enabled
    ({"token": BOT_TOKEN, "intents": "1", "properties": PROPS}, 4002),
    ({"token": BOT_TOKEN, "intents": 0}, 4002),
    ({"token": BOT_TOKEN, "intents": 0, "properties": PROPS, "shard": [2, 2]}, 4010),
])
def test_identify_errors_close_with_wire_codes(platformpp_emulator: Emulator, identify: dict, code: int) -> None:
    assert run(_closed_with(platformpp_emulator, [{"op": 2, "d": identify}])) == code


def test_protocol_errors(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    identify = {"op": 2, "d": {"token": BOT_TOKEN, "intents": 0, "properties": PROPS}}
    assert run(_closed_with(emu, ["{not json"])) == 4002
    assert run(_closed_with(emu, [json.dumps({"op": 1, "d": None, "pad": "x" * 4100})])) == 4002
    assert run(_closed_with(emu, [{"op": 99, "d": None}])) == 4001
    assert run(_closed_with(emu, [{"op": 3, "d": {"status": "online", "afk": False, "activities": []}}])) == 4003
    assert run(_closed_with(emu, [identify, identify])) == 4005
    # A bad query string is refused before Hello.
    assert run(_closed_with(emu, [], "v=9&encoding=json", hello=False)) == 4012
    assert run(_closed_with(emu, [], "v=10&encoding=etf", hello=False)) == 4002


def test_send_rate_limit_closes_4008(platformpp_emulator: Emulator) -> None:
    heartbeats = [{"op": 1, "d": None}] * 121
    assert run(_closed_with(platformpp_emulator, heartbeats)) == 4008


def test_exactly_120_payloads_are_allowed(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        await client.recv()
        for _ in range(120):
            await client.send({"op": 1, "d": None})
        acks = [await client.recv() for _ in range(120)]
        assert all(a["op"] == 11 for a in acks)
        await client.close()

    run(scenario())


def test_silent_client_times_out_with_4009(platformpp_emulator: Emulator) -> None:
    set_heartbeat(platformpp_emulator, 200)

    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        started = time.monotonic()
        await client.recv()
        assert await client.close_code() == 4009
        assert 0.25 <= time.monotonic() - started < 2.0

    run(scenario())


def test_heartbeats_keep_a_session_alive(platformpp_emulator: Emulator) -> None:
    set_heartbeat(platformpp_emulator, 200)

    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        await client.recv()
        for _ in range(6):  # 0.6 s, twice the deadline of a silent client
            await asyncio.sleep(0.1)
            await client.send({"op": 1, "d": None})
            assert (await client.recv())["op"] == 11
        await client.close()

    run(scenario())


def test_resume_replays_missed_dispatches_in_order_then_resumed(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(token)
        session_id, seq = ready["d"]["session_id"], ready["s"]
        with api(emu, token) as http:
            lobby = http.put("/lobbies", json={"secret": "resume"}).json()
            seq = (await client.dispatch("LOBBY_CREATE"))["s"]
            dropped = httpx.post(f"{emu.base_url}/_emulator/gateway/drop", json={"session_id": session_id}).json()
            assert dropped == {"dropped": 1}
            assert await client.close_code() == 4000
            for n in range(3):  # sent while nobody is connected
                assert http.post(f"/lobbies/{lobby['id']}/messages", json={"content": f"m{n}"}).status_code == 201
        again = await GatewayClient.connect(emu)
        await again.recv()
        await again.send({"op": 6, "d": {"token": token, "session_id": session_id, "seq": seq}})
        replayed = [await again.recv() for _ in range(4)]
        assert [p["t"] for p in replayed] == ["LOBBY_MESSAGE_CREATE"] * 3 + ["RESUMED"]
        assert [p["d"]["content"] for p in replayed[:3]] == ["m0", "m1", "m2"]
        assert [p["s"] for p in replayed] == [seq + 1, seq + 2, seq + 3, seq + 4]
        assert replayed[3]["d"] == {}
        await again.close()

    run(scenario())


def test_resume_failures(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(token)
        await client.ws.close(4000)  # a resumable disconnect
        await asyncio.sleep(0.1)
        # Unknown session: Invalid Session, not resumable.
        other = await GatewayClient.connect(emu)
        await other.recv()
        await other.send({"op": 6, "d": {"token": token, "session_id": "nope", "seq": 1}})
        assert await other.recv() == {"op": 9, "d": False, "s": None, "t": None}
        await other.close()
        # Another user's token cannot take the session over.
        thief = await GatewayClient.connect(emu)
        await thief.recv()
        await thief.send({"op": 6, "d": {"token": user_token(emu, BOB), "session_id": ready["d"]["session_id"],
                                         "seq": 1}})
        assert (await thief.recv())["op"] == 9
        await thief.close()
        # A seq the session never reached: 4007.
        ahead = await GatewayClient.connect(emu)
        await ahead.recv()
        await ahead.send({"op": 6, "d": {"token": token, "session_id": ready["d"]["session_id"], "seq": 999}})
        assert await ahead.close_code() == 4007

    run(scenario())


def test_client_close_1000_ends_the_session(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(token)
        await client.ws.close(1000)
        await asyncio.sleep(0.1)
        again = await GatewayClient.connect(emu)
        await again.recv()
        await again.send({"op": 6, "d": {"token": token, "session_id": ready["d"]["session_id"], "seq": ready["s"]}})
        assert (await again.recv())["op"] == 9
        await again.close()

    run(scenario())


def test_admin_reconnect_and_invalidate(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await sdk_session(emu, ALICE)
        assert httpx.post(f"{emu.base_url}/_emulator/gateway/reconnect", json={"user_id": str(ALICE)}).json() == \
            {"reconnected": 1}
        assert await client.recv() == {"op": 7, "d": None, "s": None, "t": None}
        assert await client.close_code() == 4000
        second = await sdk_session(emu, BOB)
        httpx.post(f"{emu.base_url}/_emulator/gateway/invalidate", json={"user_id": str(BOB)})
        assert await second.recv() == {"op": 9, "d": False, "s": None, "t": None}
        # The socket stays open for a fresh Identify.
        await second.send({"op": 2, "d": {"token": user_token(emu, BOB), "intents": 0, "properties": PROPS}})
        assert (await second.dispatch("READY"))["d"]["user"]["id"] == str(BOB)
        await second.close()

    run(scenario())


def test_admin_authorize_request_reaches_the_users_sdk_sessions(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    url = f"{emu.base_url}/_emulator/gateway/authorize-request"

    async def scenario() -> None:
        alice = await sdk_session(emu, ALICE)
        bob = await sdk_session(emu, BOB)
        assert httpx.post(url, json={"user_id": str(ALICE)}).json() == {"delivered": 1}
        request = await alice.dispatch("AUTHORIZE_REQUEST")
        assert request["d"] == {"application_id": str(APP_ID)} and request["s"] == 2  # after READY
        await bob.no_dispatch("AUTHORIZE_REQUEST")
        # Another application's sessions of the same user are not addressed.
        assert httpx.post(url, json={"user_id": str(ALICE), "application_id": "1"}).json() == {"delivered": 0}
        await alice.no_dispatch("AUTHORIZE_REQUEST")
        await alice.close()
        await bob.close()

    run(scenario())
    missing = httpx.post(url, json={})
    assert missing.status_code == 400 and "user_id" in missing.json()["errors"]
    ignored = httpx.post(url, json={"user_id": str(ALICE), "scopes": "openid"})   # a field it does not know
    assert ignored.status_code == 200 and ignored.json() == {"delivered": 0}


def test_revoking_the_grant_closes_sdk_sessions_with_4004(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    token = user_token(emu, ALICE)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(token)
        other = await sdk_session(emu, BOB)
        revoked = httpx.post(f"{emu.api_base}/oauth2/token/revoke", data={"token": token, "client_id": str(APP_ID)})
        assert revoked.status_code == 200, revoked.text
        assert await client.close_code() == 4004
        await other.send({"op": 1, "d": None})  # Bob's session is untouched
        assert (await other.recv())["op"] == 11
        await other.close()

    run(scenario())


def test_fault_delays_dispatches(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    faults = {"rules": [{"path": "/gateway", "method": "GATEWAY", "latency_ms": 400}]}
    assert httpx.put(f"{emu.base_url}/_emulator/faults", json=faults).status_code == 200

    async def scenario() -> None:
        client = await sdk_session(emu, ALICE)
        started = time.monotonic()
        with api(emu, user_token(emu, ALICE)) as http:
            assert http.put("/lobbies", json={"secret": "slow"}).status_code == 200
        await client.dispatch("LOBBY_CREATE")
        assert time.monotonic() - started >= 0.4
        await client.close()

    run(scenario())


def test_fault_drops_sockets_and_resume_recovers(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(token)
        faults = {"rules": [{"path": "/gateway", "method": "GATEWAY", "drop_rate": 1.0}]}
        assert httpx.put(f"{emu.base_url}/_emulator/faults", json=faults).status_code == 200
        with api(emu, token) as http:
            http.put("/lobbies", json={"secret": "dropped"})
        assert await client.close_code() == 4000
        assert httpx.put(f"{emu.base_url}/_emulator/faults", json={}).status_code == 200
        again = await GatewayClient.connect(emu)
        await again.recv()
        await again.send({"op": 6, "d": {"token": token, "session_id": ready["d"]["session_id"], "seq": ready["s"]}})
        assert (await again.recv())["t"] == "LOBBY_CREATE"
        assert (await again.recv())["t"] == "RESUMED"
        await again.close()

    run(scenario())


def test_sharded_identify_gets_only_its_guilds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    shard = (GUILD_ID >> 22) % 2

    async def scenario() -> None:
        mine = await GatewayClient.connect(emu)
        ready = await mine.identify(BOT_TOKEN, shard=[shard, 2])
        assert ready["d"]["shard"] == [shard, 2] and len(ready["d"]["guilds"]) == 1
        other = await GatewayClient.connect(emu)
        ready = await other.identify(BOT_TOKEN, shard=[1 - shard, 2])
        assert ready["d"]["guilds"] == []
        await mine.close()
        await other.close()

    run(scenario())


def test_sharding_required_closes_4011(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET shards = 2 WHERE id = ?", (APP_ID,))
    identify = {"op": 2, "d": {"token": BOT_TOKEN, "intents": 0, "properties": PROPS}}
    assert run(_closed_with(emu, [identify])) == 4011


def test_identify_presence_is_applied_and_validated(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)
    playing = {"name": "Demo Game", "type": 0, "state": "Lobby"}

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(token, presence={"since": None, "status": "dnd", "afk": False, "activities": [playing]})
        with api(emu, token) as http:
            presence = http.get("/users/@me/presence").json()
        assert presence["status"] == "dnd" and presence["activities"][0]["state"] == "Lobby"
        await client.close()
        bad = await GatewayClient.connect(emu)
        await bad.recv()
        await bad.send({"op": 2, "d": {"token": token, "intents": 0, "properties": PROPS,
                                       "presence": {"status": "online", "afk": False, "activities": [{"type": 0}]}}})
        closed = bad.ws
        assert await bad.close_code() == 4002
        assert "d.presence.activities.0.name" in closed.close_reason

    run(scenario())


def test_request_guild_members(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=1)
        await client.send({"op": 8, "d": {"guild_id": str(GUILD_ID), "user_ids": [str(ALICE), "42"], "nonce": "n1"}})
        chunk = await client.dispatch("GUILD_MEMBERS_CHUNK")
        assert [m["user"]["id"] for m in chunk["d"]["members"]] == [str(ALICE)]
        assert chunk["d"]["not_found"] == ["42"] and chunk["d"]["nonce"] == "n1"
        await client.send({"op": 8, "d": {"guild_id": str(GUILD_ID), "query": "", "limit": 0}})
        assert await client.close_code() == 4014  # listing every member needs GUILD_MEMBERS

    run(scenario())
    emu.state.db.execute("UPDATE applications SET flags = ? WHERE id = ?", (1 << 14, APP_ID))

    async def with_intent() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=1 | 2)
        await client.send({"op": 8, "d": {"guild_id": str(GUILD_ID), "query": "", "limit": 0}})
        assert len((await client.dispatch("GUILD_MEMBERS_CHUNK"))["d"]["members"]) == 5
        await client.send({"op": 8, "d": {"guild_id": "123", "query": ""}})
        assert await client.close_code() == 4002

    run(with_intent())


def test_request_channel_info(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        client = await GatewayClient.connect(platformpp_emulator)
        await client.identify(BOT_TOKEN, intents=1)
        await client.send({"op": 43, "d": {"guild_id": str(GUILD_ID), "fields": ["status", "voice_start_time"]}})
        info = await client.dispatch("CHANNEL_INFO")
        assert info["d"] == {"guild_id": str(GUILD_ID), "channels": [{"id": "1200000000000000201"}]}
        await client.send({"op": 43, "d": {"guild_id": str(GUILD_ID), "fields": ["topic"]}})
        assert await client.close_code() == 4002

    run(scenario())


def test_requests_take_snowflakes_as_integers_too(platformpp_emulator: Emulator) -> None:
    """Op 8 and op 43 with integer ids, as some libraries send them: member chunking at start
    (every member, GUILD_MEMBERS intent), by user ids (one alone too), and channel info."""
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET flags = ? WHERE id = ?", (1 << 14, APP_ID))

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=1 | 2, large_threshold=50)
        await client.send({"op": 8, "d": {"guild_id": GUILD_ID, "query": "", "limit": 0, "presences": False}})
        everyone = (await client.dispatch("GUILD_MEMBERS_CHUNK"))["d"]
        assert everyone["guild_id"] == str(GUILD_ID) and len(everyone["members"]) == 5
        await client.send({"op": 8, "d": {"guild_id": GUILD_ID, "user_ids": [ALICE, 42], "nonce": "n2"}})
        chunk = (await client.dispatch("GUILD_MEMBERS_CHUNK"))["d"]
        assert [m["user"]["id"] for m in chunk["members"]] == [str(ALICE)] and chunk["not_found"] == ["42"]
        await client.send({"op": 8, "d": {"guild_id": str(GUILD_ID), "user_ids": ALICE}})
        one = (await client.dispatch("GUILD_MEMBERS_CHUNK"))["d"]
        assert [m["user"]["id"] for m in one["members"]] == [str(ALICE)]
        await client.send({"op": 43, "d": {"guild_id": GUILD_ID, "fields": ["status"]}})
        info = (await client.dispatch("CHANNEL_INFO"))["d"]
        assert info == {"guild_id": str(GUILD_ID), "channels": [{"id": "1200000000000000201"}]}
        await client.send({"op": 8, "d": {"guild_id": GUILD_ID, "user_ids": [True]}})
        assert await client.close_code() == 4002   # a boolean is no snowflake

    run(scenario())


def test_guild_create_obfuscates_hidden_channels_on_opt_in(platformpp_emulator: Emulator) -> None:
    moderators = "1200000000000000102"

    async def guild(capabilities: int) -> dict:
        client = await GatewayClient.connect(platformpp_emulator)
        await client.identify(BOT_TOKEN, intents=1, capabilities=capabilities)
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        await client.close()
        return next(c for c in created["channels"] if c["id"] == moderators)

    plain = run(guild(0))
    assert plain["name"] == "moderators"
    hidden = run(guild(1 << 15))
    assert hidden["name"] == "___hidden___" and hidden["flags"] & (1 << 17)
    assert hidden["permission_overwrites"] == [{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": "1024",
                                                "allow_new": "0", "deny_new": "1024"}]
    # docs/wire.md: an obfuscated channel keeps only id, type, position and parent_id.
    assert set(hidden) == {"id", "type", "position", "parent_id", "name", "flags", "permission_overwrites"}


def test_large_guild_sends_only_the_bots_member(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with emu.state.db.transaction() as conn:
        for n in range(50):  # 55 members > the default large_threshold of 50
            conn.execute("INSERT INTO users (id, username, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                         (1300000000000000000 + n, f"fan{n}"))
            conn.execute("INSERT INTO members (guild_id, user_id, joined_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                         (GUILD_ID, 1300000000000000000 + n))

    async def scenario(threshold: int | None) -> dict:
        client = await GatewayClient.connect(emu)
        extra = {} if threshold is None else {"large_threshold": threshold}
        await client.identify(BOT_TOKEN, intents=1, **extra)
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        await client.close()
        return created

    large = run(scenario(None))
    assert large["large"] is True and large["member_count"] == 55
    assert [m["user"]["id"] for m in large["members"]] == [str(BOT_ID)]
    small = run(scenario(250))
    assert small["large"] is False and len(small["members"]) == 55


def test_reset_closes_sessions_but_adding_fixtures_does_not(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await sdk_session(emu, ALICE)
        added = httpx.post(f"{emu.base_url}/_emulator/seed", json={"users": [{"id": "1400000000000000001",
                                                                              "username": "erin"}]})
        assert added.status_code == 204, added.text
        await client.send({"op": 1, "d": None})
        assert (await client.recv())["op"] == 11
        assert httpx.post(f"{emu.base_url}/_emulator/reset").status_code == 204
        assert await client.close_code() == 4009

    run(scenario())


def test_bearer_prefixed_token_and_session_start_count(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, BOT_TOKEN, bot=True) as http:
        before = http.get("/gateway/bot").json()["session_start_limit"]["remaining"]

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify("Bearer " + user_token(emu, BOB))
        assert ready["d"]["user"]["id"] == str(BOB)
        await client.close()
        bot_session = await GatewayClient.connect(emu)
        await bot_session.identify(BOT_TOKEN)
        await bot_session.close()

    run(scenario())
    with api(emu, BOT_TOKEN, bot=True) as http:  # only the bot's Identify counts against its limit
        assert http.get("/gateway/bot").json()["session_start_limit"]["remaining"] == before - 1


def test_resume_with_a_refreshed_token_of_the_same_user(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(user_token(emu, ALICE))
        await client.ws.close(4000)
        again = await GatewayClient.connect(emu)
        await again.recv()
        await again.send({"op": 6, "d": {"token": user_token(emu, ALICE), "session_id": ready["d"]["session_id"],
                                         "seq": ready["s"]}})
        assert await again.recv() == {"op": 0, "d": {}, "s": ready["s"] + 1, "t": "RESUMED"}
        await again.close()

    run(scenario())


def test_invalid_seq_ends_the_session(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    token = user_token(emu, ALICE)

    async def resume(session_id: str, seq: int) -> GatewayClient:
        client = await GatewayClient.connect(emu)
        await client.recv()
        await client.send({"op": 6, "d": {"token": token, "session_id": session_id, "seq": seq}})
        return client

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(token)
        await client.ws.close(4000)
        assert await (await resume(ready["d"]["session_id"], 99)).close_code() == 4007
        late = await resume(ready["d"]["session_id"], ready["s"])
        assert (await late.recv())["op"] == 9  # the session is gone
        await late.close()

    run(scenario())


def test_stopping_the_emulator_closes_sockets_promptly() -> None:
    async def scenario() -> None:
        emu = Emulator().start()
        client = await sdk_session(emu, ALICE)
        started = time.monotonic()
        await asyncio.to_thread(emu.stop)
        assert time.monotonic() - started < 3
        assert await client.close_code() == 1012  # service restart: the client reconnects later

    run(scenario())
