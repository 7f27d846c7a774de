"""Relationships: from fixtures and through the API, platform and game kinds, and the dispatches
each of the two users (and nobody else) receives."""

from __future__ import annotations

import asyncio

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, CAROL, DAVE, api, sdk_session, user_token


def test_fixture_relationships(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    fixture = {"relationships": [
        {"user_id": str(ALICE), "other_id": str(DAVE), "type": "friend"},
        {"user_id": str(CAROL), "other_id": str(ALICE), "type": "pending"},
        {"user_id": str(ALICE), "other_id": str(BOB), "type": "friend", "application_id": "1000000000000000000"},
    ]}
    assert httpx.post(f"{emu.base_url}/_emulator/seed", json=fixture).status_code in (200, 204)
    with api(emu, user_token(emu, ALICE)) as http:
        listed = {r["id"]: (r["type"], r["game_type"]) for r in http.get("/users/@me/relationships").json()}
    assert listed == {str(BOB): (0, 1), str(CAROL): (3, 0), str(DAVE): (1, 0)}
    bad = httpx.post(f"{emu.base_url}/_emulator/seed", json={"relationships": [
        {"user_id": str(ALICE), "other_id": str(BOB), "type": "frenemy"}]})
    assert bad.status_code == 400 and bad.json()["errors"]["relationships"]["0"]["type"]


def test_friend_request_accept_and_remove_dispatches(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        alice, bob, carol = [await sdk_session(emu, u) for u in (ALICE, BOB, CAROL)]
        with api(emu, user_token(emu, ALICE)) as http:
            sent = http.put(f"/users/@me/relationships/{BOB}").json()
            assert sent["type"] == 4 and sent["user"]["id"] == str(BOB)
        assert (await alice.dispatch("RELATIONSHIP_ADD"))["d"]["type"] == 4
        incoming = await bob.dispatch("RELATIONSHIP_ADD")
        assert incoming["d"]["type"] == 3 and incoming["d"]["id"] == str(ALICE)
        with api(emu, user_token(emu, BOB)) as http:
            assert http.put(f"/users/@me/relationships/{ALICE}", json={"type": 1}).json()["type"] == 1
        assert (await alice.dispatch("RELATIONSHIP_UPDATE"))["d"]["type"] == 1
        assert (await bob.dispatch("RELATIONSHIP_UPDATE"))["d"]["type"] == 1
        # New friends learn each other's presence at once.
        presence = await alice.dispatch("PRESENCE_UPDATE")
        assert presence["d"]["user"]["id"] == str(BOB) and presence["d"]["status"] == "online"
        await carol.no_dispatch("PRESENCE_UPDATE")
        with api(emu, user_token(emu, ALICE)) as http:
            assert http.delete(f"/users/@me/relationships/{BOB}").status_code == 204
        assert (await bob.dispatch("RELATIONSHIP_REMOVE"))["d"] == {"id": str(ALICE), "type": 1, "game_type": 0}
        await carol.no_dispatch("RELATIONSHIP_ADD")
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(scenario())


def test_game_relationships_and_blocks(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, user_token(emu, ALICE)) as http:
            game = http.put(f"/users/@me/game-relationships/{BOB}").json()
            assert (game["type"], game["game_type"]) == (0, 4)
            assert (await bob.dispatch("RELATIONSHIP_ADD"))["d"]["game_type"] == 3
            blocked = http.put(f"/users/@me/relationships/{BOB}", json={"type": 2}).json()
            assert blocked["type"] == 2
            await bob.no_dispatch("RELATIONSHIP_UPDATE")  # the blocked user is not told
        with api(emu, user_token(emu, BOB)) as http:
            refused = http.put(f"/users/@me/relationships/{ALICE}")
            assert refused.status_code == 403
            assert http.put(f"/users/@me/relationships/{BOB}").json()["code"] == 10013  # oneself
            assert "type" in http.put(f"/users/@me/relationships/{ALICE}", json={"type": 3}).json()["errors"]
        with api(emu, user_token(emu, ALICE)) as http:
            assert http.delete(f"/users/@me/relationships/{BOB}").status_code == 200  # the game request stays
            listed = http.get("/users/@me/relationships").json()
            assert [(r["id"], r["type"], r["game_type"]) for r in listed] == [(str(BOB), 0, 4)]
        with api(emu, user_token(emu, ALICE, scopes="openid identify")) as http:
            assert http.get("/users/@me/relationships").status_code == 403
        await bob.close()

    asyncio.run(scenario())


def test_sdk_1_10_kinds_spam_flag_and_requests_by_username(platformpp_emulator: Emulator) -> None:
    """Implicit (5) and suggestion (6) relationships and spam-flagged requests from fixtures; friend
    requests by username (platform and game), with the dispatch to the other user."""
    emu = platformpp_emulator
    fixture = {"relationships": [
        {"user_id": str(ALICE), "other_id": str(DAVE), "type": "implicit"},
        {"user_id": str(ALICE), "other_id": str(BOB), "type": "suggestion"},
        {"user_id": str(CAROL), "other_id": str(ALICE), "type": "pending", "spam": True},
    ]}
    assert httpx.post(f"{emu.base_url}/_emulator/seed", json=fixture).status_code in (200, 204)
    with api(emu, user_token(emu, ALICE)) as http:
        listed = {r["id"]: (r["type"], r["is_spam_request"]) for r in http.get("/users/@me/relationships").json()}
        assert listed == {str(DAVE): (5, False), str(BOB): (6, False), str(CAROL): (3, True)}
    with api(emu, user_token(emu, CAROL)) as http:   # the sender's side is not flagged
        assert http.get("/users/@me/relationships").json()[0]["is_spam_request"] is False
    for bad, field in (({"user_id": str(ALICE), "other_id": str(BOB), "type": "friend", "spam": True}, "spam"),
                       ({"user_id": str(ALICE), "other_id": str(BOB), "type": "implicit",
                         "application_id": "1000000000000000000"}, "application_id")):
        answer = httpx.post(f"{emu.base_url}/_emulator/seed", json={"relationships": [bad]})
        assert answer.status_code == 400 and field in answer.json()["errors"]["relationships"]["0"]

    async def scenario() -> None:
        dave = await sdk_session(emu, DAVE)
        with api(emu, user_token(emu, ALICE)) as http:
            sent = http.post("/users/@me/relationships", json={"username": "dave"})
            assert sent.status_code == 200 and sent.json()["type"] == 4     # implicit → pending outgoing
            added = await dave.dispatch("RELATIONSHIP_ADD")
            assert added["d"]["id"] == str(ALICE) and added["d"]["type"] == 3
            game = http.post("/users/@me/game-relationships", json={"username": "bob"})
            assert game.status_code == 200 and game.json()["game_type"] == 4 and game.json()["type"] == 6
            assert http.post("/users/@me/relationships", json={"username": "no-such-user"}).status_code == 404
            empty = http.post("/users/@me/relationships", json={"username": ""})
            assert empty.status_code == 400 and "username" in empty.json()["errors"]
        with api(emu, user_token(emu, ALICE)) as http:   # accepting clears the spam flag
            accepted = http.post("/users/@me/relationships", json={"username": "carol"})
            assert accepted.json()["type"] == 1 and accepted.json()["is_spam_request"] is False
        await dave.close()
    asyncio.run(scenario())
