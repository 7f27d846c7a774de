"""Game direct messages: between two users of the game, newest first, author-only edits, blocks,
bot moderation metadata, and dispatches to exactly the two participants."""

from __future__ import annotations

import asyncio

from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, CAROL, DAVE, api, bot, sdk_session, user_token


def _players(emu: Emulator) -> dict[int, str]:
    """Tokens for the four players (each grant makes them users of the game)."""
    return {user: user_token(emu, user) for user in (ALICE, BOB, CAROL, DAVE)}


def test_send_list_and_only_the_two_hear(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    tokens = _players(emu)

    async def scenario() -> None:
        alice, bob, carol = [await sdk_session(emu, u) for u in (ALICE, BOB, CAROL)]
        with api(emu, tokens[ALICE]) as http:
            sent = http.post(f"/users/{BOB}/messages", json={"content": "hi bob", "metadata": {"m": "1"}})
            assert sent.status_code == 201
            message = sent.json()
            assert message["author"]["id"] == str(ALICE) and message["recipient_id"] == str(BOB)
            assert (await bob.dispatch("DM_MESSAGE_CREATE"))["d"] == message
            assert (await alice.dispatch("DM_MESSAGE_CREATE"))["d"]["id"] == message["id"]
            await carol.no_dispatch("DM_MESSAGE_CREATE")
        with api(emu, tokens[BOB]) as http:
            http.post(f"/users/{ALICE}/messages", json={"content": "hi alice"})
            listed = http.get(f"/users/{ALICE}/messages").json()
            assert [m["content"] for m in listed] == ["hi alice", "hi bob"]
            assert len(http.get(f"/users/{ALICE}/messages", params={"limit": 1}).json()) == 1
            assert http.get(f"/users/{ALICE}/messages", params={"limit": 201}).status_code == 400
        with api(emu, tokens[CAROL]) as http:  # another pair's conversation is empty for Carol
            assert http.get(f"/users/{ALICE}/messages").json() == []
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(scenario())


def test_validation_and_who_can_be_messaged(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    alice = user_token(emu, ALICE)
    with api(emu, alice) as http:
        # Bob has not authorized the game yet: not a user of the game.
        assert http.post(f"/users/{BOB}/messages", json={"content": "hi"}).json()["code"] == 50007
        user_token(emu, BOB)
        assert "content" in http.post(f"/users/{BOB}/messages", json={"content": ""}).json()["errors"]
        assert "content" in http.post(f"/users/{BOB}/messages", json={"content": "x" * 2001}).json()["errors"]
        assert http.post(f"/users/{ALICE}/messages", json={"content": "me"}).json()["code"] == 50007
        assert http.post("/users/42/messages", json={"content": "who"}).json()["code"] == 10013
        assert http.put(f"/users/@me/relationships/{BOB}", json={"type": 2}).status_code == 200
        assert http.post(f"/users/{BOB}/messages", json={"content": "blocked"}).json()["code"] == 50007
    with api(emu, user_token(emu, BOB)) as http:
        assert http.post(f"/users/{ALICE}/messages", json={"content": "blocked"}).json()["code"] == 50007
    with bot(emu) as http:
        assert http.post(f"/users/{ALICE}/messages", json={"content": "bot"}).status_code == 401
    with api(emu, user_token(emu, CAROL, scopes="openid identify")) as http:
        assert http.post(f"/users/{ALICE}/messages", json={"content": "no scope"}).status_code == 403
    assert emu.state.db.query_one("SELECT COUNT(*) FROM dm_messages")[0] == 0


def test_edit_delete_and_moderation(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    tokens = _players(emu)

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, tokens[ALICE]) as http:
            message = http.post(f"/users/{BOB}/messages", json={"content": "helo"}).json()
            await bob.dispatch("DM_MESSAGE_CREATE")
            with api(emu, tokens[BOB]) as other:
                assert other.patch(f"/users/{ALICE}/messages/{message['id']}", json={"content": "x"}).status_code == 403
            edited = http.patch(f"/users/{BOB}/messages/{message['id']}", json={"content": "hello"}).json()
            assert edited["content"] == "hello" and edited["edited_timestamp"]
            assert (await bob.dispatch("DM_MESSAGE_UPDATE"))["d"]["content"] == "hello"
            with bot(emu) as admin:
                url = f"/users/{BOB}/messages/{message['id']}/moderation-metadata"
                moderated = admin.put(url, json={"toxicity": "low"}).json()
                assert moderated["moderation_metadata"] == {"toxicity": "low"}
                assert (await bob.dispatch("DM_MESSAGE_UPDATE"))["d"]["moderation_metadata"] == {"toxicity": "low"}
                assert admin.put(f"/users/{CAROL}/messages/{message['id']}/moderation-metadata",
                                 json={"a": "b"}).json()["code"] == 10008
            with api(emu, tokens[CAROL]) as other:  # not Carol's conversation
                assert other.delete(f"/users/{BOB}/messages/{message['id']}").json()["code"] == 10008
            assert http.delete(f"/users/{BOB}/messages/{message['id']}").status_code == 204
            deleted = await bob.dispatch("DM_MESSAGE_DELETE")
            assert deleted["d"] == {"id": message["id"], "author_id": str(ALICE), "recipient_id": str(BOB)}
        await bob.close()

    asyncio.run(scenario())
