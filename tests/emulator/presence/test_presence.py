"""Presence: rich presence set and cleared by SDK users, who hears it (friends, bots with
GUILD_PRESENCES in a shared guild), and the seed's privacy rule for bots' PRESENCE_UPDATE."""

from __future__ import annotations

import asyncio

from platformpp.emulator import Emulator
from social_helpers import (
    ALICE,
    APP_ID,
    BOB,
    BOT_TOKEN,
    CAROL,
    DAVE,
    GUILD_ID,
    GatewayClient,
    api,
    sdk_session,
    user_token,
)

GUILDS, GUILD_PRESENCES = 1 << 0, 1 << 8
PLAYING = {"name": "Demo Game", "type": 0, "state": "In a match", "details": "Ranked",
           "timestamps": {"start": 1700000000000}, "party": {"id": "p1", "size": [1, 4]},
           "secrets": {"join": "join-secret"},
           "assets": {"large_image": "map_dust", "invite_cover_image": "https://example.test/cover.png"}}
CUSTOM = {"name": "Custom Status", "type": 4, "state": "brb"}


def _enable_presence_intent(emu: Emulator) -> None:
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 12, APP_ID))


async def _bot(emu: Emulator, intents: int = GUILDS | GUILD_PRESENCES) -> GatewayClient:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents)
    await client.dispatch("GUILD_CREATE")
    return client


def _set(emu: Emulator, user: int, *activities: dict) -> None:
    with api(emu, user_token(emu, user)) as http:
        for activity in activities:
            response = http.put("/users/@me/activity", json=activity)
            assert response.status_code == 200, response.text


async def _presence_types(bot: GatewayClient, user: int) -> list[int]:
    """Activity types of the next (online) PRESENCE_UPDATE about ``user``."""
    while True:
        update = await bot.dispatch("PRESENCE_UPDATE")
        if update["d"]["user"]["id"] == str(user) and update["d"]["status"] != "offline":
            assert update["d"]["guild_id"] == str(GUILD_ID)
            return [a["type"] for a in update["d"]["activities"]]


def _grow_guild(emu: Emulator, members: int) -> None:
    """Add users to the default guild (5 members) until it has ``members``."""
    with emu.state.db.transaction() as conn:
        for n in range(members - 5):
            user_id = 1300000000000000000 + n
            conn.execute("INSERT INTO users (id, username, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                         (user_id, f"fan{n}"))
            conn.execute("INSERT INTO members (guild_id, user_id, joined_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                         (GUILD_ID, user_id))


async def _check_privacy(emu: Emulator, expected: dict[int, list[list[int]]]) -> None:
    """Each user sets a custom status, then a game activity: two PRESENCE_UPDATEs the bot sees."""
    bot = await _bot(emu)
    for user, updates in expected.items():
        _set(emu, user, CUSTOM, PLAYING)
        assert [await _presence_types(bot, user), await _presence_types(bot, user)] == updates, user
    await bot.close()


def test_privacy_rule_in_a_small_guild(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    _enable_presence_intent(emu)
    # alice: everyone; bob: friends_only; carol: friends_and_small_servers (a guild of 5 members).
    asyncio.run(_check_privacy(emu, {ALICE: [[4], [4, 0]], BOB: [[], [0]], CAROL: [[4], [4, 0]]}))


def test_privacy_rule_in_a_guild_of_more_than_200(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    _enable_presence_intent(emu)
    _grow_guild(emu, 201)
    asyncio.run(_check_privacy(emu, {CAROL: [[], [0]], ALICE: [[4], [4, 0]], BOB: [[], [0]]}))


def test_exactly_200_members_is_still_small(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    _enable_presence_intent(emu)
    _grow_guild(emu, 200)
    asyncio.run(_check_privacy(emu, {CAROL: [[4], [4, 0]]}))


def test_bots_without_the_intent_and_non_friends_hear_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bot = await _bot(emu, intents=GUILDS)
        dave = await sdk_session(emu, DAVE)
        _set(emu, ALICE, PLAYING)
        await bot.no_dispatch("PRESENCE_UPDATE")
        await dave.no_dispatch("PRESENCE_UPDATE")
        await bot.close()
        await dave.close()

    asyncio.run(scenario())


def test_friends_hear_presence_with_custom_status_and_offline(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    alice_token = user_token(emu, ALICE)
    with api(emu, alice_token) as http:
        http.put(f"/users/@me/relationships/{BOB}")
    with api(emu, user_token(emu, BOB)) as http:
        assert http.put(f"/users/@me/relationships/{ALICE}").json()["type"] == 1

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        alice = await GatewayClient.connect(emu)
        await alice.identify(alice_token)
        online = await bob.dispatch("PRESENCE_UPDATE")
        assert online["d"]["user"]["id"] == str(ALICE) and online["d"]["status"] == "online"
        assert "guild_id" not in online["d"]
        _set(emu, ALICE, CUSTOM)
        update = await bob.dispatch("PRESENCE_UPDATE")
        assert update["d"]["activities"] == [CUSTOM]  # friends see the custom status whatever the privacy
        _set(emu, ALICE, PLAYING)
        update = await bob.dispatch("PRESENCE_UPDATE")
        game = update["d"]["activities"][1]
        assert game["assets"]["invite_cover_image"] == "https://example.test/cover.png"
        assert game["application_id"] == str(APP_ID)
        with api(emu, user_token(emu, BOB)) as http:
            assert http.get(f"/users/{ALICE}/presence").json()["status"] == "online"
        await alice.ws.close(1000)
        offline = await bob.dispatch("PRESENCE_UPDATE")
        assert offline["d"]["status"] == "offline" and offline["d"]["activities"] == []
        await bob.close()

    asyncio.run(scenario())


def test_activity_validation_and_clearing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        assert "name" in http.put("/users/@me/activity", json={"type": 0}).json()["errors"]
        assert "type" in http.put("/users/@me/activity", json={"name": "x", "type": 7}).json()["errors"]
        bad_party = http.put("/users/@me/activity", json={"name": "x", "type": 0, "party": {"size": [5, 4]}})
        assert "size" in bad_party.json()["errors"]["party"]
        assert http.put("/users/@me/activity", json={"name": "x" * 129, "type": 0}).status_code == 400
        assert http.get("/users/@me/presence").json()["activities"] == []
        assert http.put("/users/@me/activity", json=PLAYING).status_code == 200
        assert http.get("/users/@me/presence").json()["activities"][0]["state"] == "In a match"
        # A field the route does not know is ignored, as the platform ignores it.
        extra = {**PLAYING, "assets": {**PLAYING["assets"], "huge_image": "a"}}
        assert http.put("/users/@me/activity", json=extra).status_code == 200
        assert "huge_image" not in http.get("/users/@me/presence").json()["activities"][0]["assets"]
        assert http.delete("/users/@me/activity").status_code == 204
        assert http.get("/users/@me/presence").json()["activities"] == []
        assert http.get(f"/users/{DAVE}/presence").status_code == 403  # not a friend
    with api(emu, user_token(emu, ALICE, scopes="openid identify")) as http:
        assert http.put("/users/@me/activity", json=PLAYING).status_code == 403


def test_gateway_presence_update_op3(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        http.put(f"/users/@me/relationships/{BOB}")
    with api(emu, user_token(emu, BOB)) as http:
        http.put(f"/users/@me/relationships/{ALICE}")

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        alice = await sdk_session(emu, ALICE)
        await bob.dispatch("PRESENCE_UPDATE")  # alice came online
        await alice.send({"op": 3, "d": {"since": None, "status": "dnd", "afk": False, "activities": [CUSTOM]}})
        update = await bob.dispatch("PRESENCE_UPDATE")
        assert update["d"]["status"] == "dnd" and update["d"]["activities"] == [CUSTOM]
        await alice.send({"op": 3, "d": {"status": "sleeping", "afk": False, "activities": []}})
        assert await alice.close_code() == 4002
        await bob.close()

    asyncio.run(scenario())



def test_activity_buttons_are_kept_and_validated(platformpp_emulator: Emulator) -> None:
    buttons = [{"label": "Join", "url": "https://example.test/join"}, {"label": "Watch", "url": "https://example.test/w"}]
    with api(platformpp_emulator, user_token(platformpp_emulator, ALICE)) as http:
        ok = http.put("/users/@me/activity", json={"name": "Demo Game", "type": 0, "buttons": buttons})
        assert ok.status_code // 100 == 2, ok.text
        assert http.get("/users/@me/presence").json()["activities"][0]["buttons"] == buttons
        too_many = http.put("/users/@me/activity", json={"name": "Demo Game", "type": 0, "buttons": buttons * 2})
        assert too_many.status_code == 400 and too_many.json()["code"] == 50035
        assert "buttons" in too_many.json()["errors"]
        empty_label = http.put("/users/@me/activity",
                               json={"name": "Demo Game", "type": 0, "buttons": [{"label": "", "url": "https://x.test"}]})
        assert empty_label.status_code == 400 and "buttons" in empty_label.json()["errors"]
        # Nothing of a refused request was applied.
        assert http.get("/users/@me/presence").json()["activities"][0]["buttons"] == buttons


def test_sdk_1_10_activity_fields_are_kept_and_validated(platformpp_emulator: Emulator) -> None:
    """StateUrl, DetailsUrl, StatusDisplayType, ParentApplicationId, SupportedPlatforms, assets'
    large_url/small_url, party privacy, and the HangStatus type (6)."""
    full = {"name": "Demo Game", "type": 6, "state": "Chilling", "state_url": "https://example.test/s",
            "details": "Lobby", "details_url": "https://example.test/d", "status_display_type": 2,
            "parent_application_id": "1000000000000000009", "supported_platforms": 1 | 8 | 128,
            "party": {"id": "p", "size": [1, 2], "privacy": 1},
            "assets": {"large_image": "a", "large_url": "https://example.test/l", "small_url": "https://example.test/m"}}
    with api(platformpp_emulator, user_token(platformpp_emulator, ALICE)) as http:
        ok = http.put("/users/@me/activity", json=full)
        assert ok.status_code == 200, ok.text
        shown = http.get("/users/@me/presence").json()["activities"][0]
        assert {k: shown[k] for k in full if k != "party"} == {k: v for k, v in full.items() if k != "party"}
        assert shown["party"]["privacy"] == 1
        for field, value in (("status_display_type", 3), ("supported_platforms", 256), ("state_url", "x" * 513),
                             ("parent_application_id", "nope")):
            bad = http.put("/users/@me/activity", json={**full, field: value})
            assert bad.status_code == 400 and field in bad.json()["errors"], (field, bad.text)
        bad_privacy = http.put("/users/@me/activity", json={**full, "party": {"privacy": 2}})
        assert "privacy" in bad_privacy.json()["errors"]["party"]
        assert http.get("/users/@me/presence").json()["activities"][0]["state"] == "Chilling"   # left intact


def test_chosen_online_status_is_announced_to_friends(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        http.put(f"/users/@me/relationships/{BOB}")
    with api(emu, user_token(emu, BOB)) as http:
        http.put(f"/users/@me/relationships/{ALICE}")

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, user_token(emu, ALICE)) as http:
            assert http.patch("/users/@me/settings", json={"status": "dnd"}).json() == {"status": "dnd"}
            assert (await bob.dispatch("PRESENCE_UPDATE"))["d"]["status"] == "dnd"
            assert http.patch("/users/@me/settings", json={"status": "invisible"}).status_code == 200
            assert (await bob.dispatch("PRESENCE_UPDATE"))["d"]["status"] == "offline"   # invisible looks offline
            bad = http.patch("/users/@me/settings", json={"status": "sleeping"})
            assert bad.status_code == 400 and "status" in bad.json()["errors"]
            row = emu.state.db.query_one("SELECT status FROM presences WHERE user_id = ?", (ALICE,))
            assert row is not None and row["status"] == "invisible"      # stored as chosen, left intact
        await bob.close()
    asyncio.run(scenario())


def test_activity_invites_and_join_requests_between_friends(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as http:
        http.put(f"/users/@me/relationships/{BOB}")
    with api(emu, user_token(emu, BOB)) as http:
        http.put(f"/users/@me/relationships/{ALICE}")

    async def scenario() -> None:
        bob = await sdk_session(emu, BOB)
        with api(emu, user_token(emu, ALICE)) as alice, api(emu, user_token(emu, BOB)) as bob_http:
            no_party = alice.post("/users/@me/activity-invites", json={"user_id": str(BOB), "type": 1})
            assert no_party.status_code == 400 and "party" in no_party.json()["message"]
            assert alice.put("/users/@me/activity", json=PLAYING).status_code == 200
            sent = alice.post("/users/@me/activity-invites", json={"user_id": str(BOB), "type": 1, "content": "gg"})
            assert sent.status_code == 200, sent.text
            created = await bob.dispatch("ACTIVITY_INVITE_CREATE")
            assert created["d"] == sent.json()
            assert created["d"]["sender_id"] == str(ALICE) and created["d"]["party_id"] == "p1"
            assert created["d"]["is_valid"] is True and created["d"]["type"] == 1
            message = created["d"]["message_id"]
            assert alice.post(f"/users/@me/activity-invites/{message}/accept").status_code == 404   # not hers
            accepted = bob_http.post(f"/users/@me/activity-invites/{message}/accept")
            assert accepted.json() == {"join_secret": "join-secret"}
            # Alice leaves the party: the invite turns invalid when bob tries it again.
            assert alice.delete("/users/@me/activity").status_code == 204
            stale = bob_http.post(f"/users/@me/activity-invites/{message}/accept")
            assert stale.status_code == 400 and "no longer valid" in stale.json()["message"]
            updated = await bob.dispatch("ACTIVITY_INVITE_UPDATE")
            assert updated["d"]["message_id"] == message and updated["d"]["is_valid"] is False
            # A join request to bob needs a party of his; then it reaches him as type 5.
            assert alice.post("/users/@me/activity-invites", json={"user_id": str(BOB), "type": 5}).status_code == 400
            assert alice.post("/users/@me/activity-invites",
                              json={"user_id": str(DAVE), "type": 1}).status_code == 403   # not a friend
            bad = alice.post("/users/@me/activity-invites", json={"user_id": str(BOB), "type": 3})
            assert bad.status_code == 400 and "type" in bad.json()["errors"]
        await bob.close()
    asyncio.run(scenario())
