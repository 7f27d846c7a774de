"""Guild dispatches on the Gateway and channel obfuscation (seed: "Channel visibility for a bot"):
who receives GUILD_*/CHANNEL_* (intents, membership), obfuscated channels for bots that opted in
(Identify capability 1 << 15, or the app's private toggle), CHANNEL_UPDATE when a role or overwrite
change lets the bot view a channel (and again, obfuscated, when it no longer can), and the
2026-11-16 change to GET /guilds/{id}/channels, categories included, on both sides of the date."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from platformpp.emulator import Emulator
from social_helpers import APP_ID, BOB, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, api, bot, user_token

GUILDS, GUILD_MEMBERS = 1 << 0, 1 << 1
OBFUSCATION = 1 << 15
HIDDEN = "___hidden___"
VIEW = 1 << 10


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


def secret_channel(emu: Emulator, name: str = "secret", **extra: Any) -> dict[str, Any]:
    """A text channel @everyone may not view."""
    return admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {
        "name": name, "type": 0, "topic": "the plans", "nsfw": True, "rate_limit_per_user": 30,
        "permission_overwrites": [{"id": str(GUILD_ID), "type": 0, "deny": str(VIEW)}], **extra}).json()


async def bot_session(emu: Emulator, intents: int = GUILDS, capabilities: int = 0) -> GatewayClient:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents, capabilities=capabilities)
    await client.dispatch("GUILD_CREATE")
    return client


def assert_obfuscated(channel: dict[str, Any], guild_id: int = GUILD_ID) -> None:
    assert channel["name"] == HIDDEN and channel["flags"] & (1 << 17)
    assert [(o["id"], o["deny"]) for o in channel["permission_overwrites"]] == [(str(guild_id), str(VIEW))]
    assert not {"topic", "nsfw", "rate_limit_per_user", "last_message_id"} & set(channel)


def test_channel_dispatches_obfuscated_for_opted_in_bots_only(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        opted = await bot_session(emu, capabilities=OBFUSCATION)
        plain = await bot_session(emu)
        no_guilds = await bot_session(emu, intents=0)
        channel = await asyncio.to_thread(secret_channel, emu)
        hidden = (await opted.dispatch("CHANNEL_CREATE"))["d"]
        assert hidden["id"] == channel["id"] and hidden["guild_id"] == str(GUILD_ID)
        assert_obfuscated(hidden)
        full = (await plain.dispatch("CHANNEL_CREATE"))["d"]
        assert full["name"] == "secret" and full["topic"] == "the plans"
        await no_guilds.no_dispatch("CHANNEL_CREATE")
        for client in (opted, plain, no_guilds):
            await client.close()

    run(scenario())


def test_role_grant_and_revoke_send_channel_update_with_full_then_obfuscated_data(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 15, APP_ID))
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Insiders", "position": 3}).json()
    channel = secret_channel(emu, permission_overwrites=[
        {"id": str(GUILD_ID), "type": 0, "deny": str(VIEW)}, {"id": role["id"], "type": 0, "allow": str(VIEW)}])

    async def scenario() -> None:
        client = await bot_session(emu, intents=GUILDS | GUILD_MEMBERS, capabilities=OBFUSCATION)
        await asyncio.to_thread(admin, emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")
        update = await client.dispatch("GUILD_MEMBER_UPDATE")
        assert role["id"] in update["d"]["roles"]
        shown = (await client.dispatch("CHANNEL_UPDATE"))["d"]
        assert shown["id"] == channel["id"] and shown["name"] == "secret" and shown["topic"] == "the plans"
        await asyncio.to_thread(admin, emu, "DELETE",
                                f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")
        hidden = (await client.dispatch("CHANNEL_UPDATE"))["d"]
        assert hidden["id"] == channel["id"]
        assert_obfuscated(hidden)
        # A member overwrite for the bot reveals it too.
        await asyncio.to_thread(admin, emu, "PUT", f"/channels/{channel['id']}/permissions/{BOT_ID}",
                                {"type": 1, "allow": str(VIEW)})
        revealed = (await client.dispatch("CHANNEL_UPDATE"))["d"]
        assert revealed["name"] == "secret"
        await client.close()

    run(scenario())


def test_role_permission_change_reveals_channels(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    # A channel that needs the role "Readers"' VIEW_CHANNEL: @everyone lacks it guild-wide.
    readers = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Readers", "position": 3}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{readers['id']}")
    channel = secret_channel(emu, permission_overwrites=[{"id": str(GUILD_ID), "type": 0, "deny": str(VIEW)},
                                                         {"id": readers["id"], "type": 0, "deny": str(VIEW)}])

    async def scenario() -> None:
        client = await bot_session(emu, capabilities=OBFUSCATION)
        await asyncio.to_thread(admin, emu, "PUT", f"/channels/{channel['id']}/permissions/{readers['id']}",
                                {"type": 0, "allow": str(VIEW)})
        shown = (await client.dispatch("CHANNEL_UPDATE"))["d"]
        assert shown["name"] == "secret"
        # Now the role itself: make it an administrator role, then take that away again.
        await asyncio.to_thread(admin, emu, "PUT", f"/channels/{channel['id']}/permissions/{readers['id']}",
                                {"type": 0, "deny": str(VIEW)})
        assert_obfuscated((await client.dispatch("CHANNEL_UPDATE"))["d"])
        await asyncio.to_thread(admin, emu, "PATCH", f"/guilds/{GUILD_ID}/roles/{readers['id']}",
                                {"permissions": str(1 << 3)})
        role_update = await client.dispatch("GUILD_ROLE_UPDATE")
        assert role_update["d"]["role"]["permissions_new"] == str(1 << 3)
        # An administrator views every channel: #moderators and the secret one, both in full.
        revealed = {u["id"]: u for u in [(await client.dispatch("CHANNEL_UPDATE"))["d"] for _ in range(2)]}
        assert revealed[channel["id"]]["name"] == "secret"
        assert revealed["1200000000000000102"]["name"] == "moderators"
        await client.no_dispatch("CHANNEL_UPDATE")
        await client.close()

    run(scenario())


def test_member_dispatches_need_guild_members(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 15, APP_ID))
    emu.state.db.execute("DELETE FROM members WHERE user_id = ?", (BOB,))

    async def scenario() -> None:
        members = await bot_session(emu, intents=GUILDS | GUILD_MEMBERS)
        guilds_only = await bot_session(emu, intents=GUILDS)
        await asyncio.to_thread(admin, emu, "POST", f"/guilds/{GUILD_ID}/members", {"user_id": str(BOB)})
        added = (await members.dispatch("GUILD_MEMBER_ADD"))["d"]
        assert added["guild_id"] == str(GUILD_ID) and added["user"]["id"] == str(BOB)
        await guilds_only.no_dispatch("GUILD_MEMBER_ADD")
        await asyncio.to_thread(admin, emu, "DELETE", f"/guilds/{GUILD_ID}/members/{BOB}")
        removed = (await members.dispatch("GUILD_MEMBER_REMOVE"))["d"]
        assert removed["user"]["id"] == str(BOB)
        role = await asyncio.to_thread(admin, emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "New"})
        created = (await guilds_only.dispatch("GUILD_ROLE_CREATE"))["d"]
        assert created["role"]["id"] == role.json()["id"]
        for client in (members, guilds_only):
            await client.close()

    run(scenario())


def test_bot_added_to_a_guild_gets_it_and_removed_loses_it(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    other = 1300000000000000000

    async def scenario() -> None:
        client = await bot_session(emu, capabilities=OBFUSCATION)
        await asyncio.to_thread(admin, emu, "POST", "/guilds", {
            "id": str(other), "name": "Second", "owner_id": str(BOB),
            "channels": [{"id": str(other + 1), "type": 0, "name": "closed",
                          "permission_overwrites": [{"id": str(other), "type": 0, "deny": str(VIEW)}]}],
            "members": [{"user_id": str(BOB)}, {"user_id": str(BOT_ID)}]})
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        assert created["id"] == str(other)
        assert_obfuscated(created["channels"][0], other)
        await asyncio.to_thread(admin, emu, "POST", f"/guilds/{other}/channels", {"type": 0, "name": "open"})
        assert (await client.dispatch("CHANNEL_CREATE"))["d"]["name"] == "open"
        # The session now counts the guild as its own (what op 8 and other areas' audiences check).
        await client.send({"op": 8, "d": {"guild_id": str(other), "user_ids": [str(BOB)]}})
        chunk = (await client.dispatch("GUILD_MEMBERS_CHUNK"))["d"]
        assert chunk["guild_id"] == str(other) and [m["user"]["id"] for m in chunk["members"]] == [str(BOB)]
        await asyncio.to_thread(admin, emu, "DELETE", f"/guilds/{other}/members/{BOT_ID}")
        assert (await client.dispatch("GUILD_DELETE"))["d"] == {"id": str(other)}
        await client.send({"op": 8, "d": {"guild_id": str(other), "user_ids": [str(BOB)]}})
        assert await client.close_code() == 4002   # no longer a guild of this session

    run(scenario())


def test_private_toggle_obfuscates_rest_and_guild_create(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    channel = secret_channel(emu)
    admin(emu, "PUT", "/clock", {"now": "2026-11-15T12:00:00Z"})
    with bot(emu) as http:
        listed = {c["id"]: c for c in http.get(f"/guilds/{GUILD_ID}/channels").json()}
        assert listed[channel["id"]]["name"] == "secret"  # no opt-in: full data
        admin(emu, "PUT", f"/applications/{APP_ID}/channel-obfuscation", {"enabled": True})
        listed = {c["id"]: c for c in http.get(f"/guilds/{GUILD_ID}/channels").json()}
        assert_obfuscated(listed[channel["id"]])
        assert listed[channel["id"]]["guild_id"] == str(GUILD_ID)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS)
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        assert_obfuscated(next(c for c in created["channels"] if c["id"] == channel["id"]))
        await client.close()

    run(scenario())


def test_get_channel_answers_an_unviewable_channel_obfuscated_only_when_opted_in(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    channel = secret_channel(emu)
    with bot(emu) as http:
        refused = http.get(f"/channels/{channel['id']}")
        assert refused.status_code == 403 and refused.json()["code"] == 50001
        admin(emu, "PUT", f"/applications/{APP_ID}/channel-obfuscation", {"enabled": True})
        shown = http.get(f"/channels/{channel['id']}")
        assert shown.status_code == 200, shown.text
        assert_obfuscated(shown.json())
        assert shown.json()["id"] == channel["id"] and shown.json()["guild_id"] == str(GUILD_ID)
        assert http.get("/channels/1200000000000000101").json()["name"] == "general"   # viewable: full
        admin(emu, "PUT", f"/channels/{channel['id']}/permissions/{BOT_ID}", {"type": 1, "allow": str(VIEW)})
        assert http.get(f"/channels/{channel['id']}").json()["topic"] == "the plans"


def test_hidden_category_with_a_visible_child_on_both_sides_of_2026_11_16(platformpp_emulator: Emulator) -> None:
    """The black-box bug: the category was returned after 2026-11-16, and not obfuscated in
    GUILD_CREATE, because a child is viewable. The seed decides by the category's own VIEW_CHANNEL."""
    emu = platformpp_emulator
    category = admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {
        "name": "Staff", "type": 4, "permission_overwrites": [{"id": str(GUILD_ID), "type": 0,
                                                               "deny": str(VIEW)}],
    }).json()
    child = admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {
        "name": "announcements", "type": 0, "parent_id": category["id"]}).json()
    admin(emu, "PUT", f"/applications/{APP_ID}/channel-obfuscation", {"enabled": True})

    def listed() -> dict[str, dict[str, Any]]:
        with bot(emu) as http:
            return {c["id"]: c for c in http.get(f"/guilds/{GUILD_ID}/channels").json()}

    admin(emu, "PUT", "/clock", {"now": "2026-11-15T23:59:59Z"})
    before = listed()
    assert_obfuscated(before[category["id"]])
    assert before[child["id"]]["name"] == "announcements"
    admin(emu, "PUT", "/clock", {"now": "2026-11-16T00:00:00Z"})
    after = listed()
    assert category["id"] not in after and child["id"] in after
    # An SDK user's client still lists the category of a channel it can view (docs/wire.md).
    with api(emu, user_token(emu, BOB)) as http:
        assert category["id"] in [c["id"] for c in http.get(f"/guilds/{GUILD_ID}/channels").json()]

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS, capabilities=OBFUSCATION)
        created = (await client.dispatch("GUILD_CREATE"))["d"]
        channels = {c["id"]: c for c in created["channels"]}
        assert_obfuscated(channels[category["id"]])
        assert channels[child["id"]]["name"] == "announcements" and "guild_id" not in channels[child["id"]]
        await client.close()

    run(scenario())


def test_guild_delete_reaches_a_bot_without_intents(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await bot_session(emu, intents=0)
        await asyncio.to_thread(admin, emu, "DELETE", f"/guilds/{GUILD_ID}/members/{BOT_ID}")
        assert (await client.dispatch("GUILD_DELETE"))["d"] == {"id": str(GUILD_ID)}
        await client.close()

    run(scenario())


def test_deleting_a_category_orphans_its_channels(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    category = admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {"name": "Old", "type": 4}).json()
    child = admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {"name": "kept", "type": 0,
                                                                "parent_id": category["id"]}).json()
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Channels", "position": 3,
                                                            "permissions": str((1 << 4) | VIEW)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")

    async def scenario() -> None:
        client = await bot_session(emu)
        with bot(emu) as http:
            assert (await asyncio.to_thread(http.delete, f"/channels/{category['id']}")).status_code == 200
        assert (await client.dispatch("CHANNEL_DELETE"))["d"]["id"] == category["id"]
        orphan = (await client.dispatch("CHANNEL_UPDATE"))["d"]
        assert orphan["id"] == child["id"] and orphan["parent_id"] is None
        await client.close()

    run(scenario())
