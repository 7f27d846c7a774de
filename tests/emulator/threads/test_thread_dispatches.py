"""Thread dispatches over real WebSockets: THREAD_CREATE / UPDATE / DELETE by the GUILDS intent,
THREAD_MEMBERS_UPDATE by GUILD_MEMBERS (the bot added or removed always hears of itself),
THREAD_MEMBER_UPDATE for the bot's own join, MESSAGE_CREATE inside a thread, active threads in
GUILD_CREATE, THREAD_LIST_SYNC when a bot gains sight of a channel, and threads of channels the bot
cannot view: obfuscated for a bot that opted in, never sent to the others."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import (DEFAULT_EVERYONE, GENERAL, MODERATOR_ROLE, MODERATORS, Permission, grant_bot,
                             set_clock, set_message_content, user_posts)
from platformpp.emulator import Emulator
from social_helpers import APP_ID, BOB, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 1, 1 << 9, 1 << 15
OBFUSCATION = 1 << 15
THREAD_BITS = Permission.CREATE_PUBLIC_THREADS | Permission.MANAGE_THREADS


async def _session(emu: Emulator, intents: int, **extra: Any) -> tuple[GatewayClient, dict[str, Any]]:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents, **extra)
    guild = (await client.dispatch("GUILD_CREATE"))["d"]
    return client, guild


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return asyncio.to_thread(fn, *args, **kwargs)


def _bot_request(emu: Emulator, method: str, path: str, **kwargs: Any) -> httpx.Response:
    with bot(emu) as http:
        response = http.request(method, path, **kwargs)
    assert response.status_code < 300, response.text
    return response


def test_thread_lifecycle_and_member_dispatches(emu: Emulator) -> None:
    grant_bot(emu, THREAD_BITS)
    set_message_content(emu, APP_ID, True)
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 15, APP_ID))

    async def scenario() -> None:
        members, _ = await _session(emu, GUILDS | GUILD_MEMBERS | GUILD_MESSAGES | MESSAGE_CONTENT)
        plain, _ = await _session(emu, GUILDS)
        deaf, _ = await _session(emu, GUILD_MESSAGES)
        thread = (await _call(_bot_request, emu, "POST", f"/channels/{GENERAL}/threads",
                              json={"name": "talk", "type": 11})).json()
        created = (await members.dispatch("THREAD_CREATE"))["d"]
        assert created["id"] == thread["id"] and created["newly_created"] is True
        assert created["parent_id"] == str(GENERAL) and created["thread_metadata"]["archived"] is False
        assert (await plain.dispatch("THREAD_CREATE"))["d"]["id"] == thread["id"]
        await deaf.no_dispatch("THREAD_CREATE")

        await _call(_bot_request, emu, "PUT", f"/channels/{thread['id']}/thread-members/{BOB}")
        added = (await members.dispatch("THREAD_MEMBERS_UPDATE"))["d"]
        assert added["member_count"] == 2 and added["guild_id"] == str(GUILD_ID)
        assert [m["user_id"] for m in added["added_members"]] == [str(BOB)]
        assert added["added_members"][0]["member"]["user"]["id"] == str(BOB)
        await plain.no_dispatch("THREAD_MEMBERS_UPDATE")   # no GUILD_MEMBERS, and not about itself

        await _call(_bot_request, emu, "DELETE", f"/channels/{thread['id']}/thread-members/@me")
        left = (await plain.dispatch("THREAD_MEMBERS_UPDATE"))["d"]   # about itself: sent regardless
        assert left["removed_member_ids"] == [str(BOT_ID)] and left["member_count"] == 1
        await _call(_bot_request, emu, "PUT", f"/channels/{thread['id']}/thread-members/@me")
        own = (await plain.dispatch("THREAD_MEMBER_UPDATE"))["d"]
        assert own["user_id"] == str(BOT_ID) and own["id"] == thread["id"]
        assert own["guild_id"] == str(GUILD_ID)

        await _call(user_posts, emu, int(thread["id"]), BOB, content="in the thread")
        message = (await members.dispatch("MESSAGE_CREATE"))["d"]
        assert message["channel_id"] == thread["id"] and message["content"] == "in the thread"
        await deaf.dispatch("MESSAGE_CREATE")

        await _call(_bot_request, emu, "PATCH", f"/channels/{thread['id']}", json={"archived": True})
        updated = (await plain.dispatch("THREAD_UPDATE"))["d"]
        assert updated["thread_metadata"]["archived"] is True and updated["message_count"] == 1
        await _call(_bot_request, emu, "DELETE", f"/channels/{thread['id']}")
        deleted = (await plain.dispatch("THREAD_DELETE"))["d"]
        assert deleted == {"id": thread["id"], "guild_id": str(GUILD_ID), "parent_id": str(GENERAL),
                           "type": 11}
        for client in (members, plain, deaf):
            await client.close()

    asyncio.run(scenario())


def test_guild_create_lists_active_threads_and_obfuscates_unviewable_ones(emu: Emulator) -> None:
    grant_bot(emu, Permission.ADMINISTRATOR)
    set_clock(emu, "2026-12-01T10:00:00Z")
    with bot(emu) as http:
        seen = http.post(f"/channels/{GENERAL}/threads", json={"name": "open", "type": 11}).json()
        unseen = http.post(f"/channels/{MODERATORS}/threads", json={"name": "mods", "type": 11,
                                                                     "auto_archive_duration": 60}).json()
        http.delete(f"/channels/{unseen['id']}/thread-members/@me")
    grant_bot(emu, THREAD_BITS)   # the bot no longer sees the moderators' channel

    async def scenario() -> None:
        plain, guild = await _session(emu, GUILDS)
        by_id = {t["id"]: t for t in guild["threads"]}
        assert set(by_id) == {seen["id"]} and by_id[seen["id"]]["member"]["user_id"] == str(BOT_ID)
        opted, guild = await _session(emu, GUILDS, capabilities=OBFUSCATION)
        hidden = {t["id"]: t for t in guild["threads"]}[unseen["id"]]
        assert hidden["name"] == "___hidden___" and hidden["parent_id"] == str(MODERATORS)
        assert "thread_metadata" not in hidden
        await _call(set_clock, emu, "2026-12-01T11:30:00Z")   # the moderators' thread runs out of time
        with bot(emu) as http:
            await _call(http.get, f"/guilds/{GUILD_ID}/threads/active")
        archived = (await opted.dispatch("THREAD_UPDATE"))["d"]
        assert archived["id"] == unseen["id"] and archived["name"] == "___hidden___"
        await plain.no_dispatch("THREAD_UPDATE")
        for client in (plain, opted):
            await client.close()

    asyncio.run(scenario())


def test_a_bot_that_gains_sight_of_a_channel_gets_its_threads(emu: Emulator) -> None:
    grant_bot(emu, Permission.ADMINISTRATOR)
    with bot(emu) as http:
        mods = http.post(f"/channels/{MODERATORS}/threads", json={"name": "mods", "type": 11}).json()
        http.post(f"/channels/{GENERAL}/threads", json={"name": "elsewhere", "type": 11})
    grant_bot(emu, THREAD_BITS)

    async def scenario() -> None:
        session, guild = await _session(emu, GUILDS)
        assert mods["id"] not in {t["id"] for t in guild["threads"]}
        url = f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{MODERATOR_ROLE}"
        assert (await _call(httpx.put, url, timeout=10)).status_code < 300
        synced = (await session.dispatch("THREAD_LIST_SYNC"))["d"]
        assert synced["guild_id"] == str(GUILD_ID) and synced["channel_ids"] == [str(MODERATORS)]
        assert [t["id"] for t in synced["threads"]] == [mods["id"]]
        assert [m["user_id"] for m in synced["members"]] == [str(BOT_ID)]
        await session.close()

    asyncio.run(scenario())


def test_a_bot_losing_sight_of_channels_gets_no_channel_update_for_threads(emu: Emulator) -> None:
    grant_bot(emu, Permission.CREATE_PUBLIC_THREADS)
    with bot(emu) as http:
        thread = http.post(f"/channels/{GENERAL}/threads", json={"name": "t", "type": 11}).json()

    async def scenario() -> None:
        opted, _ = await _session(emu, GUILDS, capabilities=OBFUSCATION)
        blind = str(int(DEFAULT_EVERYONE) & ~int(Permission.VIEW_CHANNEL))
        url = f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/roles/{GUILD_ID}"
        assert (await _call(httpx.patch, url, json={"permissions": blind}, timeout=10)).status_code < 300
        updated: set[str] = set()
        try:
            while True:
                payload = await opted.recv(0.5)
                if payload["op"] == 0 and payload["t"] == "CHANNEL_UPDATE":
                    updated.add(payload["d"]["id"])
        except asyncio.TimeoutError:
            pass
        assert str(GENERAL) in updated and thread["id"] not in updated
        await opted.close()

    asyncio.run(scenario())
