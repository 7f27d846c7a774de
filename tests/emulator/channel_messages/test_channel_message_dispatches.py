"""Gateway dispatches of guild channel messages over real WebSockets: MESSAGE_CREATE / UPDATE /
DELETE / DELETE_BULK, MESSAGE_REACTION_*, TYPING_START, CHANNEL_PINS_UPDATE and the expression and
scheduled event updates reach the bot sessions whose intents ask for them and whose bot can view the
channel; MESSAGE_CONTENT empties content for sessions without it (except mentions and own messages)."""

from __future__ import annotations

import asyncio
import urllib.parse

import httpx
from channel_helpers import GENERAL, MODERATORS, Permission, grant_bot, set_message_content, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_EXPRESSIONS, GUILD_MESSAGES = 1 << 0, 1 << 3, 1 << 9
REACTIONS, TYPING, MESSAGE_CONTENT, SCHEDULED_EVENTS = 1 << 10, 1 << 11, 1 << 15, 1 << 16


async def _session(emu: Emulator, intents: int) -> GatewayClient:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents)
    await client.dispatch("GUILD_CREATE")
    return client


async def _in_thread(fn, *args, **kwargs):
    return await asyncio.to_thread(fn, *args, **kwargs)


def test_message_dispatches_follow_intents_visibility_and_message_content(emu: Emulator) -> None:
    set_message_content(emu, APP_ID, True)

    async def scenario() -> None:
        reader = await _session(emu, GUILD_MESSAGES | MESSAGE_CONTENT)
        blind = await _session(emu, GUILD_MESSAGES)
        deaf = await _session(emu, GUILDS)
        plain = (await _in_thread(user_posts, emu, GENERAL, ALICE, content="hello all")).json()
        heard = (await reader.dispatch("MESSAGE_CREATE"))["d"]
        assert heard["content"] == "hello all" and heard["member"]["roles"] == ["1200000000000000010"]
        assert "user" not in heard["member"]
        stripped = (await blind.dispatch("MESSAGE_CREATE"))["d"]
        assert stripped["id"] == plain["id"] and stripped["content"] == "" and stripped["embeds"] == []
        await deaf.no_dispatch("MESSAGE_CREATE")
        await _in_thread(user_posts, emu, GENERAL, ALICE, content=f"<@{BOT_ID}> ping")
        assert (await blind.dispatch("MESSAGE_CREATE"))["d"]["content"] == f"<@{BOT_ID}> ping"
        await reader.dispatch("MESSAGE_CREATE")
        # A channel the bot cannot view: nobody hears of it.
        await _in_thread(user_posts, emu, MODERATORS, ALICE, content="mods only")
        await reader.no_dispatch("MESSAGE_CREATE")

        def edit_and_delete() -> None:
            with bot(emu) as http:
                own = http.post(f"/channels/{GENERAL}/messages", json={"content": "mine"}).json()
                http.patch(f"/channels/{GENERAL}/messages/{own['id']}", json={"content": "mine, edited"})
                http.delete(f"/channels/{GENERAL}/messages/{own['id']}")

        await _in_thread(edit_and_delete)
        assert (await blind.dispatch("MESSAGE_CREATE"))["d"]["content"] == "mine"   # its own message
        assert (await blind.dispatch("MESSAGE_UPDATE"))["d"]["content"] == "mine, edited"
        deleted = (await reader.dispatch("MESSAGE_DELETE"))["d"]
        assert deleted["channel_id"] == str(GENERAL) and deleted["guild_id"] == str(GUILD_ID)
        for client in (reader, blind, deaf):
            await client.close()

    asyncio.run(scenario())


def test_bulk_delete_reactions_typing_and_pins(emu: Emulator) -> None:
    grant_bot(emu, Permission.MANAGE_MESSAGES | Permission.PIN_MESSAGES)

    async def scenario() -> None:
        everything = await _session(emu, GUILDS | GUILD_MESSAGES | REACTIONS | TYPING)
        no_reactions = await _session(emu, GUILD_MESSAGES)
        first = (await _in_thread(user_posts, emu, GENERAL, ALICE, content="one")).json()
        second = (await _in_thread(user_posts, emu, GENERAL, ALICE, content="two")).json()
        path = f"/channels/{GENERAL}/messages/{first['id']}"
        thumbs = urllib.parse.quote("👍")

        def react_type_pin() -> None:
            with bot(emu) as http:
                assert http.put(f"{path}/reactions/{thumbs}/@me").status_code == 204
                added = httpx.put(f"{emu.base_url}/_emulator/channels/{GENERAL}/messages/{first['id']}/reactions",
                                  json={"user_id": str(ALICE), "emoji": "👍"})
                assert added.status_code == 204, added.text
                users = http.get(f"{path}/reactions/{thumbs}").json()
                assert [u["id"] for u in users] == [str(BOT_ID), str(ALICE)]   # by user id
                message = http.get(path).json()
                assert message["reactions"][0]["count"] == 2 and message["reactions"][0]["me"] is True
                assert http.delete(f"{path}/reactions/{thumbs}/{ALICE}").status_code == 204
                assert http.delete(f"{path}/reactions/{thumbs}/@me").status_code == 204
                assert http.put(f"{path}/reactions/{thumbs}/@me").status_code == 204
                assert http.delete(f"{path}/reactions/{thumbs}").status_code == 204
                assert http.put(f"{path}/reactions/{thumbs}/@me").status_code == 204
                assert http.delete(f"{path}/reactions").status_code == 204
                bad = http.put(f"{path}/reactions/notanemoji/@me")
                assert bad.status_code == 400 and bad.json()["code"] == 10014
                assert http.post(f"/channels/{GENERAL}/typing").status_code == 204
                assert http.put(f"/channels/{GENERAL}/messages/pins/{first['id']}").status_code == 204
                assert http.post(f"/channels/{GENERAL}/messages/bulk-delete",
                                 json={"messages": [first["id"], second["id"]]}).status_code == 204

        await _in_thread(react_type_pin)
        add = (await everything.dispatch("MESSAGE_REACTION_ADD"))["d"]
        assert add["user_id"] == str(BOT_ID) and add["emoji"] == {"id": None, "name": "👍"}
        assert add["message_author_id"] == str(ALICE)
        assert add["member"]["user"]["id"] == str(BOT_ID) and "roles" in add["member"]   # the reacting member
        assert (await everything.dispatch("MESSAGE_REACTION_ADD"))["d"]["user_id"] == str(ALICE)
        assert (await everything.dispatch("MESSAGE_REACTION_REMOVE"))["d"]["user_id"] == str(ALICE)
        assert (await everything.dispatch("MESSAGE_REACTION_REMOVE_EMOJI"))["d"]["emoji"]["name"] == "👍"
        assert (await everything.dispatch("MESSAGE_REACTION_REMOVE_ALL"))["d"]["message_id"] == first["id"]
        assert (await everything.dispatch("TYPING_START"))["d"]["user_id"] == str(BOT_ID)
        pins = (await everything.dispatch("CHANNEL_PINS_UPDATE"))["d"]
        assert pins["channel_id"] == str(GENERAL) and pins["last_pin_timestamp"] is not None
        bulk = (await everything.dispatch("MESSAGE_DELETE_BULK"))["d"]
        assert bulk["ids"] == sorted([first["id"], second["id"]], key=int)
        await no_reactions.no_dispatch("MESSAGE_REACTION_ADD")
        for client in (everything, no_reactions):
            await client.close()

    asyncio.run(scenario())


def test_expression_and_scheduled_event_dispatches(emu: Emulator) -> None:
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS | Permission.CREATE_EVENTS)

    async def scenario() -> None:
        client = await _session(emu, GUILD_EXPRESSIONS | SCHEDULED_EVENTS)
        other = await _session(emu, GUILDS)

        def work() -> None:
            with bot(emu) as http:
                png = "data:image/png;base64,iVBORw0KGgo="
                assert http.post(f"/guilds/{GUILD_ID}/emojis", json={"name": "wave", "image": png}).status_code == 201
                assert http.post(f"/guilds/{GUILD_ID}/stickers", data={"name": "hi", "tags": "hi"},
                                 files={"file": ("a.png", b"\x89PNG", "image/png")}).status_code == 201
                event = http.post(f"/guilds/{GUILD_ID}/scheduled-events", json={
                    "name": "Party", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": "2099-01-01T00:00:00Z",
                    "scheduled_end_time": "2099-01-01T02:00:00Z", "entity_metadata": {"location": "here"}}).json()
                httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/scheduled-events/{event['id']}/users/{ALICE}")
                http.patch(f"/guilds/{GUILD_ID}/scheduled-events/{event['id']}", json={"name": "Party!"})
                http.delete(f"/guilds/{GUILD_ID}/scheduled-events/{event['id']}")

        await _in_thread(work)
        assert [e["name"] for e in (await client.dispatch("GUILD_EMOJIS_UPDATE"))["d"]["emojis"]] == ["wave"]
        assert [s["name"] for s in (await client.dispatch("GUILD_STICKERS_UPDATE"))["d"]["stickers"]] == ["hi"]
        assert (await client.dispatch("GUILD_SCHEDULED_EVENT_CREATE"))["d"]["name"] == "Party"
        assert (await client.dispatch("GUILD_SCHEDULED_EVENT_USER_ADD"))["d"]["user_id"] == str(ALICE)
        assert (await client.dispatch("GUILD_SCHEDULED_EVENT_UPDATE"))["d"]["name"] == "Party!"
        assert (await client.dispatch("GUILD_SCHEDULED_EVENT_DELETE"))["d"]["name"] == "Party!"
        await other.no_dispatch("GUILD_EMOJIS_UPDATE")
        for c in (client, other):
            await c.close()

    asyncio.run(scenario())
