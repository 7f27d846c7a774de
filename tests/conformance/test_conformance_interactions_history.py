"""Answer messages in the channel's history: an interaction's original response and followups in a
guild channel are messages of that channel (``GET /channels/{id}/messages``, body checked against the
published schema) and reach bots as MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE with
``interaction_metadata``; ephemeral ones stay with their user. A deferred response is a loading
message until it is edited."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from emulator_world import ALICE, APP_ID, BOT_TOKEN
from platformpp.emulator import Emulator
from social_helpers import GatewayClient

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL = 1200000000000000101
GUILD_MESSAGES = 1 << 9
EPHEMERAL, LOADING = 1 << 6, 1 << 7


def start(emu: Emulator, command_name: str) -> dict[str, Any]:
    response = httpx.post(f"{emu.base_url}/_emulator/interactions", timeout=10, json={
        "action": "command", "application_id": str(APP_ID), "user_id": str(ALICE), "channel_id": str(GENERAL),
        "command_name": command_name, "wait_s": 0})
    assert response.status_code == 200, response.text
    return dict(response.json()["interaction"])


def test_answer_messages_are_in_the_channel_history_and_dispatched(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    app = client()
    assert bot.post(f"/applications/{APP_ID}/commands", json={"name": "go", "description": "d"}).status_code == 201

    def history() -> dict[str, dict[str, Any]]:
        listed = bot.get(f"/channels/{GENERAL}/messages", params={"limit": 20})
        assert listed.status_code == 200, listed.text
        return {m["id"]: m for m in listed.json()}

    async def scenario() -> None:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=GUILD_MESSAGES)   # its own messages: content shown
        await session.dispatch("GUILD_CREATE")

        def answer() -> tuple[dict[str, Any], str]:
            interaction = start(emu, "go")
            hook = f"/webhooks/{APP_ID}/{interaction['token']}"
            assert app.post(f"/interactions/{interaction['id']}/{interaction['token']}/callback",
                            json={"type": 4, "data": {"content": "first"}}).status_code == 204
            return interaction, hook

        interaction, hook = await asyncio.to_thread(answer)
        created = (await session.dispatch("MESSAGE_CREATE"))["d"]
        assert created["content"] == "first" and created["type"] == 20 and created["webhook_id"] == str(APP_ID)
        assert created["interaction_metadata"]["id"] == interaction["id"]
        assert created["interaction_metadata"]["user"]["id"] == str(ALICE)
        original = (await asyncio.to_thread(lambda: app.get(f"{hook}/messages/@original"))).json()
        assert created["id"] == original["id"]
        listed = await asyncio.to_thread(history)
        assert listed[original["id"]]["interaction_metadata"]["id"] == interaction["id"]
        assert listed[original["id"]]["application_id"] == str(APP_ID)

        hidden = (await asyncio.to_thread(lambda: app.post(hook, json={"content": "psst", "flags": EPHEMERAL}))).json()
        await session.no_dispatch("MESSAGE_CREATE")
        shown = (await asyncio.to_thread(lambda: app.post(hook, json={"content": "for all"}))).json()
        assert (await session.dispatch("MESSAGE_CREATE"))["d"]["id"] == shown["id"]
        listed = await asyncio.to_thread(history)
        assert shown["id"] in listed and hidden["id"] not in listed and listed[shown["id"]]["type"] == 0

        await asyncio.to_thread(lambda: app.patch(f"{hook}/messages/@original", json={"content": "edited"}))
        updated = (await session.dispatch("MESSAGE_UPDATE"))["d"]
        assert updated["id"] == original["id"] and updated["content"] == "edited" and updated["edited_timestamp"]
        await asyncio.to_thread(lambda: app.patch(f"{hook}/messages/{hidden['id']}", json={"content": "shh"}))
        await session.no_dispatch("MESSAGE_UPDATE")
        assert (await asyncio.to_thread(history))[original["id"]]["content"] == "edited"

        await asyncio.to_thread(lambda: app.delete(f"{hook}/messages/@original"))
        gone = (await session.dispatch("MESSAGE_DELETE"))["d"]
        assert gone["id"] == original["id"] and gone["channel_id"] == str(GENERAL)
        assert original["id"] not in await asyncio.to_thread(history)

        def deferred() -> tuple[dict[str, Any], str]:
            later = start(emu, "go")
            assert app.post(f"/interactions/{later['id']}/{later['token']}/callback", json={"type": 5}).status_code == 204
            return later, f"/webhooks/{APP_ID}/{later['token']}"

        later, later_hook = await asyncio.to_thread(deferred)
        thinking = (await session.dispatch("MESSAGE_CREATE"))["d"]
        assert thinking["flags"] & LOADING and (await asyncio.to_thread(history))[thinking["id"]]["flags"] & LOADING
        await asyncio.to_thread(lambda: app.patch(f"{later_hook}/messages/@original", json={"content": "done"}))
        finished = (await session.dispatch("MESSAGE_UPDATE"))["d"]
        assert finished["id"] == thinking["id"] and not finished["flags"] & LOADING and finished["content"] == "done"
        await session.close()

    asyncio.run(scenario())
