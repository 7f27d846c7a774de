"""GET /users/@me/guilds and GET /guilds/{id}/channels: SDK users see what they can view, in the
client's display order; bots follow the 2026-11-16 change and the large-bot-sharding shard rule."""

from __future__ import annotations

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOB, DAVE, GUILD_ID, api, bot, user_token

TEXT_CATEGORY, GENERAL, MODERATORS, VOICE_CATEGORY, LOUNGE = (
    1200000000000000100, 1200000000000000101, 1200000000000000102, 1200000000000000200, 1200000000000000201)


def _ids(channels: list[dict]) -> list[int]:
    return [int(c["id"]) for c in channels]


def test_user_guilds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        [guild] = http.get("/users/@me/guilds").json()
        assert guild["id"] == str(GUILD_ID) and guild["owner"] is True
    with api(emu, user_token(emu, BOB)) as http:
        [guild] = http.get("/users/@me/guilds").json()
        assert guild["owner"] is False and int(guild["permissions"]) & (1 << 10)
    with api(emu, user_token(emu, BOB, scopes="openid identify")) as http:
        assert http.get("/users/@me/guilds").status_code == 403


def test_channels_in_display_order_with_what_the_user_can_view(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with emu.state.db.transaction() as conn:  # an uncategorized channel and a voice channel listed first
        conn.execute("INSERT INTO channels (id, guild_id, type, name, position) VALUES (?, ?, 0, 'lobby', 9)",
                     (1200000000000000300, GUILD_ID))
        conn.execute("INSERT INTO channels (id, guild_id, type, name, position, parent_id) VALUES (?, ?, 2, 'Stage', 0, ?)",
                     (1200000000000000103, GUILD_ID, TEXT_CATEGORY))
    with api(emu, user_token(emu, BOB)) as http:
        channels = http.get(f"/guilds/{GUILD_ID}/channels").json()
        assert _ids(channels) == [1200000000000000300, TEXT_CATEGORY, GENERAL, 1200000000000000103,
                                  VOICE_CATEGORY, LOUNGE]
        general = next(c for c in channels if int(c["id"]) == GENERAL)
        assert general["parent_id"] == str(TEXT_CATEGORY) and general["position"] == 0 and general["type"] == 0
    with api(emu, user_token(emu, ALICE)) as http:  # the Moderator role may view #moderators
        assert MODERATORS in _ids(http.get(f"/guilds/{GUILD_ID}/channels").json())


def test_membership_and_unknown_guild(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("DELETE FROM members WHERE user_id = ?", (DAVE,))
    with api(emu, user_token(emu, DAVE)) as http:
        refused = http.get(f"/guilds/{GUILD_ID}/channels")
        assert refused.status_code == 403 and refused.json()["code"] == 50001
        assert http.get("/users/@me/guilds").json() == []
        assert http.get("/guilds/123/channels").json()["code"] == 10004


def test_bot_channels_before_and_after_2026_11_16(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": "2026-11-15T23:59:00Z"})
        assert MODERATORS in _ids(http.get(f"/guilds/{GUILD_ID}/channels").json())
        httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": "2026-11-16T00:00:00Z"})
        assert MODERATORS not in _ids(http.get(f"/guilds/{GUILD_ID}/channels").json())


def test_large_bot_sharding_needs_shard(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET large_bot_sharding = 1, max_concurrency = 2 WHERE id = ?", (APP_ID,))
    mine = (GUILD_ID >> 22) % 2
    with bot(emu) as http:
        missing = http.get("/users/@me/guilds")
        assert missing.status_code == 400 and "shard" in missing.json()["errors"]
        assert http.get("/users/@me/guilds", params={"shard": 2}).status_code == 400
        assert len(http.get("/users/@me/guilds", params={"shard": mine}).json()) == 1
        assert http.get("/users/@me/guilds", params={"shard": 1 - mine}).json() == []
