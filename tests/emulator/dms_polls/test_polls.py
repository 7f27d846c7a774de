"""Polls of channel messages: users vote (admin API) and take votes back, the voters of an answer with
paging, counts with me_voted, edits refused, bad polls refused naming the field, the end of a poll at
its expiry on the emulator clock and early by its author (the results final, the poll result message
of type 46), and MESSAGE_POLL_VOTE_ADD / REMOVE over real WebSockets by GUILD_MESSAGE_POLLS."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import GENERAL, MODERATORS, Permission, grant_bot, set_clock, user_posts
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, GatewayClient, bot

GUILDS, GUILD_MESSAGES, GUILD_MESSAGE_POLLS = 1 << 0, 1 << 9, 1 << 24
POLL = {"question": {"text": "Which map?"}, "duration": 1,
        "answers": [{"poll_media": {"text": "Dust"}}, {"poll_media": {"text": "Nuke"}},
                    {"poll_media": {"text": "Inferno"}}]}


def _voter(emu: Emulator, method: str, message_id: str, answer_id: int, user_id: int,
           channel_id: int = GENERAL) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator/channels/{channel_id}/polls/{message_id}/answers/"
                         f"{answer_id}/voters/{user_id}", timeout=10)


def _post_poll(emu: Emulator, **poll: Any) -> dict[str, Any]:
    grant_bot(emu, Permission.SEND_POLLS)
    with bot(emu) as http:
        posted = http.post(f"/channels/{GENERAL}/messages", json={"poll": {**POLL, **poll}})
        assert posted.status_code == 200, posted.text
        return posted.json()


def test_votes_voters_and_counts(emu: Emulator) -> None:
    set_clock(emu, "2026-06-01T12:00:00+00:00")

    async def scenario() -> None:
        polls = await GatewayClient.connect(emu)
        await polls.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGE_POLLS)
        plain = await GatewayClient.connect(emu)
        await plain.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGES)

        def vote() -> dict[str, Any]:
            message = _post_poll(emu)
            assert message["poll"]["results"] == {"answer_counts": [], "is_finalized": False}
            assert message["poll"]["expiry"].startswith("2026-06-01T13:00:00")
            assert _voter(emu, "PUT", message["id"], 1, ALICE).status_code == 204
            assert _voter(emu, "PUT", message["id"], 1, ALICE).status_code == 204       # already there: no event
            assert _voter(emu, "PUT", message["id"], 2, ALICE).status_code == 204       # single choice: moves
            assert _voter(emu, "PUT", message["id"], 2, BOB).status_code == 204
            assert _voter(emu, "PUT", message["id"], 4, BOB).json()["code"] == 10008
            assert _voter(emu, "PUT", message["id"], 1, 42).json()["code"] == 10013
            return message

        message = await asyncio.to_thread(vote)
        events = [(await polls.dispatch(name))["d"] for name in
                  ("MESSAGE_POLL_VOTE_ADD", "MESSAGE_POLL_VOTE_REMOVE", "MESSAGE_POLL_VOTE_ADD", "MESSAGE_POLL_VOTE_ADD")]
        assert events[0] == {"user_id": str(ALICE), "channel_id": str(GENERAL), "message_id": message["id"],
                             "guild_id": message["guild_id"], "answer_id": 1}
        assert [(e["user_id"], e["answer_id"]) for e in events[1:]] == [(str(ALICE), 1), (str(ALICE), 2), (str(BOB), 2)]
        await plain.no_dispatch("MESSAGE_POLL_VOTE_ADD")

        def read() -> None:
            with bot(emu) as http:
                url = f"/channels/{GENERAL}/polls/{message['id']}/answers/2"
                assert [u["id"] for u in http.get(url).json()["users"]] == [str(ALICE), str(BOB)]
                assert [u["id"] for u in http.get(url, params={"limit": 1}).json()["users"]] == [str(ALICE)]
                assert [u["id"] for u in http.get(url, params={"after": str(ALICE)}).json()["users"]] == [str(BOB)]
                assert http.get(f"/channels/{GENERAL}/polls/{message['id']}/answers/1").json() == {"users": []}
                assert "limit" in http.get(url, params={"limit": 101}).json()["errors"]
                assert "after" in http.get(url, params={"after": "x"}).json()["errors"]
                assert http.get(f"/channels/{GENERAL}/polls/{message['id']}/answers/11").json()["code"] == 10008
                assert http.get(f"/channels/{GENERAL}/polls/1/answers/1").json()["code"] == 10008
                current = http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()
                assert current["poll"]["results"]["answer_counts"] == [{"id": 2, "count": 2, "me_voted": False}]
                assert _voter(emu, "DELETE", message["id"], 2, BOB).status_code == 204
                assert _voter(emu, "DELETE", message["id"], 2, BOB).status_code == 204   # none left: no event
                assert [u["id"] for u in http.get(url).json()["users"]] == [str(ALICE)]

        await asyncio.to_thread(read)
        removed = (await polls.dispatch("MESSAGE_POLL_VOTE_REMOVE"))["d"]
        assert (removed["user_id"], removed["answer_id"]) == (str(BOB), 2)
        await polls.no_dispatch("MESSAGE_POLL_VOTE_REMOVE")
        for client in (polls, plain):
            await client.close()

    asyncio.run(scenario())


def test_multiselect_and_a_user_who_cannot_see_the_channel(emu: Emulator) -> None:
    message = _post_poll(emu, allow_multiselect=True)
    for answer in (1, 3):
        assert _voter(emu, "PUT", message["id"], answer, ALICE).status_code == 204
    with bot(emu) as http:
        counts = http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()["poll"]["results"]["answer_counts"]
        assert [(c["id"], c["count"]) for c in counts] == [(1, 1), (3, 1)]
    assert emu.state.db.query_one("SELECT COUNT(*) FROM poll_votes")[0] == 2
    plain = user_posts(emu, GENERAL, ALICE, content="no poll here").json()
    assert _voter(emu, "PUT", plain["id"], 1, ALICE).json()["code"] == 520006


def test_bad_polls_and_edits_are_refused(emu: Emulator) -> None:
    message = _post_poll(emu)
    with bot(emu) as http:
        many = http.post(f"/channels/{GENERAL}/messages", json={"poll": {
            **POLL, "answers": [{"poll_media": {"text": str(n)}} for n in range(11)]}})
        assert many.status_code == 400 and "answers" in many.json()["errors"]["poll"]
        long = http.post(f"/channels/{GENERAL}/messages", json={"poll": {**POLL, "duration": 769}})
        assert long.status_code == 400 and "duration" in long.json()["errors"]["poll"]
        edited = http.patch(f"/channels/{GENERAL}/messages/{message['id']}", json={"content": "changed"})
        assert edited.status_code == 400 and edited.json()["code"] == 520003
        assert http.patch(f"/channels/{GENERAL}/messages/{message['id']}",
                          json={"poll": POLL}).json()["code"] == 520003
        assert http.get(f"/channels/{GENERAL}/messages/{message['id']}").json()["content"] == ""
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channel_messages WHERE poll IS NOT NULL")[0] == 1


def test_a_poll_ends_at_its_expiry_and_early(emu: Emulator) -> None:
    set_clock(emu, "2026-06-01T12:00:00+00:00")

    async def scenario() -> None:
        session = await GatewayClient.connect(emu)
        await session.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGES)

        def at_expiry() -> dict[str, Any]:
            message = _post_poll(emu)
            _voter(emu, "PUT", message["id"], 2, ALICE)
            _voter(emu, "PUT", message["id"], 2, BOB)
            _voter(emu, "PUT", message["id"], 3, BOT_ID)
            set_clock(emu, "2026-06-01T13:00:01+00:00")
            assert _voter(emu, "PUT", message["id"], 1, ALICE).json()["code"] == 520001
            return message

        message = await asyncio.to_thread(at_expiry)
        assert (await session.dispatch("MESSAGE_CREATE"))["d"]["id"] == message["id"]
        updated = (await session.dispatch("MESSAGE_UPDATE"))["d"]
        assert updated["id"] == message["id"] and updated["poll"]["results"]["is_finalized"] is True
        assert updated["poll"]["expiry"] == message["poll"]["expiry"]
        result = (await session.dispatch("MESSAGE_CREATE"))["d"]
        assert result["type"] == 46 and result["author"]["id"] == str(BOT_ID)
        assert result["message_reference"]["message_id"] == message["id"]
        fields = {f["name"]: f["value"] for f in result["embeds"][0]["fields"]}
        assert result["embeds"][0]["type"] == "poll_result"
        assert fields == {"poll_question_text": "Which map?", "victor_answer_votes": "2", "total_votes": "3",
                          "victor_answer_id": "2", "victor_answer_text": "Nuke"}

        def early() -> None:
            other = _post_poll(emu, duration=24)
            with bot(emu) as http:
                ended = http.post(f"/channels/{GENERAL}/polls/{other['id']}/expire")
                assert ended.status_code == 200
                assert ended.json()["poll"]["results"]["is_finalized"] is True
                assert ended.json()["poll"]["expiry"].startswith("2026-06-01T13:00:01")
                assert http.post(f"/channels/{GENERAL}/polls/{other['id']}/expire").json()["code"] == 520001
                theirs = user_posts(emu, GENERAL, ALICE, poll=POLL).json()
                assert http.post(f"/channels/{GENERAL}/polls/{theirs['id']}/expire").json()["code"] == 50005
                assert http.post(f"/channels/{GENERAL}/polls/{result['id']}/expire").json()["code"] == 520006
                assert http.post(f"/channels/{MODERATORS}/polls/{other['id']}/expire").status_code == 403
                history = http.get(f"/channels/{GENERAL}/messages", params={"limit": 2}).json()
                assert [m["type"] for m in history] == [0, 46]

        await asyncio.to_thread(early)
        await session.close()

    asyncio.run(scenario())


def test_a_poll_in_a_dm(emu: Emulator) -> None:
    """In a DM the recipients vote; bot recipients hear the votes by DIRECT_MESSAGE_POLLS (not by
    GUILD_MESSAGE_POLLS); the end and its result message happen in the DM."""
    set_clock(emu, "2026-06-01T12:00:00+00:00")
    direct_polls = 1 << 25

    async def scenario() -> None:
        dm_session = await GatewayClient.connect(emu)
        await dm_session.identify(BOT_TOKEN, intents=direct_polls | (1 << 12))
        guild_session = await GatewayClient.connect(emu)
        await guild_session.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGE_POLLS)

        def run() -> tuple[str, dict[str, Any]]:
            with bot(emu) as http:
                dm = http.post("/users/@me/channels", json={"recipient_id": str(ALICE)}).json()["id"]
                sent = http.post(f"/channels/{dm}/messages", json={"poll": POLL})
                assert sent.status_code == 200, sent.text
                message = sent.json()
                assert "guild_id" not in message and message["poll"]["results"]["is_finalized"] is False
                assert _voter(emu, "PUT", message["id"], 3, ALICE, channel_id=dm).status_code == 204
                assert _voter(emu, "PUT", message["id"], 3, BOB, channel_id=dm).json()["code"] == 50001
                voters = http.get(f"/channels/{dm}/polls/{message['id']}/answers/3").json()
                assert [u["id"] for u in voters["users"]] == [str(ALICE)]
                counts = http.get(f"/channels/{dm}/messages/{message['id']}").json()["poll"]["results"]
                assert counts["answer_counts"] == [{"id": 3, "count": 1, "me_voted": False}]
                assert http.patch(f"/channels/{dm}/messages/{message['id']}",
                                  json={"content": "x"}).json()["code"] == 520003
                ended = http.post(f"/channels/{dm}/polls/{message['id']}/expire").json()
                assert ended["poll"]["results"]["is_finalized"] is True
                history = http.get(f"/channels/{dm}/messages").json()
                assert [m["type"] for m in history] == [46, 0]
                assert history[0]["message_reference"] == {"type": 0, "channel_id": dm, "message_id": message["id"]}
                return dm, message

        dm, message = await asyncio.to_thread(run)
        added = (await dm_session.dispatch("MESSAGE_POLL_VOTE_ADD"))["d"]
        assert added == {"user_id": str(ALICE), "channel_id": dm, "message_id": message["id"], "answer_id": 3}
        await guild_session.no_dispatch("MESSAGE_POLL_VOTE_ADD")
        assert (await dm_session.dispatch("MESSAGE_UPDATE"))["d"]["poll"]["results"]["is_finalized"] is True
        result = (await dm_session.dispatch("MESSAGE_CREATE"))["d"]
        while result["type"] != 46:
            result = (await dm_session.dispatch("MESSAGE_CREATE"))["d"]
        fields = {f["name"]: f["value"] for f in result["embeds"][0]["fields"]}
        assert fields["victor_answer_text"] == "Inferno" and fields["total_votes"] == "1"
        for client in (dm_session, guild_session):
            await client.close()

    asyncio.run(scenario())
