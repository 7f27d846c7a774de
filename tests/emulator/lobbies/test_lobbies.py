"""Lobbies over real HTTP: create-or-join by secret, bot administration, bulk members (all or
nothing), leaving, the linked channel, the idle timeout on the emulator clock, and who hears what."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
from emulator_world import authorize_params, pkce_pair, redirect_query
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOB, CAROL, DAVE, GatewayClient, api, bot, sdk_session, user_token

GENERAL, MODERATORS = 1200000000000000101, 1200000000000000102


def run(coro):
    return asyncio.run(coro)


def test_put_creates_then_joins_by_secret_and_only_members_hear(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        alice, bob, dave = [await sdk_session(emu, u) for u in (ALICE, BOB, DAVE)]
        with api(emu, user_token(emu, ALICE)) as http:
            created = http.put("/lobbies", json={"secret": "s3cret", "lobby_metadata": {"mode": "ctf"},
                                                 "member_metadata": {"team": "red"}, "idle_timeout_seconds": 60})
        assert created.status_code == 200
        lobby = created.json()
        assert lobby["application_id"] == str(APP_ID) and lobby["metadata"] == {"mode": "ctf"}
        assert lobby["members"] == [{"id": str(ALICE), "metadata": {"team": "red"}, "flags": 0}]
        assert (await alice.dispatch("LOBBY_CREATE"))["d"]["id"] == lobby["id"]
        assert emu.state.db.query_one("SELECT secret FROM lobbies")[0] not in (None, "s3cret")  # a digest
        with api(emu, user_token(emu, BOB)) as http:
            joined = http.put("/lobbies", json={"secret": "s3cret", "lobby_metadata": {"mode": "ignored"}}).json()
        assert joined["id"] == lobby["id"] and joined["metadata"] == {"mode": "ctf"}
        assert [m["id"] for m in joined["members"]] == [str(ALICE), str(BOB)]
        added = await alice.dispatch("LOBBY_MEMBER_ADD")
        assert added["d"] == {"lobby_id": lobby["id"], "member": {"id": str(BOB), "metadata": None, "flags": 0}}
        assert (await bob.dispatch("LOBBY_CREATE"))["d"]["id"] == lobby["id"]
        await dave.no_dispatch("LOBBY_CREATE")
        await dave.no_dispatch("LOBBY_MEMBER_ADD")
        for client in (alice, bob, dave):
            await client.close()

    run(scenario())


def test_put_validation_and_auth(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        missing = http.put("/lobbies", json={})
        assert missing.status_code == 400 and missing.json()["code"] == 50035
        assert "secret" in missing.json()["errors"]
        long = http.put("/lobbies", json={"secret": "x" * 251})
        assert "secret" in long.json()["errors"]
        # additional_name is server-side only: from a Bearer client it is ignored, as fields a route
        # does not take are.
        named = http.put("/lobbies", json={"secret": "a", "additional_name": "Boss"})
        assert named.status_code == 200 and "Boss" not in named.text
        timeout = http.put("/lobbies", json={"secret": "a", "idle_timeout_seconds": 4})
        assert "idle_timeout_seconds" in timeout.json()["errors"]
        assert http.put("/lobbies", content=b"{nope").json()["code"] == 50109
    with bot(emu) as http:
        assert http.put("/lobbies", json={"secret": "a"}).status_code == 401
    with api(emu, user_token(emu, ALICE, scopes="openid sdk.social_layer_presence")) as http:
        refused = http.put("/lobbies", json={"secret": "a"})
        assert refused.status_code == 403 and refused.json()["code"] == 50001
    assert httpx.put(f"{emu.api_base}/lobbies", json={"secret": "a"}).status_code == 401
    # Nothing was created by any refused request: the one lobby is the accepted one (secret "a").
    assert emu.state.db.query_one("SELECT COUNT(*) FROM lobbies")[0] == 1


def test_bot_administration_and_dispatches(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        alice, carol = await sdk_session(emu, ALICE), await sdk_session(emu, CAROL)
        with bot(emu) as http:
            lobby = http.post("/lobbies", json={"metadata": {"map": "dust"}, "members": [
                {"id": str(ALICE), "metadata": {"seat": "1"}, "flags": 1}]}).json()
            assert lobby["members"] == [{"id": str(ALICE), "metadata": {"seat": "1"}, "flags": 1}]
            assert (await alice.dispatch("LOBBY_CREATE"))["d"]["id"] == lobby["id"]
            assert http.get(f"/lobbies/{lobby['id']}").json() == lobby
            patched = http.patch(f"/lobbies/{lobby['id']}", json={"metadata": {"map": "nuke"}}).json()
            assert patched["metadata"] == {"map": "nuke"}
            assert (await alice.dispatch("LOBBY_UPDATE"))["d"]["metadata"] == {"map": "nuke"}
            member = http.put(f"/lobbies/{lobby['id']}/members/{BOB}",
                              json={"additional_name": "Bobby", "metadata": {"seat": "2"}}).json()
            assert member == {"id": str(BOB), "metadata": {"seat": "2"}, "flags": 0, "additional_name": "Bobby"}
            assert (await alice.dispatch("LOBBY_MEMBER_ADD"))["d"]["member"]["additional_name"] == "Bobby"
            bad = http.put(f"/lobbies/{lobby['id']}/members/{BOB}", json={"additional_name": "x" * 81})
            assert "additional_name" in bad.json()["errors"]
            assert http.put(f"/lobbies/{lobby['id']}/members/42", json={}).json()["code"] == 10013
            assert http.delete(f"/lobbies/{lobby['id']}").status_code == 204
            assert (await alice.dispatch("LOBBY_DELETE"))["d"] == {"id": lobby["id"], "reason": "deleted"}
            gone = http.get(f"/lobbies/{lobby['id']}")
            assert gone.status_code == 404 and gone.json()["code"] == 10031
        await carol.no_dispatch("LOBBY_DELETE")
        with api(emu, user_token(emu, ALICE)) as http:
            assert http.post("/lobbies", json={}).status_code == 401  # creating by POST is for bots
        await alice.close()
        await carol.close()

    run(scenario())


def test_bulk_is_all_or_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()
        url = f"/lobbies/{lobby['id']}/members/bulk"
        too_many = http.post(url, json=[{"id": str(ALICE), "metadata": {"n": str(i)}} for i in range(26)])
        assert too_many.status_code == 400 and too_many.json()["code"] == 50035
        assert "members" in too_many.json()["errors"]
        one_bad = http.post(url, json=[{"id": str(BOB)}, {"id": "77"}, {"id": str(ALICE), "remove_member": True}])
        assert one_bad.status_code == 400 and one_bad.json()["errors"]["members"]["1"]["id"]
        assert [m["id"] for m in http.get(f"/lobbies/{lobby['id']}").json()["members"]] == [str(ALICE)]
        bad_field = http.post(url, json={"members": [{"id": str(BOB), "flags": 2}]})
        assert "flags" in bad_field.json()["errors"]["members"]["0"]
        ok = http.post(url, json=[{"id": str(BOB), "additional_name": "B"}, {"id": str(CAROL)},
                                  {"id": str(ALICE), "remove_member": True}])
        assert ok.status_code == 200
        members = http.get(f"/lobbies/{lobby['id']}").json()["members"]
        assert sorted(m["id"] for m in members) == sorted([str(BOB), str(CAROL)])
        assert http.post(url, json=[]).status_code == 400


def test_bulk_accepts_exactly_25(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with emu.state.db.transaction() as conn:
        for n in range(25):
            conn.execute("INSERT INTO users (id, username, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                         (1300000000000000000 + n, f"player{n}"))
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={}).json()
        body = [{"id": str(1300000000000000000 + n)} for n in range(25)]
        assert http.post(f"/lobbies/{lobby['id']}/members/bulk", json=body).status_code == 200
        assert len(http.get(f"/lobbies/{lobby['id']}").json()["members"]) == 25


def test_leave_with_members_me(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        alice = await sdk_session(emu, ALICE)
        with bot(emu) as http:
            lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}, {"id": str(BOB)}]}).json()
        with api(emu, user_token(emu, BOB)) as http:
            assert http.delete(f"/lobbies/{lobby['id']}/members/@me").status_code == 204
            again = http.delete(f"/lobbies/{lobby['id']}/members/@me")
            assert again.status_code == 204   # leaving is safe to repeat, as on the platform
        removed = await alice.dispatch("LOBBY_MEMBER_REMOVE")
        assert removed["d"]["lobby_id"] == lobby["id"] and removed["d"]["member"]["id"] == str(BOB)
        with bot(emu) as http:
            assert http.delete(f"/lobbies/{lobby['id']}/members/@me").status_code == 401
        await alice.close()

    run(scenario())


def test_linked_channel_needs_can_link_lobby_and_view(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE), "flags": 1}, {"id": str(BOB)},
                                                        {"id": str(CAROL), "flags": 1}]}).json()
    url = f"/lobbies/{lobby['id']}/channel-linking"
    with api(emu, user_token(emu, BOB)) as http:
        refused = http.patch(url, json={"channel_id": str(GENERAL)})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
    with api(emu, user_token(emu, CAROL)) as http:  # CanLinkLobby, but cannot view #moderators
        assert http.patch(url, json={"channel_id": str(MODERATORS)}).status_code == 403
    with api(emu, user_token(emu, ALICE)) as http:
        linked = http.patch(url, json={"channel_id": str(GENERAL)}).json()
        assert linked["linked_channel"]["id"] == str(GENERAL)
        assert "linked_channel" not in http.patch(url, json={"channel_id": None}).json()
        assert http.patch(url, json={"channel_id": "12"}).json()["code"] == 10003


def test_idle_lobby_is_deleted_after_its_timeout_on_the_emulator_clock(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        with bot(emu) as http:
            idle = http.post("/lobbies", json={"idle_timeout_seconds": 30, "members": [{"id": str(BOB)}]}).json()
            busy = http.post("/lobbies", json={"idle_timeout_seconds": 30, "members": [{"id": str(ALICE)}]}).json()
            alice = await sdk_session(emu, ALICE)  # a connected member keeps ``busy`` alive
            await asyncio.sleep(0.1)
            now = emu.state.clock.now()
            assert http.get(f"/lobbies/{idle['id']}").status_code == 200
            moved = httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": (now + timedelta(seconds=31)).isoformat()})
            assert moved.status_code == 200, moved.text
            assert http.get(f"/lobbies/{idle['id']}").json()["code"] == 10031
            assert http.get(f"/lobbies/{busy['id']}").status_code == 200
        await alice.close()

    run(scenario())


def test_other_application_or_unknown_lobby_is_10031(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        assert http.get("/lobbies/123456789").json()["code"] == 10031
        assert http.get("/lobbies/not-a-number").json()["code"] == 50035
    with api(emu, user_token(emu, DAVE)) as http:
        with bot(emu) as admin:
            lobby = admin.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()
        assert http.get(f"/lobbies/{lobby['id']}").status_code == 403  # not a member


def test_gateway_ready_lists_the_users_lobbies(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        ready = await client.identify(user_token(emu, ALICE))
        assert [entry["id"] for entry in ready["d"]["lobbies"]] == [lobby["id"]]
        await client.close()

    run(scenario())


def test_merging_a_provisional_account_moves_its_lobbies_and_messages(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as admin:
        issued = admin.post("/partner-sdk/token/bot", json={"external_user_id": "player-7"}).json()
    provisional = issued["access_token"]
    with api(emu, provisional) as player:
        provisional_id = player.get("/users/@me").json()["id"]
        lobby = player.put("/lobbies", json={"secret": "merge-me"}).json()
        assert player.post(f"/lobbies/{lobby['id']}/messages", json={"content": "before"}).status_code == 201
    verifier, challenge = pkce_pair()
    http = httpx.Client(base_url=emu.base_url)
    consent = http.get("/oauth2/authorize", params=authorize_params(
        "sdk.social_layer", challenge, redirect_uri="http://127.0.0.1/callback", emulator_user="dave",
        emulator_consent="allow"))
    code = redirect_query(consent.headers["location"])["code"]
    merged = http.post("/api/v10/oauth2/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1/callback",
        "code_verifier": verifier, "client_id": str(APP_ID), "external_auth_type": "BOT_ISSUED_ACCESS_TOKEN",
        "external_auth_token": provisional})
    http.close()
    assert merged.status_code == 200, merged.text
    with api(emu, merged.json()["access_token"]) as dave:
        members = dave.get(f"/lobbies/{lobby['id']}").json()["members"]
        assert [m["id"] for m in members] == [str(DAVE)]
        [message] = dave.get(f"/lobbies/{lobby['id']}/messages").json()
        assert message["author"]["id"] == str(DAVE) and message["content"] == "before"
    assert provisional_id != str(DAVE)
