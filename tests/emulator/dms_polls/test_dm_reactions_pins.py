"""Reactions and pins on DM messages, through the guild channels' routes: recipients react and pin,
nobody removes another's reactions (50003), and bot sessions hear MESSAGE_REACTION_* with
DIRECT_MESSAGE_REACTIONS (no guild_id, no member) and CHANNEL_PINS_UPDATE with DIRECT_MESSAGES."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, GatewayClient, bot

DIRECT_MESSAGES, DIRECT_MESSAGE_REACTIONS = 1 << 12, 1 << 13
THUMBS = "\N{THUMBS UP SIGN}"


def _as_user(emu: Emulator, method: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def _dm_with_message(http: httpx.Client) -> tuple[str, str]:
    dm = http.post("/users/@me/channels", json={"recipient_id": str(ALICE)}).json()["id"]
    sent = http.post(f"/channels/{dm}/messages", json={"content": "react to me"})
    assert sent.status_code == 200, sent.text
    return dm, sent.json()["id"]


def test_recipients_react_in_a_dm_and_bots_hear_it_with_the_intent(emu: Emulator) -> None:
    async def scenario() -> None:
        listening = await GatewayClient.connect(emu)
        await listening.identify(BOT_TOKEN, intents=DIRECT_MESSAGE_REACTIONS)
        deaf = await GatewayClient.connect(emu)
        await deaf.identify(BOT_TOKEN, intents=DIRECT_MESSAGES)

        def react() -> tuple[str, str]:
            with bot(emu) as http:
                dm, message_id = _dm_with_message(http)
                reactions = f"/channels/{dm}/messages/{message_id}/reactions"
                assert http.put(f"{reactions}/{quote(THUMBS)}/@me").status_code == 204
                assert _as_user(emu, "PUT", f"/channels/{dm}/messages/{message_id}/reactions",
                                {"user_id": str(ALICE), "emoji": THUMBS}).status_code == 204
                message = http.get(f"/channels/{dm}/messages/{message_id}").json()
                assert message["reactions"] == [{
                    "emoji": {"id": None, "name": THUMBS}, "count": 2, "count_details": {"burst": 0, "normal": 2},
                    "burst_colors": [], "me_burst": False, "me": True}]
                who = http.get(f"{reactions}/{quote(THUMBS)}").json()
                assert [u["id"] for u in who] == sorted([str(ALICE), str(BOT_ID)], key=int)
                # Nobody removes another's reactions in a DM, nor all of them, nor one emoji's.
                for path in (f"{reactions}/{quote(THUMBS)}/{ALICE}", reactions, f"{reactions}/{quote(THUMBS)}"):
                    refused = http.delete(path)
                    assert (refused.status_code, refused.json()["code"]) == (403, 50003), path
                assert http.put(f"{reactions}/not-an-emoji/@me").json()["code"] == 10014
                assert http.delete(f"{reactions}/{quote(THUMBS)}/@me").status_code == 204
                left = http.get(f"/channels/{dm}/messages").json()[0]["reactions"]
                assert [(r["count"], r["me"]) for r in left] == [(1, False)]
                # Only the channel's recipients react.
                outsider = _as_user(emu, "PUT", f"/channels/{dm}/messages/{message_id}/reactions",
                                    {"user_id": str(BOB), "emoji": THUMBS})
                assert (outsider.status_code, outsider.json()["code"]) == (403, 50001)
                return dm, message_id

        dm, message_id = await asyncio.to_thread(react)
        for user_id in (BOT_ID, ALICE):
            added = (await listening.dispatch("MESSAGE_REACTION_ADD"))["d"]
            assert added == {"user_id": str(user_id), "channel_id": dm, "message_id": message_id,
                             "emoji": {"id": None, "name": THUMBS}, "message_author_id": str(BOT_ID),
                             "burst": False, "burst_colors": [], "type": 0}
        removed = (await listening.dispatch("MESSAGE_REACTION_REMOVE"))["d"]
        assert removed["user_id"] == str(BOT_ID) and "guild_id" not in removed
        await deaf.no_dispatch("MESSAGE_REACTION_ADD")
        for client in (listening, deaf):
            await client.close()

    asyncio.run(scenario())


def test_a_dm_message_takes_at_most_20_emojis(emu: Emulator) -> None:
    emojis = [chr(0x1F600 + n) for n in range(21)]
    with bot(emu) as http:
        dm, message_id = _dm_with_message(http)
        reactions = f"/channels/{dm}/messages/{message_id}/reactions"
        for emoji in emojis[:20]:
            assert http.put(f"{reactions}/{quote(emoji)}/@me").status_code == 204
        assert http.put(f"{reactions}/{quote(emojis[20])}/@me").json()["code"] == 30010
        assert _as_user(emu, "PUT", f"/channels/{dm}/messages/{message_id}/reactions",   # joining one is fine
                        {"user_id": str(ALICE), "emoji": emojis[0]}).status_code == 204


def test_recipients_pin_in_a_dm_and_bots_hear_channel_pins_update(emu: Emulator) -> None:
    async def scenario() -> None:
        listening = await GatewayClient.connect(emu)
        await listening.identify(BOT_TOKEN, intents=DIRECT_MESSAGES)

        def pin() -> tuple[str, str]:
            with bot(emu) as http:
                dm, message_id = _dm_with_message(http)
                assert http.put(f"/channels/{dm}/pins/{message_id}").status_code == 204
                assert [m["id"] for m in http.get(f"/channels/{dm}/pins").json()] == [message_id]
                listed = http.get(f"/channels/{dm}/messages/pins").json()
                assert listed["has_more"] is False and listed["items"][0]["message"]["pinned"] is True
                assert listed["items"][0]["pinned_at"]
                assert http.get(f"/channels/{dm}/messages/{message_id}").json()["pinned"] is True
                # Alice, the other recipient, unpins it: no permission applies in a DM.
                assert _as_user(emu, "DELETE", f"/channels/{dm}/pins/{message_id}",
                                {"user_id": str(ALICE)}).status_code == 204
                assert http.get(f"/channels/{dm}/messages/pins").json() == {"items": [], "has_more": False}
                assert http.put(f"/channels/{dm}/messages/pins/{message_id}").status_code == 204
                return dm, message_id

        dm, message_id = await asyncio.to_thread(pin)
        await listening.dispatch("MESSAGE_CREATE")
        pins_update = (await listening.dispatch("CHANNEL_PINS_UPDATE"))["d"]
        assert pins_update["channel_id"] == dm and pins_update["last_pin_timestamp"] and "guild_id" not in pins_update
        assert (await listening.dispatch("MESSAGE_UPDATE"))["d"]["pinned"] is True
        assert (await listening.dispatch("CHANNEL_PINS_UPDATE"))["d"]["last_pin_timestamp"] is None
        assert (await listening.dispatch("MESSAGE_UPDATE"))["d"]["pinned"] is False
        await listening.close()

    asyncio.run(scenario())
