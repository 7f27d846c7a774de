"""The vanity URL, the guild preview and incident actions over real HTTP and the Gateway: the vanity
code shows only with the VANITY_URL feature; the preview is for members or DISCOVERABLE guilds; paused
invites refuse making and accepting invites (40008), paused DMs refuse a bot's DM to a user it reaches
only through that guild (50007), both for at most 24 hours on the emulator clock, shown as the guild's
``incidents_data`` and sent as GUILD_UPDATE."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, GENERAL, set_clock, set_role_permissions
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, BOB, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS = 1 << 0
OTHER_GUILD, OTHER_OWNER = 7300000000000000000, 7300000000000000001


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def call(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    with bot(emu) as http:
        return http.request(method, path, json=body)


def test_vanity_url_shows_with_its_feature(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/vanity-url").json()["code"] == 50013
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    assert admin(emu, "PUT", f"/guilds/{GUILD_ID}/vanity-url", {"code": "demo-guild", "uses": 7}).status_code == 200
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/vanity-url").json() == {"code": None, "uses": 0}
    assert call(emu, "GET", f"/guilds/{GUILD_ID}").json()["vanity_url_code"] is None
    emu.state.db.execute("UPDATE guilds SET features = '[\"VANITY_URL\"]' WHERE id = ?", (GUILD_ID,))
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/vanity-url").json() == {"code": "demo-guild", "uses": 7}
    assert call(emu, "GET", f"/guilds/{GUILD_ID}").json()["vanity_url_code"] == "demo-guild"
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.CREATE_INSTANT_INVITE))
    code = call(emu, "POST", f"/channels/{GENERAL}/invites", {}).json()["code"]
    assert call(emu, "GET", f"/invites/{code}").json()["guild"]["vanity_url_code"] == "demo-guild"
    bad = admin(emu, "PUT", f"/guilds/{GUILD_ID}/vanity-url", {"code": "Not Valid!"})
    assert bad.status_code == 400 and "code" in bad.json()["errors"]
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/vanity-url").json()["code"] == "demo-guild"


def test_preview_for_members_and_discoverable_guilds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    seeded = admin(emu, "POST", "/seed", {
        "users": [{"id": str(OTHER_OWNER), "username": "olga"}],
        "guilds": [{"id": str(OTHER_GUILD), "name": "Elsewhere", "owner_id": str(OTHER_OWNER),
                    "members": [{"user_id": str(OTHER_OWNER)}]}]})
    assert seeded.status_code == 204, seeded.text
    emu.state.db.execute("INSERT INTO presences (user_id, status, updated_at) VALUES (?, 'idle', '2026-01-01')",
                         (ALICE,))
    mine = call(emu, "GET", f"/guilds/{GUILD_ID}/preview").json()
    assert mine["name"] == "Demo Guild" and mine["approximate_member_count"] == 5
    assert mine["approximate_presence_count"] == 1 and mine["emojis"] == [] and mine["stickers"] == []
    hidden = call(emu, "GET", f"/guilds/{OTHER_GUILD}/preview")
    assert hidden.status_code == 404 and hidden.json()["code"] == 10004
    emu.state.db.execute("UPDATE guilds SET features = '[\"DISCOVERABLE\"]' WHERE id = ?", (OTHER_GUILD,))
    shown = call(emu, "GET", f"/guilds/{OTHER_GUILD}/preview").json()
    assert shown["features"] == ["DISCOVERABLE"] and shown["approximate_member_count"] == 1


def test_paused_invites_are_refused_until_the_pause_ends(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-06-01T12:00:00Z")
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.CREATE_INSTANT_INVITE))
    code = call(emu, "POST", f"/channels/{GENERAL}/invites", {"max_age": 0}).json()["code"]

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS)
        await client.dispatch("GUILD_CREATE")
        paused = await asyncio.to_thread(call, emu, "PUT", f"/guilds/{GUILD_ID}/incident-actions",
                                         {"invites_disabled_until": "2026-06-02T12:00:00Z"})
        assert paused.json() == {"invites_disabled_until": "2026-06-02T12:00:00.000000+00:00",
                                 "dms_disabled_until": None}
        update = (await client.dispatch("GUILD_UPDATE"))["d"]
        assert update["incidents_data"] == paused.json()
        await client.close()

    asyncio.run(scenario())
    made = call(emu, "POST", f"/channels/{GENERAL}/invites", {"max_age": 0})
    assert made.status_code == 403 and made.json()["code"] == 40008
    joined = admin(emu, "POST", f"/invites/{code}/accept", {"user_id": "1100000000000000099"})
    assert joined.status_code == 404   # an unknown user is refused before the pause is looked at
    admin(emu, "POST", "/seed", {"users": [{"id": "1100000000000000099", "username": "erin"}]})
    joined = admin(emu, "POST", f"/invites/{code}/accept", {"user_id": "1100000000000000099"})
    assert joined.status_code == 403 and joined.json()["code"] == 40008
    assert emu.state.db.query_one("SELECT 1 FROM members WHERE user_id = 1100000000000000099") is None
    set_clock(emu, "2026-06-02T12:00:01Z")   # the pause has ended
    # the older switch, the INVITES_DISABLED feature, refuses joining but not making invites
    emu.state.db.execute("UPDATE guilds SET features = '[\"INVITES_DISABLED\"]' WHERE id = ?", (GUILD_ID,))
    assert call(emu, "POST", f"/channels/{GENERAL}/invites", {"max_age": 0}).status_code == 200
    joined = admin(emu, "POST", f"/invites/{code}/accept", {"user_id": "1100000000000000099"})
    assert joined.status_code == 403 and joined.json()["code"] == 40008
    emu.state.db.execute("UPDATE guilds SET features = '[]' WHERE id = ?", (GUILD_ID,))
    assert admin(emu, "POST", f"/invites/{code}/accept", {"user_id": "1100000000000000099"}).status_code == 200
    assert call(emu, "POST", f"/channels/{GENERAL}/invites", {"max_age": 0}).status_code == 200


def test_paused_dms_refuse_a_bot_reaching_users_through_the_guild(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-06-01T12:00:00Z")
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    dm = call(emu, "POST", "/users/@me/channels", {"recipient_id": str(BOB)}).json()["id"]
    assert call(emu, "POST", f"/channels/{dm}/messages", {"content": "hi"}).status_code == 200
    assert call(emu, "PUT", f"/guilds/{GUILD_ID}/incident-actions",
                {"dms_disabled_until": "2026-06-01T18:00:00+00:00"}).status_code == 200
    refused = call(emu, "POST", f"/channels/{dm}/messages", {"content": "still there?"})
    assert refused.status_code == 403 and refused.json()["code"] == 50007
    set_clock(emu, "2026-06-01T18:00:01Z")
    assert call(emu, "POST", f"/channels/{dm}/messages", {"content": "back"}).status_code == 200


def test_bad_incident_actions_name_the_field_and_change_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_clock(emu, "2026-06-01T12:00:00Z")
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    assert call(emu, "PUT", f"/guilds/{GUILD_ID}/incident-actions",
                {"dms_disabled_until": "2026-06-01T13:00:00Z"}).status_code == 200
    for body, field in (({"invites_disabled_until": "2026-06-02T12:00:01Z"}, "invites_disabled_until"),
                        ({"dms_disabled_until": "tomorrow"}, "dms_disabled_until"),
                        ({"dms_disabled_until": 5}, "dms_disabled_until")):
        response = call(emu, "PUT", f"/guilds/{GUILD_ID}/incident-actions", body)
        assert response.status_code == 400 and set(response.json()["errors"]) == {field}, response.text
    assert call(emu, "GET", f"/guilds/{GUILD_ID}").json()["incidents_data"] == {
        "invites_disabled_until": None, "dms_disabled_until": "2026-06-01T13:00:00.000000+00:00"}
    # the PUT replaces both: an absent field is cleared
    assert call(emu, "PUT", f"/guilds/{GUILD_ID}/incident-actions", {"tts": True}).status_code == 200
    assert call(emu, "GET", f"/guilds/{GUILD_ID}").json()["incidents_data"] is None


def test_world_files_set_guild_settings(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE guilds SET features = '[\"VANITY_URL\"]' WHERE id = ?", (GUILD_ID,))
    seeded = admin(emu, "POST", "/seed", {"guild_settings": [{
        "guild_id": str(GUILD_ID), "vanity_url_code": "demo", "vanity_url_uses": 2,
        "dms_disabled_until": "2026-06-01T13:00:00Z"}]})
    assert seeded.status_code == 204, seeded.text
    guild = call(emu, "GET", f"/guilds/{GUILD_ID}").json()
    assert guild["vanity_url_code"] == "demo" and guild["incidents_data"]["dms_disabled_until"].startswith("2026-06-01T13")
    bad = admin(emu, "POST", "/seed", {"guild_settings": [{"guild_id": "1", "vanity_url_code": "A B"}]})
    assert bad.status_code == 400 and set(bad.json()["errors"]["guild_settings"]["0"]) == {"guild_id", "vanity_url_code"}
