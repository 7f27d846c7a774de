"""Lobby messages: members only, validation, newest-first listing capped at 200, the author's
additional_name, edits and deletes, and the application's moderation metadata."""

from __future__ import annotations

import asyncio

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, DAVE, api, bot, sdk_session, user_token


def _lobby(emu: Emulator) -> str:
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE), "additional_name": "Captain"},
                                                        {"id": str(BOB)}]}).json()
    return lobby["id"]


def test_members_post_and_only_members_hear(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu)

    async def scenario() -> None:
        bob, dave = await sdk_session(emu, BOB), await sdk_session(emu, DAVE)
        with api(emu, user_token(emu, ALICE)) as http:
            sent = http.post(f"/lobbies/{lobby_id}/messages", json={"content": "gg", "metadata": {"k": "v"}})
        assert sent.status_code == 201
        message = sent.json()
        assert message["content"] == "gg" and message["lobby_id"] == lobby_id
        assert message["author"]["id"] == str(ALICE) and message["additional_name"] == "Captain"
        assert message["metadata"] == {"k": "v"} and message["moderation_metadata"] == {}
        heard = await bob.dispatch("LOBBY_MESSAGE_CREATE")
        assert heard["d"] == message
        await dave.no_dispatch("LOBBY_MESSAGE_CREATE")
        await bob.close()
        await dave.close()

    asyncio.run(scenario())
    with api(emu, user_token(emu, DAVE)) as http:
        refused = http.post(f"/lobbies/{lobby_id}/messages", json={"content": "let me in"})
        assert refused.status_code == 403 and refused.json()["code"] == 50001
        assert http.get(f"/lobbies/{lobby_id}/messages").status_code == 403
    assert emu.state.db.query_one("SELECT COUNT(*) FROM lobby_messages")[0] == 1


def test_message_validation(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu)
    with api(emu, user_token(emu, ALICE)) as http:
        for body in ({}, {"content": ""}, {"content": "x" * 2001}, {"content": 5}):
            response = http.post(f"/lobbies/{lobby_id}/messages", json=body)
            assert response.status_code == 400 and "content" in response.json()["errors"], body
        assert "metadata" in http.post(f"/lobbies/{lobby_id}/messages",
                                       json={"content": "a", "metadata": {"k": 1}}).json()["errors"]
        assert http.post(f"/lobbies/{lobby_id}/messages", json={"content": "x" * 2000}).status_code == 201
    with bot(emu) as http:  # messages are sent on behalf of an authenticated member
        assert http.post(f"/lobbies/{lobby_id}/messages", json={"content": "hi"}).status_code == 401


def test_listing_is_newest_first_and_capped_at_200(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu)
    # 205 quick posts would meet the default per-route rate limit; this test is about the listing.
    assert httpx.put(f"{emu.base_url}/_emulator/rate-limits", json={"limit": 1000, "window_s": 1}).status_code == 200
    with api(emu, user_token(emu, ALICE)) as http:
        for n in range(205):
            assert http.post(f"/lobbies/{lobby_id}/messages", json={"content": str(n)}).status_code == 201
        default = http.get(f"/lobbies/{lobby_id}/messages").json()
        assert len(default) == 50 and default[0]["content"] == "204" and default[-1]["content"] == "155"
        most = http.get(f"/lobbies/{lobby_id}/messages", params={"limit": 200}).json()
        assert len(most) == 200 and [m["content"] for m in most[:2]] == ["204", "203"]
        for bad in ("201", "0", "ten"):
            response = http.get(f"/lobbies/{lobby_id}/messages", params={"limit": bad})
            assert response.status_code == 400 and "limit" in response.json()["errors"]
    with bot(emu) as http:
        assert len(http.get(f"/lobbies/{lobby_id}/messages", params={"limit": 3}).json()) == 3


def test_edit_and_delete_by_the_author(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu)

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, user_token(emu, ALICE)) as http:
            message = http.post(f"/lobbies/{lobby_id}/messages", json={"content": "tpyo"}).json()
            with api(emu, user_token(emu, BOB)) as other:
                assert other.patch(f"/lobbies/{lobby_id}/messages/{message['id']}",
                                   json={"content": "mine now"}).status_code == 403
                assert other.delete(f"/lobbies/{lobby_id}/messages/{message['id']}").status_code == 403
            edited = http.patch(f"/lobbies/{lobby_id}/messages/{message['id']}", json={"content": "typo"}).json()
            assert edited["content"] == "typo" and edited["edited_timestamp"] is not None
            assert (await bob.dispatch("LOBBY_MESSAGE_UPDATE"))["d"]["content"] == "typo"
            assert http.delete(f"/lobbies/{lobby_id}/messages/{message['id']}").status_code == 204
            assert (await bob.dispatch("LOBBY_MESSAGE_DELETE"))["d"] == {"id": message["id"], "lobby_id": lobby_id}
            assert http.delete(f"/lobbies/{lobby_id}/messages/{message['id']}").json()["code"] == 10008
        await bob.close()

    asyncio.run(scenario())


def test_moderation_metadata_by_bot(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu)

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, user_token(emu, ALICE)) as http:
            message = http.post(f"/lobbies/{lobby_id}/messages", json={"content": "hmm"}).json()
            url = f"/lobbies/{lobby_id}/messages/{message['id']}/moderation-metadata"
            assert http.put(url, json={"flagged": "true"}).status_code == 401
        with bot(emu) as admin:
            six = admin.put(url, json={str(n): "x" for n in range(6)})
            assert six.status_code == 400 and "moderation_metadata" in six.json()["errors"]
            assert "moderation_metadata" in admin.put(url, json={"score": 3}).json()["errors"]
            assert admin.put(url, json={"flagged": "true", "score": "0.9"}).status_code == 204
            heard = await bob.dispatch("LOBBY_MESSAGE_UPDATE")
            assert heard["d"]["moderation_metadata"] == {"flagged": "true", "score": "0.9"}
            listed = admin.get(f"/lobbies/{lobby_id}/messages").json()
            assert listed[0]["moderation_metadata"] == {"flagged": "true", "score": "0.9"}
        await bob.close()

    asyncio.run(scenario())


def test_concurrent_posts_are_dispatched_in_commit_order(platformpp_emulator: Emulator) -> None:
    from concurrent.futures import ThreadPoolExecutor

    emu = platformpp_emulator
    lobby_id = _lobby(emu)
    httpx.put(f"{emu.base_url}/_emulator/rate-limits", json={"limit": 1000, "window_s": 1})

    def post_many(user: int) -> None:
        with api(emu, user_token(emu, user)) as http:
            for n in range(30):
                assert http.post(f"/lobbies/{lobby_id}/messages", json={"content": f"{user}-{n}"}).status_code == 201

    async def scenario() -> None:
        watcher = await sdk_session(emu, BOB)
        with ThreadPoolExecutor(2) as pool:
            await asyncio.gather(*(asyncio.get_running_loop().run_in_executor(pool, post_many, u) for u in (ALICE, BOB)))
        ids = [int((await watcher.dispatch("LOBBY_MESSAGE_CREATE"))["d"]["id"]) for _ in range(60)]
        assert ids == sorted(ids)  # snowflakes are taken inside the transaction: commit order
        await watcher.close()

    asyncio.run(scenario())
