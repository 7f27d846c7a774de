"""DM messages through the channel message routes: a bot writes to users it may message (a shared
guild, or the app installed; 50007 otherwise and when blocked), recipients read the history, authors
edit and delete their own, and bot sessions with DIRECT_MESSAGES hear MESSAGE_CREATE / UPDATE / DELETE."""

from __future__ import annotations

import asyncio

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, DAVE, GUILD_ID, GatewayClient, api, bot, user_token

DIRECT_MESSAGES, GUILD_MESSAGES = 1 << 12, 1 << 9


def _user_posts(emu: Emulator, channel_id: str, user_id: int, content: str) -> httpx.Response:
    return httpx.post(f"{emu.base_url}/_emulator/channels/{channel_id}/messages",
                      json={"author_id": str(user_id), "content": content}, timeout=10)


def test_dm_history_edits_and_dispatches(emu: Emulator) -> None:
    async def scenario() -> None:
        listening = await GatewayClient.connect(emu)
        await listening.identify(BOT_TOKEN, intents=DIRECT_MESSAGES)
        deaf = await GatewayClient.connect(emu)
        await deaf.identify(BOT_TOKEN, intents=GUILD_MESSAGES)

        def talk() -> tuple[str, dict, dict]:
            with bot(emu) as http:
                dm = http.post("/users/@me/channels", json={"recipient_id": str(ALICE)}).json()["id"]
                sent = http.post(f"/channels/{dm}/messages", json={"content": "hello alice", "nonce": "n1"})
                assert sent.status_code == 200, sent.text
                assert "guild_id" not in sent.json() and sent.json()["channel_id"] == dm
                assert http.post(f"/channels/{dm}/messages", json={"content": ""}).json()["code"] == 50006
                assert "sticker_ids" in http.post(f"/channels/{dm}/messages",
                                                  json={"content": "x", "sticker_ids": ["1"]}).json()["errors"]
                reply = _user_posts(emu, dm, ALICE, "hi bot")
                assert reply.status_code == 200, reply.text
                listed = http.get(f"/channels/{dm}/messages").json()
                assert [m["content"] for m in listed] == ["hi bot", "hello alice"]
                assert [m["content"] for m in http.get(f"/channels/{dm}/messages",
                                                       params={"limit": 1}).json()] == ["hi bot"]
                assert http.get(f"/channels/{dm}/messages/{sent.json()['id']}").json()["content"] == "hello alice"
                assert http.patch(f"/channels/{dm}/messages/{reply.json()['id']}",
                                  json={"content": "no"}).json()["code"] == 50005
                edited = http.patch(f"/channels/{dm}/messages/{sent.json()['id']}", json={"content": "hello, alice"})
                assert edited.json()["content"] == "hello, alice" and edited.json()["edited_timestamp"]
                assert http.delete(f"/channels/{dm}/messages/{reply.json()['id']}").json()["code"] == 50003
                assert http.post(f"/channels/{dm}/typing").status_code == 204
                assert http.delete(f"/channels/{dm}/messages/{sent.json()['id']}").status_code == 204
                assert http.get(f"/channels/{dm}/messages/{sent.json()['id']}").json()["code"] == 10008
                return dm, sent.json(), reply.json()

        dm, sent, reply = await asyncio.to_thread(talk)
        created = (await listening.dispatch("MESSAGE_CREATE"))["d"]
        assert created["id"] == sent["id"] and created["content"] == "hello alice"
        from_alice = (await listening.dispatch("MESSAGE_CREATE"))["d"]
        assert from_alice["content"] == "hi bot" and from_alice["author"]["id"] == str(ALICE)
        assert (await listening.dispatch("MESSAGE_UPDATE"))["d"]["content"] == "hello, alice"
        assert (await listening.dispatch("MESSAGE_DELETE"))["d"] == {"id": sent["id"], "channel_id": dm}
        await deaf.no_dispatch("MESSAGE_CREATE")
        for client in (listening, deaf):
            await client.close()

    asyncio.run(scenario())


def test_who_a_bot_may_message(emu: Emulator) -> None:
    removed = httpx.delete(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/members/{DAVE}", timeout=10)
    assert removed.status_code == 204, removed.text
    with bot(emu) as http:
        dave_dm = http.post("/users/@me/channels", json={"recipient_id": str(DAVE)}).json()["id"]
        refused = http.post(f"/channels/{dave_dm}/messages", json={"content": "hi"})
        assert refused.status_code == 403 and refused.json()["code"] == 50007
        user_token(emu, DAVE, "identify applications.commands")   # Dave installs the app: reachable again
        assert http.post(f"/channels/{dave_dm}/messages", json={"content": "hi"}).status_code == 200
        bob_dm = http.post("/users/@me/channels", json={"recipient_id": str(BOB)}).json()["id"]
        with api(emu, user_token(emu, BOB)) as bob:
            assert bob.put(f"/users/@me/relationships/{BOT_ID}", json={"type": 2}).status_code == 200
        assert http.post(f"/channels/{bob_dm}/messages", json={"content": "hi"}).json()["code"] == 50007
        # Another bot's DM (the channel of two users) is not the bot's to read.
        others = httpx.post(f"{emu.base_url}/_emulator/channels/{bob_dm}/messages",
                            json={"author_id": str(DAVE), "content": "intruder"}, timeout=10)
        assert others.status_code == 403
    assert emu.state.db.query_one("SELECT COUNT(*) FROM private_messages WHERE content = 'intruder'")[0] == 0
