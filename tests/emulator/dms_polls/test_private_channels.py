"""DMs and group DMs of a bot: POST /users/@me/channels (a DM with recipient_id, a group DM from
users' access tokens with nicks), adding and removing recipients, and the CHANNEL_CREATE /
CHANNEL_RECIPIENT_ADD / CHANNEL_RECIPIENT_REMOVE dispatches over real WebSockets."""

from __future__ import annotations

import asyncio

from platformpp.emulator import Emulator
from social_helpers import (ALICE, APP_ID, BOB, BOT_ID, BOT_TOKEN, CAROL, DAVE, GatewayClient, api, bot,
                            sdk_session, user_token)

GDM = "openid sdk.social_layer gdm.join"


def test_a_bot_opens_one_dm_per_user(emu: Emulator) -> None:
    with bot(emu) as http:
        first = http.post("/users/@me/channels", json={"recipient_id": str(ALICE)})
        assert first.status_code == 200
        dm = first.json()
        assert dm["type"] == 1 and [u["id"] for u in dm["recipients"]] == [str(ALICE)]
        again = http.post("/users/@me/channels", json={"recipient_id": int(ALICE), "unknown": 1}).json()
        assert again["id"] == dm["id"]
        assert http.get(f"/channels/{dm['id']}").json() == dm
        unknown = http.post("/users/@me/channels", json={"recipient_id": "42"})
        assert unknown.status_code == 404 and unknown.json()["code"] == 10013
        assert http.post("/users/@me/channels", json={"recipient_id": str(BOT_ID)}).json()["code"] == 10013
        bad = http.post("/users/@me/channels", json={"recipient_id": "alice"})
        assert bad.status_code == 400 and "recipient_id" in bad.json()["errors"]
        assert "recipient_id" in http.post("/users/@me/channels", json={}).json()["errors"]
    count = emu.state.db.query_one("SELECT COUNT(*) FROM channels WHERE type = 1")[0]
    assert count == 1


def test_group_dm_from_access_tokens(emu: Emulator) -> None:
    alice, bob = user_token(emu, ALICE, GDM), user_token(emu, BOB, GDM)
    no_scope = user_token(emu, CAROL, "identify")

    async def scenario() -> None:
        alice_session = await sdk_session(emu, ALICE)
        bot_session = await GatewayClient.connect(emu)
        await bot_session.identify(BOT_TOKEN, intents=1)

        def create() -> dict:
            with bot(emu) as http:
                refused = http.post("/users/@me/channels", json={"access_tokens": [alice, no_scope, "nope"]})
                assert refused.status_code == 400
                assert set(refused.json()["errors"]["access_tokens"]) == {"1", "2"}
                assert no_scope not in refused.text
                made = http.post("/users/@me/channels", json={"access_tokens": [alice, bob],
                                                                "nicks": {str(ALICE): "Al", str(BOB): None}})
                assert made.status_code == 200
                return made.json()

        group = await asyncio.to_thread(create)
        assert group["type"] == 3 and group["owner_id"] == str(BOT_ID) and group["application_id"] == str(APP_ID)
        assert sorted(u["id"] for u in group["recipients"]) == sorted([str(ALICE), str(BOB)])
        heard = (await alice_session.dispatch("CHANNEL_CREATE"))["d"]
        assert heard["id"] == group["id"] and str(ALICE) not in [u["id"] for u in heard["recipients"]]
        assert (await bot_session.dispatch("CHANNEL_CREATE"))["d"]["id"] == group["id"]
        nick = emu.state.db.query_one("SELECT nick FROM channel_recipients WHERE user_id = ? AND channel_id = ?",
                                      (ALICE, int(group["id"])))[0]
        assert nick == "Al"
        for client in (alice_session, bot_session):
            await client.close()

    asyncio.run(scenario())
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channels WHERE type = 3 AND application_id = ?",
                                  (APP_ID,))[0] == 1


def test_recipients_added_and_removed(emu: Emulator) -> None:
    alice, carol = user_token(emu, ALICE, GDM), user_token(emu, CAROL, GDM)

    async def scenario() -> None:
        with bot(emu) as http:
            group = http.post("/users/@me/channels", json={"access_tokens": [alice]}).json()
            dm = http.post("/users/@me/channels", json={"recipient_id": str(BOB)}).json()
        alice_session, carol_session = await sdk_session(emu, ALICE), await sdk_session(emu, CAROL)
        url = f"/channels/{group['id']}/recipients/{CAROL}"

        def add() -> None:
            with bot(emu) as http:
                wrong = http.put(url, json={"access_token": alice})
                assert wrong.status_code == 400 and "access_token" in wrong.json()["errors"]
                assert http.put(url, json={"access_token": carol, "nick": "x" * 33}).json()["errors"]["nick"]
                assert http.put(f"/channels/{dm['id']}/recipients/{CAROL}",
                                json={"access_token": carol}).json()["code"] == 50003
                assert http.put(f"/channels/1/recipients/{CAROL}", json={"access_token": carol}).json()["code"] == 10003
                added = http.put(url, json={"access_token": carol, "nick": "Caz"})
                assert added.status_code == 201 and str(CAROL) in [u["id"] for u in added.json()["recipients"]]
                assert http.put(url, json={"access_token": carol}).status_code == 204

        await asyncio.to_thread(add)
        event = (await alice_session.dispatch("CHANNEL_RECIPIENT_ADD"))["d"]
        assert event == {"channel_id": group["id"], "user": event["user"], "nick": "Caz"}
        assert event["user"]["id"] == str(CAROL)
        assert (await carol_session.dispatch("CHANNEL_CREATE"))["d"]["id"] == group["id"]

        def remove() -> None:
            with bot(emu) as http:
                assert http.delete(url).status_code == 204
                assert http.delete(url).json()["code"] == 10013
                assert http.delete(f"/channels/{group['id']}/recipients/{DAVE}").json()["code"] == 10013

        await asyncio.to_thread(remove)
        removed = (await alice_session.dispatch("CHANNEL_RECIPIENT_REMOVE"))["d"]
        assert removed["channel_id"] == group["id"] and removed["user"]["id"] == str(CAROL)
        assert (await carol_session.dispatch("CHANNEL_DELETE"))["d"]["id"] == group["id"]
        await carol_session.no_dispatch("CHANNEL_RECIPIENT_REMOVE")
        for client in (alice_session, carol_session):
            await client.close()

    asyncio.run(scenario())


def test_dm_moderation_metadata_by_the_two_users(emu: Emulator) -> None:
    """The partner-sdk twin of the lobby route: either order of the two users, 204, both hear
    DM_MESSAGE_UPDATE; another pair's path does not reach the message."""
    alice, _ = user_token(emu, ALICE), user_token(emu, BOB)

    async def scenario() -> None:
        bob_session = await sdk_session(emu, BOB)

        def post_and_moderate() -> str:
            with api(emu, alice) as http:
                message = http.post(f"/users/{BOB}/messages", json={"content": "hey"}).json()
            with bot(emu) as http:
                for first, second in ((ALICE, BOB), (BOB, ALICE)):
                    url = f"/partner-sdk/dms/{first}/{second}/messages/{message['id']}/moderation-metadata"
                    answer = http.put(url, json={"verdict": f"{first}"})
                    assert answer.status_code == 204 and answer.content == b""
                other = http.put(f"/partner-sdk/dms/{ALICE}/{CAROL}/messages/{message['id']}/moderation-metadata",
                                 json={"verdict": "x"})
                assert other.json()["code"] == 10008
                bad = http.put(f"/partner-sdk/dms/{ALICE}/{BOB}/messages/{message['id']}/moderation-metadata",
                               json={"verdict": 1})
                assert bad.status_code == 400 and bad.json()["code"] == 50035   # stored value unchanged below
            return str(message["id"])

        message_id = await asyncio.to_thread(post_and_moderate)
        await bob_session.dispatch("DM_MESSAGE_CREATE")
        assert (await bob_session.dispatch("DM_MESSAGE_UPDATE"))["d"]["moderation_metadata"] == {"verdict": str(ALICE)}
        updated = (await bob_session.dispatch("DM_MESSAGE_UPDATE"))["d"]
        assert updated["id"] == message_id and updated["moderation_metadata"] == {"verdict": str(BOB)}
        await bob_session.close()

    asyncio.run(scenario())
    stored = emu.state.db.query_one("SELECT moderation_metadata FROM dm_messages")[0]
    assert stored == '{"verdict": "' + str(BOB) + '"}'
