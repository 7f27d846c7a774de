"""GET /users/@me/messages/summaries: the caller's game direct message conversations, each with the
other participant and its newest message, newest conversation first (the SDK's GetUserMessageSummaries)."""

from __future__ import annotations

from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, CAROL, DAVE, api, user_token


def test_summaries_list_each_conversation_with_its_newest_message(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    tokens = {user: user_token(emu, user) for user in (ALICE, BOB, CAROL, DAVE)}
    with api(emu, tokens[ALICE]) as alice:
        assert alice.get("/users/@me/messages/summaries").json() == []
        alice.post(f"/users/{BOB}/messages", json={"content": "one"}).raise_for_status()
        to_carol = alice.post(f"/users/{CAROL}/messages", json={"content": "two"}).json()
    with api(emu, tokens[BOB]) as bob:
        newest_with_bob = bob.post(f"/users/{ALICE}/messages", json={"content": "three"}).json()
        assert bob.get("/users/@me/messages/summaries").json() == [
            {"user_id": str(ALICE), "last_message_id": newest_with_bob["id"]}]
    with api(emu, tokens[DAVE]) as dave:  # in no conversation of alice's
        assert dave.get("/users/@me/messages/summaries").json() == []
    with api(emu, tokens[ALICE]) as alice:
        assert alice.get("/users/@me/messages/summaries").json() == [
            {"user_id": str(BOB), "last_message_id": newest_with_bob["id"]},
            {"user_id": str(CAROL), "last_message_id": to_carol["id"]},
        ]
        assert api(emu, None).get("/users/@me/messages/summaries").status_code == 401
